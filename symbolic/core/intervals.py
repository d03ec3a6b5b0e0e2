"""Interval evaluation of one expression at many points or over boxes, by ball arithmetic.

:func:`compile_enclosure` turns a sympy expression into a function of its symbols' values (exact
rationals, or balls standing for every point of an interval) that returns a ball containing the exact
value at every such point: the tree is walked once, each call is ball arithmetic only. Over a box the
ball can be much wider than the range of values (each occurrence of a variable is widened on its own);
:func:`nonnegative_on` therefore covers an interval with cells, halving the ones it cannot settle.
"""
from __future__ import annotations

import math

import sympy as sp

from symbolic.core.certified import (START_BITS, _FUNCS, Ball, NotEnclosable, _arb, _arb_of_rational, _enclose,
                                     _flint, precision)
from symbolic.core.errors import clip


def compile_enclosure(expr, symbol):
    """A function ``f(value, bits)`` returning a Ball that contains ``expr`` at ``symbol = value`` (an exact
    rational or a Ball, for every point of it), built once from the expression tree: for evaluating one
    expression at many points (each call does ball arithmetic only, no sympy). The same operations as
    :func:`enclose`. With a tuple of symbols, ``value`` is a tuple of the same length."""
    x = sp.sympify(expr)
    symbols = tuple(symbol) if isinstance(symbol, (tuple, list)) else (symbol,)

    def build(e):
        if e in symbols:
            k = symbols.index(e)
            return lambda v, k=k: v[k]
        if not e.has(*symbols):
            return lambda v, e=e: _enclose(e, {})
        if e.is_Add or e.is_Mul:
            parts = [build(t) for t in e.args]

            def combine(v, parts=parts, add=e.is_Add):
                out = parts[0](v)
                for f in parts[1:]:
                    out = out + f(v) if add else out * f(v)
                return out
            return combine
        if e.is_Pow:
            base, ex = build(e.base), e.exp
            if e.base is sp.E:
                f = build(ex)
                return lambda v: f(v).exp()
            if ex.is_Integer:
                return lambda v, k=int(ex): base(v) ** k
            f = build(ex)
            return lambda v: base(v) ** f(v)
        if e.func in _FUNCS and len(e.args) == 1:
            f, g = _FUNCS[e.func], build(e.args[0])
            return lambda v: f(g(v))
        raise NotEnclosable(f"{clip(e)} cannot be compiled for ball evaluation")

    body = build(x)

    def arg(value):
        return value._a if isinstance(value, Ball) else _arb(sp.sympify(value))

    def run(value, bits: int = START_BITS) -> Ball:
        values = tuple(value) if isinstance(symbol, (tuple, list)) else (value,)
        with precision(bits):
            return Ball._wrap(body(tuple(arg(v) for v in values)))
    return run


def interval(lo, hi) -> Ball:
    """The ball [lo, hi] of two exact rationals (midpoint and radius exact at the working precision,
    widened outwards by the rounding of the midpoint)."""
    fl = _flint()
    lo, hi = sp.Rational(lo), sp.Rational(hi)
    mid = _arb_of_rational(int(((lo + hi) / 2).p), int(((lo + hi) / 2).q))
    rad = _arb_of_rational(int(((hi - lo) / 2).p), int(((hi - lo) / 2).q))
    return Ball._wrap(fl.arb(mid.mid(), (rad + mid.rad()).upper()))


def nonnegative_on(expr, symbol, lo, hi, *, max_cells: int = 2000, bits: int = 128):
    """Is ``expr`` ≥ 0 for every ``symbol`` in [lo, hi] (rational ends)? True when interval evaluation
    on a covering of cells proves it (each cell's ball of values has a nonnegative lower end), False
    with a point where it is certainly negative, None when ``max_cells`` cells did not settle it.
    Returns (answer, cells)."""
    run = compile_enclosure(expr, symbol)

    def proved(a, b):
        with precision(bits):
            whole = run(interval(a, b), bits)
        return whole.is_finite() and whole.lower() >= 0
    return _halving_cover(sp.Rational(lo), sp.Rational(hi), proved, lambda a: run(a, bits).upper() < 0, max_cells)


def _halving_cover(lo, hi, proved, negative_at, max_cells: int):
    """Cells of [lo, hi], left first: a cell is done when ``proved(a, b)``; a certainly negative value at a
    cell's left end (``negative_at(a)``) ends it with False; else the cell is halved. None after
    ``max_cells`` cells. Returns (answer, cells)."""
    stack, cells = [(lo, hi)], 0
    while stack:
        a, b = stack.pop()
        cells += 1
        if cells > max_cells:
            return None, cells
        if proved(a, b):
            continue
        if negative_at(a):
            return False, cells
        stack += [((a + b) / 2, b), (a, (a + b) / 2)]
    return True, cells


