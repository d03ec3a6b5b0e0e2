"""Closed forms derived by sympy from a mechanism's density or probabilities: the general pieces.

Each ``derive``-kind function returns a :class:`Derivation`: the formula is *computed*
(no final answer is typed in), ``steps`` record the intermediate results, ``extras`` hold
named by-products (limits, series, a source's display for comparison). Optional keyword
arguments substitute exact values after validation (:func:`finish`).

Here: the privacy loss of a shifted Laplace density (:func:`laplace_shift_loss`), the Bernoulli and
binomial moment generating functions, Taylor coefficients, the shared symbols and validators. The tight
level of a finite table with symbolic entries (ε-DP, PML under a prior, ...) is
:func:`symbolic.derive.level.derive_level`. What one source derives from these pieces (its
mechanisms' closed forms, limits, bounds and figures) lives with its claims in ``theorems/``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp
import sympy.stats as st

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.core.exact import exact, expr_text, parse_expr
from symbolic.core.ops import exact_sign

EPS = sp.Symbol("epsilon", positive=True)
LAM = sp.Symbol("lambda", positive=True)
P = sp.Symbol("p", positive=True)
N = sp.Symbol("n", positive=True, integer=True)
B = sp.Symbol("b", positive=True)
K = sp.Symbol("k", positive=True, integer=True)
D = sp.Symbol("d", positive=True, integer=True)
SIGMA = sp.Symbol("sigma", positive=True)
DELTA = sp.Symbol("Delta", positive=True)
ALPHA = sp.Symbol("alpha", positive=True)


@dataclass(frozen=True)
class Derivation:
    """A derived closed form: ``formula`` with its ``assumptions`` (text), the ``steps``
    (a tuple of (text, sympy expr)) and named ``extras``.

    >>> x = sp.Symbol("x")
    >>> d = Derivation("square", x ** 2, "x real")
    >>> d.at({x: 3})
    9
    """

    name: str
    formula: sp.Expr
    assumptions: str
    steps: tuple = ()
    extras: Mapping[str, sp.Expr] = field(default_factory=dict)

    def at(self, values: Mapping, expr=None) -> sp.Expr:
        """``formula`` (or ``expr``) with exact ``values`` substituted, e.g. {EPS: 1, LAM: sp.Rational(1, 4)}."""
        vals = {s: exact(v, what=str(s)) for s, v in values.items()}
        return sp.simplify((self.formula if expr is None else expr).subs(vals))


# ---------------------------------------------------------------- validation helpers
def _number(v, what):
    """An exact value: text is a number or an expression in numbers (``log(2)``, the restricted parser)."""
    return parse_expr(v, {}, what=what) if isinstance(v, str) else exact(v, what=what)


def valid_eps(v):
    """ε as an exact number ≥ 0 (or a symbol); signs decided exactly (certified for transcendental numbers)."""
    v = _number(v, "eps")
    if not v.free_symbols and exact_sign(v) < 0:
        raise InvalidParameter(f"eps={expr_text(v)} is negative; ε must be >= 0")
    return v


def valid_prob(v, what="p", open_=True):
    """A probability as an exact number in (0, 1) (``open_``) or [0, 1], or a symbol."""
    v = _number(v, what)
    if not v.free_symbols:
        low, high = exact_sign(v), exact_sign(1 - v)
        if (low <= 0 or high <= 0) if open_ else (low < 0 or high < 0):
            raise InvalidParameter(f"{what}={expr_text(v)} is outside {'(0, 1)' if open_ else '[0, 1]'}")
    return v


def valid_size(v, what, lo=1):
    """An integer size ≥ ``lo``."""
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise InvalidSize(f"{what}={v!r} must be an integer >= {lo}")
    return v


def finish(name, formula, assumptions, steps, extras, subs):
    """The :class:`Derivation` with the given exact values (``subs``: symbol -> value or None) substituted."""
    subs = {s: v for s, v in subs.items() if v is not None}
    if subs:                                            # plain substitution: no simplify on
        formula = formula.subs(subs)                    # large exact values (n = 200, ...)
        extras = {k: (e.subs(subs) if isinstance(e, sp.Basic) else e) for k, e in extras.items()}
    return Derivation(name, formula, assumptions, tuple(steps), dict(extras))


def sup_positive(expr, var):
    """sup over var in (0, ∞) of an expression monotone in var (checked by sympy)."""
    der = sp.simplify(sp.diff(expr, var))
    if der.is_nonnegative:
        return sp.limit(expr, var, sp.oo)
    if der.is_nonpositive:
        return sp.limit(expr, var, 0, "+")
    raise InvalidParameter(f"cannot decide the monotonicity of {expr} in {var}")


def laplace_shift_loss(delta=DELTA, b=B):
    """sup_y log Lap(y; μ+Δ, b)/Lap(y; μ, b) for Δ > 0, computed on the three regions
    y ≤ μ, μ ≤ y ≤ μ+Δ, y ≥ μ+Δ from sympy.stats' Laplace density. Returns (sup, steps).

    >>> laplace_shift_loss()[0]
    Delta/b
    """
    mu, y = sp.Symbol("mu", real=True), sp.Symbol("y", real=True)
    s, w = sp.symbols("s w", positive=True)
    dens = lambda m: st.density(st.Laplace("L", m, b))(y)
    g = sp.expand_log(sp.log(dens(mu + delta) / dens(mu)), force=True)
    regions = [sp.simplify(g.subs(y, mu - s)), sp.simplify(g.subs(y, mu + delta * w / (1 + w))),
               sp.simplify(g.subs(y, mu + delta + s))]
    sups = [sup_positive(r, v) for r, v in zip(regions, (s, w, s))]
    sup = sp.simplify(sp.Max(*sups))
    return sup, [("log density ratio of Lap(μ+Δ,b) to Lap(μ,b)", g),
                 ("on y = μ - s, y = μ + Δw/(1+w), y = μ + Δ + s", sp.Tuple(*regions)),
                 ("supremum over y (attained for every y ≥ μ+Δ)", sup)]


def bernoulli_mgf(p, t):
    """E[e^{tX}] for X ~ Bernoulli(p), from sympy.stats."""
    return sp.simplify(st.E(sp.exp(t * st.Bernoulli("X", p))))


def binomial_mgf_check(p, t, sizes=range(0, 5)):
    """The step E[e^{tK}] = M(t)^m for K ~ Bin(m, p), checked by expanding the sum."""
    M = bernoulli_mgf(p, t)
    for m in sizes:
        s = sum(sp.binomial(m, j) * p ** j * (1 - p) ** (m - j) * sp.exp(t * j) for j in range(m + 1))
        if sp.expand(s - M ** m) != 0:
            raise AssertionError(f"binomial MGF identity fails at m={m}")
    return M


def taylor(expr, var, order):
    """Σ_{j<order} f^{(j)}(0) var^j / j! (derivatives at 0; cheaper than sympy's series here)."""
    out, d = sp.Integer(0), expr
    for j in range(order):
        out += sp.simplify(d.subs(var, 0)) * var ** j / sp.factorial(j)
        d = sp.diff(d, var)
    return sp.expand(out)
