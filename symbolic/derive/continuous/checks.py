"""Cross-checks of a level derived for densities and mass functions, by 30-digit numerics on the
definitions (never by the closed form being checked).

At the given values (and, for a formula in symbols, at sample points inside the ranges) each level is
recomputed from its definition with mpmath at 30 digits: integrals by tanh-sinh quadrature split at the
kinks of the laws, sums term by term, suprema over a grid (which can only fall short of the true
supremum, so that check is one-sided). A check passes when the two agree within its stated tolerance:
relatively (:data:`REL_TOL`), above a floor at the rounding of the recomputation (about 10^(3 − digits),
scaled by the size of the terms it adds), with the working digits raised for a tiny value so that the floor
stays 10^12 below it; these checks can fail, and a failed one fails the derivation. They are evidence beside
the exact derivation, not its proof.
"""
from __future__ import annotations

import mpmath
import sympy as sp

from symbolic.core import certified as C

REL_TOL = mpmath.mpf("1e-10")   # relative agreement asked of a recomputation with the derived value
DIGITS = 30                     # working digits of a recomputation (more for a tiny value: see digits_for)
MAX_DIGITS = 400
ORDERS = ("1.001", "1.1", "2", "5")
PROFILE_EPS = ("0", "0.5", "1", "3")
SUMMED = 128                    # terms summed one by one on each side of 0 and of a sum's peak


def _mp(expr):
    """An mpmath function of y from a sympy law (its Sums replaced by certified values to the working digits)."""
    expr = sp.sympify(expr)
    bits = int(mpmath.mp.dps * 3.33) + 32
    sums = {s: sp.Rational(C.enclose(s, bits).lower()) for s in expr.atoms(sp.Sum)}
    expr = expr.xreplace(sums)
    y = next((s for s in expr.free_symbols if s.name == "y"), sp.Symbol("y"))
    return sp.lambdify(y, expr, modules="mpmath"), y


def _kinks(*laws):
    pts = set()
    for law in laws:
        for a in sp.sympify(law).atoms(sp.Abs):
            for r in sp.solve(a.args[0], next(iter(a.args[0].free_symbols))):
                if r.is_real and not r.free_symbols:
                    pts.add(mpmath.mpf(sp.N(r, 30)))
    return sorted(pts)


def _sign_changes(g):
    """Where g changes sign on a grid of step 1/32 over [−40, 40], each refined by bisection."""
    return _changes(lambda t: g(t) > 0)


def _grid_points():
    """Step 1/32 over [−40, 40], then geometric (ratio 2^(1/4)) out to ±40·2^15 ≈ ±1.3·10^6: a sign change far
    in a tail (a Gaussian's privacy loss crosses ε near y = 1/2 − σ²ε, at −99.5 for σ = 10, ε = 1) is found."""
    step = mpmath.mpf(1) / 32
    inner = [k * step for k in range(-1280, 1281)]
    outer = [40 * mpmath.mpf(2) ** (mpmath.mpf(k) / 4) for k in range(1, 61)]
    return [-t for t in reversed(outer)] + inner + outer


def _changes(key):
    """Where the value of ``key`` (a sign, an integer) changes on the grid of :func:`_grid_points`, each
    refined by bisection."""
    pts = []
    prev_t, prev = None, None
    for t in _grid_points():
        v = key(t)
        if prev is not None and v != prev:
            a, b = prev_t, t
            for _ in range(80):
                m = (a + b) / 2
                if key(m) == prev:
                    a = m
                else:
                    b = m
            pts.append((a + b) / 2)
        prev_t, prev = t, v
    return pts


def _steps(*laws):
    """Where a floor term of the laws jumps, on [−40, 40] (each found on a grid and refined by bisection)."""
    pts = set()
    for law in laws:
        for f in sp.sympify(law).atoms(sp.floor):
            y = next((s for s in f.free_symbols if s.name == "y"), None)
            if y is not None:
                g = sp.lambdify(y, f.args[0], modules="mpmath")
                pts |= set(_changes(lambda t, g=g: mpmath.floor(g(t))))
    return pts


