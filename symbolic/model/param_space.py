"""Parameters of a symbolic mechanism table with their ranges, and exact sign decisions over a range.

A :class:`ParamRange` is one real parameter with an interval (each end open, closed or absent); its
sympy symbol carries what the range says about the sign (``positive``/``nonnegative``), which helps
sympy simplify. :func:`sign_on` decides the sign of an expression over an open interval of one
parameter (or the interior of a box of several), in this order:

1. the interval's interior is written as the image of positive symbols t (``a + (b-a)·t/(1+t)``,
   ``a + t``, ``b - t``) and sympy decides the sign of the substituted, simplified expression;
2. with one parameter, sympy's ``solveset`` gives every zero and pole in the interval (a finite set,
   else the method gives up); between consecutive ones the expression is continuous and nonzero, so
   its sign there is the exact sign at one rational point of that piece.

Both steps are proofs (the second trusts ``solveset``'s answer to be the complete set of zeros, as its
documentation promises for a ``FiniteSet``). When neither applies the answer is ``None`` (undecided),
never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.ranges import describe


@dataclass(frozen=True)
class ParamRange:
    """A real parameter ``name`` in the interval given by its bounds (None: unbounded on that side)."""

    name: str
    lower: sp.Rational | None = None
    lower_strict: bool = False
    upper: sp.Rational | None = None
    upper_strict: bool = False

    @classmethod
    def of(cls, param) -> "ParamRange":
        """The range of a claim parameter or a notion's parameter specification (anything with ``name``,
        ``lower``, ``upper`` and their ``*_strict`` flags)."""
        lo, hi = (None if v is None else sp.sympify(v) for v in (param.lower, param.upper))
        return cls(param.name, lo, bool(param.lower_strict), hi, bool(param.upper_strict))

    def __post_init__(self):
        if self.lower is not None and self.upper is not None:
            s = exact_sign(self.upper - self.lower)
            if s < 0 or (s == 0 and (self.lower_strict or self.upper_strict)):
                raise InvalidParameter(f"the range {self.text()} is empty; give a lower bound below the upper one")

    @property
    def symbol(self) -> sp.Symbol:
        """The parameter's symbol: real, and positive or nonnegative when the range says so."""
        if self.lower is not None and (self.lower > 0 or (self.lower == 0 and self.lower_strict)):
            return sp.Symbol(self.name, positive=True)
        if self.lower is not None and self.lower == 0:
            return sp.Symbol(self.name, nonnegative=True)
        return sp.Symbol(self.name, real=True)

    def text(self) -> str:
        return describe(self.name, self.lower, self.upper, self.lower_strict, self.upper_strict)

    def is_point(self) -> bool:
        return self.lower is not None and self.lower == self.upper

    def contains(self, value) -> bool:
        """Is the exact number ``value`` inside the range?"""
        if self.lower is not None:
            s = exact_sign(value - self.lower)
            if s < 0 or (s == 0 and self.lower_strict):
                return False
        if self.upper is not None:
            s = exact_sign(self.upper - value)
            if s < 0 or (s == 0 and self.upper_strict):
                return False
        return True

    def closed_ends(self) -> tuple:
        """The ends that belong to the range."""
        return tuple(v for v, strict in ((self.lower, self.lower_strict), (self.upper, self.upper_strict))
                     if v is not None and not strict)

    def samples(self, count: int = 3) -> tuple:
        """``count`` rational points strictly inside (evenly spread; a point range gives its one value)."""
        if self.is_point():
            return (self.lower,)
        return interior_points(self.lower, self.upper, count)

    def narrowed(self, other: "ParamRange") -> "ParamRange":
        """The intersection with another range of the same parameter."""
        lo, lo_s, hi, hi_s = self.lower, self.lower_strict, self.upper, self.upper_strict
        if other.lower is not None and (lo is None or other.lower > lo or (other.lower == lo and other.lower_strict)):
            lo, lo_s = other.lower, other.lower_strict
        if other.upper is not None and (hi is None or other.upper < hi or (other.upper == hi and other.upper_strict)):
            hi, hi_s = other.upper, other.upper_strict
        return ParamRange(self.name, lo, lo_s, hi, hi_s)


