"""The Rényi divergence of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar and Zhang 2019, "Rényi
Differential Privacy of the Sampled Gaussian Mechanism"), enclosed with certified arithmetic.

With P = N(0, 1) and the mixture M = (1 − q)·N(0, 1) + q·N(μ, 1) (μ = sensitivity/σ > 0, sampling rate
0 < q < 1), the level at order α > 1 is max(D_α(M‖P), D_α(P‖M)), where D_α(A‖B) = log(∫ A^α B^(1−α) dy)/(α − 1).
With w = M/P = 1 − q + q·e^(μy − μ²/2):

- forward, D_α(M‖P) = log E_P[w^α]/(α − 1); at an integer α the binomial theorem and E_P[e^(j(μY − μ²/2))]
  = e^((j² − j)μ²/2) give the exact sum Σ_{j=0}^{α} C(α, j)(1 − q)^(α−j) q^j e^((j² − j)μ²/2);
- backward, D_α(P‖M) = log E_P[w^(1−α)]/(α − 1), and the forward one at a non-integer α, have no closed
  form: :mod:`symbolic.derive.operations.mixture_moments` encloses the moments by certified quadrature
  with proved tail bounds.

The larger direction is decided from disjoint enclosures, raising the precision up to a cap; when they still
overlap the level is enclosed by [max of the lower ends, max of the upper ends] and the direction is
"undecided". Each direction is also recomputed with 40-digit mpmath quadrature over the whole line (a check,
never the verdict).
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp

from symbolic.core.certified import Ball, NotEnclosable, certified_sign, enclose, is_less_equal, lt, precision
from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import CURVE_CONSTANTS, parse_expr
from symbolic.derive.operations import mixture_moments as moments

PRECISIONS = (128, 256, 512, 1024)   # bits tried in turn; the last is the cap
MAX_ALPHA = 256
MAX_MU = 16
WIDTH_BITS = 64                      # the level's enclosure is asked to be narrower than 2^-64 of its size
CHECK_DIGITS = 40
CHECK_SLACK = mpmath.mpf("1e-30")    # relative slack for a 40-digit value read against exact ends


@dataclass(frozen=True)
class SubsampledGaussianRenyi:
    """The Rényi level at order ``alpha`` of the subsampled Gaussian, max(D_α(M‖P), D_α(P‖M)) with P = N(0, 1) and
    M = (1 − q)·N(0, 1) + q·N(μ, 1) (Mironov, Talwar and Zhang 2019).

    ``value``: the exact level (a sympy expression) when it is the forward direction at an integer α and the
    comparison was decided, else None; ``enclosure``: sympy Rationals (lo, hi) certified to contain the level;
    ``forward``: (exact expression or None, (lo, hi)) for D_α(M‖P); ``backward``: (None, (lo, hi)) for D_α(P‖M);
    ``larger``: "forward", "backward" or "undecided"; ``steps``: the derivation in words; ``checks``: ((text,
    ok), ...), the 40-digit recomputations."""

    alpha: sp.Expr
    q: sp.Expr
    mu: sp.Expr
    value: sp.Expr | None
    enclosure: tuple
    forward: tuple
    backward: tuple
    larger: str
    steps: tuple
    checks: tuple


def _exact(x, name: str, what: str) -> sp.Expr:
    """``x`` as an exact sympy number: text is read by the restricted parser (no eval), numbers by sympify."""
    try:
        v = parse_expr(x, what=name, constants=CURVE_CONSTANTS) if isinstance(x, str) else sp.sympify(x, strict=True)
    except DPCheckError as e:
        raise InvalidParameter(f"subsampled Gaussian: {name}: {e} ({what})") from None
    except (sp.SympifyError, TypeError, ValueError):
        raise InvalidParameter(f"subsampled Gaussian: {name}={clip(x)} is not a number ({what})") from None
    if isinstance(x, float) or v.has(sp.Float):
        raise InvalidParameter(f"subsampled Gaussian: {name}={clip(x)} is a float; write an exact number such as "
                               f"1/100 ({what})")
    if not v.is_number or v.free_symbols or v.has(sp.I, sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise InvalidParameter(f"subsampled Gaussian: {name}={clip(v)} is not a finite real number ({what})")
    return v


def _validated(q, mu, alpha) -> tuple:
    """The three parameters as exact sympy numbers, or InvalidParameter with a one-line message."""
    q = _exact(q, "q", "the sampling rate, a rational 0 < q < 1")
    if not q.is_Rational or not 0 < q < 1:
        raise InvalidParameter(f"subsampled Gaussian: parameter q={clip(q)} is outside its range: a rational "
                               f"0 < q < 1 (the sampling rate)")
    alpha = _exact(alpha, "alpha", "the Rényi order, a rational 1 < α ≤ 256")
    if not alpha.is_Rational or not 1 < alpha <= MAX_ALPHA:
        raise InvalidParameter(f"subsampled Gaussian: parameter alpha={clip(alpha)} is outside its range: a "
                               f"rational 1 < α ≤ {MAX_ALPHA} (the Rényi order)")
    mu = _exact(mu, "mu", "μ = sensitivity/σ, an exact number 0 < μ ≤ 16")
    try:
        positive, small = certified_sign(mu) == 1, is_less_equal(mu, MAX_MU)
    except NotEnclosable:
        positive = small = False
    if not positive or not small:
        raise InvalidParameter(f"subsampled Gaussian: parameter mu={clip(mu)} is outside its range: an exact "
                               f"number 0 < μ ≤ {MAX_MU} (μ = sensitivity/σ)")
    return q, mu, alpha


def forward_closed_form(q, mu, alpha) -> sp.Expr:
    """D_α(M‖P) at an integer α ≥ 2: log(Σ_{j=0}^{α} C(α, j)(1 − q)^(α−j) q^j e^((j² − j)μ²/2))/(α − 1).

    >>> forward_closed_form(sp.Rational(1, 100), 1, 2)
    log(E/10000 + 9999/10000)
    """
    q, mu, k = sp.Rational(q), sp.sympify(mu), int(alpha)
    total = sp.Add(*[sp.binomial(k, j) * (1 - q) ** (k - j) * q ** j * sp.exp(sp.Rational(j * j - j, 2) * mu ** 2)
                     for j in range(k + 1)])
    return sp.log(total) / (k - 1)


def _level_ball(moment: Ball, alpha, bits: int) -> Ball:
    with precision(bits):
        return moment.log() / (alpha - 1)


def _ends(b: Ball) -> tuple:
    """The exact ends of a level's ball; the lower one no less than 0, as a Rényi divergence is never negative."""
    return max(b.lower(), sp.Integer(0)), b.upper()


