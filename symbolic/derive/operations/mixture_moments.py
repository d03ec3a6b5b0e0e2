"""The moments of a two-Gaussian mixture's likelihood ratio, m(β) = E[w(Y)^β] with Y ~ N(0, 1) and
w(y) = 1 − q + q·e^(μy − μ²/2): enclosed with certified arithmetic, and recomputed with mpmath.

w is the density ratio of M = (1 − q)·N(0, 1) + q·N(μ, 1) to P = N(0, 1), so m(α) = ∫ M^α P^(1−α) and
m(1 − α) = ∫ P^α M^(1−α): the two Rényi divergences of the subsampled Gaussian are log m/(α − 1).

:func:`moment_enclosure` integrates φ(y)·w(y)^β on a finite interval [a, b] with Arb's certified
quadrature (``flint.acb.integral``; the integrand is written exp(−y²/2 + β·log w) with a logarithm
that honours the quadrature's ``analytic`` flag, so the branch cut of log is never crossed) and
adds the two tails as the interval [0, bound] with closed-form bounds (Φ the normal CDF, Q = 1 − Φ):

- β > 0, y ≤ a: w is increasing, so w^β ≤ w(a)^β and the tail is at most w(a)^β·Φ(a);
- β > 0, y ≥ b: w(y) = e^u·(q + (1 − q)e^(−u)) ≤ e^u·K with K = q + (1 − q)e^(−u(b)), u = μy − μ²/2,
  and φ(y)e^(βu) = e^((β² − β)μ²/2)·φ(y − βμ), so the tail is at most K^β·e^((β² − β)μ²/2)·Q(b − βμ);
- β < 0, y ≤ a: w ≥ 1 − q, so the tail is at most (1 − q)^β·Φ(a);
- β < 0, y ≥ b: w^β is decreasing, so the tail is at most w(b)^β·Q(b).

Both moments are at least 1 (Jensen: E[w] = 1 and x^β is convex for β ∉ (0, 1)); the ends a, b are
chosen so that each tail is below 2^−(bits + 9) of a lower bound on m(β), which sets only the width,
never the validity, of the enclosure.

:func:`mp_moment_excess` is the independent recomputation: m(β) − 1 = E[w^β − 1 − β(w − 1)] (E[w − 1]
= 0, and the integrand is ≥ 0, so nothing cancels) by mpmath's tanh-sinh quadrature over the whole
line, split at the integrand's modes.

>>> from symbolic.core.certified import enclose
>>> m = moment_enclosure(sp.Rational(1, 100), 1, 2, 128)    # m(2) = 1 − q² + q²·e^(μ²)
>>> exact = enclose(sp.Rational(9999, 10000) + sp.E / 10000, 256)
>>> m.ball.lower() <= exact.lower() and exact.upper() <= m.ball.upper(), m.ends
(True, (-14, 15))
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import sympy as sp

from symbolic.core.certified import Ball, arb_of, flint_module, precision
from symbolic.core.errors import DPCheckError

TAIL_GUARD_BITS = 8          # each tail is asked to be below 2^-(bits + 9) of the moment's lower bound
LOOKUP_BITS = 64             # the precision at which the ends are searched (the ends are any numbers)
EVAL_LIMIT = 1_000_000       # the quadrature's work budget: evaluations of the integrand, and bisection depth
DEPTH_LIMIT = 10_000


class QuadratureFailed(DPCheckError):
    """The certified quadrature returned an unbounded ball (its work budget ran out)."""


@dataclass(frozen=True)
class Moment:
    """A certified enclosure of m(β) = E[w(Y)^β]: ``ball`` contains it; ``ends`` = (a, b) is the interval
    integrated by quadrature, ``tails`` the ball [0, bound] added for |y| outside it, ``bits`` the precision."""

    ball: Ball
    ends: tuple
    tails: Ball
    bits: int

    def tail_text(self) -> str:
        """The upper end of the tails' ball, as three digits (it can be beyond the range of exact rationals)."""
        return self.tails.arb.upper().str(3, radius=False)


