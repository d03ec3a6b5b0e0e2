"""Conversions from a privacy curve to (ε, δ)-DP, decided for every parameter value in a range, at every size.

**ρ-zCDP ⇒ (ε(ρ, δ), δ)-DP.** For laws P, Q with privacy loss L = log P/Q under P, the privacy profile is
δ(ε) = E_P[(1 − e^(ε−L))₊] ≤ P[L > ε] ≤ E_P[e^((α−1)(L−ε))] = exp((α−1)(D_α(P‖Q) − ε)) for every α > 1
(Markov's inequality on e^((α−1)L); Bun and Steinke 2016, Lemma 3.5 and Prop. 3.7). Under ρ-zCDP,
D_α ≤ ρα, so δ(ε) ≤ exp((α−1)(ρα − ε)); the exponent is least at α* = (ε + ρ)/(2ρ), where it is
−(ε − ρ)²/(4ρ), and α* > 1 iff ε > ρ. Hence the claim holds on every output space when, on the whole
range, ε > ρ and g = (ε − ρ)²/(4ρ) − log(1/δ) ≥ 0; sympy decides both signs in the variables ρ and
L = log(1/δ) (both positive). At ρ = 0 the laws are equal and δ(ε) = 0 for ε ≥ 0. A claim the bound does
not prove is probed for a counterexample at the Gaussian mechanism with σ² = 1/(2ρ), which is exactly
ρ-zCDP: its profile Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) with μ = √(2ρ) exceeding δ at a rational (ρ, δ)
(certified enclosure) refutes the claim there. The Chernoff bound is not tight, so a true claim it does
not prove stays ``unknown``.

**μ-GDP ⇒ (ε, δ(μ, ε))-DP.** By Blackwell's theorem a μ-GDP pair is a post-processing of N(0,1) against
N(μ,1) (Dong, Roth, Su 2022), so the tight δ(ε) on every output space is that pair's profile,
derived from the two densities in :mod:`symbolic.derive.continuous.gdp_profile`. The claim holds iff the
target δ is at least that profile on the whole range: an identity proved by sympy (tight), or a sign
decided by sympy; a rational point where the certified profile exceeds the target refutes it with the
Gaussian pair.
"""
from __future__ import annotations

import functools
from dataclasses import replace

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.intervals import nonnegative_on
from symbolic.derive.continuous.claims import (CURVE_CLAIM_TARGETS, CurveVerdict, decide_bounded_range,
                                               decide_dominated, pair_table, rr_table)
from symbolic.derive.continuous.finite_pairs import dp_dominating_pair
from symbolic.derive.continuous.gdp_profile import gaussian_pair_profile, published_profile
from symbolic.derive.continuous.values import E as LEVEL
from symbolic.model.param_space import ParamRange, sample_points, symbolic_sign
from symbolic.notions.continuum import gaussian_profile_bounded, renyi_bounded

BITS = 256
SMALL_DELTAS = tuple(sp.Rational(1, 10 ** k) for k in (1, 2, 3, 6, 10, 20, 40))
ZCDP_SCOPE = "every output space and every size (the Chernoff bound on the privacy loss)"
GDP_SCOPE = "every output space and every size (through GDP's dominating pair, the Gaussian pair)"
ZCDP_METHOD = "Chernoff bound on the privacy loss at the best order; signs decided by sympy"
GDP_METHOD = "the Gaussian pair's privacy profile, derived from its densities; compared by sympy"


def _range(param) -> ParamRange:
    return ParamRange.of(param)