def _narrow(ends: tuple) -> bool:
    lo, hi = ends
    return hi - lo <= max(abs(lo), abs(hi)) / sp.Integer(2) ** WIDTH_BITS


def _show(ends: tuple) -> str:
    lo, hi = ends
    return f"{sp.N((lo + hi) / 2, 17)} ± {sp.N((hi - lo) / 2, 2)}"


def _compare(fwd: Ball, bwd: Ball) -> str:
    if lt(bwd, fwd) is True:
        return "forward"
    if lt(fwd, bwd) is True:
        return "backward"
    return "undecided"


def _quadrature_step(name: str, beta, moment, ends: tuple) -> str:
    a, b = moment.ends
    if beta > 0:
        tails = (f"y < {a}: at most w({a})^β·Φ({a}); y > {b}: at most (q + (1 − q)e^(−(μ·{b} − μ²/2)))^β·"
                 f"e^((β² − β)μ²/2)·Q({b} − βμ)")
    else:
        tails = f"y < {a}: at most (1 − q)^β·Φ({a}); y > {b}: at most w({b})^β·Q({b})"
    return (f"{name} = log E_P[w^β]/(α − 1) with β = {beta}, w = 1 − q + q·e^(μy − μ²/2): certified quadrature "
            f"(Arb, {moment.bits} bits) of φ(y)·w(y)^β on [{a}, {b}], tails bounded in closed form ({tails}; "
            f"together at most {moment.tail_text()}) = {_show(ends)}")


def _mp_check(name: str, q, mu, alpha, beta, ends: tuple) -> tuple:
    """(text, ok): D = log(1 + (m(β) − 1))/(α − 1) from 40-digit mpmath quadrature, inside the exact ends?"""
    excess, err = moments.mp_moment_excess(q, mu, beta, CHECK_DIGITS)
    with mpmath.workdps(CHECK_DIGITS + 20):
        value = mpmath.log1p(excess) / (mpmath.mpf(int(alpha.p)) / int(alpha.q) - 1)
        lo, hi = (mpmath.mpf(int(e.p)) / int(e.q) for e in ends)
        slack = CHECK_SLACK * abs(value)
        ok = bool(lo - slack <= value <= hi + slack)
        text = (f"{name} recomputed by {CHECK_DIGITS}-digit mpmath quadrature over the whole line: "
                f"{mpmath.nstr(value, 20)} (quadrature error estimate {mpmath.nstr(err, 2)} on the moment), "
                f"{'inside' if ok else 'OUTSIDE'} the certified enclosure {_show(ends)}")
    return text, ok


