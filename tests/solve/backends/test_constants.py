"""Transcendental constants and relaxed exp/log terms in the solver's queries (symbolic.solve.backends.constants):
certified enclosures that contain the true value, one variable per constant, Taylor relaxations that every
true value satisfies, and the refinement loop's count and its honest unknown."""
import pytest
import sympy as sp
import z3

from symbolic.core.certified import enclose, is_less
from symbolic.core.errors import Transcendental
from symbolic.core.verdicts import Counterexample, Proved, Refuted, Sizes, Unknown
from symbolic.solve.backends import constants
from symbolic.solve.backends.constants import (ORDERS, REFINEMENTS, START_BITS, enclose_constant,
                                               relaxation_order, with_refinement)
from symbolic.solve.backends.z3_ops import Z3Ops, to_z3

E, eps = sp.symbols("E eps")


def _unsat(ops, *claims):
    s = z3.Solver()
    s.add(ops.side)
    s.add(list(claims))
    return s.check() == z3.unsat


@pytest.mark.parametrize("value", [sp.log(3), sp.exp(sp.Rational(6, 40)), sp.pi, 2 ** sp.Rational(1, 3),
                                   -sp.log(sp.Rational(7, 5)), sp.exp(-50)])
def test_an_enclosure_contains_the_true_value_and_is_narrow(value):
    box = enclose_constant(value)
    assert is_less(box.lower, value) and is_less(value, box.upper)
    assert box.upper - box.lower < abs(enclose(value).lower()) * sp.Rational(1, 2 ** START_BITS)
    assert box.bits == START_BITS


def test_the_same_constant_is_one_variable_so_a_tight_identity_is_proved():
    ops = Z3Ops()
    env = {"E": z3.RealVal(3)}
    a = to_z3(sp.log(E), env, ops)                    # log(E) at E = 3
    b = to_z3(sp.log(3), {}, ops)                     # the number log(3) written out
    assert a.eq(b) and len(ops.side) == 1
    ratio = to_z3(sp.log(E) / sp.log(3), env, ops)    # sympy keeps log(E)/log(3) as it is: 1 at E = 3
    assert _unsat(ops, ratio != 1)
    assert not _unsat(ops, a > sp.Rational(10986, 10000), a < sp.Rational(10987, 10000))
    assert _unsat(ops, a <= sp.Rational(10986, 10000))     # log 3 > 1.0986, for every value in the enclosure


def test_a_constant_sympy_finds_rational_or_algebraic_is_exact():
    ops = Z3Ops()
    assert z3.simplify(to_z3(sp.log(E), {"E": z3.RealVal(1)}, ops)) == 0
    assert not ops.constants and not ops.side
    r = to_z3(sp.exp(sp.log(E) / 2), {"E": z3.RealVal(2)}, ops)   # √2, the square root's own side constraint
    assert not ops.constants and _unsat(ops, r * r != 2)


def test_a_constant_that_is_not_a_finite_real_number_is_refused_with_the_reason():
    for expr in (sp.log(E - 4), sp.log(E - 3)):      # log(−1) is complex, log(0) infinite
        with pytest.raises(Transcendental, match="cannot be enclosed"):
            to_z3(expr, {"E": z3.RealVal(3)}, Z3Ops())


def test_a_ranging_parameter_under_a_function_the_solver_cannot_relax_says_which():
    with pytest.raises(Transcendental, match="atan of eps, which is not a number here"):
        to_z3(sp.atan(eps), {"eps": z3.Real("eps")}, Z3Ops())


@pytest.mark.parametrize("level", range(REFINEMENTS + 1))
@pytest.mark.parametrize("function, points", [
    ("exp", [-30, sp.Rational(-3, 2), 0, sp.Rational(1, 7), sp.Rational(9, 4), 12]),
    ("log", [sp.Rational(1, 1000), sp.Rational(1, 3), 1, sp.Rational(5, 2), 40, 10 ** 6])])
def test_every_true_value_meets_the_relaxation(function, points, level):
    token = constants._LEVEL.set(level)
    try:
        assert relaxation_order() == ORDERS[level] and ORDERS[level] % 2 == 1
        for v in map(sp.Rational, points):
            ops = Z3Ops()
            x = z3.Real("x")
            t = to_z3(getattr(sp, function)(eps), {"eps": x}, ops)
            true = getattr(sp, function)(v)
            lo, hi = (true, true) if true.is_Rational else (enclose_constant(true, 200).lower,
                                                            enclose_constant(true, 200).upper)
            s = z3.Solver()
            s.add(ops.side)
            s.add(x == z3.RealVal(f"{v.p}/{v.q}"), t >= z3.RealVal(f"{lo.p}/{lo.q}"), t <= z3.RealVal(f"{hi.p}/{hi.q}"))
            assert s.check() == z3.sat, (function, level, v)
    finally:
        constants._LEVEL.reset(token)


def test_a_relaxation_proves_what_holds_between_its_bounds():
    ops = Z3Ops()
    x = z3.Real("eps")
    t = to_z3(sp.exp(6 * eps), {"eps": x}, ops)
    assert _unsat(ops, x >= 0, x <= sp.Rational(9, 40), t < 1 + 6 * x)       # e^u ≥ 1 + u
    assert _unsat(ops, x >= 0, x <= sp.Rational(1, 10), t > 2)               # e^(0.6) < 2 from the mirror bound
    assert not _unsat(ops, x == sp.Rational(1, 10), t > sp.Rational(1822, 1000))   # e^0.6 ≈ 1.8221: not excluded


def _cx():
    return Counterexample(Sizes(1, 2, 2), {}, {}, {}, "x", "A ⇒ B")


def test_refinement_narrows_the_enclosures_a_counted_number_of_times_then_says_unknown():
    seen = []

    def run():
        seen.append(enclose_constant(sp.log(3)).bits)
        return Refuted(_cx(), False, True)
    v = with_refinement(run)
    assert seen == [START_BITS << k for k in range(REFINEMENTS + 1)]
    assert isinstance(v, Unknown) and f"after {REFINEMENTS} refinements" in v.reason and "log(3)" in v.reason


def test_refinement_stops_at_the_first_definite_verdict_and_names_the_constants():
    runs = []

    def run():
        runs.append(enclose_constant(sp.log(3)).bits)
        if len(runs) == 1:
            return Refuted(_cx(), False, True)
        return Proved(Sizes(1, 2, 2), (), {"method": "negated claim unsatisfiable at every size"})
    v = with_refinement(run)
    assert runs == [START_BITS, 2 * START_BITS]
    assert isinstance(v, Proved) and "log(3)" in v.certificate["constants"]
    assert f"2^-{2 * START_BITS}" in v.certificate["method"]


def test_a_run_without_constants_is_returned_as_it_is():
    v = Refuted(_cx(), False, True)
    assert with_refinement(lambda: v) is v


def test_the_unknown_of_a_counterexample_rejected_at_an_irrational_parameter_is_refined_too():
    runs = []

    def run():
        runs.append(enclose_constant(sp.log(3)).bits)
        return Unknown("transcendental: the solver's counterexample at n=1 lies in the rational enclosure of E = e "
                       "but fails exact re-verification at E = e itself")
    v = with_refinement(run)
    assert len(runs) == REFINEMENTS + 1 and isinstance(v, Unknown) and "refinements" in v.reason
    other = Unknown("effort limit")
    assert with_refinement(lambda: (enclose_constant(sp.log(3)), other)[1]).reason.startswith("effort limit; ")
