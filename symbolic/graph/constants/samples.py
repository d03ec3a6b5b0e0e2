"""Where `derive map` samples A's parameters: the values at which the search estimates B's level, and the
second pass of the recogniser for maps in √E (the values E = u², at which √E is rational).

>>> from symbolic.notions.families.dp import PureDP
>>> [str(p["E"]) for p in sample_points(PureDP.params)][:4], e_like(PureDP.params)
(['2', '3', '4', '5'], True)
"""
from __future__ import annotations

import itertools
import math

import sympy as sp

from symbolic.graph.constants.fit import UNBOUNDED, recognise, search

MAX_POINTS = 8
UNBOUNDED_SAMPLES = (2, 3, 4, 5, 6, 7, 9, 11)
BOUNDED_SAMPLES = (sp.Rational(1, 10), sp.Rational(1, 5), sp.Rational(1, 4), sp.Rational(1, 3), sp.Rational(2, 5),
                   sp.Rational(1, 2), sp.Rational(3, 5), sp.Rational(2, 3))
GRID = 4  # sample values per parameter when A has two


def sample_points(params) -> list:
    """Sample values of A's parameters (their ranges, as narrowed by the question's assumptions): one list per
    parameter, crossed when there are two."""
    lists = []
    for p in params:
        lo = sp.sympify(p.lower) if p.lower is not None else sp.Integer(0)
        if p.upper is None:
            step = 1 if lo == 1 else sp.Rational(1, 2)  # E = e^ε from 2; other levels by halves
            vals = [lo + step * (k - 1 if lo == 1 else k) for k in UNBOUNDED_SAMPLES]
        else:
            vals = [lo + (sp.sympify(p.upper) - lo) * t for t in BOUNDED_SAMPLES]
        lists.append(vals)
    if len(lists) == 1:
        return [{params[0].name: v} for v in lists[0][:MAX_POINTS]]
    return [dict(zip([p.name for p in params], c)) for c in itertools.product(*[v[:GRID] for v in lists])]


def e_like(params) -> bool:
    """A has one parameter, a ratio E = e^ε ranging over [1, ∞) or a part of it from 1 up."""
    return len(params) == 1 and params[0].lower is not None and sp.sympify(params[0].lower) >= 1


def square_roots(param) -> list:
    """Rational values u with u² in ``param``'s range (from 1 up): 2, …, 9 without an upper end, else
    spread between rationals just inside √lower and √upper."""
    if param.upper is None:
        return [sp.Integer(k) for k in range(2, 2 + MAX_POINTS)]
    lo, hi = (sp.sqrt(sp.sympify(v)) for v in (param.lower, param.upper))
    lo = lo if lo.is_Rational else sp.Rational(math.ceil(lo * 1000), 1000)
    hi = hi if hi.is_Rational else sp.Rational(math.floor(hi * 1000), 1000)
    return [lo + (hi - lo) * t for t in BOUNDED_SAMPLES] if lo < hi else []


def in_square_root(an, bn, target, fixed_b, shape, param, seed, starts, first, why):
    """The second pass of the recogniser, for maps in √E (ε/2 in the exponent, as in B(E^(1/2), ·)): estimates at
    E = u² for the values u of :func:`square_roots`, a rational function of u fitted exactly through them, and u
    replaced by √E. Returns (formula or None, the estimates to keep, the reason when none)."""
    u, x = sp.Symbol("u", positive=True), param.symbol
    estimates, warm = [], None
    for k in square_roots(param):
        est = search(an, bn, target, fixed_b, {x.name: k * k}, shape, starts=starts, seed=seed, warm=warm)
        if not math.isfinite(est.value) or est.value > UNBOUNDED:
            return None, first, why
        estimates.append(est)
        warm = est.x
        if len(estimates) >= 3:
            f, _ = recognise([((sp.sqrt(e.point[x.name]),), e.value) for e in estimates], [u])
            if f is not None:
                return sp.simplify(f.xreplace({u: sp.sqrt(x)})), estimates, None
    return None, first, why + "; nor of √" + x.name