def _normal_tails(x):
    """(Φ(x), Q(x)) = (P[N(0,1) ≤ x], P[N(0,1) ≥ x]) as arbs, through erfc (no cancellation in either)."""
    s = flint_module().arb(2).sqrt()
    return (-x / s).erfc() / 2, (x / s).erfc() / 2



def _left_tail(q, mu, beta, a):
    """Bound on ∫_{−∞}^a φ·w^β (module docstring), as an arb."""
    phi_a = _normal_tails(a)[0]
    if beta > 0:
        return (1 - q + q * (mu * a - mu * mu / 2).exp()) ** beta * phi_a
    return (1 - q) ** beta * phi_a


def _right_tail(q, mu, beta, b):
    """Bound on ∫_b^∞ φ·w^β (module docstring), as an arb."""
    c = mu * mu / 2
    if beta > 0:
        k = q + (1 - q) * (c - mu * b).exp()
        return k ** beta * ((beta * beta - beta) * c).exp() * _normal_tails(b - beta * mu)[1]
    return (1 - q + q * (mu * b - c).exp()) ** beta * _normal_tails(b)[1]


def tail_bound(q, mu, beta, a, b):
    """An arb containing the sum of the bounds on the two tails, y ≤ a and y ≥ b (module docstring)."""
    q, mu, beta, a, b = (arb_of(v) for v in (q, mu, beta, a, b))
    if not (beta > 0 or beta < 0):
        raise ValueError(f"beta={beta} must be certainly positive or negative")
    return _left_tail(q, mu, beta, a) + _right_tail(q, mu, beta, b)


def moment_floor(q, mu, beta):
    """A lower bound on m(β), an exact arb: 1 by Jensen and, for β > 0, q^β·e^((β² − β)μ²/2) (w ≥ q·e^u)."""
    q, mu, beta = (arb_of(v) for v in (q, mu, beta))
    one = flint_module().arb(1)
    if beta > 0:
        return (q ** beta * ((beta * beta - beta) * mu * mu / 2).exp()).lower().max(one)
    return one


def _least(ok) -> int:
    """The least d ≥ 1 with ok(d), for ok monotone in d (exponential search, then bisection)."""
    hi = 1
    while not ok(hi):
        hi *= 2
        if hi > 1 << 40:
            raise QuadratureFailed("no finite interval makes the tail bounds small enough")
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def integration_ends(q, mu, beta, bits: int) -> tuple:
    """Integer ends (a, b), a < 0 < b, each tail's bound below 2^-(bits + 9)·(the lower bound on m(β))."""
    with precision(LOOKUP_BITS):
        q, mu, beta = (arb_of(v) for v in (q, mu, beta))
        half = moment_floor(q, mu, beta) * flint_module().arb(2) ** (-(bits + TAIL_GUARD_BITS + 1))
        a = -_least(lambda d: bool(_left_tail(q, mu, beta, arb_of(-d)) < half))
        b = _least(lambda d: bool(_right_tail(q, mu, beta, arb_of(d)) < half))
    return a, b


def moment_enclosure(q, mu, beta, bits: int, ends: tuple | None = None) -> Moment:
    """A certified enclosure of m(β) = E[w(Y)^β] at ``bits`` bits: quadrature on [a, b] plus the tail bounds.

    ``q``, ``beta``: ints, fmpq or exact sympy numbers; ``mu``: an exact sympy number (or int, fmpq);
    ``ends``: the integer ends (a, b), chosen by :func:`integration_ends` when not given."""
    fl = flint_module()
    a, b = ends if ends is not None else integration_ends(q, mu, beta, bits)
    with precision(bits):
        qa, ma, ba = (arb_of(v) for v in (q, mu, beta))
        c, one_q = ma * ma / 2, 1 - qa

        def integrand(y, analytic):
            # log w with the flag: the quadrature must see a non-finite value where y's ball meets the cut
            w = one_q + qa * (ma * y - c).exp()
            return (-(y * y) / 2 + ba * w.log(analytic=analytic)).exp()

        tol = fl.arb(2) ** (-bits)
        inner = fl.acb.integral(integrand, a, b, rel_tol=tol, abs_tol=tol * moment_floor(qa, ma, ba),
                                eval_limit=EVAL_LIMIT, depth_limit=DEPTH_LIMIT)
        tails = fl.arb(0).union(tail_bound(qa, ma, ba, a, b))
        total = inner.real / (2 * fl.arb.pi()).sqrt() + tails
    if not total.is_finite():
        raise QuadratureFailed(f"the certified quadrature of E[w^β] (q={q}, μ={mu}, β={beta}) on [{a}, {b}] did not "
                               f"converge within its budget of {EVAL_LIMIT} evaluations")
    return Moment(Ball.from_arb(total), (a, b), Ball.from_arb(tails), bits)


