"""A privacy-loss distribution on the grid h·ℤ (h = 2^-bits), bounding the true one from one side, and its
composition by exact polynomial products.

``side="upper"``: every loss value is rounded *up* to the grid (a mass of (l_{j−1}, l_j] is put at l_j) and every
mass is rounded up to a whole unit of 2^-64; the loss above the last grid point is put at +∞. ``side="lower"``:
values rounded *down*, masses down, the loss above the last point put at it (a true mass at +∞, a table's, kept
there) and below the first dropped. The
hockey-stick functional δ(ε) = E[(1 − e^{ε − L})₊] is non-decreasing in every loss value and in every mass, and
the loss of a composition is the sum of the steps' losses, so the composed upper (lower) distribution gives an
upper (lower) bound on the run's δ(ε): no step of it is approximate. The products are python-flint integer
polynomials (exact); after each, the masses are divided by 2^64 rounding in the side's direction, and tails of
mass at most 2^-52 are moved to the window's end on the safe side (up or to +∞ for the upper bound, dropped or
down for the lower).
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.certified import flint_module

UNIT_BITS = 64
TAIL_UNITS = 1 << (UNIT_BITS - 52)     # a tail of at most 2^-52 is moved to the window's end
REFINE_BITS = 20                       # a bin of mass m and width w is split while m·w > h·2^-20
TINY = 2 ** -80                        # the loss's range ends where less than this is left beyond


@dataclass(frozen=True)
class GridLoss:
    """Masses (units of 2^-64) at the grid values (offset + j)·2^-bits, j = 0, 1, …, as an integer polynomial,
    and the mass at +∞ (upper side only), bounding a loss distribution from ``side``."""

    poly: object
    offset: int
    bits: int
    infinite: int
    side: str

    @property
    def total(self) -> int:
        return int(self.poly(1)) + self.infinite


def _units(ball, up: bool) -> int:
    """⌈ball's upper end · 2^64⌉ (``up``) or ⌊max(0, lower end) · 2^64⌋, exactly."""
    end = ball.upper() if up else ball.lower()
    man, exp = (int(x) for x in end.mid().man_exp())
    if man <= 0 and not up:
        return 0
    shift = exp + UNIT_BITS
    if shift >= 0:
        return man << shift
    return -((-man) >> -shift) if up else man >> -shift


def _range_end(step, start: int, sign: int) -> int:
    """A point far enough out (sign −1: below, +1: above) that less than TINY is left beyond, or beyond which
    nothing changes (a mass at +∞ of a finite table), or 2^12."""
    l, before = start, None
    while True:
        f = step.cdf(l)
        left = f if sign < 0 else 1 - f
        if left.upper() < TINY or abs(l) >= 1 << 12 or (before is not None and abs(before - left).upper() < TINY):
            return l
        before = left
        l *= 2


def _breakpoints(step, lo: int, hi: int, bits: int) -> list:
    """The grid indices where F is evaluated, with F there: bins split while mass·width exceeds h·2^-20."""
    scale = 1 << bits
    cdf = {}

    def F(j):
        if j not in cdf:
            cdf[j] = step.cdf(flint_module().arb(j) / scale)
        return cdf[j]
    coarse = max(1, scale >> 8)
    todo = list(range(lo, hi, coarse)) + [hi]
    stack = [(a, b) for a, b in zip(todo, todo[1:])][::-1]
    points = {lo, hi}
    while stack:
        a, b = stack.pop()
        mass = (F(b) - F(a)).upper()
        if b - a > 1 and mass * (b - a) > (1 << 0) * 2 ** -REFINE_BITS:
            mid = (a + b) // 2
            stack += [(mid, b), (a, mid)]
        else:
            points.update((a, b))
    return [(j, F(j)) for j in sorted(points)]


def grid_range(step, bits: int) -> tuple:
    """(lo, hi): grid indices spanning the step's loss, at or below its infimum (or where less than TINY is left
    below) up to where less than TINY is left above."""
    scale = 1 << bits
    lowest = step.lowest
    lo = (int((lowest * scale).floor().unique_fmpz()) - 1 if lowest is not None
          else _range_end(step, -1, -1) * scale)
    return lo, _range_end(step, 1, 1) * scale


def from_masses(masses: dict, bits: int, infinite: int, side: str) -> GridLoss:
    """The grid distribution of ``masses`` ({grid index: units}) with ``infinite`` units at +∞."""
    first = min(masses)
    coeffs = [0] * (max(masses) - first + 1)
    for j, m in masses.items():
        coeffs[j - first] = m
    return GridLoss(flint_module().fmpz_poly(coeffs), first, bits, infinite, side)


