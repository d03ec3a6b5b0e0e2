"""Deciding a claim: the solve layer, in three rooms below the orchestration that lives here.

- ``backends/``: the solvers and the effort they may spend: effort accounts and levels (``effort``,
  ``settings``), a solver call bounded by counted work (``deadline``), z3 operations for the notion bodies
  (``z3_ops``), SMT-LIB text (``smt2``), cvc5 and the second opinion. Imports only the layers above
  ``solve`` (core, model, notions) and the solvers.
- ``queries/``: one claim part at one size as a query: the encoding (``encode``, the hockey-stick rewrite),
  the one-query z3 solver with CEGIS over populations (``solver``), exact re-verification of an answer
  (``verify``, ``every_belief``), SMT-LIB export. May import ``backends``.
- ``routes/``: the special deciders of one part at one size behind one interface (``route``): each
  answers sat (exact tables), unsat (with the queries the proof rests on) or unknown, and states in its
  docstring why its unsat is a proof. May import ``backends`` and ``queries``.
- here: the orchestration: ``search`` (sizes smallest first, the declared table of routes, minimisation),
  ``run`` (a claim's parts, vacuity, the second solver, exploring), ``proof`` (proof chains step by step),
  ``vacuity``, ``narrowing``. May import every room; nothing in a room imports it.

Above ``solve``: ``derive``, ``report``, ``graph`` and the API may import any of it."""
