"""Certified interval arithmetic (symbolic.core.certified) and exact_sign on transcendental numbers.

Every definite answer must be right; where the precision cannot separate two values (equal values,
or values closer than the cap), the answer is None / UndecidedComparison, never a guess."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.core.errors import DPCheckError, FloatNotAllowed
from symbolic.core.ops import ExactOps, UndecidedComparison, exact_sign

R = sp.Rational


def _truncated(x, digits):
    """x rounded down to ``digits`` decimals, as an exact rational (x − 10^-digits < t ≤ x)."""
    return R(int(sp.floor(sp.N(x, digits + 30) * 10 ** digits)), 10 ** digits)


# --- known inequalities ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, less", [
    (sp.log(2), R(7, 10), True),
    (sp.E, R(2718, 1000), False),
    (sp.pi, R(355, 113), True),               # 355/113 − π ≈ 2.7e-7
    (R(333, 106), sp.pi, True),
    (sp.exp(sp.pi), sp.pi ** sp.E, False),    # e^π > π^e
    (sp.sqrt(2), R(141421356, 10 ** 8), False),
    (sp.log(3) ** 2 / 2, R(6, 10), False),    # ε²/2 at ε = log 3 is 0.6035
    (sp.log(1 / R(10) ** 6), -R(138, 10), True),   # log(1/δ) at δ = 1e-6 is −13.8155...
])
def test_known_inequalities(a, b, less):
    assert C.is_less(a, b) is less
    assert C.is_less_equal(a, b) is less
    assert C.is_less(b, a) is (not less)
    assert exact_sign(b - a) == (1 if less else -1)


def test_normal_cdf_at_zero_is_bracketed_exactly():
    with C.precision(64):
        phi0 = C.normal_cdf(0)
        assert phi0.contains(R(1, 2))
        assert phi0.upper() - phi0.lower() < R(1, 2 ** 60)
    assert C.normal_cdf_expr(0) == R(1, 2)                    # erfc(0) = 1: exact, not an interval
    with C.precision(64):
        assert (C.enclose(C.normal_cdf_expr(R(1, 3)), 64) - (1 - C.normal_cdf(-R(1, 3)))).contains(0)


def test_normal_cdf_values_and_symmetry():
    assert C.is_less(R(8413447, 10 ** 7), C.normal_cdf_expr(1)) is True     # Φ(1) = 0.84134474...
    assert C.is_less(C.normal_cdf_expr(1), R(8413448, 10 ** 7)) is True
    with C.precision(200):
        s = C.normal_cdf(R(7, 5)) + C.normal_cdf(-R(7, 5))
        assert s.contains(1) and not s.contains(1 + R(1, 10 ** 50))


def test_near_misses_are_decided_by_raising_precision():
    for digits in (20, 50, 300):
        t = _truncated(sp.log(2), digits)           # 0 < log 2 − t ≤ 10^-digits
        assert C.compare(sp.log(2), t) == 1
        assert C.compare(sp.log(2), t + R(1, 10 ** digits)) == -1
        assert exact_sign(t - sp.log(2)) == -1


def test_near_miss_beyond_the_cap_is_undecided_not_guessed():
    t = _truncated(sp.log(2), 300)                  # needs about 1000 bits
    assert C.compare(sp.log(2), t, max_bits=256) is None
    assert C.compare(sp.log(2), t) == 1


# --- equal values: undecided, never a verdict -----------------------------------------------------

@pytest.mark.parametrize("a, b", [
    (sp.log(6), sp.log(2) + sp.log(3)),
    (sp.erf(R(1, 3)) + sp.erfc(R(1, 3)), 1),
    (sp.atan(R(1, 2)) + sp.atan(R(1, 3)), sp.pi / 4),
])
def test_equal_values_are_undecided_by_intervals(a, b):
    assert C.compare(a, b, max_bits=512) is None
    assert C.is_less(a, b, max_bits=512) is None and C.is_less_equal(a, b, max_bits=512) is None


def test_exact_sign_proves_zeros_symbolically_or_refuses():
    assert exact_sign(sp.log(6) - sp.log(2) - sp.log(3)) == 0          # simplify proves it
    assert exact_sign(sp.sqrt(2 + sp.sqrt(3)) - (sp.sqrt(6) + sp.sqrt(2)) / 2) == 0   # minimal polynomial
    with pytest.raises(UndecidedComparison, match="not provably 0"):
        exact_sign(sp.atan(R(1, 2)) + sp.atan(R(1, 3)) - sp.pi / 4)   # 0, but neither method shows it


def test_exact_sign_on_rationals_is_unchanged():
    assert exact_sign(R(1, 10 ** 12)) == 1 and exact_sign(-R(1, 10 ** 15)) == -1 and exact_sign(0) == 0
    assert exact_sign(sp.Integer(10) ** 400 + 1 - sp.Integer(10) ** 400) == 1
    with pytest.raises(UndecidedComparison, match="symbols"):
        exact_sign(sp.Symbol("x") - 1)
    with pytest.raises(UndecidedComparison, match="finite real"):
        exact_sign(sp.zoo)


def test_exact_ops_compare_transcendental_parameters():
    ops = ExactOps()
    assert ops.lt(sp.log(2), R(7, 10)) and ops.le(sp.log(3) ** 2 / 8, R(2, 10))
    assert not ops.le(sp.exp(1), R(2718, 1000), why="e ≤ 2.718")
    assert ops.trace == ["e ≤ 2.718"]
    assert ops.max0(sp.log(2) - R(7, 10)) == 0


# --- Ball semantics ---------------------------------------------------------------------------------

def test_ball_arithmetic_encloses_and_has_no_two_valued_order():
    with C.precision(80):
        third = C.Ball(R(1, 3))
        assert third.lower() < R(1, 3) < third.upper()          # 1/3 is not dyadic: a true interval
        assert C.le(third * 3, 1) is None and C.lt(third * 3, 1) is None
        assert C.le(third, R(1, 2)) is True and C.lt(R(1, 2), third) is False
        assert C.le(C.Ball(Fraction(1, 4)), R(1, 4)) is True    # dyadic: exact
        assert (C.exp(C.log(5)) - 5).contains(0)
        assert C.le(C.sqrt(2) ** 2, 2) is None
        assert (C.Ball(2) ** R(1, 2)).contains(sp.sqrt(2))
    with pytest.raises(TypeError, match="two-valued"):
        bool(C.Ball(1) < 2)
    with pytest.raises(TypeError):
        bool(C.Ball(1))


def test_decide_raises_precision_then_gives_up():
    seen = []

    def never():
        seen.append(C._flint().ctx.prec)
        return None

    assert C.decide(never, start=64, max_bits=512) is None
    assert seen == [64, 128, 256, 512]
    assert C.decide(lambda: C.lt(sp.log(2), R(7, 10))) is True


def test_precision_is_restored_after_an_error():
    before = C._flint().ctx.prec
    with pytest.raises(ZeroDivisionError):
        with C.precision(300):
            raise ZeroDivisionError
    assert C._flint().ctx.prec == before
    with pytest.raises(ValueError):
        with C.precision(1):
            pass


# --- hostile inputs -------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, err, text", [
    (sp.Float("0.5") + sp.log(2), FloatNotAllowed, "float"),
    (sp.Symbol("E") + 1, C.NotEnclosable, "symbols"),
    (sp.log(0), C.NotEnclosable, "finite real"),
    (sp.log(-1), C.NotEnclosable, "finite real"),
    (sp.sqrt(-2), C.NotEnclosable, "finite real"),
    (sp.oo, C.NotEnclosable, "finite real"),
    (sp.gamma(R(1, 3)), C.NotEnclosable, "built from"),
    (sp.Function("f")(1), C.NotEnclosable, "built from"),
])
def test_hostile_expressions_give_clear_errors(expr, err, text):
    with pytest.raises(err, match=text):
        C.enclose(expr)
    assert issubclass(err, DPCheckError)


def test_hostile_sizes_stay_undecided_or_right():
    huge = sp.exp(sp.exp(sp.Integer(10) ** 10))               # overflows any ball: [+/- inf]
    assert C.compare(huge, 1, max_bits=128) is None
    assert C.compare(sp.exp(sp.Integer(10) ** 6), sp.Integer(10) ** 400000) == 1
    assert C.compare(sp.Integer(10) ** 5000 + sp.log(2), sp.Integer(10) ** 5000) == 1
    x = sp.Integer(2)
    for _ in range(100):
        x = sp.log(x + 3)                                      # a 100-deep nest: still enclosed
    assert C.enclose(x).is_finite()
    assert C.compare(sp.log(-sp.log(R(1, 2))), 0) == -1        # log(log 2) < 0: nested functions
    with pytest.raises(TypeError):
        C.Ball(0.5)
    with pytest.raises(FloatNotAllowed):
        C.Ball(sp.Float(2))


def test_domain_errors_inside_expressions_are_undecided():
    # a root of a negative number left unevaluated: the ball is undefined (nan), so nothing is decided
    expr = sp.Pow(sp.log(2) - 1, R(1, 3), evaluate=False)
    with C.precision(64):
        b = C.enclose(expr)
    assert C.le(b, 10) is None


def test_a_gaussian_sum_is_enclosed_with_a_proved_tail():
    import mpmath
    y = sp.Symbol("y", integer=True)
    mpmath.mp.dps = 40
    for f, lo, ref in [(sp.exp(-y ** 2 / 2), -sp.oo, mpmath.nsum(lambda k: mpmath.e ** (-k ** 2 / 2),
                                                                    [-mpmath.inf, mpmath.inf])),
                       (3 * sp.exp(-y ** 2 / 50 + y / 3), 2, 3 * mpmath.nsum(lambda k: mpmath.e ** (-k ** 2 / 50 + k / 3),
                                                                              [2, mpmath.inf]))]:
        b = C.enclose(sp.Sum(f, (y, lo, sp.oo)), 128)
        assert b.upper() - b.lower() < sp.Rational(1, 10 ** 30)
        assert b.lower() <= sp.Rational(str(mpmath.nstr(ref, 38))) + sp.Rational(1, 10 ** 35)
        assert b.upper() >= sp.Rational(str(mpmath.nstr(ref, 38))) - sp.Rational(1, 10 ** 35)
    with pytest.raises(C.NotEnclosable):
        C.enclose(sp.Sum(sp.exp(y ** 2), (y, 0, sp.oo)))


def test_a_compiled_enclosure_agrees_with_enclose():
    a = sp.Symbol("alpha", positive=True)
    e = sp.log(a / (2 * a - 1) * sp.exp(a - 1) + (a - 1) / (2 * a - 1) * sp.exp(-a)) / (a - 1)
    run = I.compile_enclosure(e, a)
    for v in (sp.Rational(3, 2), sp.Integer(2), sp.Rational(1025, 1024)):
        got, ref = run(v, 200), C.enclose(e.subs(a, v), 200)
        assert got.lower() <= ref.upper() and ref.lower() <= got.upper()
