"""Functions of one output variable y on the real line or the integers, cut into smooth pieces.

A density or mass function is written with ``abs``; on each interval between the zeros of the
arguments of its ``abs`` terms every ``abs`` has one sign, so there the function is a plain
expression (exp of a polynomial, for the mechanisms of the field). This module

- describes the pieces (:class:`Piece`) that :mod:`symbolic.model.line_cuts` cuts the line into at
  those zeros, ordered exactly (or under the parameters' ranges), and the cells of step functions,
- decides signs of expressions in the parameters (:class:`Signs`: exact for numbers, sympy's
  assumptions for symbols, and conditions the caller has assumed),
- integrates over ℝ and sums over ℤ the expressions of one piece in closed form (:func:`integral`):
  c·e^(a·y + d) and c·e^(−A·y² + B·y + C) (A > 0) over any interval, the latter with erf; sums of
  c·e^(a·y + d) as geometric series. A sum of a Gaussian-type term has no closed form: it is kept as
  a sympy ``Sum`` that :mod:`symbolic.core.certified` encloses with a proved tail bound.

Anything else raises :class:`Undecided` with the reason: no guessed value ever comes back.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.model.param_space import sign_on, symbolic_sign

OO = sp.oo


class Undecided(DPCheckError):
    """A step that cannot be taken exactly (a sign the ranges leave open, an integral without closed
    form): the caller answers unknown with this reason."""


@dataclass(frozen=True)
class Signs:
    """Signs of expressions in the parameters: exact for numbers, sympy's assumptions under the
    ranges for symbols, and ``facts``, expressions assumed positive (a case of a case split), used
    when the expression is a positive or negative multiple of one of them."""

    ranges: tuple = ()
    facts: tuple = field(default=())

    def sign(self, expr) -> int | None:
        """+1, −1, 0 or None (undecided)."""
        expr = sp.sympify(expr)
        if expr in (OO, -OO):
            return 1 if expr == OO else -1
        if not expr.free_symbols:
            try:
                return exact_sign(expr)
            except UndecidedComparison:
                return None
        if expr.has(sp.Sum):   # sympy's assumptions evaluate sums numerically (and may fail): not for signs
            return None
        expr = exp_rational(expr)   # the same number as a factored rational function of one e^(θ/q): quicker read
        try:
            s = sign_on(expr, self.ranges)
            if s in (0, 1, -1):
                return s
            for f in self.facts:
                r = symbolic_sign(sp.simplify(expr / f), self.ranges)
                if r in (1, -1):
                    return r
        except (TypeError, ValueError, NotImplementedError):
            return None
        return None

    def assuming(self, positive) -> "Signs":
        return Signs(self.ranges, self.facts + (sp.sympify(positive),))

    def less(self, a, b) -> bool | None:
        """a < b (True), a ≥ b (False), or None."""
        s = self.sign(sp.sympify(b) - sp.sympify(a)) if not (a in (OO, -OO) or b in (OO, -OO)) else _inf_cmp(a, b)
        return None if s is None else s > 0

    def need(self, expr, what: str) -> int:
        s = self.sign(expr)
        if s is None:
            raise Undecided(f"the sign of {expr} ({what}) is not decided by the parameters' ranges")
        return s


def _inf_cmp(a, b):
    if a == b:
        return 0
    if a == -OO or b == OO:
        return 1
    return -1


@dataclass(frozen=True)
class Cells:
    """How the index k of a cell piece names cells of the real line: cell k is the interval
    [start + k·period, start + k·period + width), on which every law is constant (a law with ``floor``).
    A piece with cells holds the cells' masses (the law times ``width``) as functions of k."""

    start: sp.Expr
    width: sp.Expr
    period: sp.Expr

    def cell(self, k) -> tuple:
        return self.start + k * self.period, self.start + self.width + k * self.period

    def text(self, k) -> str:
        a, b = self.cell(k)
        return f"[{a}, {b})"


