"""Routes: deciders of one claim part at one size that the plain query finds hard, behind one interface
(:mod:`symbolic.solve.routes.route`): a route takes an ``Encoding`` and answers ``sat`` with exact tables
(re-verified), ``unsat`` with the queries its proof rests on (obligations for the second solver), or
``unknown``, and its docstring states and proves the lemma that makes its ``unsat`` a proof. The
search (:mod:`symbolic.solve.search`) lists them in its declared table. Imports ``solve.backends`` and
``solve.queries``."""
