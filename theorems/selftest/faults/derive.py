"""Seeded faults of closed forms (suprema, the sources' derivations): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import T, TRUST, _E



# -- closed forms ------------------------------------------------------------------------------------------
_E("theorems.saeidian_pml_closed_forms:per_p_leakage", "P <= s.cut", "P <= sp.Rational(1, 3)",
   "closed.rr-pml-branch-point", "rr_pml's branch point moved from derive_level's p ≤ 1/2 to p ≤ 1/3",
   TRUST + "test_rr_pml_between_the_branch_points")


_E("symbolic.derive.closed_forms:laplace_shift_loss", "sup = sp.simplify(sp.Max(*sups))", "sup = sp.simplify(2 * sp.Max(*sups))",
   "closed.laplace-loss-constant", "the Laplace shift loss is derived as 2Δ/b (a wrong constant)",
   T + "symbolic/derive/closed_forms.py::symbolic.derive.closed_forms.laplace_shift_loss")


_E("theorems.lecture_derivations:laplace_k_releases_scale", "b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]",
   "b_k = sp.solve(sp.Eq(loss, EPS / (K + 1)), B)[0]",
   "closed.k-releases-constant", "L-1.4: k releases derived with ε/(k+1) each", T + "tests/derive/test_closed_forms.py::test_k_releases_scale")


_E("theorems.lecture_derivations:histogram_laplace_scales", "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])",
   "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1 - 1)])",
   "closed.histogram-l1-off-by-one", "L-1.5: the joint release counts one coordinate too few",
   T + "tests/derive/test_closed_forms.py::test_histogram_scales_by_enumeration")


_E("theorems.saeidian_pml_closed_forms:_entry_sup", "P <= sp.Rational(1, 2)", "P <= sp.Rational(1, 3)",
   "closed.entry-sup-branch-point", "the per-p supremum of S-PROP12 switches branch at p = 1/3",
   TRUST + "test_prop12_per_p_between_the_branch_points")


_E("theorems.saeidian_pml_derivations:chernoff_threshold_leakage", "bound = -sp.log(1 - sp.exp(-N * kl))",
   "bound = -sp.log(1 - sp.exp(-2 * N * kl))",
   "closed.chernoff-constant", "S-EX33's Chernoff bound derived with e^{-2n KL} (a wrong constant)",
   T + "tests/theorems/test_theorems_s.py::test_chernoff_bound_dominates")