@dataclass(frozen=True)
class Piece:
    """The open interval (lo, hi) (ends may be ±∞) and ``exprs``: the functions there, without abs.
    For integer outputs the piece holds the integers lo ≤ y ≤ hi (``closed``). With ``cells`` the
    integers lo ≤ k ≤ hi index cells of the real line (see :class:`Cells`) and ``exprs`` are their masses."""

    lo: sp.Expr
    hi: sp.Expr
    exprs: tuple
    closed: bool = False
    cells: Cells | None = None

    def text(self) -> str:
        if self.cells is not None:
            return self.cells_text(self.lo, self.hi)
        left = "[" if self.closed and self.lo != -OO else "("
        right = "]" if self.closed and self.hi != OO else ")"
        return f"{left}{self.lo}, {self.hi}{right}"

    def cells_text(self, lo, hi) -> str:
        """The cells with index lo ≤ k ≤ hi, in words."""
        c = self.cells
        if lo == hi:
            return c.text(lo)
        k = sp.Symbol("k", integer=True)
        span = ("every integer k" if lo == -OO and hi == OO else f"k ≥ {lo}" if hi == OO else
                f"k ≤ {hi}" if lo == -OO else f"{lo} ≤ k ≤ {hi}")
        return f"the cells {c.text(k)}, {span}"

    def point_text(self, k) -> str:
        """Where the point k of the piece lies, in words: y = k, or the cell of index k."""
        return f"y = {k}" if self.cells is None else f"y in {self.cells.text(k)}"

    def at_text(self, end) -> str:
        """Where an end of the piece lies, in words: the point itself when the piece holds it, else a limit."""
        if end in (OO, -OO):
            toward = "∞" if end == OO else "−∞"
            return f"as y → {toward}" if self.cells is None else f"y in {self.text()}, as k → {toward}"
        return self.point_text(end) if self.closed else f"as y → {end}"


def sorted_distinct(points, signs: Signs, greater) -> list:
    """``points`` in increasing order, each equal value once (equality decided exactly by ``signs``);
    ``greater(p, q)`` says whether p > q (and raises when it cannot tell)."""
    ordered = []
    for p in points:
        if any(signs.sign(p - q) == 0 for q in ordered):
            continue
        k = 0
        while k < len(ordered) and greater(p, ordered[k]):
            k += 1
        ordered.insert(k, p)
    return ordered


def floor_exact(x) -> sp.Integer:
    """⌊x⌋ of an exact number, decided by a certified enclosure when x is not rational."""
    x = sp.sympify(x)
    if x.is_Rational:
        return sp.floor(x)
    from symbolic.core import certified as C
    for bits in (64, 256, 1024):
        try:
            b = C.enclose(x, bits)
        except C.NotEnclosable as e:
            raise Undecided(f"⌊{x}⌋ cannot be computed: {e}") from None
        lo, hi = sp.floor(b.lower()), sp.floor(b.upper())
        if lo == hi:
            return lo
    raise Undecided(f"⌊{x}⌋ is not decided: x is too close to an integer")


def inside_point(lo, hi):
    """A point of the interval (lo, hi) (ends may be ±∞): the middle, or one unit from the finite end."""
    if lo == -OO and hi == OO:
        return sp.Integer(0)
    if lo == -OO:
        return hi - 1
    if hi == OO:
        return lo + 1
    return (lo + hi) / 2