def _closed_form_check(q, mu, alpha, closed: Ball, bits: int) -> tuple:
    """(text, ok): the certified quadrature of E_P[w^α] and the closed form's enclosure overlap."""
    quad = _level_ball(moments.moment_enclosure(q, mu, alpha, bits).ball, alpha, bits)
    ok = lt(quad, closed) is not True and lt(closed, quad) is not True
    return (f"D_α(M‖P) by certified quadrature at {bits} bits: {_show(_ends(quad))}, "
            f"{'overlapping' if ok else 'DISJOINT FROM'} the closed form's enclosure {_show(_ends(closed))}"), ok


def subsampled_gaussian_renyi(q, mu, alpha) -> SubsampledGaussianRenyi:
    """The Rényi level of order ``alpha`` of the Poisson-subsampled Gaussian with sampling rate ``q`` and
    μ = sensitivity/σ = ``mu`` (Mironov, Talwar and Zhang 2019): max(D_α(M‖P), D_α(P‖M)), P = N(0, 1),
    M = (1 − q)·N(0, 1) + q·N(μ, 1), D_α(A‖B) = log(∫ A^α B^(1−α) dy)/(α − 1).

    ``q``: a rational in (0, 1); ``mu``: an exact number in (0, 16]; ``alpha``: a rational in (1, 256].

    >>> r = subsampled_gaussian_renyi(sp.Rational(1, 100), 1, 2)
    >>> r.value, r.larger, all(ok for _, ok in r.checks)
    (log(E/10000 + 9999/10000), 'forward', True)
    >>> lo, hi = r.enclosure
    >>> print(sp.N(lo, 16), hi - lo < sp.Rational(1, 10 ** 30))
    0.0001718134220745479 True
    """
    q, mu, alpha = _validated(q, mu, alpha)
    beta_b = 1 - alpha
    closed = forward_closed_form(q, mu, alpha) if alpha.is_Integer else None
    for bits in PRECISIONS:
        if closed is not None:
            fwd_moment, fwd = None, enclose(closed, bits)
        else:
            fwd_moment = moments.moment_enclosure(q, mu, alpha, bits)
            fwd = _level_ball(fwd_moment.ball, alpha, bits)
        bwd_moment = moments.moment_enclosure(q, mu, beta_b, bits)
        bwd = _level_ball(bwd_moment.ball, alpha, bits)
        larger = _compare(fwd, bwd)
        if larger != "undecided" and _narrow(_ends(fwd if larger == "forward" else bwd)):
            break
    fwd_ends, bwd_ends = _ends(fwd), _ends(bwd)
    if larger == "forward":
        enclosure, value = fwd_ends, closed
    elif larger == "backward":
        enclosure, value = bwd_ends, None
    else:
        enclosure = (max(fwd_ends[0], bwd_ends[0]), max(fwd_ends[1], bwd_ends[1]))
        value = None
    steps = [f"P = N(0, 1), M = (1 − q)·N(0, 1) + q·N(μ, 1) with q = {q}, μ = {mu}, α = {alpha}; the level is "
             f"max(D_α(M‖P), D_α(P‖M)) (Mironov, Talwar and Zhang 2019)"]
    if closed is not None:
        steps.append(f"D_α(M‖P) = log E_P[(1 − q + q·e^(μY − μ²/2))^α]/(α − 1) = log(Σ_j C(α, j)(1 − q)^(α−j) q^j "
                     f"e^((j² − j)μ²/2))/(α − 1), binomial theorem with E_P[e^(j(μY − μ²/2))] = e^((j² − j)μ²/2): "
                     f"{clip(closed)} = {_show(fwd_ends)} (enclosed at {bits} bits)")
    else:
        steps.append(_quadrature_step("D_α(M‖P)", alpha, fwd_moment, fwd_ends))
    steps.append(_quadrature_step("D_α(P‖M)", beta_b, bwd_moment, bwd_ends))
    if larger == "undecided":
        steps.append(f"the two enclosures still overlap at {bits} bits (the cap): the larger direction is undecided, "
                     f"and the level is enclosed by [max of the lower ends, max of the upper ends]")
    else:
        steps.append(f"D_α({'M‖P' if larger == 'forward' else 'P‖M'}) is the larger: the enclosures are disjoint "
                     f"at {bits} bits")
    checks = [_mp_check("D_α(M‖P)", q, mu, alpha, alpha, fwd_ends),
              _mp_check("D_α(P‖M)", q, mu, alpha, beta_b, bwd_ends)]
    if closed is not None:
        checks.append(_closed_form_check(q, mu, alpha, fwd, bits))
    return SubsampledGaussianRenyi(alpha, q, mu, value, enclosure, (closed, fwd_ends), (None, bwd_ends), larger,
                                   tuple(steps), tuple(checks))
