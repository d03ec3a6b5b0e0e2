"""The toolbox claims: amplification by subsampling proved and its q² variants refuted with exact witnesses,
the optimal and advanced composition numbers, each from the engine (test_catalogue checks every verdict)."""
from dataclasses import replace
from fractions import Fraction

import sympy as sp

from symbolic.core.ops import ExactOps
from symbolic.core.terms import Fixed, PoissonSubsample
from symbolic.core.verdicts import Refuted
from symbolic.model.mechanism import Mechanism
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from theorems import toolbox
from theorems.registry import claims

Z3_ONLY = replace(Settings(), second_solver=False)


def test_the_q_squared_witness_breaks_the_stated_bound_when_recomputed_by_hand():
    res = check_claim(claims()["B-AMP.q2"], Z3_ONLY)
    assert isinstance(res.verdict, Refuted) and res.verdict.verified_exactly
    cx = res.verdict.counterexample
    table, E, q = cx.mechanisms["A"], Fraction(str(cx.parameters["E"])), Fraction(str(cx.parameters["q"]))
    rows = {d: [Fraction(str(v)) for v in r] for d, r in table.rows.items()}
    absent, present = sorted(rows)
    mix = [(1 - q) * a + q * b for a, b in zip(rows[absent], rows[present])]
    assert max(a / b for a, b in zip(rows[absent], rows[present]) if b) <= E        # the hypothesis holds
    worst = max(max(a / b, b / a) for a, b in zip(rows[absent], mix) if a and b)
    assert 1 + q * q * (E - 1) < worst <= 1 + q * (E - 1)                            # q² fails, q holds


def test_the_subsampling_term_is_the_mixture_with_the_absent_row():
    m = Mechanism.from_table({(0,): ["1/2", "1/2"], (1,): ["1/4", "3/4"]}, n=1, domain=(0, 1), outputs=(0, 1))
    t = PoissonSubsample(Fixed(m), sp.Rational(1, 2)).eval(ExactOps(), {})
    assert t.rows[(0,)] == (sp.Rational(1, 2), sp.Rational(1, 2)) and t.rows[(1,)] == (sp.Rational(3, 8), sp.Rational(5, 8))


def test_advanced_composition_is_valid_and_its_halved_form_fails():
    drv = toolbox.advanced_epsilon(100, sp.Rational(1, 100), sp.Rational(1, 10 ** 5))
    assert abs(float(drv) - 0.489902758302976) < 1e-12
    d = claims()["B-DRV.100"].derive()
    lo, hi = d.extras["tight_epsilon"]
    assert all(ok for _, ok in d.checks) and lo <= sp.Rational("0.337173920729573") <= hi + sp.Rational(1, 10 ** 9)
    half = claims()["B-DRV.half"].derive()
    assert all(ok for _, ok in half.checks) and half.extras["delta_at_halved"][0] > sp.Rational(1, 10 ** 5)


def test_the_optimal_composition_sum_counts_only_the_outputs_above_e_prime():
    """Two runs at ε = 1, ε′ = 1: only i = 0 (both outputs favour d, loss 2) is in the sum."""
    e = sp.E
    want = (e ** 2 - e) / (1 + e) ** 2
    assert sp.simplify(toolbox._kov_sum(2, sp.Integer(1), sp.Integer(1)) - want) == 0


def test_the_order_witness_of_sampling_without_replacement_is_rechecked_by_hand():
    """Two of three records in their order: the witness is ε-DP on pairs of records, and its sampled table
    breaks the (2/3) constant; recomputed here from the definition in fractions."""
    from itertools import combinations, product
    res = check_claim(claims()["B-WOR.order"], Z3_ONLY)
    assert isinstance(res.verdict, Refuted) and res.verdict.verified_exactly
    cx = res.verdict.counterexample
    A = {d: [Fraction(str(v)) for v in r] for d, r in cx.mechanisms["A"].rows.items()}
    E = Fraction(str(cx.parameters["E"]))
    near = lambda d, e: sum(x != y for x, y in zip(d, e)) == 1
    assert all(a <= E * b for d in A for e in A if near(d, e) for a, b in zip(A[d], A[e]))
    sampled = {d: [sum(A[tuple(d[i] for i in s)][o] for s in combinations(range(3), 2)) / 3 for o in range(2)]
               for d in product((0, 1), repeat=3)}
    bound = 1 + 2 * (E - 1) / 3
    assert any(a > bound * b for d in sampled for e in sampled if near(d, e) for a, b in zip(sampled[d], sampled[e]))


def test_passed_as_a_set_the_two_of_three_constant_holds_and_the_order_witness_is_within_it():
    """B-WOR.set is proved; the witness that breaks the constant in order meets it once the records are sorted
    (recomputed here in fractions), and the half-rate witness breaks the half constant as a set."""
    from itertools import combinations, product
    assert check_claim(claims()["B-WOR.set"], Z3_ONLY).verdict.name == "proved"
    near = lambda d, e: sum(x != y for x, y in zip(d, e)) == 1

    def sampled(A):
        return {d: [sum(A[tuple(sorted(d[i] for i in s))][o] for s in combinations(range(3), 2)) / 3 for o in range(2)]
                for d in product((0, 1), repeat=3)}

    for cid, rate, broken in (("B-WOR.order", Fraction(2, 3), False), ("B-WOR.set.half", Fraction(1, 2), True)):
        cx = check_claim(claims()[cid], Z3_ONLY).verdict.counterexample
        A = {d: [Fraction(str(v)) for v in r] for d, r in cx.mechanisms["A"].rows.items()}
        E = Fraction(str(cx.parameters["E"]))
        rows = sampled(A)
        bound = 1 + rate * (E - 1)
        over = any(a > bound * b for d in rows for e in rows if near(d, e) for a, b in zip(rows[d], rows[e]))
        assert over == broken, cid