def _integrate(f, laws, integers, kink_of=None):
    """∫ f over ℝ (Σ over ℤ), split at the laws' abs kinks, at the steps of their floor terms, where
    ``kink_of`` changes sign, at the laws' modes and at f's own peak: tanh-sinh quadrature crowds its nodes at
    the ends of each piece, so a narrow peak at an end is resolved (σ = 10^-3), and a sum is extrapolated
    outward from its largest term (a Rényi integrand of order 100 peaks near y = 100)."""
    peaks = sorted({*_modes(*laws), *_peak(f, integers)})
    if integers:   # term by term around 0 and the peaks (where signs change), extrapolated only in the tails
        marks = [0] + [int(mpmath.floor(t)) for t in peaks]
        lo, hi = min(marks) - SUMMED, max(marks) + SUMMED
        middle = mpmath.fsum(f(mpmath.mpf(k)) for k in range(lo, hi + 1))
        return mpmath.nsum(f, [-mpmath.inf, lo - 1]) + middle + mpmath.nsum(f, [hi + 1, mpmath.inf])
    steps = _steps(*laws)      # step functions: p − E·q keeps its sign between steps
    cuts = set(_kinks(*laws)) | steps | set(_sign_changes(kink_of) if kink_of is not None and not steps else ())
    grid = sorted(cuts | set(peaks) | {mpmath.mpf(k) for k in (-16, -8, -4, -2, 2, 4, 8, 16)})
    return mpmath.quad(f, [-mpmath.inf] + grid + [mpmath.inf])


def _gaussian_factors(law):
    """(a₂, a₁) of each factor e^(a₂·y² + a₁·y + a₀) of ``law`` whose coefficients are numbers and a₂ < 0."""
    for e in sp.sympify(law).atoms(sp.exp):
        y = next((s for s in e.free_symbols if s.name == "y"), None)
        if y is None:
            continue
        g = sp.expand(e.args[0])
        if g.is_polynomial(y) and sp.Poly(g, y).degree() == 2:
            a2, a1 = sp.Poly(g, y).coeff_monomial(y ** 2), sp.Poly(g, y).coeff_monomial(y)
            if not (a1.free_symbols or a2.free_symbols) and a2 < 0:
                yield a2, a1


def _modes(*laws):
    """The vertices of the laws' Gaussian factors: where each peaks."""
    return {mpmath.mpf(sp.N(-a1 / (2 * a2), mpmath.mp.dps)) for law in laws for a2, a1 in _gaussian_factors(law)}


def _narrow_digits(m) -> int:
    """Working digits for laws with a Gaussian factor of width w < 1: DIGITS more than the decades of 1/w, so
    that quadrature nodes crowded at a piece's end resolve the peak (σ = 10^-20 needs some 50 digits)."""
    need = DIGITS
    for _, law in m.laws:
        for a2, _ in _gaussian_factors(law):
            if a2 < -sp.Rational(1, 2):   # width 1/sqrt(−2·a2) below 1
                need = max(need, DIGITS + int(mpmath.ceil(mpmath.log10(-2 * _num(a2)) / 2)))
    return min(MAX_DIGITS, need)


def _peak(f, integers):
    """Where f is largest on the grid (integers: the integers of the grid), refined by climbing; () when f is 0
    there. A sum or integral is split here so that no extrapolation or quadrature starts inside a steep rise."""
    pts = sorted({mpmath.floor(t) for t in _grid_points()}) if integers else _grid_points()
    vals = [(f(t), t) for t in pts]
    best, t = max(vals, key=lambda v: v[0])
    if not best > 0:
        return ()
    if integers:   # climb to the largest term: the steps double while the terms rise
        for sign in (1, -1):
            step = 1
            while step >= 1:
                if f(t + sign * step) > f(t):
                    t, step = t + sign * step, step * 2
                else:
                    step //= 2
        return (t,)
    i = pts.index(t)
    a, b = pts[max(i - 1, 0)], pts[min(i + 1, len(pts) - 1)]
    for _ in range(60):   # golden-section search for the maximum between the grid neighbours
        m1, m2 = a + (b - a) * 0.381966, a + (b - a) * 0.618034
        if f(m1) < f(m2):
            a = m1
        else:
            b = m2
    return (t, (a + b) / 2)


