"""Parameter maps that divide by a parameter (E = R/δ): the claim is rewritten with R = q·δ where
that removes divisions (symbolic/solve/routes/quotient.py) and the encoding multiplies the remaining
divisions of proved sign out of every comparison, so the written-with-a-division and the
multiplied-out forms of a claim get the same verdict; a divisor that may vanish in range stays a
guarded division."""
import pytest
import sympy as sp
import z3

from symbolic.api import ApproxDP, Param, PureDP, Settings, Sizes, check_implies
from symbolic.notions.claims import Implies
from symbolic.notions.families.semantic import Indistinguishable, PointwiseIndistinguishable
from symbolic.solve.queries.encode import Encoding
from symbolic.core.verdicts import Proved, Refuted

FAST = Settings(second_solver=False)
R, E = Param("R", lower=1), Param("E", lower=1)
DELTA = Param("delta", lower=0, lower_strict=True, upper=1)
r, e, d = R.symbol, E.symbol, DELTA.symbol

# (sizes, holds, division form, multiplied form): E = R/δ in one, R = E·δ in the other
PAIRS = [
    (Sizes(1, 2, 2), True, (PureDP(r), PureDP(r / d), (R, DELTA)), (PureDP(e * d), PureDP(e), (E, DELTA))),
    (Sizes(1, 2, 2), False, (PureDP(r / d), PureDP(r), (R, DELTA)), (PureDP(e), PureDP(e * d), (E, DELTA))),
    (Sizes(1, 2, 2), False, (PureDP(r / d), ApproxDP(r, (1 - d) / 2), (R, DELTA)),
     (PureDP(e), ApproxDP(e * d, (1 - d) / 2), (E, DELTA))),
    (Sizes(1, 2, 2), True, (ApproxDP(e, d), ApproxDP(e * d * (1 + 1 / d), d), (E, DELTA)),
     (ApproxDP(e, d), ApproxDP(e * (1 + d), d), (E, DELTA))),
    # Kasiviswanathan–Smith's point-wise constant δ(E²+1)/(E(E-1)) with E = R/δ: unknown before
    pytest.param(Sizes(1, 2, 3), True,
     (Indistinguishable(r / d, d), PointwiseIndistinguishable(r ** 2 / d ** 2, d * (r ** 2 + d ** 2) / (r * (r - d))),
      (R, DELTA)),
     (Indistinguishable(e, d), PointwiseIndistinguishable(e ** 2, d * (e ** 2 + 1) / (e * (e - 1))), (E, DELTA)),
     marks=pytest.mark.slow),   # 5.6 s; bench/frontier.py's "division" rows time it
]


def _verdict(hyp, concl, params, sizes):
    return check_implies(hyp, concl, params=params, sizes=sizes, settings=FAST).verdict


@pytest.mark.parametrize("sizes, holds, div, mul", PAIRS)
def test_division_and_multiplied_forms_get_the_same_verdict(sizes, holds, div, mul):
    vd, vm = _verdict(*div, sizes), _verdict(*mul, sizes)
    want = Proved if holds else Refuted
    assert isinstance(vd, want) and isinstance(vm, want), (div, vd, mul, vm)
    if not holds:
        assert vd.verified_exactly and vm.verified_exactly


def _encoding(hyp, concl, params):
    return Encoding(Implies(hyp, concl), params, Sizes(1, 2, 2), {})


def _has_division(t):
    todo = [t]
    while todo:
        u = todo.pop()
        if z3.is_div(u):
            return True
        todo.extend(u.children())
    return False


def test_divisions_of_proved_sign_are_multiplied_out():
    enc = _encoding(PureDP(r), PureDP(r / (d * (1 + d))), (R, DELTA))
    assert len(enc.ops.signs) == 2          # δ and 1 + δ: both positive on 0 < δ ≤ 1
    assert not _has_division(enc.concl)
    neg = Param("x", lower=-2, upper=-1)
    enc = _encoding(PureDP(r), PureDP(r * neg.symbol / (neg.symbol - 1)), (R, neg))
    assert len(enc.ops.signs) == 1 and not _has_division(enc.concl)   # x - 1 < 0: the comparison flips back


def test_divisor_that_may_vanish_in_range_stays_guarded():
    """δ ∈ [0, 1]: R/δ is undefined at δ = 0; x ∈ [-1, 1]: x changes sign. The claims hold wherever
    their expressions are defined and must not be refuted at the pole."""
    closed = Param("delta", lower=0, upper=1)
    assert isinstance(_verdict(PureDP(r), PureDP(r / closed.symbol), (R, closed), Sizes(1, 2, 2)), Proved)
    x = Param("x", lower=-1, upper=1)
    wide = (x.symbol ** 3 + x.symbol) / x.symbol          # = x² + 1 where x ≠ 0
    enc = _encoding(PureDP(x.symbol ** 2 + 1), PureDP(wide), (x,))
    assert not enc.ops.signs and _has_division(enc.concl)   # sign unknown: the division stays, guarded
    assert any(z3.is_distinct(c) or z3.is_not(c) for c in enc.base)
    assert isinstance(_verdict(PureDP(x.symbol ** 2 + 1), PureDP(wide), (x,), Sizes(1, 2, 2)), Proved)
    # and a false claim through the guarded division is refuted away from the pole: x² + 1 < x² + 3/2
    v = _verdict(PureDP(x.symbol ** 2 + sp.Rational(3, 2)), PureDP(wide), (x,), Sizes(1, 2, 2))
    assert isinstance(v, Refuted) and v.verified_exactly and v.counterexample.parameters["x"] != 0


def test_open_ranges_reach_the_solver_as_strict_bounds():
    open_ = Param("delta", lower=0, lower_strict=True, upper=1, upper_strict=True)
    assert open_.range_text() == "0 < delta < 1" and not open_.contains(0) and not open_.contains(1)
    enc = _encoding(PureDP(r), PureDP(r), (R, open_))
    dv = z3.Real("delta")
    for edge in (0, 1):
        s = z3.Solver()
        s.add(enc.base + [dv == edge])
        assert s.check() == z3.unsat
    s = z3.Solver()
    s.add(enc.base + [dv == sp.Rational(1, 2).p / 2])
    assert s.check() == z3.sat
    # 1 - δ and δ are positive on the open range without any guard: multiplied out, proved
    enc = _encoding(PureDP(r), PureDP(r / (open_.symbol * (1 - open_.symbol))), (R, open_))
    assert len(enc.ops.signs) == 2 and not _has_division(enc.concl)
    assert isinstance(_verdict(PureDP(r), PureDP(r / (open_.symbol * (1 - open_.symbol))), (R, open_),
                               Sizes(1, 2, 2)), Proved)