def interior_points(lo, hi, count: int = 3) -> tuple:
    """``count`` rational points strictly between ``lo`` and ``hi`` (None: unbounded; exact ends, possibly
    irrational).

    >>> interior_points(0, 1, 3), interior_points(2, None, 2)
    ((1/4, 1/2, 3/4), (5/2, 3))
    """
    lo, hi = (None if v is None else sp.sympify(v) for v in (lo, hi))
    if lo is None and hi is None:
        return tuple(sp.Rational(k - count // 2, 2) for k in range(count))
    if hi is None:
        base = _rational_at_or_above(lo)
        return tuple(base + sp.Rational(k + 1, 2) for k in range(count))
    if lo is None:
        base = _rational_at_or_below(hi)
        return tuple(base - sp.Rational(count - k, 2) for k in range(count))
    if lo.is_Rational and hi.is_Rational:
        return tuple(lo + (hi - lo) * sp.Rational(k + 1, count + 1) for k in range(count))
    mid = rational_between(lo, hi)
    if count == 1:
        return (mid,)
    a, b = rational_between(lo, mid), rational_between(mid, hi)
    return tuple(a + (b - a) * sp.Rational(k, count - 1) for k in range(count))


def _rational_at_or_above(x):
    return x if x.is_Rational else sp.ceiling(x)


def _rational_at_or_below(x):
    return x if x.is_Rational else sp.floor(x)


def rational_between(a, b) -> sp.Rational:
    """A short rational strictly between the exact reals a < b (either may be irrational).

    >>> rational_between(sp.sqrt(2), sp.Rational(3, 2))
    73/50
    """
    a, b = sp.sympify(a), sp.sympify(b)
    if a.is_Rational and b.is_Rational:
        return (a + b) / 2
    for digits in (4, 8, 16, 32, 64):
        mid = sp.Rational(str(sp.N((a + b) / 2, digits + 5)))
        for den in (10 ** k for k in range(1, digits + 1)):
            r = sp.Rational(round(mid * den), den)
            if exact_sign(r - a) > 0 and exact_sign(b - r) > 0:
                return r
    raise UndecidedComparison(f"could not find a rational between {a} and {b}")


def interior_substitution(rng: ParamRange, t: sp.Symbol, lo=None, hi=None):
    """An expression in the positive symbol ``t`` that runs over the open interval (lo, hi) of the
    parameter (by default the interior of its range) as t runs over (0, ∞)."""
    lo = rng.lower if lo is None else lo
    hi = rng.upper if hi is None else hi
    if lo is not None and hi is not None:
        return lo + (hi - lo) * t / (1 + t)
    if lo is not None:
        return lo + t
    if hi is not None:
        return hi - t
    return t - 1 / t  # onto the whole line


def symbolic_sign(expr, ranges, bounds=None):
    """+1 (> 0), -1 (< 0), 0 (identically 0) or None: the sign of ``expr`` throughout the open box of
    ``ranges`` (``bounds``: {name: (lo, hi)} narrowing some parameters), decided by sympy on the
    interior substitution (step 1 of the module docstring). Weak signs come back as ``"≥"``/``"≤"``."""
    bounds = bounds or {}
    expr = sp.sympify(expr)
    subs = {}
    for k, rng in enumerate(ranges):
        if rng.symbol in expr.free_symbols:
            lo, hi = bounds.get(rng.name, (None, None))
            subs[rng.symbol] = interior_substitution(rng, sp.Symbol(f"_t{k}", positive=True), lo, hi)
    if not expr.free_symbols:
        try:
            return exact_sign(expr)
        except UndecidedComparison:
            return None
    e = expr.subs(subs)
    # the forms are made one at a time, each only when the one before did not settle the sign
    # (simplify is by far the dearest, and seldom needed)
    return _sign_of_forms(f() for f in (lambda: e, lambda: sp.factor(sp.cancel(sp.together(e))),
                                        lambda: sp.simplify(e)))


def _sign_of_forms(forms):
    """The first sign sympy's assumptions settle among equal forms of one expression: 0, 1, -1,
    "≥" (nonnegative) or "≤" (nonpositive); None when none is settled."""
    for cand in forms:
        if cand.is_zero:
            return 0
        if cand.is_positive:
            return 1
        if cand.is_negative:
            return -1
        if cand.is_nonnegative:
            return "≥"
        if cand.is_nonpositive:
            return "≤"
    return None


def exp_form(expr, symbol):
    """``(g, z, L)`` with expr = g(z) at z = e^(symbol/L) and g free of ``symbol`` (a rational function of z
    for expressions such as the exponential mechanism's), or None when ``symbol`` appears other than in
    exp(c·symbol + d) with rational c.

    >>> a = sp.Symbol("a", positive=True); exp_form(sp.exp(-a / 2) / (1 + sp.exp(-a)), a)[0]
    1/(_z*(1 + _z**(-2)))
    """
    expr = sp.sympify(expr)
    z = sp.Symbol("_z", positive=True)
    parts = {}
    for e in expr.atoms(sp.exp):
        if symbol not in e.free_symbols:
            continue
        arg = sp.expand(e.args[0])
        c = arg.coeff(symbol)
        rest = sp.expand(arg - c * symbol)
        if symbol in rest.free_symbols or not c.is_Rational:
            return None
        parts[e] = (c, rest)
    if not parts:
        return None
    L = sp.ilcm(*[int(c.q) for c, _ in parts.values()]) if len(parts) > 1 else int(next(iter(parts.values()))[0].q)
    g = expr.xreplace({e: z ** (c * L) * sp.exp(rest) for e, (c, rest) in parts.items()})
    if symbol in g.free_symbols:
        return None
    return g, z, sp.Integer(L)


def _z_bounds(lo, hi, L):
    return (sp.Integer(0) if lo is None else sp.exp(lo / L)), (None if hi is None else sp.exp(hi / L))


def zeros_and_poles(expr, symbol, lo, hi):
    """Sorted exact points of the open interval (lo, hi) where ``expr`` is zero or its denominator is;
    None when sympy cannot list them as a finite set. An expression in e^(c·symbol) is also solved as a
    rational function of z = e^(symbol/L) (see :func:`exp_form`)."""
    got = _solve_points(expr, symbol, lo, hi)
    if got is not None:
        return got
    ef = exp_form(expr, symbol)
    if ef is None:
        return None
    g, z, L = ef
    zlo, zhi = _z_bounds(lo, hi, L)
    zs = _solve_points(g, z, zlo, zhi)
    return None if zs is None else [L * sp.log(r) for r in zs]


def _solve_points(expr, symbol, lo, hi):
    interval = sp.Interval.open(-sp.oo if lo is None else lo, sp.oo if hi is None else hi)
    num, den = sp.fraction(sp.together(expr))
    points = set()
    for part in (num, den):
        if symbol not in part.free_symbols:
            continue
        try:
            sol = sp.solveset(part, symbol, interval)
        except (NotImplementedError, ValueError, TypeError):
            return None
        if sol is sp.S.EmptySet:
            continue
        if not isinstance(sol, sp.FiniteSet) or not all(s.is_real for s in sol):
            return None
        points |= set(sol)
    try:
        return sorted(points, key=lambda r: sp.N(r, 50))
    except TypeError:
        return None


def value_at(expr, point: dict):
    """``expr`` with exact values substituted (a dict symbol -> value)."""
    return sp.sympify(expr).xreplace(point) if point else sp.sympify(expr)


def sign_pieces(expr, rng: ParamRange, lo=None, hi=None):
    """The sign of ``expr`` (a function of the one parameter of ``rng``) on the open interval (lo, hi)
    (default: the range's interior), as a list of (left, right, sign, sample) pieces cut at its zeros and
    poles, each sign exact at the rational ``sample`` and constant on the piece; None when the zeros
    cannot be listed (step 2 of the module docstring)."""
    lo = rng.lower if lo is None else lo
    hi = rng.upper if hi is None else hi
    x = rng.symbol
    cuts = zeros_and_poles(expr, x, lo, hi)
    if cuts is None:
        return None
    ends = [lo, *cuts, hi]
    pieces = []
    for a, b in zip(ends, ends[1:]):
        s = interior_points(a, b, 1)[0]
        try:
            sign = exact_sign(value_at(expr, {x: s}))
        except UndecidedComparison:
            return None
        pieces.append((a, b, sign, s))
    return pieces


def sign_on(expr, ranges, bounds=None):
    """The sign of ``expr`` throughout the open box of ``ranges`` (narrowed by ``bounds``): 1, -1, 0,
    ``"≥"`` (≥ 0, zero at most at finitely many points or on a lower-dimensional set), ``"≤"``, or None
    (undecided or changing sign). Step 1, then step 2 for one parameter (see the module docstring)."""
    s = symbolic_sign(expr, ranges, bounds)
    if s is not None:
        return s
    free = [r for r in ranges if r.symbol in sp.sympify(expr).free_symbols]
    if len(free) != 1:
        return None
    rng = free[0]
    lo, hi = (bounds or {}).get(rng.name, (None, None))
    s = _exp_sign(expr, rng, rng.lower if lo is None else lo, rng.upper if hi is None else hi)
    if s is not None:
        return s
    pieces = sign_pieces(expr, rng, lo, hi)
    if pieces is None:
        return None
    signs = {p[2] for p in pieces}
    if signs == {1}:
        return 1 if len(pieces) == 1 else "≥"
    if signs == {-1}:
        return -1 if len(pieces) == 1 else "≤"
    if signs <= {0, 1}:
        return "≥"
    if signs <= {0, -1}:
        return "≤"
    return None


def _exp_sign(expr, rng, lo, hi):
    """Step 1 on the rational-in-z form of an expression in e^(c·x) (see :func:`exp_form`)."""
    ef = exp_form(expr, rng.symbol)
    if ef is None:
        return None
    g, z, L = ef
    zlo, zhi = _z_bounds(lo, hi, L)
    t = sp.Symbol("_t", positive=True)
    e = g.subs(z, zlo + t if zhi is None else zlo + (zhi - zlo) * t / (1 + t))
    return _sign_of_forms((sp.factor(sp.cancel(sp.together(e))), sp.simplify(e)))


def sample_points(ranges, count: int = 3) -> list:
    """Rational points inside the box of ``ranges`` (as dicts symbol -> value): ``count`` per parameter
    along the diagonal, plus the corners of the inner grid when there are two or three parameters."""
    if not ranges:
        return [{}]
    per = [r.samples(count) for r in ranges]
    points = [{r.symbol: s[min(k, len(s) - 1)] for r, s in zip(ranges, per)} for k in range(count)]
    if 1 < len(ranges) <= 3:
        import itertools
        for combo in itertools.product(*[(s[0], s[-1]) for s in per]):
            pt = {r.symbol: v for r, v in zip(ranges, combo)}
            if pt not in points:
                points.append(pt)
    return points