def discretise(step, bits: int, side: str) -> GridLoss:
    """One step's loss law (:class:`~symbolic.derive.accounting.loss_laws.StepLoss`) on the grid 2^-bits·ℤ,
    bounded from ``side``.

    >>> from symbolic.derive.accounting.loss_laws import StepLoss
    >>> up = discretise(StepLoss("gaussian", (1, 1), (1, 10), "remove"), 8, "upper")
    >>> lo = discretise(StepLoss("gaussian", (1, 1), (1, 10), "remove"), 8, "lower")
    >>> lo.total <= 2 ** 64 <= up.total
    True
    """
    pts = _breakpoints(step, *grid_range(step, bits), bits)
    up = side == "upper"
    masses = {}
    below = _units(pts[0][1], up)              # the mass at or below the first point
    if up and below:
        masses[pts[0][0]] = below
    for (a, fa), (b, fb) in zip(pts, pts[1:]):
        m = _units(fb - fa, up)
        if m:
            key = b if up else a
            masses[key] = masses.get(key, 0) + m
    if up:
        return from_masses(masses, bits, _units(1 - pts[-1][1], True), side)
    # the lower bound keeps a true mass at +∞ (a table's output the second law never gives) there
    at_infinity = step.infinite_mass() if hasattr(step, "infinite_mass") else None
    beyond = _units((1 - pts[-1][1]) - (0 if at_infinity is None else at_infinity), False)
    if beyond:
        masses[pts[-1][0]] = masses.get(pts[-1][0], 0) + beyond
    return from_masses(masses, bits, 0 if at_infinity is None else _units(at_infinity, False), side)


def _prefix(poly, k: int) -> int:
    return int(poly.truncate(k)(1)) if k > 0 else 0


def _windowed(poly, offset: int, infinite: int, side: str):
    """Tails of mass at most TAIL_UNITS moved to the window's ends on the safe side."""
    fl = flint_module()
    n = poly.length()
    lo, hi = 0, n
    while hi - lo > 1:                       # the longest prefix of mass ≤ TAIL_UNITS
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _prefix(poly, mid) <= TAIL_UNITS else (lo, mid)
    cut_lo = lo
    total = int(poly(1))
    lo, hi = cut_lo, n
    while hi - lo > 1:                       # the shortest suffix start whose mass is ≤ TAIL_UNITS
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if total - _prefix(poly, mid) <= TAIL_UNITS else (mid, hi)
    cut_hi = hi if total - _prefix(poly, hi) <= TAIL_UNITS else n
    head, tail = _prefix(poly, cut_lo), total - _prefix(poly, cut_hi)
    kept = poly.truncate(cut_hi).right_shift(cut_lo) if cut_lo else poly.truncate(cut_hi)
    if side == "upper":
        kept = kept + fl.fmpz_poly([head])
        infinite += tail
    elif tail:
        kept = kept + fl.fmpz_poly([0] * (cut_hi - cut_lo - 1) + [tail])
    return kept, offset + cut_lo, infinite


def multiply(a: GridLoss, b: GridLoss) -> GridLoss:
    """The loss of running both (the sum of independent losses), bounded from the same side."""
    if (a.bits, a.side) != (b.bits, b.side):
        raise ValueError("grid losses of different grids or sides")
    prod = a.poly * b.poly
    unit = 1 << UNIT_BITS
    up = a.side == "upper"
    prod = -((-prod) // unit) if up else prod // unit
    ma, mb = int(a.poly(1)), int(b.poly(1))
    num = a.infinite * mb + b.infinite * ma + a.infinite * b.infinite    # either run at +∞ puts the sum there
    infinite = -((-num) // unit) if up else num // unit
    poly, offset, infinite = _windowed(prod, a.offset + b.offset, infinite, a.side)
    return GridLoss(poly, offset, a.bits, infinite, a.side)


def power(g: GridLoss, times: int) -> GridLoss:
    """``times`` runs of ``g`` by repeated squaring (about 2·log₂ times products)."""
    result, base, k = None, g, times
    while k:
        if k & 1:
            result = base if result is None else multiply(result, base)
        k >>= 1
        if k:
            base = multiply(base, base)
    return result


__all__ = ["GridLoss", "UNIT_BITS", "discretise", "from_masses", "grid_range", "multiply", "power"]
