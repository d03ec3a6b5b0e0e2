"""Exact attainment of a conversion constant: a table satisfying A(a) whose B-level is f(a).

B gets weaker as its parameter b grows, so the B-level of an exact table T is the least b at which B
holds on T. With T's entries and B's other parameters exact rationals, every comparison in B's body is
a polynomial sign condition in b alone, so the truth of B(b) on T can change only at real roots of
those polynomials. To show that the level is exactly f₀ = f(a):

1. B(f₀) holds on T (exact evaluation);
2. every real root of every polynomial of B's body lies at f₀ or outside (r, f₀), where r is the
   largest root below f₀ (isolating intervals with rational ends, refined until they leave f₀), or
   B's least value when there is none;
3. B fails on T at one rational b strictly between r and f₀, hence (constant truth on (r, f₀) and
   monotonicity) at every b < f₀.

Without step 2 (a body that is not polynomial in b), the weaker statement is checked: B fails at
f₀ − (f₀ − b_min)/100, that is, T comes within 1% of f₀ on B's range.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.tables import MechTable
from symbolic.graph.conversion_fit import MarginOps
from symbolic.graph.sampling import holds_exactly

ROUNDINGS = (10 ** 2, 10 ** 3, 10 ** 4, 10 ** 6)
MIXES = (0, sp.Rational(1, 10 ** 9), sp.Rational(1, 10 ** 6), sp.Rational(1, 10 ** 4), sp.Rational(1, 10 ** 3),
         sp.Rational(1, 100))


def exact_table(shape, rows) -> MechTable:
    """A table of ``shape`` from rows of exact numbers or expressions."""
    return shape.table([[sp.sympify(p) for p in r] for r in rows])


def rounded_tables(shape, rows):
    """Exact tables near the float ``rows``: entries rounded to rationals of growing denominators (each
    row's last entry 1 − the others), each also mixed with the uniform table at small exact weights."""
    for den in ROUNDINGS:
        exact_rows = []
        for r in rows:
            head = [sp.Rational(Fraction(p).limit_denominator(den).numerator,
                                Fraction(p).limit_denominator(den).denominator) for p in r[:-1]]
            last = 1 - sum(head)
            if last < 0 or any(p < 0 for p in head):
                break
            exact_rows.append(head + [last])
        else:
            u = sp.Rational(1, shape.outputs)
            for lam in MIXES:
                yield lam, exact_table(shape, [[(1 - lam) * p + lam * u for p in r] for r in exact_rows])


def _leaves(expr, b):
    """The polynomial pieces of a margin expression that mention ``b`` (inside Min, Max, Abs, Piecewise
    and its conditions)."""
    if not expr.has(b):
        return
    if isinstance(expr, (sp.Min, sp.Max)) or isinstance(expr, sp.Abs):
        for a in expr.args:
            yield from _leaves(a, b)
    elif isinstance(expr, sp.Piecewise):
        for e, c in expr.args:
            yield from _leaves(e, b)
            if isinstance(c, sp.core.relational.Relational):
                yield from _leaves(c.lhs - c.rhs, b)
    elif isinstance(expr, sp.core.relational.Relational):
        yield from _leaves(expr.lhs - expr.rhs, b)
    else:
        yield expr


def _largest_root_below(polys, b, f0, floor):
    """The largest real root < f0 of the polynomials (upper ends of isolating intervals), or ``floor``."""
    best = floor
    for p in polys:
        eps = sp.Rational(1, 10 ** 6)
        for _ in range(12):
            ivs = p.intervals(eps=eps)
            unsure = False
            for (lo, hi), _mult in ivs:
                lo, hi = sp.Rational(lo), sp.Rational(hi)
                if hi < f0:
                    best = max(best, hi)
                elif lo <= f0 <= hi and p.eval(f0) != 0:
                    unsure = True
            if not unsure:
                break
            eps = eps / 10 ** 6
        else:
            return None
    return best


def level_is_exactly(b_notion, name, spec, table: MechTable, fixed: dict, f0):
    """"exact" when the B-level of the exact ``table`` is ``f0``, "within 1%" when B fails at
    f0 − (f0 − b_min)/100, else None (with B(f0) required to hold in both cases)."""
    f0 = sp.nsimplify(f0)
    if holds_exactly(b_notion, table, None, {**fixed, name: f0}) is not True:
        return None
    floor = sp.sympify(spec.lower) if spec.lower is not None else None
    if floor is not None and f0 == floor:
        return "exact"  # B's least value: no table has a smaller level
    b = sp.Symbol("b_level", real=True)
    cells = [list(r) for _, r in table.rows.items()]
    expr = b_notion.body(MarginOps(), MechTable(table.n, table.domain, table.outputs, dict(zip(table.rows, cells))),
                         **{**fixed, name: b})
    polys = []
    try:
        for leaf in _leaves(sp.sympify(expr).doit(), b):
            num = sp.numer(sp.together(leaf))
            poly = sp.Poly(num, b)
            if poly.degree() > 0 and all(c.is_Rational for c in poly.all_coeffs()):
                polys.append(poly)
            elif poly.degree() > 0:
                polys = None
                break
    except sp.PolynomialError:
        polys = None
    if polys is not None:
        r = _largest_root_below(polys, b, f0, floor if floor is not None else f0 - 1)
        if r is not None and r < f0:
            test = (r + f0) / 2
            if holds_exactly(b_notion, table, None, {**fixed, name: test}) is False:
                return "exact"
    low = f0 - (f0 - (floor if floor is not None else 0)) / 100
    if holds_exactly(b_notion, table, None, {**fixed, name: low}) is False:
        return "within 1%"
    return None


__all__ = ["exact_table", "rounded_tables", "level_is_exactly"]
