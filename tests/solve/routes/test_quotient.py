"""The change of parameters R = q·δ (symbolic/solve/routes/quotient.py): the rewritten arguments equal the
originals at q = R/δ, R's range travels as a hypothesis, nothing is rewritten where it could meet a
parameter elsewhere, and verdicts come back in the claim's own parameters, re-verified exactly."""
import sympy as sp

from symbolic.api import Fixed, Param, PureDP, Settings, Sizes, check_implies, evaluate, randomized_response
from symbolic.notions.claims import Implies
from symbolic.notions.families.semantic import Indistinguishable, PointwiseIndistinguishable
from symbolic.solve.routes.quotient import ParameterBound, StrictParameterBound, quotient_change
from symbolic.core.verdicts import Proved, Refuted

FAST = Settings(second_solver=False)
R = Param("R", lower=1)
DELTA = Param("delta", lower=0, lower_strict=True, upper=1)
r, d = R.symbol, DELTA.symbol
IND_PW = Implies(Indistinguishable(r / d, d),
                 PointwiseIndistinguishable(r ** 2 / d ** 2, d * (r ** 2 + d ** 2) / (r * (r - d))))


def _args(imp):
    return [a for ni in list(imp.hypotheses) + [imp.conclusion] for a in ni.args]


def test_rewritten_arguments_equal_the_originals_and_lose_their_divisions():
    ch = quotient_change(IND_PW, (R, DELTA))
    assert ch is not None and (ch.numerator.name, ch.divisor.name) == ("R", "delta")
    q = ch.fresh.symbol
    old = _args(IND_PW)
    new = [a for ni in list(ch.imp.hypotheses[:-1]) + [ch.imp.conclusion] for a in ni.args]
    assert len(ch.imp.hypotheses) == 2 and len(new) == len(old)    # and R ≥ 1 as q·δ ≥ 1
    for a, b in zip(old, new):
        assert sp.simplify(sp.sympify(b).subs(q, r / d) - a) == 0
        assert not sp.fraction(sp.together(b))[1].has(d)  # no division by δ is left
    assert [sp.sympify(b) for b in new[:3]] == [q, d, q ** 2]
    bound = ch.imp.hypotheses[-1]
    assert bound.notion is ParameterBound and list(bound.args) == [1, q * d]
    assert ch.fresh.lower == 0 and ch.fresh.lower_strict and ch.fresh.upper is None


def test_open_ends_of_the_numerators_range_stay_open():
    open_r = Param("R", lower=1, lower_strict=True, upper=3, upper_strict=True)
    ch = quotient_change(Implies(PureDP(open_r.symbol / d), PureDP(3 / d)), (open_r, DELTA))
    kinds = [h.notion for h in ch.imp.hypotheses[1:]]
    assert kinds == [StrictParameterBound, StrictParameterBound]


def test_no_rewrite_without_a_division_by_a_positive_parameter_or_near_other_parameter_uses():
    assert quotient_change(Implies(PureDP(r), PureDP(2 * r)), (R,)) is None
    closed = Param("delta", lower=0, upper=1)             # δ may be 0: R = q·δ is no bijection
    assert quotient_change(Implies(PureDP(r / closed.symbol), PureDP(r)), (R, closed)) is None
    rr = Fixed(randomized_response(3))                    # a fixed mechanism term: left alone
    assert quotient_change(Implies(PureDP(r / d).of(rr), PureDP(r).of(rr)), (R, DELTA)) is None
    assert quotient_change(Implies(PureDP(r / d), PureDP(r), parameters={"delta": 1}), (R, DELTA)) is None


def test_the_divided_point_wise_constant_is_proved_at_three_outputs():
    v = check_implies(IND_PW.hypotheses, IND_PW.conclusion, params=(R, DELTA), sizes=Sizes(1, 2, 3),
                      settings=FAST).verdict
    assert isinstance(v, Proved) and v.certificate["parameters"].startswith("R = ")
    w = v.witness                                          # in the claim's own parameters, exactly
    assert set(w.parameters) == {"R", "delta"}
    A, R0, d0 = w.mechanisms["A"], w.parameters["R"], w.parameters["delta"]
    assert evaluate(Indistinguishable, A, E=R0 / d0, delta=d0)


def test_a_counterexample_comes_back_in_the_original_parameters_and_holds_exactly():
    v = check_implies(PureDP(r / d), PureDP(r), params=(R, DELTA), sizes=Sizes(1, 2, 2), settings=FAST).verdict
    assert isinstance(v, Refuted) and v.verified_exactly and "parameters changed" in v.note
    cx = v.counterexample
    R0, d0, A = cx.parameters["R"], cx.parameters["delta"], cx.mechanisms["A"]
    assert R0 >= 1 and 0 < d0 <= 1
    assert evaluate(PureDP, A, E=R0 / d0) and not evaluate(PureDP, A, E=R0)


def test_the_numerators_range_is_kept_as_a_hypothesis():
    """Each claim is true only because of one end of R's range; without that end as a condition on
    q·δ the rewritten claim would have counterexamples outside the range."""
    below = check_implies(PureDP(1 / d), PureDP(r / d), params=(R, DELTA), sizes=Sizes(1, 2, 2), settings=FAST)
    assert isinstance(below.verdict, Proved)                       # R ≥ 1
    capped = Param("R", lower=1, upper=2)
    above = check_implies(PureDP(capped.symbol / d), PureDP(2 / d), params=(capped, DELTA), sizes=Sizes(1, 2, 2),
                          settings=FAST)
    assert isinstance(above.verdict, Proved)                       # R ≤ 2
    wider = check_implies(PureDP(capped.symbol / d), PureDP(1 / d), params=(capped, DELTA), sizes=Sizes(1, 2, 2),
                          settings=FAST).verdict
    assert isinstance(wider, Refuted) and wider.verified_exactly   # R ∈ (1, 2] breaks it
    assert 1 < wider.counterexample.parameters["R"] <= 2
