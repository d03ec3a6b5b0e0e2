"""The seeded faults of the self-test, one module per engine layer they attack: ``core`` (exact numbers,
tables, terms, models), ``notions`` (the notions' bodies), ``backends`` (z3 operations, effort limits,
cvc5, the second opinion), ``queries`` (encoding, the one-query solver, exact re-verification),
``routes`` (the routes that decide one size), ``search`` (sizes, CEGIS, minimisation, proof chains),
``derive`` (closed forms and the sources' derivations), ``graph`` (the implication graph and
``derive map``), ``records`` (an earlier run's records read back), ``user_code`` (the limits on a user's
own notion). Each fault is one engine edit, named with the detectors expected to catch it; how
they are put in is :mod:`theorems.selftest.mutation`. Importing this package registers them all in
:data:`MUTANTS`, in this order."""
from __future__ import annotations

from theorems.selftest.mutation import (C, EDITS, MUTANTS, PROOFS, T, TRUST, MissingTarget, Mutant, _resolve,  # noqa: F401
                                        edit, install, mutant, wrap)
from theorems.selftest.faults import (core, notions, backends, queries, routes, search, derive,  # noqa: F401
                                      graph, records, user_code)
