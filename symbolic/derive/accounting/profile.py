"""δ(ε) of a discretised loss distribution, certified, and the ε at which it crosses a δ.

For masses p_j at loss values l_j = (offset + j)·h: δ(ε) = Σ_{l_j > ε} p_j·(1 − e^{ε − l_j}) (+ the mass at +∞ for
an upper bound), computed as A − e^{ε − l_J}·Σ_k p_{J+k}·r^k with r = e^{−h} and A the exact integer sum of the
masses above ε: one Arb polynomial evaluation. A search in floating point proposes where δ crosses the target;
only the certified values decide.
"""
from __future__ import annotations

import math

from symbolic.core.certified import flint_module, precision
from symbolic.derive.accounting.grid_loss import UNIT_BITS, GridLoss

PRECISION_BITS = 128


def _first_above(g: GridLoss, eps) -> int:
    """The index J of the first grid value above ``eps`` (an arb or an exact number)."""
    fl = flint_module()
    scaled = fl.arb(eps) * (1 << g.bits)
    j = int(scaled.floor().unique_fmpz()) if scaled.floor().is_exact() else None
    if j is None:
        raise ArithmeticError("ε falls on a grid point at the working precision")
    return j + 1 - g.offset


def delta_at(g: GridLoss, eps):
    """δ(ε) of ``g`` as a ball (exact integers up to the last exponential); ``eps`` an exact rational (fmpq)."""
    fl = flint_module()
    with precision(PRECISION_BITS):
        J = max(0, _first_above(g, eps))
        high = g.poly.right_shift(J) if J else g.poly
        mass = int(high(1)) if high.length() else 0
        h = fl.arb(1) / (1 << g.bits)
        if mass:
            r = (-h).exp()
            weighted = fl.arb_poly(high)(r)
            l_J = fl.arb(g.offset + J) * h
            value = fl.arb(mass) - (fl.arb(eps) - l_J).exp() * weighted
        else:
            value = fl.arb(0)
        value += g.infinite
        return value / fl.arb(2) ** UNIT_BITS


def float_profile(g: GridLoss):
    """A floating-point δ(ε) of ``g`` (for proposing crossings only): a function of a float ε."""
    import numpy as np
    p = np.array([float(int(c)) for c in g.poly.coeffs()], dtype=float) / 2.0 ** UNIT_BITS
    h = 2.0 ** -g.bits
    values = (g.offset + np.arange(len(p))) * h
    w = p * np.exp(np.minimum(-values, 700.0))   # a loss below −700 weighs only for ε below it
    tail_p = np.cumsum(p[::-1])[::-1]
    tail_w = np.cumsum(w[::-1])[::-1]
    inf = g.infinite / 2.0 ** UNIT_BITS

    def delta(eps: float) -> float:
        j = int(math.floor(eps / h)) + 1 - g.offset
        if j >= len(p):
            return inf
        j = max(j, 0)
        return float(tail_p[j] - math.exp(eps) * tail_w[j]) + inf
    return delta


def crossing(deltas, target: float, lo: float = 0.0, hi: float = 64.0) -> float:
    """The least ε (to about 1e-12) at which max of ``deltas`` (float functions, non-increasing) is ≤ target."""
    f = lambda e: max(d(e) for d in deltas)
    if f(lo) <= target:
        return lo
    while f(hi) > target and hi < 1e6:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if f(mid) <= target else (mid, hi)
        if hi - lo < 1e-12:
            break
    return hi


__all__ = ["crossing", "delta_at", "float_profile"]