def exp_rational(c):
    """``c`` simplified as a rational function of x = e^(θ/q) when every exp in it is e^(r·θ) for one
    parameter θ and rationals r (q the least common denominator), else ``c`` unchanged: the staircase's
    normaliser (1 − e^(−ε))/(2(γ + (1 − γ)e^(−ε))) at γ = 1/(1 + e^(ε/2)) becomes (e^ε − 1)/(2e^(ε/2)).

    >>> t = sp.Symbol("t", positive=True)
    >>> exp_rational((1 - sp.exp(-t)) / (1 + sp.exp(-t / 2)))
    (exp(t/2) - 1)*exp(-t/2)
    """
    c = sp.sympify(c)
    syms = c.free_symbols
    if len(syms) > 1 or not c.has(sp.exp, sp.sinh, sp.cosh, sp.tanh, sp.E):
        return c
    if c.has(sp.log):                       # the logarithm of such a function: its argument simplified
        return c.replace(lambda t: isinstance(t, sp.log), lambda t: sp.log(exp_rational(t.args[0])))
    c = c.rewrite(sp.exp) if c.has(sp.sinh, sp.cosh, sp.tanh) else c
    theta = next(iter(syms)) if syms else sp.Integer(1)        # a number: powers of e^(1/q)
    powers = {e: sp.simplify(e.args[0] / theta) for e in c.atoms(sp.exp)}
    if c.has(sp.E):
        powers[sp.E] = sp.Integer(1) if not syms else None
    if any(r is None or not r.is_Rational for r in powers.values()):
        return c
    q = sp.ilcm(1, *[r.q for r in powers.values()])
    x = sp.Dummy("x", positive=True)
    rational = c.xreplace({e: x ** int(r * q) for e, r in powers.items()})
    if (syms and rational.has(theta)) or rational.has(sp.exp, sp.log, sp.E):
        return c
    return sp.factor(sp.cancel(rational)).xreplace({x: sp.exp(theta / q)})


# ---------------------------------------------------------------- closed-form integrals and sums
def exp_terms(expr, y, _depth: int = 0) -> list:
    """expr as a sum of c·e^(g(y)) with c free of y and g a polynomial of degree ≤ 2 in y: a list of (c, g)."""
    out = []
    for term in sp.Add.make_args(sp.sympify(expr)):
        c, dep = term.as_independent(y, as_Add=False)
        dep = sp.powsimp(dep, combine="exp")
        if dep == 1:
            out.append((c, sp.Integer(0)))
            continue
        if isinstance(dep, sp.exp) or (dep.is_Pow and not dep.base.has(y)):
            g = sp.expand(dep.args[0] if isinstance(dep, sp.exp) else dep.exp * sp.log(dep.base))
            if not g.is_polynomial(y) or sp.Poly(g, y).degree() > 2:
                raise Undecided(f"e^({g}) has an exponent that is not a polynomial of degree ≤ 2 in {y}")
            out.append((c, g))
            continue
        spread = sp.expand(dep)
        if _depth >= 3 or spread == dep:
            raise Undecided(f"{dep} is not of the form e^(polynomial in {y}): no closed form is tried for it")
        out += [(c * c2, g) for c2, g in exp_terms(spread, y, _depth + 1)]
    return out


def _live_terms(expr, y, signs: Signs):
    """(c, g, A2, A1, A0) for each term c·e^g of expr with c not 0 (g = A2·y² + A1·y + A0)."""
    for c, g in exp_terms(expr, y):
        if signs.sign(c) == 0:
            continue
        poly = sp.Poly(g, y)
        yield (c, g, *(poly.coeff_monomial(y ** k) for k in (2, 1, 0)))


def integral(expr, y, lo, hi, signs: Signs) -> sp.Expr:
    """∫_lo^hi expr dy in closed form (expr a sum of c·e^(polynomial of degree ≤ 2)); ∞ when it diverges."""
    total = sp.Integer(0)
    for c, g, A2, A1, A0 in _live_terms(expr, y, signs):
        if A2 == 0 and A1 == 0 or signs.sign(A2) == 0 and signs.sign(A1) == 0:
            if lo == -OO or hi == OO:
                total += OO * signs.need(c, "a constant term on an unbounded piece")
                continue
            total += c * sp.exp(A0) * (hi - lo)
        elif A2 == 0 or signs.sign(A2) == 0:
            s = signs.need(A1, f"the slope of the exponent {g}")
            if (lo == -OO and s < 0) or (hi == OO and s > 0):
                total += OO * signs.need(c, "a growing term on an unbounded piece")
                continue
            up = sp.Integer(0) if hi == OO else sp.exp(A1 * hi)
            down = sp.Integer(0) if lo == -OO else sp.exp(A1 * lo)
            total += c * sp.exp(A0) * (up - down) / A1
        else:
            if signs.need(A2, f"the leading coefficient of {g}") > 0:
                if lo == -OO or hi == OO:
                    total += OO * signs.need(c, "a term growing like e^(y²)")
                    continue
                raise Undecided(f"∫ e^({g}) with a positive y² coefficient over a bounded piece (erfi) is not tried")
            A = -A2
            m = A1 / (2 * A)
            root = sp.sqrt(A)
            ends = [sp.Integer(1) if hi == OO else sp.erf(root * (hi - m)),
                    sp.Integer(-1) if lo == -OO else sp.erf(root * (lo - m))]
            total += c * sp.exp(A0 + A * m ** 2) * sp.sqrt(sp.pi) / (2 * root) * (ends[0] - ends[1])
    return total


