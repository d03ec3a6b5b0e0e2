"""An upper bound on one step's privacy loss whose error is second order in the grid: connect the dots.

The step's hockey-stick curve δ(x) = sup_S P(S) − x·Q(S) (x = e^ε) is convex and non-increasing in x, with
δ(0) = 1. Any convex, non-increasing, piecewise-linear function g through (0, 1) with g ≥ δ is the curve of a
discrete pair (P̃, Q̃) that dominates (P, Q) (Blackwell: every pair is a post-processing of one whose curve lies
above its own), and g's breakpoints x_i are its loss values: P̃ has mass x_i·(s_i⁺ − s_i⁻) at log x_i (the
slope's jump there) and g's last value at +∞ (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, "Connect the
dots"). Here g interpolates certified upper ends u_i ≥ δ(x_i) at grid points: the chord of a convex function
between two points lies above it, so dropping any interior point keeps g ≥ δ, and a point whose slope
comparison is not decided is dropped; what remains is convex by construction. The masses are rounded up to
units of 2^-64, which only raises the run's δ(ε) (it is non-decreasing in every mass).
"""
from __future__ import annotations

from symbolic.core.certified import flint_module, precision
from symbolic.derive.accounting.grid_loss import UNIT_BITS, GridLoss, _units, from_masses, grid_range
from symbolic.derive.accounting.loss_laws import WORKING_BITS

SPLIT = 2.0 ** -30   # the error bound allowed to one segment, over the run's number of steps


def _profile_points(step, lo: int, hi: int, bits: int, limit: float) -> list:
    """[(j, x_j, u_j)]: grid indices, x = e^{j·h} and the upper end of δ there, refined where the chord's error
    bound (x_b − x_a)·(Q_a − Q_b) (the slope's change times the width) exceeds ``limit``."""
    fl = flint_module()
    scale = 1 << bits
    seen = {}

    def at(j):
        if j not in seen:
            l = fl.arb(j) / scale
            p, q = step.tails(l)
            x = l.exp()
            seen[j] = (x, (p - x * q).upper(), q)
        return seen[j]
    with precision(WORKING_BITS):
        coarse = max(1, scale >> 8)
        todo = sorted(set(list(range(lo, hi, coarse)) + [hi]))
        stack = list(zip(todo, todo[1:]))[::-1]
        keep = {lo, hi}
        while stack:
            a, b = stack.pop()
            (xa, _, qa), (xb, _, qb) = at(a), at(b)
            err = ((xb - xa) * (qa - qb)).upper()
            if b - a > 1 and err > limit:
                mid = (a + b) // 2
                stack += [(mid, b), (a, mid)]
            else:
                keep.update((a, b))
        return [(j, *at(j)[:2]) for j in sorted(keep)]


def _hull(points: list) -> list:
    """The points of a convex, non-increasing chain from (0, 1) (monotone chain; a point is dropped unless its
    slope comparison is decided for keeping it)."""
    fl = flint_module()
    chain = [(None, fl.arb(0), fl.arb(1))]
    best = fl.arb(1)
    for j, x, u in points:
        if u >= best:            # not below an earlier value: the running minimum is the safe value
            continue
        if not u < best:         # undecided: raise it to the earlier value, which is then dropped
            continue
        best = u
        while len(chain) >= 2:
            (_, x1, u1), (_, x2, u2) = chain[-2], chain[-1]
            s1, s2 = (u2 - u1) / (x2 - x1), (u - u2) / (x - x2)
            if s1 < s2:          # convex at chain[-1]: keep it
                break
            chain.pop()          # not decided convex: dropping the middle point keeps the chord above δ
        chain.append((j, x, u))
    return chain[1:]


def connect_the_dots(step, bits: int, steps: int = 1) -> GridLoss:
    """One step's loss, bounded from above to second order, on the grid 2^-bits·ℤ, for a run of ``steps`` steps
    (a segment's chord error is kept below 2^-30/steps, so the run's sum of them stays below 2^-30; the chords
    are upper bounds whatever the grid, so this sets the tightness only).

    >>> from symbolic.derive.accounting.loss_laws import StepLoss
    >>> g = connect_the_dots(StepLoss("gaussian", (1, 1), (1, 10), "remove"), 8)
    >>> g.side, g.total >= 2 ** 64 - 2 ** 40
    ('upper', True)
    """
    fl = flint_module()
    lo, hi = grid_range(step, bits)
    with precision(WORKING_BITS):
        chain = _hull(_profile_points(step, lo, hi, bits, SPLIT / max(1, steps)))
        masses = {}
        prev_x, prev_u = fl.arb(0), fl.arb(1)
        for i, (j, x, u) in enumerate(chain):
            s_in = (u - prev_u) / (x - prev_x)
            if i + 1 < len(chain):
                _, nx, nu = chain[i + 1]
                s_out = (nu - u) / (nx - x)
            else:
                s_out = fl.arb(0)
            m = _units(x * (s_out - s_in), True)
            if m:
                masses[j] = m
            prev_x, prev_u = x, u
        infinite = _units(chain[-1][2], True) if chain else 1 << UNIT_BITS
    return from_masses(masses, bits, infinite, "upper")


__all__ = ["connect_the_dots"]