def _points(params, extra: dict) -> list:
    """Rational probe points: each parameter's samples inside its range, its closed ends, and the values in
    ``extra`` (by name) that lie in its range; the shortest numbers first on each axis, so the first point
    that refutes is the simplest probed."""
    axes = []
    for p in params:
        rng = _range(p)
        if p.value is not None:
            axes.append([sp.sympify(p.value)])
            continue
        pts = list(rng.samples(3)) if rng.lower is not None and rng.upper is not None else \
            [pt[rng.symbol] for pt in sample_points((rng,), 3)]
        pts += [v for v in rng.closed_ends() if v is not None]
        pts += [v for v in extra.get(p.name, ()) if rng.contains(v)]
        axes.append(sorted(set(sp.sympify(v) for v in pts), key=lambda v: (len(str(v)), float(v))))   # shortlex
    out = [{}]
    for p, axis in zip(params, axes):
        out = [{**pt, p.name: v} for pt in out for v in axis]
    return out


def _gaussian_profile(mu, eps):
    """The Gaussian pair's profile at exact μ > 0, ε ≥ 0, as a certified ball."""
    return C.enclose(published_profile(sp.sympify(mu), sp.sympify(eps)), BITS)


def _enclosed(x):
    """A certified ball of the number ``x``, or None where it is not a finite real number (a target not
    defined at that point)."""
    try:
        ball = C.enclose(x, BITS)
    except C.NotEnclosable:
        return None
    return ball if ball.is_finite() else None


def _gap(profile, e, d):
    """The certified ball profile() − d at a point whose ε = e is a finite number ≥ 0 and whose target δ = d is
    finite; None where either is not (the target is not defined there)."""
    e_ball, d_ball = _enclosed(e), _enclosed(d)
    if e_ball is None or d_ball is None or not e_ball.lower() >= 0:
        return None
    try:
        return profile() - d_ball
    except C.NotEnclosable:
        return None


MIXES = (sp.Integer(0), sp.Rational(1, 10 ** 6), sp.Rational(1, 10 ** 3), sp.Rational(1, 100), sp.Rational(1, 10))


