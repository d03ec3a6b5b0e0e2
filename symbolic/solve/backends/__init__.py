"""The solvers and the effort they spend: effort accounts and levels, a solver call bounded by a count of
solver steps and processor time (the wall clock only as a safety net), the z3 reading of the notion
bodies' operations, SMT-LIB text, the cvc5 backend and the second opinion. The only room of dpcheck
that starts a solver process; it imports core, model and notions, and nothing else of ``solve``."""
