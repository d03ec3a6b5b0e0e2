"""Seeded faults of parameters fixed at exact values and the ε vocabulary: one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

VALUES = "test:tests/test_param_values.py::"

_E("symbolic.solve.solver:assignment",
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

QUOTIENT = "test:tests/test_quotient.py::"
_E("symbolic.solve.quotient:_rewritten", "    if r.lower is not None:\n        hyps.append",
   "    if False:\n        hyps.append", "quotient.lower-end-dropped",
   "R = q·δ without R's lower end as a condition on q·δ", QUOTIENT + "test_the_numerators_range_is_kept_as_a_hypothesis")
_E("symbolic.solve.quotient:_rewritten", "    if r.upper is not None:\n        hyps.append",
   "    if False:\n        hyps.append", "quotient.upper-end-dropped",
   "R = q·δ without R's upper end as a condition on q·δ", QUOTIENT + "test_the_numerators_range_is_kept_as_a_hypothesis")
_E("symbolic.solve.quotient:QuotientChange.original_parameters",
   "sp.expand(sp.sympify(values[self.fresh.name]) * values[self.divisor.name])", "values[self.fresh.name]",
   "quotient.mapped-back-as-q", "a counterexample's R is read as the quotient q instead of q·δ",
   QUOTIENT + "test_a_counterexample_comes_back_in_the_original_parameters_and_holds_exactly")
_E("symbolic.solve.quotient:_substitute", "expr.subs(r, q * d)", "expr.subs(r, q)", "quotient.substituted-as-q",
   "R is replaced by q instead of q·δ", QUOTIENT + "test_rewritten_arguments_equal_the_originals_and_lose_their_divisions")