def _grid(integers):
    if integers:
        return [mpmath.mpf(k) for k in range(-60, 61)]
    return [mpmath.mpf(k) / 16 for k in range(-480, 481)]


def digits_for(*values) -> int:
    """Working digits for recomputing ``values``: :data:`DIGITS`, raised for a tiny one so that the rounding
    floor of the recomputation (about 10^(3 − digits)) stays 10^12 below it."""
    need = DIGITS
    for v in values:
        v = abs(mpmath.mpf(v)) if not isinstance(v, sp.Basic) else abs(to_mpf(v, DIGITS))
        if v != 0 and mpmath.isfinite(v):
            need = max(need, 15 - int(mpmath.floor(mpmath.log10(v))))
    return min(MAX_DIGITS, need)


def floor_of(notion, own) -> mpmath.mpf:
    """The absolute rounding floor of a recomputation at the working digits: the terms it adds are of the
    size of the laws (times E for a hockey-stick integral), and a Rényi divergence divides a logarithm's
    rounding by α − 1."""
    unit = mpmath.mpf(10) ** (3 - mpmath.mp.dps)
    if notion == "approx-dp":
        return unit * (1 + mpmath.e ** _num(own.get("eps", 0)))
    if notion == "renyi-dp":
        return unit / (_num(own["alpha"]) - 1)
    return unit


def numeric_level(notion, p_law, q_law, integers, own):
    """The level of one ordered pair recomputed from its definition at the working digits (mpmath number, or
    mpmath.inf); one-sided (a lower estimate) for suprema."""
    p, _ = _mp(p_law)
    q, _ = _mp(q_law)
    if notion in ("pure-dp", "local-dp", "free-lunch", "bounded-range"):
        losses = []
        for t in _grid(integers) + [mpmath.mpf(10) ** k * s for k in range(2, 5) for s in (1, -1)]:
            pv, qv = p(t), q(t)
            if pv > 0 and qv == 0:
                return mpmath.inf
            if pv > 0:
                losses.append(mpmath.log(pv / qv))
        if notion == "bounded-range":
            return max(losses) - min(losses)
        return max(losses)
    if notion in ("approx-dp", "total-variation"):
        E = mpmath.e ** _num(own.get("eps", 0)) if notion == "approx-dp" else mpmath.mpf(1)
        return _integrate(lambda t: max(mpmath.mpf(0), p(t) - E * q(t)), (p_law, q_law), integers,
                          kink_of=lambda t: p(t) - E * q(t))
    if notion == "renyi-dp":
        a = _num(own["alpha"])
        mass = _integrate(lambda t: p(t) ** a * q(t) ** (1 - a) if p(t) > 0 else mpmath.mpf(0), (p_law, q_law),
                          integers)
        return mpmath.log(mass) / (a - 1)
    raise ValueError(notion)


def _at(formula, pt):
    """A formula (a Piecewise over facts f > 0) at exact values; None on a boundary or when undecided."""
    from symbolic.core.ops import UndecidedComparison, exact_sign
    if not isinstance(formula, sp.Piecewise):
        return formula.xreplace(pt)
    for expr, cond in formula.args:
        rels = [cond] if isinstance(cond, sp.Rel) else list(cond.args) if isinstance(cond, sp.And) else []
        try:
            if cond == sp.true or all(exact_sign(_gap(r).xreplace(pt)) > 0 for r in rels):
                return expr.xreplace(pt)
        except UndecidedComparison:
            return None
    return None


def _gap(rel):
    """g with the strict relation ``rel`` equivalent to g > 0."""
    return rel.lhs - rel.rhs if isinstance(rel, (sp.StrictGreaterThan, sp.GreaterThan)) else rel.rhs - rel.lhs


def _num(x):
    return mpmath.mpf(sp.N(sp.sympify(x), mpmath.mp.dps + 5)) if not isinstance(x, str) else mpmath.mpf(x)


