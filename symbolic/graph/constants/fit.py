"""The numeric half of a conversion between two notions: proposals only, never a verdict.

For notions A and B and a value a of A's parameters, the best parameter of B implied by A(a) at given
sizes is f(a) = sup { level_B(T) : T a table with A(a) true on T }, where level_B(T) is the least value
of B's parameter at which B holds on T (B gets weaker as its parameter grows: E = e^ε, δ, ...). This
module estimates f(a) in floating point and proposes a closed form:

1. **Float reading of a notion.** A body written over ``ops`` is read by :class:`MarginOps`: each
   condition becomes a margin, a float that is ≥ 0 exactly when the condition holds (``x ≤ y`` gives
   y − x, ``And`` the least margin, ``Or`` the largest, ``Not`` the negation). The margin is continuous
   in the table and monotone in B's parameter, so level_B(T) is a root found by Brent's method.
2. **Feasible tables.** A table T (rows = softmax of free logits) is mixed with the uniform table U,
   (1 − λ)·T + λ·U with the least λ that makes A(a) hold; the uniform table satisfies every notion of
   one mechanism at its strongest level, and every A-feasible table is reached with λ = 0.
3. **Search.** Nelder-Mead from many starts (randomized-response-shaped ones and seeded random ones),
   each value of a warm-started from the best table of the previous value.
4. **Recognition.** Each estimate is rounded to a rational with a small denominator, and a rational
   function of A's parameters (or the square or cube root of one) is fitted exactly through the
   rounded points by linear algebra over ℚ, with at least two points to spare as a check.

The estimates and the fitted formula are proposals: :mod:`symbolic.graph.constants.derivation` accepts a formula
only when the solver proves A(a) ⇒ B(f(a)) with a symbolic and an exact table attains it.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from symbolic.core.tables import MechTable, databases

UNBOUNDED = 1e7        # a level of B beyond this in the search is reported as unbounded
ROUND_TOL = 1e-6       # a float is read as a rational when they agree to this relative tolerance


def _m(x):
    """A margin from a margin or a Python truth value (a body may fold constants to bools)."""
    if isinstance(x, bool):
        return sp.oo if x else -sp.oo
    return sp.sympify(x)


class MarginOps:
    """A notion body read as a margin, a sympy expression in the table entries and parameters that is
    ≥ 0 when the condition holds: ``x ≤ y`` and ``x < y`` give y − x (strictness is lost: tables in
    the search have no zero entry, so only the exact checks see it), ``x = y`` gives −|x − y|, ``And``
    the least margin, ``Or`` the largest, ``Not`` the negation. For the numeric search only; no
    decision rests on it."""

    exact = False
    trace: list = []

    def num(self, x):
        return sp.sympify(x)

    def sum(self, xs):
        return sp.Add(*list(xs))

    def le(self, a, b, why=None):
        return sp.sympify(b) - a

    def lt(self, a, b, why=None):
        return sp.sympify(b) - a

    def eq(self, a, b, why=None):
        return -sp.Abs(sp.sympify(a) - b)

    def ge(self, a, b, why=None):
        return self.le(b, a)

    def gt(self, a, b, why=None):
        return self.lt(b, a)

    def And(self, xs):
        xs = [_m(x) for x in xs]
        return sp.Min(*xs, evaluate=False) if len(xs) > 1 else (xs[0] if xs else sp.oo)

    def Or(self, xs):
        xs = [_m(x) for x in xs]
        return sp.Max(*xs, evaluate=False) if len(xs) > 1 else (xs[0] if xs else -sp.oo)

    def Not(self, x):
        return -_m(x)

    def Implies(self, a, b):
        return self.Or([self.Not(a), b])

    def If(self, c, a, b):
        return sp.Piecewise((a, _m(c) >= 0), (b, True))

    def max0(self, x):
        return sp.Max(0, x, evaluate=False)

    def sqrt(self, x):
        return sp.sqrt(x)


_COMPILED: dict = {}


def compiled_margin(notion, shape):
    """The margin of ``notion`` on tables of ``shape`` as a fast float function
    ``f(entries, values)`` (entries row by row; ``values`` the notion's parameters by name)."""
    key = (id(notion), shape)
    if key not in _COMPILED:
        cells = [[sp.Symbol(f"t{i}_{o}", real=True) for o in range(shape.outputs)] for i in range(len(shape.dbs))]
        params = [sp.Symbol(p.name, real=True) for p in notion.params]
        expr = _m(notion.body(MarginOps(), shape.table(cells), **{str(s): s for s in params}))
        fn = sp.lambdify([s for row in cells for s in row] + params, expr, modules="math")
        names = [str(s) for s in params]
        _COMPILED[key] = (notion, lambda entries, values: fn(*entries, *(float(values[k]) for k in names)))
    return _COMPILED[key][1]


def margin(notion, shape, rows, values: dict) -> float:
    """The float margin of ``notion`` on the table ``rows`` at parameter ``values`` (≥ 0: holds)."""
    try:
        return float(compiled_margin(notion, shape)([p for r in rows for p in r], values))
    except (ZeroDivisionError, OverflowError, ValueError):
        return -math.inf


@dataclass(frozen=True)
class Shape:
    """Table sizes: n records over ``domain`` values, ``outputs`` outputs."""

    n: int
    domain: int
    outputs: int

    @property
    def dbs(self) -> list:
        return databases(self.n, tuple(range(self.domain)))

    def table(self, rows) -> MechTable:
        return MechTable(self.n, tuple(range(self.domain)), tuple(range(self.outputs)),
                         dict(zip(self.dbs, (tuple(r) for r in rows))))


def softmax_rows(x, shape: Shape) -> list:
    """Rows of probabilities from free logits (the last logit of each row is 0)."""
    k = shape.outputs - 1
    rows = []
    for i in range(len(shape.dbs)):
        z = list(x[i * k:(i + 1) * k]) + [0.0]
        top = max(z)
        w = [math.exp(v - top) for v in z]
        s = sum(w)
        rows.append([v / s for v in w])
    return rows


def mix(rows, lam: float) -> list:
    """(1 − λ)·rows + λ·uniform."""
    u = 1.0 / len(rows[0])
    return [[(1 - lam) * p + lam * u for p in r] for r in rows]


def _root(g, lo: float, hi: float) -> float:
    """The least x in [lo, hi] with g(x) ≥ 0, g non-decreasing, g(lo) < 0 ≤ g(hi). Brent's method finds a
    root; when g is 0 on a stretch (a condition that holds trivially contributes a margin of exactly 0, so
    the least margin stays 0 once the others are met) that root may lie anywhere on it, so a root with
    g ≥ 0 just below it is replaced by bisection for the least one."""
    from scipy.optimize import brentq
    try:
        r = brentq(g, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=200)
        below = r - 1e-9 * max(1.0, abs(r))
        if below <= lo or g(below) < 0:
            return r
        hi = r
    except ValueError:  # a jump over zero without a sign change at the ends: plain bisection
        pass
    for _ in range(200):
        mid = (lo + hi) / 2
        if not lo < mid < hi:
            break
        lo, hi = (lo, mid) if g(mid) >= 0 else (mid, hi)
    return hi


def feasible(notion, rows, shape: Shape, values: dict):
    """(λ, rows mixed with the uniform table at the least λ making ``notion`` hold), or None when even
    the uniform table fails."""
    def g(lam):
        return margin(notion, shape, mix(rows, lam), values)
    if g(0.0) >= 0:
        return 0.0, rows
    if g(1.0) < 0:
        return None
    lam = min(1.0, _root(g, 0.0, 1.0) * (1 + 1e-12) + 1e-15)
    return lam, mix(rows, lam)


def level(notion, name: str, spec, rows, shape: Shape, fixed: dict) -> float:
    """The least value of parameter ``name`` (range ``spec``) at which ``notion`` holds on the float
    table (``math.inf`` when none up to the range's end or :data:`UNBOUNDED`)."""
    def g(b):
        return margin(notion, shape, rows, {**fixed, name: b})
    lo = float(spec.lower) if spec.lower is not None else 0.0
    if g(lo) >= 0:
        return lo
    hi = float(spec.upper) if spec.upper is not None else lo + 1.0
    while g(hi) < 0:
        if spec.upper is not None or hi > UNBOUNDED:
            return math.inf
        hi = lo + 2 * (hi - lo)
    return _root(g, lo, hi)


@dataclass(frozen=True)
class Estimate:
    """The best table found for one value of A's parameters: ``value`` its B-level, ``rows`` the table
    (A-feasible in floating point), ``x`` the logits it came from."""

    point: dict
    value: float
    rows: list
    x: tuple


def search(a, b, target: str, fixed_b, point: dict, shape: Shape, *, starts: int = 8, seed: str = "",
           warm=None, maxfev: int = 800) -> Estimate:
    """Estimate sup level_B over tables satisfying A at ``point`` (floats). ``fixed_b``: B's other
    parameters as a function of the point; ``warm``: logits to start from first."""
    from scipy.optimize import minimize
    spec = next(p for p in b.params if p.name == target)
    fb = fixed_b(point)
    dim = len(shape.dbs) * (shape.outputs - 1)
    best = [None]

    def value(x):
        rows = softmax_rows(x, shape)
        got = feasible(a, rows, shape, point)
        if got is None:
            return math.inf
        v = level(b, target, spec, got[1], shape, fb)
        if best[0] is None or v > best[0].value + 1e-12 * max(1.0, abs(v)):
            best[0] = Estimate(point, v, canonical(got[1]), tuple(x))
        return -v if math.isfinite(v) else -UNBOUNDED * 10

    rng = random.Random(f"{seed}|{sorted(point.items())}|{shape}")
    slopes = [math.log(float(v)) for k, v in point.items()
              if next((p for p in a.params if p.name == k and p.lower == 1), None) is not None and v > 1]
    firsts = list(_starts(shape, dim, starts, rng, warm, slopes))
    scored = sorted(range(len(firsts)), key=lambda i: value(firsts[i]))  # the starts by their own value
    # from a warm start (the best table at a nearby point), it and the best other start are refined; else the
    # best three (or half of the random starts)
    keep = sorted(set(scored[:1 if warm is not None else max(3, starts // 2)]) | ({0} if warm is not None else set()))
    for i in keep if dim else ():
        if not math.isfinite(best[0].value):
            break
        minimize(value, firsts[i], method="Nelder-Mead",
                 options={"maxfev": maxfev * max(1, dim // 2), "xatol": 1e-10, "fatol": 1e-14, "adaptive": dim > 4})
    for _ in range(3 if dim and math.isfinite(best[0].value) else 0):  # polish: restarts from the best
        minimize(value, best[0].x, method="Nelder-Mead",
                 options={"maxfev": maxfev * max(1, dim // 2), "xatol": 1e-12, "fatol": 1e-15, "adaptive": dim > 4})
    return best[0]


def canonical(rows) -> list:
    """The same table with its outputs reordered so that the first row decreases (ties by the later
    rows): relabelling outputs changes no notion of one mechanism, and the best tables of nearby
    parameter values then line up entry by entry."""
    order = sorted(range(len(rows[0])), key=lambda o: tuple(-round(r[o], 9) for r in rows))
    return [[r[o] for o in order] for r in rows]


def _starts(shape: Shape, dim: int, count: int, rng, warm, slopes=()):
    if warm is not None:
        yield list(warm)
    k = shape.outputs - 1
    for scale in (2.0, 6.0):  # randomized-response shapes: output (Σ record positions) mod |O| favoured
        x = []
        for d in shape.dbs:
            hit = sum(d) % shape.outputs
            x += [scale * ((1 if o == hit else 0) - (1 if hit == k else 0)) for o in range(k)]
        yield x
    top = max(1, shape.n * (shape.domain - 1))
    for scale in (1.0, 3.0, 8.0):  # monotone shapes: outputs ordered along Σ record positions
        x = []
        for d in shape.dbs:
            at = k * sum(d) / top
            x += [-scale * ((at - o) ** 2 - (at - k) ** 2) for o in range(k)]
        yield x
    for slope in slopes:  # the first output's odds e^(±slope·Σ positions): a level-ε chain along the records
        for sign, shift in itertools.product((1, -1), (0.0, -3.0)):
            yield [(shift + sign * slope * sum(d)) if o == 0 else 0.0 for d in shape.dbs for o in range(k)]
    for _ in range(count):
        yield [rng.uniform(-4, 4) for _ in range(dim)]


# ---------------------------------------------------------------- rational reading and fitting
def as_rational(x: float, max_den: int = 1000):
    """The rational p/q of smallest denominator q ≤ ``max_den`` within :data:`ROUND_TOL` of ``x``
    relatively and within 1/(1000·q²) absolutely (closer than a float near no simple rational usually
    is to one), or None."""
    if not math.isfinite(x):
        return None
    den = 10
    while True:
        r = Fraction(x).limit_denominator(min(den, max_den))
        err = abs(float(r) - x)
        if err <= ROUND_TOL * max(1.0, abs(x)) and err <= 1 / (1000 * r.denominator ** 2):
            return sp.Rational(r.numerator, r.denominator)
        if den >= max_den:
            return None
        den *= 10


def _monomials(symbols, degree):
    out = []
    for total in range(degree + 1):
        for powers in itertools.product(range(total + 1), repeat=len(symbols)):
            if sum(powers) == total:
                out.append(sp.Mul(*[s ** k for s, k in zip(symbols, powers)]))
    return out


def fit_rational(points, symbols, *, max_degree: int = 4, spare: int = 2):
    """A rational function R of ``symbols`` with R(x) = y at every (x, y) of ``points`` (x a tuple of
    exact values, y exact), of least size: numerator and denominator of total degree ≤ ``max_degree``,
    found by exact linear algebra (the kernel of num(x) − y·den(x) = 0 must be one line), using at least
    ``spare`` more points than unknowns. None when no such function exists."""
    tries = sorted(((dn, dd) for dn in range(max_degree + 1) for dd in range(max_degree + 1)),
                   key=lambda t: (len(_monomials(symbols, t[0])) + len(_monomials(symbols, t[1])), t[1]))
    for dn, dd in tries:
        num, den = _monomials(symbols, dn), _monomials(symbols, dd)
        if len(num) + len(den) - 1 + spare > len(points):
            continue
        rows = []
        for x, y in points:
            sub = dict(zip(symbols, x))
            rows.append([m.subs(sub) for m in num] + [-y * m.subs(sub) for m in den])
        kernel = sp.Matrix(rows).nullspace()
        if len(kernel) != 1:
            continue
        v = kernel[0]
        p = sum(c * m for c, m in zip(v[:len(num)], num))
        q = sum(c * m for c, m in zip(v[len(num):], den))
        if q == 0 or any(q.subs(dict(zip(symbols, x))) == 0 for x, _ in points):
            continue
        return sp.factor(sp.cancel(p / q))
    return None


def recognise(points, symbols, *, max_degree: int = 4, quadratic: bool = True):
    """A closed form through float points ((x, y) with x exact): a rational function of the symbols,
    or the square or cube root of one (as Rényi levels of order 3 and 4 are), else None. Returns
    (formula, the rounded points used) or (None, reason)."""
    for k in (1, 2, 3):
        pts = []
        for x, y in points:
            r = as_rational(y ** k) if math.isfinite(y) else None
            if r is None:
                break
            pts.append((x, r))
        else:
            f = fit_rational(pts, symbols, max_degree=max_degree)
            if f is not None:
                return (f if k == 1 else sp.root(f, k)), pts
    if quadratic and len(symbols) == 1:
        f = fit_quadratic(points, symbols[0])
        if f is not None:
            return f, points
    return None, "the estimates are not values of a rational function (or its square or cube root) of " \
                 f"degree ≤ {max_degree} with points to spare, nor a root of a quadratic with coefficients linear in it"


QUADRATIC_TOL = 1e-9   # relative size of the least singular value that counts as a vanishing quadratic


def fit_quadratic(points, x, *, degree: int = 1, spare: int = 2):
    """y = the root of A(x)·y² + B(x)·y + C(x) = 0 that the points follow, A, B, C polynomials of degree ≤
    ``degree`` with small rational coefficients, or None. The coefficients are the kernel of the float matrix of
    the monomials (one vector when the least singular value is negligible and the next is not), read as
    rationals; the root is chosen by agreeing with every point. A proposal only, like every fit here.

    >>> x = sp.Symbol("E", real=True)
    >>> pts = [((sp.Integer(k),), (1 + math.sqrt(4 * k - 3)) / 2) for k in range(2, 10)]
    >>> fit_quadratic(pts, x)
    sqrt(4*E - 3)/2 + 1/2
    """
    import numpy as np
    n_unknown = 3 * (degree + 1)
    if len(points) < n_unknown - 1 + spare or any(not math.isfinite(y) for _, y in points):
        return None
    xs = [float(p[0][0]) for p in points]
    rows = [[y * y * v ** j for j in range(degree + 1)] + [y * v ** j for j in range(degree + 1)] +
            [v ** j for j in range(degree + 1)] for v, (_, y) in zip(xs, points)]
    m = np.array(rows, dtype=float)
    m = m / np.maximum(np.abs(m).max(axis=1, keepdims=True), 1e-300)
    _, sv, vt = np.linalg.svd(m)
    if len(sv) < n_unknown or sv[-1] > QUADRATIC_TOL * sv[0] or sv[-2] < 1e-7 * sv[0]:
        return None
    v = vt[-1] / vt[-1][np.argmax(np.abs(vt[-1]))]
    coeffs = [as_rational(float(c), 100) if abs(c) > 1e-9 else sp.Integer(0) for c in v]
    if any(c is None for c in coeffs):
        return None
    a, b, c = (sum(coeffs[k * (degree + 1) + j] * x ** j for j in range(degree + 1)) for k in range(3))
    if a == 0:
        return None
    y = sp.Symbol("y", real=True)
    for root in sp.solve(a * y ** 2 + b * y + c, y):
        try:
            if all(abs(float(root.subs(x, at[0])) - val) <= 1e-7 * max(1.0, abs(val)) for at, val in points):
                return sp.simplify(root)
        except (TypeError, ValueError):
            continue
    return None


def recognise_entries(estimates, symbols, shape: Shape, *, max_degree: int = 2):
    """The best tables of several parameter values as one table whose entries are rational functions
    of the parameters (each row's last entry 1 − the others), or None when some entry is not one."""
    k = shape.outputs
    cells = []
    for i in range(len(shape.dbs)):
        row = []
        for o in range(k - 1):
            pts = []
            for est in estimates:
                r = as_rational(est.rows[i][o], 10 ** 4)
                if r is None:
                    return None
                pts.append((tuple(est.point[str(s)] for s in symbols), r))
            f = fit_rational(pts, symbols, max_degree=max_degree)
            if f is None:
                return None
            row.append(f)
        row.append(sp.factor(sp.cancel(1 - sum(row))))
        cells.append(row)
    return cells


__all__ = ["MarginOps", "margin", "Shape", "Estimate", "search", "feasible", "level", "as_rational",
           "fit_rational", "fit_quadratic", "recognise", "recognise_entries"]
