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
    from symbolic.core.ops import exact_sign
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


_CMP = r"(<=|<|≤|>=|>|≥)"


def parse_assumption(text: str) -> tuple:
    """Read a range assumption such as ``0<delta<=1``, ``E>=2`` or ``1/2 < p``, as data (numbers are
    parsed exactly, nothing is evaluated). Returns (name, lower, lower_strict, upper, upper_strict)
    with None for an absent bound.

    >>> parse_assumption("0<delta<=1")
    ('delta', 0, True, 1, False)
    >>> parse_assumption("E >= 3/2")
    ('E', 3/2, False, None, False)
    """
    import re

    from symbolic.core.errors import ParseError
    from symbolic.core.exact import parse_number
    s = str(text).replace(" ", "")
    if len(s) > 200:
        raise ParseError(f"assumption {s[:80]}… is too long")
    num = r"([+-]?\d+(?:/\d+|\.\d+)?)"
    name = r"([A-Za-z_][A-Za-z_0-9]*)"
    lo = hi = None
    lo_strict = hi_strict = False
    m = re.fullmatch(rf"{num}{_CMP}{name}{_CMP}{num}", s)
    if m and m.group(2)[0] in "<≤" and m.group(4)[0] in "<≤":
        lo, lo_strict, var = parse_number(m.group(1)), m.group(2) == "<", m.group(3)
        hi, hi_strict = parse_number(m.group(5)), m.group(4) == "<"
        return var, lo, lo_strict, hi, hi_strict
    m = re.fullmatch(rf"{name}{_CMP}{num}", s)
    if m:
        var, op, v = m.group(1), m.group(2), parse_number(m.group(3))
        if op[0] in ">≥":
            return var, v, op == ">", None, False
        return var, None, False, v, op == "<"
    m = re.fullmatch(rf"{num}{_CMP}{name}", s)
    if m:
        v, op, var = parse_number(m.group(1)), m.group(2), m.group(3)
        if op[0] in "<≤":
            return var, v, op == "<", None, False
        return var, None, False, v, op == ">"
    raise ParseError(f"assumption {s[:80]!r} is not a range; write e.g. '0<delta<=1', 'E>=2' or '1/2<p<1'")


def narrowed(lower, lower_strict, upper, upper_strict, lo, lo_strict, hi, hi_strict) -> tuple:
    """The intersection of two ranges, as (lower, lower_strict, upper, upper_strict)."""
    import sympy as sp
    if lo is not None and (lower is None or sp.sympify(lo) > lower or (lo == lower and lo_strict)):
        lower, lower_strict = lo, lo_strict
    if hi is not None and (upper is None or sp.sympify(hi) < upper or (hi == upper and hi_strict)):
        upper, upper_strict = hi, hi_strict
    return lower, lower_strict, upper, upper_strict