def numeric_leakage(notion, m, prior):
    """Maximal leakage (∫ max_x p_x by quadrature) or a lower estimate of PML (the largest
    max_x p_x/p_Y on a grid of y), at the working digits."""
    integers = m.outputs == "integers"
    kept = [(_mp(m.law(d))[0], _num(w), m.law(d)) for d, w in zip(m.databases, prior) if w != 0]
    if notion == "maximal-leakage":
        laws = [f for f, _, _ in kept]
        diffs = [lambda t, f=f, g=g: f(t) - g(t) for i, (f, _, _) in enumerate(kept) for g, _, _ in kept[i + 1:]]
        cuts = set()
        for g in diffs:
            cuts |= set(_sign_changes(g)) if not integers else set()
        if integers:
            return mpmath.log(mpmath.nsum(lambda t: max(f(t) for f in laws), [-mpmath.inf, mpmath.inf]))
        grid = sorted(cuts | set(_kinks(*[e for _, _, e in kept])) | {mpmath.mpf(k) for k in (-8, -2, 2, 8)})
        return mpmath.log(mpmath.quad(lambda t: max(f(t) for f in laws), [-mpmath.inf] + grid + [mpmath.inf]))
    best = mpmath.mpf(0)
    for t in _grid(integers):
        py = sum(w * f(t) for f, w, _ in kept)
        if py > 0:
            best = max(best, max(f(t) for f, _, _ in kept) / py)
    return mpmath.log(best)


def _level_at(notion, own, m, pairs):
    if notion in ("pml", "maximal-leakage"):
        return numeric_leakage(notion, m, own["prior"])
    return max(numeric_level(notion, m.law(d), m.law(e), m.outputs == "integers", own) for d, e in pairs)


def to_mpf(value, digits: int = DIGITS):
    """An exact number (or ∞) as an mpmath number: the middle of a certified enclosure of ``digits`` digits
    and more."""
    if value == sp.oo:
        return mpmath.inf
    b = C.enclose(value, int(digits * 3.33) + 64)
    mid = (b.lower() + b.upper()) / 2
    return mpmath.mpf(int(mid.p)) / int(mid.q)


def _agree(notion, num, val, floor) -> tuple:
    """(ok, how) comparing a numeric recomputation with the derived value: relatively, above ``floor``."""
    if val == mpmath.inf or num == mpmath.inf:
        return (num == val or (val == mpmath.inf and num > 50)), "the loss grows without bound" if val == mpmath.inf \
            else "infinite"
    tol = REL_TOL * abs(val) + floor
    if notion in ("pure-dp", "local-dp", "free-lunch", "bounded-range", "pml"):
        return num <= val + tol, f"the largest loss on a grid of y, {mpmath.nstr(num, 12)}, is ≤ the level"
    gap = abs(num - val)
    how = f"{mpmath.mp.dps}-digit quadrature gives {mpmath.nstr(num, 15)} against {mpmath.nstr(val, 15)} "
    if gap <= tol and gap > REL_TOL * abs(val):   # passed on the floor alone: say it was an absolute check
        return True, how + (f"(apart by less than the rounding floor {mpmath.nstr(floor, 2)}: both are below what "
                            f"{mpmath.mp.dps} digits resolve, so only that is checked)")
    return gap <= tol, how + f"(relative gap {_relative(num, val)})"


def _relative(num, val) -> str:
    return "0" if num == val else "∞" if val == 0 else mpmath.nstr(abs(num - val) / abs(val), 2)