# --- the independent recomputation --------------------------------------------------------------------------

def _breakpoints(q: sp.Rational, mu: float, beta: float) -> list:
    """Where to split the line for tanh-sinh: the zeros of (log φ·w^β)′ = −y + βμ·s(y), s = q·e^u/w the
    logistic of u + log(q/(1 − q)), which lie between 0 and βμ (found on a grid of step 1/2), and the points 6
    away from each."""
    shift = math.log(int(q.p)) - math.log(int(q.q - q.p))

    def slope(y):
        z = mu * y - mu * mu / 2 + shift
        s = 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))
        return -y + beta * mu * s

    lo, hi = min(0.0, beta * mu) - 1, max(0.0, beta * mu) + 1
    grid = [lo + k / 2 for k in range(int(2 * (hi - lo)) + 2)]
    roots = [(x + y) / 2 for x, y in zip(grid, grid[1:]) if (slope(x) > 0) != (slope(y) > 0)]
    return sorted({r + d for r in roots for d in (-6, 0, 6)})


def mp_moment_excess(q, mu, beta, dps: int = 40) -> tuple:
    """(m(β) − 1, the quadrature's error estimate) as mpmath numbers at ``dps`` digits, from E[w^β − 1 − β(w − 1)]
    integrated by tanh-sinh over (−∞, ∞) split at :func:`_breakpoints`; the integrand is evaluated with guard
    digits, as w^β − 1 − β(w − 1) cancels where w is near 1. ``q``, ``beta``: sympy Rationals; ``mu``: exact."""
    q, mu, beta = sp.Rational(q), sp.sympify(mu), sp.Rational(beta)
    mu_f = float(sp.N(mu, 20))
    # near w = 1 the integrand is about β(β − 1)/2·(w − 1)², |w − 1| about q·min(μ, 1): that many digits cancel
    b_f = float(beta)
    lost = float(sp.N(-sp.log(q * sp.Min(mu, 1) * abs(beta * (beta - 1)) / 2, 10), 15))
    inner = dps + 10 + max(0, math.ceil(lost))
    with mpmath.workdps(inner):
        qm, bm = mpmath.mpf(int(q.p)) / int(q.q), mpmath.mpf(int(beta.p)) / int(beta.q)
        mm = mpmath.mpf(str(sp.N(mu, inner + 10)))
        c = mm * mm / 2

    def excess(y):
        with mpmath.workdps(inner):
            v = qm * mpmath.expm1(mm * y - c)
            out = mpmath.exp(-y * y / 2) * (mpmath.expm1(bm * mpmath.log1p(v)) - bm * v)
        return +out   # rounded to the quadrature's digits

    with mpmath.workdps(dps):
        finite = [mpmath.mpf(p) for p in _breakpoints(q, mu_f, b_f)]
        # mpmath's tolerance is absolute: the integrand is scaled to about 1 by its largest value at the breakpoints
        scale = max(abs(excess(y)) for y in [*finite, *(mpmath.mpf(k) for k in (-2, -1, 1, 2))])
        val, err = mpmath.quad(lambda y: excess(y) / scale, [-mpmath.inf, *finite, mpmath.inf], error=True)
        norm = scale / mpmath.sqrt(2 * mpmath.pi)
        return val * norm, err * norm