def series(expr, y, lo, hi, signs: Signs) -> sp.Expr:
    """Σ_{y=lo}^{hi} expr over the integers (lo, hi integers or ±∞): geometric terms in closed form,
    Gaussian-type terms (a negative y² coefficient) as a sympy ``Sum`` (certified.enclose bounds it)."""
    total = sp.Integer(0)
    for c, g, A2, A1, A0 in _live_terms(expr, y, signs):
        if A2 != 0 and signs.sign(A2) != 0:
            if signs.need(A2, f"the y² coefficient of {g}") > 0 and (lo == -OO or hi == OO):
                total += OO * signs.need(c, "a term growing like e^(y²)")
                continue
            total += c * _gaussian_series(A2, A1, A0, y, lo, hi)
            continue
        if A1 == 0 or signs.sign(A1) == 0:
            if lo == -OO or hi == OO:
                total += OO * signs.need(c, "a constant term over infinitely many integers")
                continue
            total += c * sp.exp(A0) * (hi - lo + 1)
            continue
        s = signs.need(A1, f"the slope of the exponent {g}")
        if (lo == -OO and s < 0) or (hi == OO and s > 0):
            total += OO * signs.need(c, "a growing term over infinitely many integers")
            continue
        r = sp.exp(A1)
        first = sp.Integer(0) if lo == -OO else sp.exp(A1 * lo)
        after = sp.Integer(0) if hi == OO else sp.exp(A1 * (hi + 1))
        total += c * sp.exp(A0) * (first - after) / (1 - r)
    return total


def _gaussian_series(A2, A1, A0, y, lo, hi):
    """Σ_{y=lo}^{hi} e^(A2·y² + A1·y + A0) (A2 < 0) as a Sum; over all of ℤ with an integer vertex
    v = −A1/(2·A2) the sum is shifted to Σ e^(A2·y²) (the same number: y ↦ y + v is a bijection of ℤ),
    so that shifted laws share one normalising constant."""
    v = sp.simplify(-A1 / (2 * A2))
    if lo == -OO and hi == OO and v.is_Integer:
        return sp.exp(sp.simplify(A0 - A2 * v ** 2)) * sp.Sum(sp.exp(A2 * y ** 2), (y, lo, hi))
    return sp.Sum(sp.exp(A2 * y ** 2 + A1 * y + A0), (y, lo, hi))


def is_infinite(value) -> bool:
    """Does a computed total diverge (±∞ outside the limits of an unevaluated Sum)?"""
    outside = sp.sympify(value).xreplace({t: sp.Dummy() for t in sp.sympify(value).atoms(sp.Sum)})
    return outside.has(sp.oo, -sp.oo, sp.zoo, sp.nan)


def total(expr, y, piece: Piece, signs: Signs) -> sp.Expr:
    """The integral (real outputs) or the sum (integer outputs) of ``expr`` over one piece."""
    if piece.closed:
        return series(expr, y, piece.lo, piece.hi, signs)
    return integral(expr, y, piece.lo, piece.hi, signs)