def _threshold_table(mu, e, d, hypothesis):
    """An exact two-output table that satisfies the hypothesis (``hypothesis(p, q)`` True, certified) and whose
    δ at ε = e exceeds d (certified), or None: the Gaussian pair N(0,1), N(μ,1) seen through the test
    {y < μ/2 − ε/μ}, its event where the privacy loss exceeds ε (a post-processing, so it keeps the
    hypothesis and attains the Gaussian profile at ε), its two probabilities rounded to the fewest decimal
    digits that keep the violation and, when the rounding breaks the hypothesis, mixed toward (1/2, 1/2) by a
    small λ (both rechecked)."""
    t = mu / 2 - e / mu
    bits = 128 + (4 * int(abs(float(C.enclose(sp.log(d), 64).lower()))) if d.is_positive else 0)
    p_ball, q_ball = (C.enclose(C.normal_cdf_expr(x), bits) for x in (t, t - mu))
    for digits in range(1, bits // 3):
        scale = sp.Integer(10) ** digits
        p0, q0 = sp.floor(p_ball.lower() * scale) / scale, sp.ceiling(q_ball.upper() * scale) / scale
        for lam in MIXES:
            p, q = (1 - lam) * p0 + lam / 2, (1 - lam) * q0 + lam / 2
            if not (0 < q < p < 1):
                break
            # δ(ε) of the table = Σ_o max(0, p_o − e^ε q_o) ≥ p − e^ε·q: this gap is a lower bound of δ(ε) − d
            gap = C.enclose(p - sp.exp(e) * q - d, bits)
            if not (gap.is_finite() and gap.lower() > 0):
                break
            rows = ([p, 1 - p], [q, 1 - q])
            if hypothesis(*rows) and hypothesis(*rows[::-1]):
                return pair_table(*rows), gap
    return None


def _text(point: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point.items())


def decide_zcdp_to_dp(rho, target_E, target_delta, params) -> CurveVerdict:
    """ρ-zCDP ⇒ (log ``target_E``, ``target_delta``)-DP for every value of ``params`` (the claim's Param
    records: ρ's, and δ's when the target names it) in their ranges.

    >>> from symbolic.notions.claims import Param
    >>> r, d = Param("rho", lower=0, lower_strict=True), Param("delta", lower=0, lower_strict=True, upper=1)
    >>> eps = r.symbol + 2 * sp.sqrt(r.symbol * sp.log(1 / d.symbol))
    >>> decide_zcdp_to_dp(r.symbol, sp.exp(eps), d.symbol, (r, d)).verdict
    'proved'
    >>> v = decide_zcdp_to_dp(r.symbol, sp.exp(eps - r.symbol), d.symbol, (r, d))
    >>> v.verdict, v.counterexample["at"]
    ('refuted', {'rho': '1', 'delta': '1/10000000000'})
    """
    names = {p.name: p for p in params}
    syms = {p.name: p.symbol for p in params}
    r_pos, l_pos = sp.Symbol("rho", positive=True), sp.Symbol("L", positive=True)
    eps = sp.log(target_E)
    if sp.sympify(target_E) == 1:
        bounded = _total_variation(rho, target_delta, names, syms)
        if bounded is not None:
            return bounded
    proof = _chernoff(rho, eps, target_delta, names, syms, r_pos, l_pos)
    if proof is not None and proof.verdict == "proved":
        gap = _looseness(rho, eps, target_delta, params)
        return replace(proof, reason=proof.reason + (f"; {gap}" if gap else ""))
    refuted = _gaussian_probe_zcdp(rho, eps, target_delta, params)
    if refuted is not None:
        return refuted
    return proof or CurveVerdict("unknown", "the Chernoff bound on the privacy loss does not prove the target and "
                                            "the Gaussian mechanism does not refute it at the probed points")


def _total_variation(rho, delta, names, syms):
    """ρ-zCDP ⇒ (0, δ)-DP, the total variation: proved when δ ≥ √(1 − e^{−ρ}) on the range (sympy). ρ-zCDP bounds
    KL = lim_{α→1} D_α by ρ, and TV ≤ √(1 − e^{−KL}) (Bretagnolle, Huber 1979; Tsybakov 2009, Lemma 2.6), a bound
    that stays below 1. None when sympy does not show it (the general route runs)."""
    rho_p = names.get(getattr(rho, "name", None))
    if rho_p is None or rho_p.value is not None:
        return None
    r = ParamRange(rho_p.name, sp.Integer(0), False)
    bound = sp.sqrt(1 - sp.exp(-r.symbol))
    gap = sp.simplify(sp.sympify(delta).xreplace({syms[rho_p.name]: r.symbol}) - bound)
    if gap.free_symbols - {r.symbol} or not (gap == 0 or symbolic_sign(gap, (r,)) in (0, 1, "≥")):
        return None
    return CurveVerdict("proved", f"δ ≥ √(1 − e^(−ρ)) on the range (sympy): ρ-zCDP bounds the KL divergence by ρ, and "
                                  f"TV ≤ √(1 − e^(−KL)) (Bretagnolle, Huber 1979)",
                        scope="every output space and every size (a bound on every pair of distributions)",
                        method="the Bretagnolle–Huber inequality")


def _chernoff(rho, eps, delta, names, syms, r_pos, l_pos):
    """The Chernoff-bound proof (module text) as a CurveVerdict, or an unknown one saying what failed."""
    rho_p = names.get(getattr(rho, "name", None))
    if rho_p is None or (rho_p.value is not None and not sp.sympify(rho_p.value).is_positive):
        return None
    r = r_pos if rho_p.value is None else sp.sympify(rho_p.value)    # ρ fixed by --param: that number
    subs = {syms[rho_p.name]: r}
    d_p = names.get(getattr(delta, "name", None)) if isinstance(delta, sp.Symbol) else None
    if d_p is not None and d_p.value is not None:
        subs[syms[d_p.name]] = d_p.value
        delta, d_p = sp.sympify(d_p.value), None
    if d_p is not None:
        if d_p.lower is None or d_p.lower < 0 or (d_p.lower == 0 and not d_p.lower_strict) \
                or d_p.upper is None or d_p.upper > 1:
            return CurveVerdict("unknown", "the target is not finite at delta = 0; state the range, e.g. "
                                           "--assume '0<delta<=1'")
        subs[syms[d_p.name]] = sp.exp(-l_pos)
    elif not (sp.sympify(delta).is_number and 0 < delta <= 1):
        return None
    e = sp.simplify(sp.expand_log(sp.sympify(eps).xreplace(subs), force=True))
    log_inv_delta = l_pos if d_p is not None else -sp.log(sp.sympify(delta))
    g = sp.simplify((e - r) ** 2 / (4 * r) - log_inv_delta)
    ranges = tuple(x for x in (ParamRange(r_pos.name, sp.Integer(0), True), ParamRange(l_pos.name, sp.Integer(0), True))
                   if x.symbol in (g.free_symbols | e.free_symbols))
    above = symbolic_sign(e - r, ranges)
    sign = symbolic_sign(g, ranges)
    if above != 1 or sign not in (0, 1, "≥"):
        settled = "fail somewhere" if above in (-1, 0, "≤") or sign in (-1, "≤") else "are not settled by sympy"
        return CurveVerdict("unknown", f"the Chernoff bound needs ε > ρ and (ε − ρ)²/(4ρ) ≥ log(1/δ) on the whole "
                                       f"range; with L = log(1/δ), ε = {e} and (ε − ρ)²/(4ρ) − L = {g}, and these "
                                       f"signs {settled}; the bound is not tight, so this is not a refutation")
    zero = _at_zero_rho(rho_p, e, r_pos) if rho_p.value is None else None
    if zero is not None:
        return zero
    tight = " (the bound holds with equality at α* = (ε + ρ)/(2ρ))" if sign == 0 else ""
    return CurveVerdict("proved", f"δ(ε) ≤ exp((α−1)(ρα − ε)) for every α > 1 (Markov's inequality on the privacy "
                                  f"loss, with D_α ≤ ρα); at α* = (ε + ρ)/(2ρ) > 1 the exponent is −(ε − ρ)²/(4ρ), "
                                  f"and with L = log(1/δ), ε = {e}: ε − ρ > 0 and (ε − ρ)²/(4ρ) − L = {g} ≥ 0 on the "
                                  f"whole range (sympy){tight}", scope=ZCDP_SCOPE, method=ZCDP_METHOD)


def _looseness(rho, eps, delta, params, steps: int = 48) -> str:
    """How loose a proved conversion is at one point (ρ = 1/2, δ = 10⁻⁵ when in range, else the first probe
    point): the Gaussian mechanism with σ² = 1/(2ρ) is ρ-zCDP, so the tight ε lies between the least ε its
    profile allows and the target's. Bisection with certified comparisons; '' when nothing is certified."""
    want = {"rho": sp.Rational(1, 2), "delta": sp.Rational(1, 10 ** 5)}
    points = [pt for pt in _points(params, {k: (v,) for k, v in want.items()})
              if all(pt.get(k) == v for k, v in want.items() if k in pt)] or _points(params, {})
    at = {p.symbol: points[0][p.name] for p in params}
    r, e, d = (sp.sympify(x).xreplace(at) for x in (rho, eps, delta))
    if not (r.is_positive and d.is_positive):
        return ""
    mu = sp.sqrt(2 * r)
    e_ball = C.enclose(e, BITS)
    lo, hi = sp.Integer(0), sp.Rational(e_ball.upper())
    for _ in range(steps):   # invariant: the Gaussian's δ(lo) > d (certified), so its ε is above lo
        mid = (lo + hi) / 2
        gap = _gaussian_profile(mu, mid) - C.ball(d)
        if gap.lower() > 0:
            lo = mid
        elif gap.upper() < 0:
            hi = mid
        else:
            break
    if lo == 0:
        return ""
    return (f"not tight: at {_text(points[0])} the target's ε is {sp.N(e, 6)} and the Gaussian mechanism (ρ-zCDP) "
            f"needs ε > {sp.N(lo, 6)}, so the conversion is loose by at most {sp.N(e - lo, 4)} there")


def _at_zero_rho(rho_p, e, r_pos):
    """ρ = 0 in the range: the laws are equal and δ(ε) = 0 whenever ε ≥ 0; None when that holds or ρ > 0."""
    if rho_p.lower is None or rho_p.lower > 0 or (rho_p.lower == 0 and rho_p.lower_strict):
        return None
    at0 = sp.limit(e, r_pos, 0, "+")
    if at0.is_nonnegative or at0 is sp.oo:
        return None
    return CurveVerdict("unknown", f"at rho = 0 the target's ε is {at0}, not shown ≥ 0")


def _gaussian_probe_zcdp(rho, eps, delta, params):
    """A rational point where the Gaussian mechanism with σ² = 1/(2ρ) (exactly ρ-zCDP) violates the target."""
    points = _points(params, {"delta": SMALL_DELTAS, "rho": (sp.Rational(1, 100), sp.Rational(1, 2), 1)})
    return _gaussian_refutation(points, params, rho, eps, delta, lambda r: sp.sqrt(2 * r),
                                lambda p, q, r: renyi_bounded(p, q, r).holds is True, ZCDP_WORDS)


#: what a refutation says, by hypothesis: its name, how the table's hypothesis is certified, where it came from
ZCDP_WORDS = ("ρ-zCDP", "certified over every order α > 1", "the Gaussian mechanism with σ² = 1/(2ρ) (exactly "
              "ρ-zCDP", "the Gaussian mechanism")
GDP_WORDS = ("μ-GDP", "certified at every ε ≥ 0", "the Gaussian pair N(0,1), N(μ,1) (exactly μ-GDP", "the Gaussian pair")


def _gaussian_refutation(points, params, level, eps, delta, mu_of, holds, words):
    """The first probe point where the Gaussian pair at μ = ``mu_of(level)`` (which satisfies the hypothesis at
    that level) has δ(ε) above the target, with an exact two-output table from it (:func:`_threshold_table`)
    whose hypothesis ``holds(p, q, level)`` is certified in both directions; None when no point refutes."""
    name, how, source, short = words
    for point in points:
        at = {p.symbol: point[p.name] for p in params}
        lv, e, d = (sp.sympify(x).xreplace(at) for x in (level, eps, delta))
        if not (lv.is_positive and d.is_nonnegative):
            continue
        mu = mu_of(lv)
        gap = _gap(lambda: _gaussian_profile(mu, e), e, d)
        if gap is None or not (gap.is_finite() and gap.lower() > 0):
            continue
        found = _threshold_table(mu, e, d, lambda p, q: holds(p, q, lv))
        if found is None:
            continue
        table, table_gap = found
        why = (f"this two-output table is {name} ({how}, both directions) and its δ at ε = {sp.N(e, 12)} exceeds "
               f"the target δ by {table_gap.text()}; it is {source}, δ(ε) above the target by {gap.text()}) seen "
               f"through its worst event, rounded")
        return CurveVerdict("refuted", f"at {_text(point)}: a {name} two-output table ({short} through its worst "
                                       f"event) has δ(ε) above the target",
                            counterexample={"at": {k: str(v) for k, v in point.items()}, "table": table, "why": why,
                                            "what": f"a two-output table from {short}"})
    return None


def positive_mu(params, mu) -> tuple:
    """The claim's parameters with μ's range made μ > 0: the profile Φ(−ε/μ ± μ/2) divides by μ (at μ = 0 the
    laws are equal and δ = 0), so a GDP conversion is read for μ > 0."""
    return tuple(replace(p, lower=sp.Integer(0), lower_strict=True)
                 if p.name == getattr(mu, "name", None) and p.value is None and p.lower is not None and p.lower <= 0
                 else p for p in params)


def decide_gdp_to_dp(mu, target_E, target_delta, params) -> CurveVerdict:
    """μ-GDP ⇒ (log ``target_E``, ``target_delta``)-DP for every value of ``params`` in their ranges.

    >>> from symbolic.notions.claims import Param
    >>> m, E = Param("mu", lower=0, lower_strict=True), Param("E", lower=1)
    >>> eps = sp.log(E.symbol)
    >>> d = published_profile(m.symbol, eps)
    >>> decide_gdp_to_dp(m.symbol, E.symbol, d, (m, E)).verdict
    'proved'
    >>> decide_gdp_to_dp(m.symbol, E.symbol, d / 2, (m, E)).verdict
    'refuted'
    """
    derived, _, same = gaussian_pair_profile()
    if derived is None or not same:
        return CurveVerdict("unknown", "the Gaussian pair's profile was not derived in closed form")
    params = positive_mu(params, mu)
    mu_p = next((p for p in params if p.name == getattr(mu, "name", None)), None)
    pos = {p.symbol: sp.Symbol(p.name, positive=True) for p in params
           if p.value is None and p.lower is not None and (p.lower > 0 or (p.lower == 0 and p.lower_strict))}
    eps = sp.log(target_E)
    profile = published_profile(mu, eps)
    diff = sp.sympify(target_delta - profile).xreplace(pos)
    if mu_p is not None and mu_p.value is None and sp.simplify(sp.expand(diff).rewrite(sp.erfc)) == 0:
        return CurveVerdict("proved", "the target equals the Gaussian pair's privacy profile Φ(−ε/μ + μ/2) − "
                                      "e^ε·Φ(−ε/μ − μ/2), derived from the densities of N(0,1) and N(μ,1) (sympy); "
                                      "μ-GDP pairs are exactly its post-processings, so the target holds and is "
                                      "tight (no smaller δ holds at any ε)", scope=GDP_SCOPE, method=GDP_METHOD,
                                tight=True)
    points = _points(params, {"mu": (sp.Rational(1, 2), 1, 2), "E": (2, 3, 10)})
    refuted = _gaussian_refutation(points, params, mu, eps, target_delta, lambda m: m,
                                   lambda p, q, m: gaussian_profile_bounded(p, q, m).holds is True, GDP_WORDS)
    if refuted is not None:
        return refuted
    sign = symbolic_sign(diff, tuple(_range(p) for p in params if p.value is None))
    if sign in (0, 1, "≥"):
        return CurveVerdict("proved", "the target is at least the Gaussian pair's privacy profile on the whole range "
                                      "(sympy), and μ-GDP pairs are its post-processings", scope=GDP_SCOPE,
                                method=GDP_METHOD)
    return CurveVerdict("unknown", "the target differs from the Gaussian pair's profile, sympy does not settle the "
                                   "sign of the difference, and no probed point refutes it")


@functools.lru_cache(maxsize=None)
def dp_to_gdp_level():
    """The tight μ-GDP level of ε-DP, in E: the least μ with G_μ(a) ≤ a at a = 1/(1+E), G_μ(a) = Φ(Φ⁻¹(1 − a) − μ) (Dong, Roth, Su 2022): solved by
    sympy, erfcinv(z) written erfinv(1 − z); None when sympy gives no single solution. For E ≥ 1 it is
    2Φ⁻¹(E/(1+E)) = 2√2·erfinv((E − 1)/(E + 1)).

    >>> dp_to_gdp_level()
    2*sqrt(2)*erfinv((E - 1)/(E + 1))
    """
    mu = sp.Symbol("mu", positive=True)
    a = 1 / (1 + LEVEL)
    phi = C.normal_cdf_expr
    solved = sp.solve(sp.Eq(phi(sp.sqrt(2) * sp.erfinv(2 * (1 - a) - 1) - mu), a), mu)
    if len(solved) != 1:
        return None
    out = solved[0].replace(sp.erfcinv, lambda z: sp.erfinv(1 - z))
    return sp.simplify(sp.together(out))


def decide_dp_to_gdp(f, E: sp.Symbol, lo, hi) -> CurveVerdict | None:
    """ε-DP(E) ⇒ f(E)-GDP for every E in [lo, hi] (hi None: unbounded), decided exactly against the tight level
    μ*(E) = 2√2·erfinv((E − 1)/(E + 1)) of :func:`dp_to_gdp_level` (ε-DP pairs are post-processings of
    randomized response, whose GDP level is μ*): proved when sympy shows f − μ* ≥ 0 on the range (tight when
    f = μ*), refuted by randomized response at a rational E where f(E) < μ*(E) (its failure certified again by
    the table's own GDP check); None when neither is settled (the covering of :func:`decide_dominated` runs).

    >>> E = sp.Symbol("E", positive=True)
    >>> decide_dp_to_gdp(dp_to_gdp_level(), E, 1, None).reason.startswith("tight")
    True
    >>> decide_dp_to_gdp(sp.log(E) / 2, E, 1, None).counterexample["E"]
    '2'
    """
    star = dp_to_gdp_level()
    if star is None:
        return None
    e_pos = sp.Symbol(E.name, positive=True)
    star = star.xreplace({LEVEL: e_pos})
    diff = sp.sympify(f).xreplace({E: e_pos}) - star
    scope = "every output space and every size (through ε-DP's dominating pair, whose GDP level is exact)"
    if sp.simplify(diff) == 0:
        return CurveVerdict("proved", f"tight: {f} is randomized response's own GDP level 2Φ⁻¹(E/(1+E)) (the "
                                      f"tangency of G_μ at its kink), so it holds and no smaller μ does",
                            scope=scope, method="the exact GDP level of ε-DP's dominating pair", tight=True)
    rng = ParamRange(e_pos.name, sp.sympify(lo), False, None if hi is None else sp.sympify(hi), False)
    sign = symbolic_sign(diff, (rng,))
    if sign in (1, "≥", 0):
        return CurveVerdict("proved", f"{f} ≥ 2Φ⁻¹(E/(1+E)), randomized response's exact GDP level, on the whole "
                                      f"range (sympy)", scope=scope, method="the exact GDP level of ε-DP's "
                                                                           "dominating pair")
    if hi is not None and sp.sympify(lo).is_Rational and sp.sympify(hi).is_Rational:
        # f − μ* ≥ 0 at E = lo (certified) and nondecreasing on [lo, hi] (its derivative ≥ 0 by interval
        # evaluation on a covering): both sides may vanish at E = 1, where a covering of f − μ* itself cannot close
        at_lo = _enclosed(diff.xreplace({e_pos: sp.sympify(lo)}))
        at_lo_zero = sp.simplify(diff.xreplace({e_pos: sp.sympify(lo)})) == 0
        if at_lo_zero or (at_lo is not None and at_lo.lower() >= 0):
            ok, cells = nonnegative_on(sp.diff(diff, e_pos), e_pos, lo, hi)
            if ok:
                return CurveVerdict("proved", f"{f} − 2Φ⁻¹(E/(1+E)) (randomized response's exact GDP level) is ≥ 0 "
                                              f"at E = {lo} and nondecreasing up to E = {hi} (its derivative ≥ 0 by "
                                              f"interval evaluation on {cells} cells)", scope=scope, cells=cells,
                                    method="the exact GDP level of ε-DP's dominating pair")
    points = [v for v in (2, 3, 10, sp.Rational(3, 2), sp.Rational(11, 10), 100) if rng.contains(v)]
    points += [v for v in (lo, hi) if v is not None and v not in points]
    for e_pt in points:
        gap = _enclosed(diff.xreplace({e_pos: e_pt}))
        if gap is None or not gap.upper() < 0:
            continue
        p, q = dp_dominating_pair(sp.sympify(e_pt))
        check = gaussian_profile_bounded(list(p), list(q), sp.sympify(f).xreplace({E: e_pt}))
        if check.holds is False:
            return CurveVerdict("refuted", f"randomized response at E = {e_pt} is ε-DP and its GDP level "
                                           f"2Φ⁻¹(E/(1+E)) exceeds {f} there by {(-gap).text()}",
                                counterexample={"E": str(e_pt), "table": rr_table(e_pt), "why": check.reason},
                                scope=scope)
    return None


# -- which claims are decided on privacy curves -----------------------------------------------------------------
def decide_curve_claim(claim):
    """(CurveVerdict, statement, range text) for a one-part claim decided on privacy curves at every size:
    ε-DP(E) ⇒ ρ(E)-zCDP or μ(E)-GDP and ε-bounded range(E) ⇒ ρ(E)-zCDP over a range of E (through the dominating
    pairs of :mod:`symbolic.derive.continuous.claims`), and ρ-zCDP or μ-GDP ⇒ (ε, δ)-DP (this module); None for
    any other claim (the general check decides it).

    >>> from symbolic.api import ApproxDP, Param, Sizes, implication_claim
    >>> from symbolic.notions.zoo.divergence import ZeroConcentratedDP
    >>> rho, delta = Param("rho", lower=0), Param("delta", lower=0, lower_strict=True, upper=1)
    >>> eps = rho.symbol + 2 * sp.sqrt(rho.symbol * sp.log(1 / delta.symbol))
    >>> claim = implication_claim(ZeroConcentratedDP(rho.symbol), ApproxDP(sp.exp(eps), delta.symbol),
    ...                           params=(rho, delta), sizes=Sizes(1, 2, 2))
    >>> verdict, statement, ranges = decide_curve_claim(claim)
    >>> verdict.verdict, ranges
    ('proved', '0 ≤ rho, 0 < delta ≤ 1')
    """
    part = claim.parts[0] if len(claim.parts) == 1 else None
    if part is None or len(part.hypotheses) != 1:
        return None
    hyp, concl = part.hypotheses[0], part.conclusion
    h, c = hyp.notion.name, concl.notion.name
    statement = f"{hyp} ⇒ {concl}"
    range_text = ", ".join(p.range_text() for p in claim.params)
    if h in ("ZeroConcentratedDP", "GaussianDP") and c in ("ApproxDP", "TVPrivacy"):
        (level,) = hyp.param_values().values()
        values = concl.param_values()
        if c == "TVPrivacy":   # δ-TV privacy is (0, δ)-DP: the hockey stick at e^0 is the total variation
            values = {"E": sp.Integer(1), "delta": values["delta"]}
        if h == "ZeroConcentratedDP":
            return decide_zcdp_to_dp(level, values["E"], values["delta"], claim.params), statement, range_text
        range_text = ", ".join(p.range_text() for p in positive_mu(claim.params, level))
        return decide_gdp_to_dp(level, values["E"], values["delta"], claim.params), statement, range_text
    if (h, c) in (("MaximalLeakage", "MutualInformationDP"), ("ZeroConcentratedDP", "RenyiDP[alpha=2]"),
                  ("GaussianDP", "ZeroConcentratedDP")):
        from symbolic.derive.notion_bounds import decide_by_bounds
        return decide_by_bounds(claim)
    bounded_range = h == "BoundedRange" and c == "ZeroConcentratedDP"
    if len(claim.params) != 1 or not (bounded_range or (h == "PureDP" and c in CURVE_CLAIM_TARGETS)):
        return None
    E = claim.params[0]
    if [str(v) for v in hyp.param_values().values()] != [E.name]:
        return None
    f = next(iter(concl.param_values().values()))
    lo, hi = (E.value, E.value) if E.value is not None else (E.lower, E.upper)
    lo = 1 if lo is None else lo
    exact = decide_dp_to_gdp(f, E.symbol, lo, hi) if c == "GaussianDP" else None
    if exact is not None:
        verdict = exact
    elif bounded_range:
        verdict = decide_bounded_range(f, E.symbol, lo, hi)
    else:
        verdict = decide_dominated(c, f, E.symbol, lo, hi)
    return verdict, statement, range_text
