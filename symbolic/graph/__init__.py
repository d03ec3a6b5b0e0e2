"""The implication graph: for ordered pairs of listed notions, the strongest relation the engine
establishes at given sizes (a proved implication with its parameter map, an exactly re-verified
separation, or an honest unknown), the Hasse diagram of the proved edges, parallel sweeps and a
result cache."""