def run_checks(notion, own, m, pairs, formula, value, fixing, own_ranges, enclosure_given=None) -> list:
    """[(text, ok)] at the given values and at sample points of a symbolic formula."""
    out = []
    points = []
    free = [r for r in m.params if r.symbol not in fixing]
    if value is not None and not free:     # a value free of symbols with parameters left (∞) is checked at samples
        points.append((fixing, own, value))
    ranges = free + [r for r in own_ranges if formula is not None and r.symbol in formula.free_symbols]
    if formula is not None and ranges:
        for k in range(2):
            pt = dict(fixing)
            for r in ranges:
                pt[r.symbol] = r.samples(2)[k]
            own_pt = {name: (v.xreplace(pt) if hasattr(v, "xreplace") else v) for name, v in own.items()}
            val = _at(formula, pt)
            if val is not None and not val.free_symbols:
                points.append((pt, own_pt, sp.simplify(val) if not val.has(sp.Sum) else val))
    if notion == "zcdp":
        return _zcdp_checks(m, pairs, points, enclosure_given)
    if notion == "gaussian-dp":
        return _gdp_checks(m, pairs, points)
    for pt, own_pt, val in points:
        at = m.fix({str(k): v for k, v in pt.items() if str(k) in m.symbols})
        mpmath.mp.dps = max(digits_for(val), _narrow_digits(at))
        num = _level_at(notion, own_pt, at, pairs)
        ok, how = _agree(notion, num, to_mpf(val, mpmath.mp.dps), floor_of(notion, own_pt))
        shown = ", ".join(f"{k}={v}" for k, v in pt.items()) or "the mechanism"
        out.append((f"at {shown}: {how}", bool(ok)))
    return out


def _zcdp_checks(m, pairs, points, enclosure_given):
    out = []
    for pt, _, val in points:
        at = m.fix({str(k): v for k, v in pt.items() if str(k) in m.symbols})
        top_exact = val if enclosure_given is None else enclosure_given[1]
        mpmath.mp.dps = digits_for(top_exact)
        top = to_mpf(top_exact, mpmath.mp.dps)
        best = max(_level_at("renyi-dp", {"alpha": o}, at, pairs) / mpmath.mpf(o) for o in ORDERS)
        tol = REL_TOL * abs(top) + max(floor_of("renyi-dp", {"alpha": o}) for o in ORDERS)
        shown = ", ".join(f"{k}={v}" for k, v in pt.items()) or "the mechanism"
        out.append((f"at {shown}: the largest D_α/α at α in {{{', '.join(ORDERS)}}} by quadrature, "
                    f"{mpmath.nstr(best, 12)}, is ≤ ρ", bool(best <= top + tol)))
    return out


def _gdp_checks(m, pairs, points):
    """At each ε of PROFILE_EPS the pair's δ(ε) by quadrature (at digits enough for that δ) against the μ-GDP
    profile, relatively."""
    out = []
    for pt, _, val in points:
        if val == sp.oo:
            continue
        at = m.fix({str(k): v for k, v in pt.items() if str(k) in m.symbols})
        ok, worst = True, mpmath.mpf(0)
        for e in PROFILE_EPS:
            mpmath.mp.dps = DIGITS
            ref = gdp_profile_numeric(to_mpf(val, MAX_DIGITS), mpmath.mpf(e))
            mpmath.mp.dps = digits_for(ref)
            mu, eps = to_mpf(val, mpmath.mp.dps), mpmath.mpf(e)
            ref = gdp_profile_numeric(mu, eps)
            d = _level_at("approx-dp", {"eps": e}, at, pairs)
            ok = ok and abs(d - ref) <= REL_TOL * abs(ref) + floor_of("approx-dp", {"eps": e})
            worst = max(worst, abs(d - ref) / abs(ref) if ref != 0 else abs(d))
        shown = ", ".join(f"{k}={v}" for k, v in pt.items()) or "the mechanism"
        out.append((f"at {shown}: the pair's δ(ε) by quadrature equals the μ-GDP profile "
                    f"Φ(−ε/μ+μ/2) − e^ε·Φ(−ε/μ−μ/2) at ε in {{{', '.join(PROFILE_EPS)}}} (largest relative gap "
                    f"{mpmath.nstr(worst, 3)})", bool(ok)))
    return out


def gdp_profile_numeric(mu, eps):
    """δ_μ(ε) of μ-GDP (Dong, Roth, Su 2022, Cor. 2.13); 0 for μ = 0."""
    if mu <= 0:
        return mpmath.mpf(0)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e ** eps * mpmath.ncdf(-eps / mu - mu / 2)