def nonnegative_from_zero(expr, symbol, lo, hi, *, max_order: int = 8, max_cells: int = 2000, bits: int = 128):
    """Is ``expr`` = g ≥ 0 on [lo, hi] (rational ends) when g may vanish at ``lo`` itself, where no covering
    of g closes (every cell touching ``lo`` has a ball reaching below 0)?

    The certified Taylor step: find the least k ≤ ``max_order`` with g(lo) = g′(lo) = … = g^(k−1)(lo) = 0
    exactly (sympy) and g^(k)(lo) > 0 (certified). Then g(x) = ∫_lo^x (x − s)^(k−1)/(k−1)! · g^(k)(s) ds
    (Taylor's theorem with integral remainder), so g ≥ 0 on [lo, lo + d] once g^(k) ≥ 0 there (a covering of
    64 cells at most, d halved until one closes). Beyond lo + d, g is small where it is near ``lo`` and a
    plain ball of g is too wide there; each cell [a, b] is also tried in Taylor form,
    g(a + s) ∈ Σ_{j<k} g^(j)(a)·s^j/j! + g^(k)([a, b])·s^k/k! for s in [0, b − a], with each g^(j)(a) a narrow
    ball at one point (:func:`_taylor_cover`). Returns (answer, cells, k): answer True, False (a point where g
    is certainly negative, or a first nonzero derivative that is negative: g < 0 just above ``lo``), or None."""
    x = sp.sympify(expr)
    lo, hi = sp.Rational(lo), sp.Rational(hi)
    if sp.simplify(x) == 0:
        return True, 0, 0
    derivatives = [x]
    while True:
        value = derivatives[-1].subs(symbol, lo)
        if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            return None, 0, len(derivatives) - 1
        if sp.simplify(value) != 0:
            break
        if len(derivatives) > max_order:
            return None, 0, len(derivatives) - 1
        derivatives.append(sp.diff(derivatives[-1], symbol))
    k, g = len(derivatives) - 1, derivatives[-1]
    try:
        runs = [compile_enclosure(e, symbol) for e in derivatives]
    except NotEnclosable:
        return None, 0, k
    start = runs[k](lo, bits)
    if not start.is_finite() or start.lower() <= 0:
        return (False if start.is_finite() and start.upper() < 0 else None), 0, k
    for j in range(1, 17):      # a certainly negative value at one of 16 points settles it at once
        if runs[0](lo + (hi - lo) * j / 16, bits).upper() < 0:
            return False, 0, k
    if k == 0:
        ok, cells = nonnegative_on(x, symbol, lo, hi, max_cells=max_cells, bits=bits)
        return ok, cells, k
    spent, d = 0, hi - lo
    for _ in range(40):     # the widest d found by halving, each try on a small budget (g^(k) may change sign)
        ok, cells = nonnegative_on(g, symbol, lo, lo + d, max_cells=64, bits=bits)
        spent += cells
        if ok:
            break
        d /= 2
    else:
        return None, spent, k
    if lo + d == hi:
        return True, spent, k
    ok, cells = _taylor_cover(runs, lo + d, hi, max_cells=max_cells, bits=bits)
    return ok, spent + cells, k


def _taylor_cover(runs, lo, hi, *, max_cells: int, bits: int):
    """g ≥ 0 on [lo, hi] by a covering whose cell test is the plain ball of g (``runs[0]``) or else the Taylor
    form of order k = len(runs) − 1 ≥ 1 at the cell's left end a: g(a + s) lies in Σ_{j<k} g^(j)(a)·s^j/j! +
    g^(k)([a, b])·s^k/k! for s in [0, b − a] (Lagrange's remainder), each term a ball. Returns (answer, cells)
    as :func:`nonnegative_on` does."""
    k = len(runs) - 1

    def proved(a, b):
        with precision(bits):
            whole = runs[0](interval(a, b), bits)
            if whole.is_finite() and whole.lower() >= 0:
                return True
            width, bound = interval(0, b - a), runs[0](a, bits)
            terms = [runs[j](a, bits) for j in range(1, k)] + [runs[k](interval(a, b), bits)]
            for j, c in enumerate(terms, start=1):
                bound = bound + c * width ** j * Ball._wrap(_arb_of_rational(1, math.factorial(j)))
            return bound.is_finite() and bound.lower() >= 0
    return _halving_cover(lo, hi, proved, lambda a: runs[0](a, bits).upper() < 0, max_cells)
