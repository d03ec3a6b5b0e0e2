"""Seeded faults of the exact core and the models (numbers, tables, terms, one-pass evaluation, populations, mechanisms): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import C, T, TRUST, _E, install, mutant

# the exact decision over every belief at a fixed table, and the exact maximum it rests on
EVERY = "test:tests/solve/test_every_belief.py::"
FAST = "test:tests/core/test_fast_exact.py::"


_E("symbolic.core.quadratic:stationary_points", "for size in range(1, k + 1)", "for size in range(1, k)",
   "quadratic.full-support-missed", "the stationary point with every b_x > 0 (an interior maximum) is never tried",
   EVERY + "test_the_maximum_of_a_quadratic_over_a_polytope_is_exact")


_E("symbolic.core.quadratic:simplex_bound", "c * math.prod(math.factorial(a) for a in alpha) / total",
   "c / total", "quadratic.bound-without-multinomials",
   "the bound divides every coefficient by D! instead of its multinomial coefficient (too small a bound)",
   EVERY + "test_the_bound_without_solving_is_never_below_the_maximum_and_tightens")


_E("symbolic.core.certified:_dyadic",
   "(tiny if man > 0 else sp.Integer(0)) if direction > 0 else (sp.Integer(0) if man > 0 else -tiny)",
   "(sp.Integer(0) if man > 0 else -tiny) if direction > 0 else (tiny if man > 0 else sp.Integer(0))",
   "certified.tiny-end-rounded-inward", "a tiny midpoint is rounded toward the inside: the ends read miss the value",
   T + "tests/core/test_outward_ends.py::test_a_tiny_value_is_read_within_two_units_of_the_smallest_magnitude_kept",
   T + "tests/core/test_outward_ends.py::test_the_ends_read_enclose_the_value")


# -- ops: the two number types ---------------------------------------------------------------------------
_E("symbolic.core.ops:ExactOps.le", "lambda s: s >= 0", "lambda s: s > 0",
   "ops.exact-le-strict", "exact ≤ evaluated as <", T + "tests/notions/test_notions.py::test_rr_is_exactly_log3_dp")


_E("symbolic.core.ops:ExactOps.lt", "lambda s: s > 0", "lambda s: s >= 0",
   "ops.exact-lt-nonstrict", "exact < evaluated as ≤", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.core.ops:ExactOps.eq", "lambda s: s == 0", "lambda s: s >= 0",
   "ops.exact-eq-as-ge", "exact = evaluated as ≥", TRUST + "test_exact_and_solver_evaluation_agree")


@mutant("ops.exact-sign-float-tolerance", "exact_sign compares in floats with a 1e-9 tolerance",
        TRUST + "test_exact_sign_near_misses")
def _float_sign():
    def exact_sign(x):
        import sympy as sp
        from symbolic.core.ops import UndecidedComparison
        x = sp.sympify(x)
        if x.free_symbols:
            raise UndecidedComparison(f"cannot decide the sign of {x}")
        v = float(sp.N(x, 30))
        return 0 if abs(v) <= 1e-9 else (1 if v > 0 else -1)
    install("symbolic.core.ops:exact_sign", exact_sign)


_E("symbolic.core.ops:ExactOps.max0", "return x if exact_sign(x) > 0 else sp.Integer(0)", "return x",
   "ops.exact-max0-identity", "exact max(0, x) returns x", TRUST + "test_exact_and_solver_evaluation_agree")


# -- tables and populations: neighbours, marginals ---------------------------------------------------------
_E("symbolic.core.tables:MechTable.neighbours", "for i in range(self.n):", "for i in range(self.n - 1):",
   "tables.neighbours-skip-last-index", "off-by-one neighbour relation: the last data point is never replaced",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")


_E("symbolic.core.tables:MechTable.neighbours", "if v != d[i]:", "if v > d[i]:",
   "tables.neighbours-one-direction", "neighbours only in one direction (d_i replaced by larger values only)",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")


_E("symbolic.core.tables:PopTable.marginal", "if d[i] == v", "if d[i] != v",
   "tables.marginal-complement", "Pr[D_i = v] computed as Pr[D_i ≠ v]", TRUST + "test_population_marginals")


_E("symbolic.model.population:product", "for m, v in zip(marginals, d)", "for m, v in zip(marginals, reversed(d))",
   "population.product-misaligned", "product population pairs the marginals with the data points in reverse",
   TRUST + "test_population_marginals")


_E("symbolic.model.causal:SEM.do", "done.update(assignment)", "pass",
   "causal.do-ignored", "do(...) ignores the intervention", T + "tests/model/test_causal.py")


# -- mechanisms and constructions ------------------------------------------------------------------------
_E("symbolic.model.mechanism:truncated_geometric", "a = 1 / E", "a = 1 / E ** 2",
   "mechanism.geometric-constant", "truncated geometric mechanism built with α = e^{-2ε} (a wrong constant)",
   T + "tests/notions/test_notions.py::test_truncated_geometric_epsilon")


_E("symbolic.core.terms:Compose.eval", "a1.p(d, o1) * fam[o1].p(d, o2)", "a1.p(d, o1) * fam[a1.outputs[0]].p(d, o2)",
   "terms.compose-not-adaptive", "adaptive composition ignores the first stage's output",
   TRUST + "test_adaptive_composition_uses_the_first_output")


_E("symbolic.core.fast_exact:pure_dp_checks", "map(gt, qa[sx], pb[sy])", "map(operator.ge, qa[sx], pb[sy])",
   "fast.pure-dp-tie", "the one-pass ε-DP reading flags a ratio equal to E (≥ for >)",
   FAST + "test_counting_table_ties")


_E("symbolic.core.fast_exact:first_bad_pair", "for i in range(view.n):", "for i in range(view.n - 1):",
   "fast.last-index-skipped", "the one-pass reading never replaces the last record",
   FAST + "test_fast_agrees_with_sympy_body")


_E("symbolic.core.intervals:nonnegative_from_zero", "ok, cells = _taylor_cover(runs, lo + d, hi, max_cells=max_cells, bits=bits)",
   "ok, cells = _taylor_cover(runs, lo + 2 * d, hi, max_cells=max_cells, bits=bits)", "taylor.gap-after-step",
   "the covering after the certified Taylor step starts past the end of the step's interval",
   T + "tests/core/test_taylor_cover.py::test_the_taylor_step_and_the_covering_after_it_leave_no_gap")
_E("symbolic.core.intervals:_halving_cover", "stack += [((a + b) / 2, b), (a, (a + b) / 2)]",
   "stack += [((a + b) / 2, b), (a, (2 * a + b) / 3)]", "cover.halving-gap",
   "a covering halves a cell into two that leave a gap between them",
   T + "tests/core/test_taylor_cover.py::test_the_taylor_step_and_the_covering_after_it_leave_no_gap")
