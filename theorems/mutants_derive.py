"""Seeded faults of ``derive map`` (:mod:`symbolic.graph.conversion` and its fitting and attainment
modules), beside the two in :mod:`theorems.mutants`: one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

MAP = "test:tests/test_derive_map.py::"
# -- fitting a closed form to the estimates
_E("symbolic.graph.conversion_fit:as_rational",
   "if err <= ROUND_TOL * max(1.0, abs(x)) and err <= 1 / (1000 * r.denominator ** 2):",
   "if err <= ROUND_TOL * max(1.0, abs(x)):", "map.rational-too-loose",
   "a float is read as a rational of large denominator that merely lies near it (π as 355/113)",
   MAP + "test_fit_and_rounding_are_exact")
_E("symbolic.graph.conversion_fit:recognise", "return (f if k == 1 else sp.root(f, k)), pts", "return f, pts",
   "map.root-dropped", "a formula fitted to squared estimates is reported without its square root",
   MAP + "test_fit_and_rounding_are_exact")
# -- attainment: exact tables only, re-verified from their text
_E("symbolic.graph.conversion_attain:reverify",
   "            and level_is_exactly(b_notion, name, spec, t, fixed, f0) == \"exact\")", "            )",
   "map.reverify-skips-level", "the attaining table read back is not checked to attain the value",
   MAP + "test_tight_needs_an_exact_attaining_table_read_back_from_its_text")
_E("symbolic.graph.conversion_attain:level_bracket", "lo, hi = (mid, hi) if got is False else (lo, mid)",
   "lo, hi = (lo, mid) if got is False else (mid, hi)", "map.bracket-inverted",
   "the near-attaining gap is bisected the wrong way (the reported gap is not where B fails)",
   MAP + "test_a_table_only_within_one_percent_is_near_attaining_not_tight")
_E("symbolic.graph.conversion:MapDerivation.tight",
   'self.formula == sp.oo or (att.get("level") == "exact" and att.get("reverified") is True))',
   'self.formula == sp.oo or att.get("level") is not None)', "map.tight-without-exact-table",
   "a formula is called tight on a table that is only near-attaining or not re-verified",
   MAP + "test_tight_needs_an_exact_attaining_table_read_back_from_its_text")
