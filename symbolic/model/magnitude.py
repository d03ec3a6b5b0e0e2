"""The magnitudes dpcheck derives levels of densities and mass functions at: values within 10^±20.

A density's level is derived exactly and cross-checked by quadrature at working digits raised for a narrow
peak (:mod:`symbolic.derive.continuous.checks`); beyond about 10^±20 in a parameter (σ = 10^-300, a constant
10^-600 in the file) the cross-checks cannot resolve the laws in any reasonable time, and the exact values
underflow every representation. Such a value is refused up front, in one line naming it, rather than left to
run past every budget. A Rényi order is held to :data:`MAX_ORDER` for the same reason (D_α of a Gaussian at
α = 10^9 builds (2π)^(10^9/2) exactly).
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import OutOfRange

MAX_DECADES = 20          # a nonzero value given must lie in [10^-20, 10^20] in absolute value
MAX_ORDER = 10 ** 4       # the largest Rényi order derived for a density or mass function


def within_magnitude(value, what: str) -> None:
    """Refuse a nonzero number (no symbols) whose absolute value is outside [10^-20, 10^20]; a symbolic value
    passes (its range is checked where it is declared).

    >>> within_magnitude(sp.Rational(1, 10 ** 6), "sigma"); within_magnitude(sp.Symbol("s"), "s")
    >>> within_magnitude(sp.Integer(10) ** 300, "sigma")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.OutOfRange: sigma=10^300 is beyond the magnitudes dpcheck derives levels at: give a value between 10^-20 and 10^20 in size
    """
    x = sp.sympify(value)
    if x.free_symbols or x == 0:
        return
    if not _inside(x):
        raise OutOfRange(f"{what}={_short(x)} is beyond the magnitudes dpcheck derives levels at: give a value "
                         f"between 10^-{MAX_DECADES} and 10^{MAX_DECADES} in size")


def constants_within_magnitude(expr, what: str) -> None:
    """Refuse an expression (a density's text) with a number in it beyond 10^±20 (such as 2·10^-600)."""
    for atom in sp.sympify(expr).atoms(sp.Rational):
        if atom != 0 and not _inside(atom):
            raise OutOfRange(f"{what} has the number {_short(atom)}, beyond the magnitudes dpcheck derives "
                             f"levels at: write the law with numbers between 10^-{MAX_DECADES} and 10^{MAX_DECADES}")


def within_order(alpha, what: str = "alpha") -> None:
    """Refuse a Rényi order (a number) above :data:`MAX_ORDER`.

    >>> within_order(sp.Integer(10) ** 9)
    Traceback (most recent call last):
    ...
    symbolic.core.errors.OutOfRange: alpha=10^9 is above the largest Rényi order derived here, 10^4
    """
    a = sp.sympify(alpha)
    if a.free_symbols:
        return
    from symbolic.core import certified as C
    if C.lt(MAX_ORDER, a) is not False:
        raise OutOfRange(f"{what}={_short(a)} is above the largest Rényi order derived here, 10^4")


def _inside(x) -> bool:
    """Is 10^-MAX_DECADES ≤ |x| ≤ 10^MAX_DECADES (decided exactly for a rational, by enclosure otherwise)?"""
    lo, hi = sp.Rational(1, 10 ** MAX_DECADES), sp.Integer(10) ** MAX_DECADES
    if x.is_Rational:
        return lo <= abs(x) <= hi
    from symbolic.core import certified as C
    try:
        a = abs(C.enclose(x, 64)._a)
    except C.NotEnclosable:
        return True   # not a finite real number: refused where it is read, with its own message
    return bool(a >= C._arb(lo)) and bool(a <= C._arb(hi))


def _short(x) -> str:
    """A number as 10^k when it is one (10^300), else its text, cut at 60 characters."""
    x = sp.sympify(x)
    if x.is_Rational and max(abs(x.p), x.q).bit_length() > 4000:
        return "a number of over 1200 digits"
    if x.is_Rational and x > 0:
        for num, den in ((x.p, x.q), (x.q, x.p)):
            if den == 1 and num > 1 and str(num).rstrip("0") == "1":
                k = len(str(num)) - 1
                return f"10^{k}" if num == x.p else f"10^-{k}"
    text = str(x)
    return text if len(text) <= 60 else text[:57] + "..."
