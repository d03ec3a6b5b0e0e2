"""Parameter ranges: inclusive, open or half-open intervals, checked exactly.

A range is written by its bounds and whether each is strict: ``lower=0, lower_strict=True`` is
0 < x; ``upper=1`` alone is x ≤ 1. Checks are three-valued in the sympy.stats manner: a value
with symbols left in it is neither accepted nor refused here (the solver keeps it in range).
"""
from __future__ import annotations

import sympy as sp


def describe(name, lower, upper, lower_strict=False, upper_strict=False) -> str:
    """The range as text, e.g. ``0 < delta ≤ 1``."""
    left = "" if lower is None else f"{lower} {'<' if lower_strict else '≤'} "
    right = "" if upper is None else f" {'<' if upper_strict else '≤'} {upper}"
    return f"{left}{name}{right}" if (left or right) else f"{name} real"


def problems(name, value, lower, upper, lower_strict=False, upper_strict=False) -> list:
    """Why an exact ``value`` lies outside the range (empty when it lies inside or is symbolic)."""
    from .ops import exact_sign
    value = sp.sympify(value)
    if value.free_symbols:
        return []
    out = []
    if lower is not None:
        s = exact_sign(value - sp.sympify(lower))
        if s < 0 or (s == 0 and lower_strict):
            out.append(f"{name}={value} is outside its range {describe(name, lower, upper, lower_strict, upper_strict)}")
    if upper is not None and not out:
        s = exact_sign(sp.sympify(upper) - value)
        if s < 0 or (s == 0 and upper_strict):
            out.append(f"{name}={value} is outside its range {describe(name, lower, upper, lower_strict, upper_strict)}")
    return out
