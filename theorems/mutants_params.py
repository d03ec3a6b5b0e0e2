"""Seeded faults of parameters fixed at exact values and the ε vocabulary: one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

VALUES = "test:tests/test_param_values.py::"

_E("symbolic.solve.solver:extract",
   'params = {p.name: (p.value if getattr(p, "value", None) is not None else ev(enc.penv[p.name])) for p in enc.params}',
   "params = {p.name: ev(enc.penv[p.name]) for p in enc.params}",
   "values.enclosure-value-kept", "a counterexample keeps the solver's value from the enclosure, not the fixed value",
   VALUES + "test_refuted_at_an_irrational_value_with_the_exact_value_in_the_counterexample")
_E("symbolic.solve.search:_check_grid", "if not ok and irrational_values(params):", "if False:",
   "values.unverified-enclosure-refutation", "a counterexample that holds only inside the enclosure is reported "
   "(unverified) instead of unknown", VALUES + "test_a_counterexample_only_inside_the_enclosure_is_unknown_never_refuted")
_E("symbolic.solve.narrowing:within_narrowed_ranges", "        if wrong:\n", "        if False:\n",
   "values.chain-out-of-range", "a proof chain's counterexample outside the fixed value refutes the narrowed claim",
   VALUES + "test_a_chain_counterexample_outside_the_fixed_value_is_unknown")
_E("symbolic.notions.vocabulary:resolve_values", "v = sp.exp(v)", "v = v",
   "values.eps-read-as-E", "eps=v is read as E = v instead of E = e^v", VALUES + "test_eps_is_read_as_e_to_the_eps")
