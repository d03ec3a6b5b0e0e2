"""ρ-zCDP levels: the supremum over real orders α > 1 of D_α/α, exactly or as a certified enclosure.

ρ-zCDP (Bun, Steinke 2016, Def. 1.1) asks D_α(P‖Q) ≤ ρ·α for every α > 1, so the tight ρ is
sup_{α>1} D_α/α. Given D_α as an exact expression in α (from :mod:`symbolic.derive.continuous.pair` for densities,
or the finite sum for a table):

- when D_α/α simplifies to an expression free of α (D_α = ρ·α, as for the Gaussian mechanism), ρ is
  that expression, exactly;
- otherwise :func:`sup_over_orders` encloses the supremum by branch and bound. Sound because
  **D_α is nondecreasing in α** (van Erven, Harremoës 2014, Thm. 3) and nonnegative: on a cell
  [a, b], D_α/α ≤ D_b/a. And **D_α ≤ D_∞ = sup log p/q** (the pure-DP level), so with a lower bound L
  of the supremum every α ≥ D_∞/L has D_α/α ≤ L: only (1, D_∞/L] is searched. The lower bound is the
  largest certified value of D_α/α met, and the limit as α → 1 (the KL divergence), which the
  supremum over α > 1 is at least. Cells whose upper bound is within the tolerance of L are closed;
  the answer is [L, max upper bound], certified to contain ρ, whatever the budget left.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

import sympy as sp

from symbolic.core import certified as C

TOLERANCE = sp.Rational(1, 10 ** 13)   # width of the enclosure sought (the answers are asked within 10^-9)
MAX_CELLS = 6000
WORK_BITS = 256


@dataclass(frozen=True)
class OrderSup:
    """The supremum over α > 1 of D_α/α: ``lower``/``upper`` certified ends, ``where`` where it is
    approached, ``cells`` the work."""

    lower: sp.Expr
    upper: sp.Expr
    where: str
    cells: int
    closed: bool   # the enclosure reached the tolerance (False: the cell budget ran out first)


def constant_ratio(D, alpha):
    """D/α when it does not depend on α (simplified), else None."""
    g = sp.simplify(D / alpha)
    return g if alpha not in g.free_symbols else None


def _upper(x, bits=WORK_BITS):
    return x.upper() if isinstance(x, C.Ball) else C.enclose(x, bits).upper()


def _lower(x, bits=WORK_BITS):
    return x.lower() if isinstance(x, C.Ball) else C.enclose(x, bits).lower()


def sup_over_orders(D_at, d_inf, *, tol=TOLERANCE, max_cells=MAX_CELLS) -> OrderSup:
    """sup_{α>1} D(α)/α. ``D_at(a)``: a Ball containing D_a at a rational a > 1 (or the exact number); ``d_inf``: the exact D_∞
    (sup log p/q), finite. Both ends of the answer are certified values of the functions involved: the
    lower end is D_a/a at an order a that was evaluated, the upper end a cell's bound."""
    lo, where, cells, best_a = sp.Integer(0), "", 0, None
    for a in (sp.Rational(1025, 1024), sp.Rational(3, 2), sp.Integer(2), sp.Integer(4)):
        v = _lower(D_at(a) / a)
        if v > lo:
            lo, where, best_a = v, f"near α = {a}", a
    if lo <= 0:
        return OrderSup(sp.Integer(0), sp.Integer(0), "the laws are equal", 0, True)
    top = sp.ceiling(_upper(d_inf) / lo) + 1
    # a cell [a, b] with the upper end of D_b (kept, so that splitting needs D at the midpoint only)
    d_top = _upper(D_at(top))
    heap = [(-d_top, sp.Integer(1), top, d_top)]   # D_b/a at a = 1
    while heap:
        cell = heapq.heappop(heap)
        if -cell[0] - lo <= tol:
            heapq.heappush(heap, cell)
            break
        cells += 1
        if cells > max_cells:
            heapq.heappush(heap, cell)
            break
        _, a, b, d_b = cell
        m = (a + b) / 2
        dm = D_at(m)
        v = _lower(dm / m)
        if v > lo:
            lo, best_a = v, m
        d_m = _upper(dm)
        heapq.heappush(heap, (-(d_m / a), a, m, d_m))
        heapq.heappush(heap, (-(d_b / m), m, b, d_b))
    hi = max(-h[0] for h in heap) if heap else lo
    if hi < lo:
        raise ArithmeticError(f"inconsistent enclosure of sup D_α/α: lower {lo} > upper {hi}")
    if best_a is not None:
        where = ("as α → 1 (the best order found is within 10^-6 of 1)" if best_a - 1 < sp.Rational(1, 10 ** 6)
                 else f"near α = {sp.N(best_a, 6)}")
    return OrderSup(lo, hi, where, cells, hi - lo <= tol)
