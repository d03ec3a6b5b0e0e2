"""A derived level at many values of one parameter: the formula is derived once by sympy and enclosed in balls
at each value (the privacy profile δ(ε) of a density at a thousand ε, say), not derived again per point: the
expression is read into balls once per value, the symbol's ball seeded where the walk meets it (no sympy
substitution)."""
from __future__ import annotations

import sympy as sp

from symbolic.core.certified import Ball, NotEnclosable, _arb_of_rational, _enclose, precision
from symbolic.core.errors import InvalidParameter, clip
from symbolic.core.exact import parse_expr
from symbolic.derive.level import derive_level

MAX_POINTS = 100_000
POINT_BITS = 128


def enclose_at(expr, symbol, values, bits: int = POINT_BITS) -> list:
    """[Ball] of ``expr`` at ``symbol`` = each of ``values`` (exact rationals), every other symbol absent.

    >>> x = sp.Symbol("x")
    >>> [b.contains(v) for b, v in zip(enclose_at(x ** 2 + 1, x, [sp.Rational(1, 2), 3]), [sp.Rational(5, 4), 10])]
    [True, True]
    """
    x = sp.sympify(expr)
    others = x.free_symbols - {symbol}
    if others:
        raise NotEnclosable(f"{clip(x)} has symbols besides {symbol} ({', '.join(sorted(map(str, others)))})")
    if x.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I):
        raise NotEnclosable(f"{clip(x)} is not a finite real number")
    out = []
    with precision(bits):
        for v in values:
            v = sp.Rational(v)
            out.append(Ball._wrap(_enclose(x, {symbol: _arb_of_rational(int(v.p), int(v.q))})))
    return out


def level_points(notion: str, doc, name: str, values, *, params=None, assumptions=()) -> tuple:
    """(the derivation, [(value, Ball)]): ``notion``'s level of ``doc`` as a formula in the parameter ``name``,
    enclosed at each of ``values`` (exact numbers ≥ 0); ``params``: the other parameters' values.

    >>> import json
    >>> g = {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...      "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    >>> d, pts = level_points("approx-dp", g, "eps", [sp.Rational(1, 2), 1])
    >>> [round(float(b.lower()), 6) for _, b in pts], all(b.upper() - b.lower() < 1e-30 for _, b in pts)
    ([0.238422, 0.126937], True)
    """
    values = [sp.Rational(v) for v in values]
    if not 1 <= len(values) <= MAX_POINTS:
        raise InvalidParameter(f"--param {name}=…: give 1 to {MAX_POINTS} values")
    if any(v < 0 for v in values):
        raise InvalidParameter(f"--param {name}=…: every value must be ≥ 0")
    d = derive_level(notion, doc, params=params, assumptions=assumptions)
    f = getattr(d, "formula", None)
    if f is None:
        raise InvalidParameter(f"{clip(notion, 30)} of this mechanism has no formula in {name} to evaluate at many "
                               f"points; give one value")
    given = {k: parse_expr(str(v), what=k) for k, v in (params or {}).items()}
    f = f.xreplace({s: given[s.name] for s in f.free_symbols if s.name in given})
    sym = next((s for s in f.free_symbols if s.name == name), None)
    if sym is None:
        raise InvalidParameter(f"{clip(notion, 30)}'s formula here is not in {clip(name, 20)}; its symbols: "
                               f"{', '.join(sorted(s.name for s in f.free_symbols)) or 'none'}")
    return d, list(zip(values, enclose_at(f, sym, values, POINT_BITS)))


__all__ = ["enclose_at", "level_points"]
