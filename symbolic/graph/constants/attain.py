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
f₀ − (f₀ − b_min)/100, that is, T comes within 1% of f₀ on B's range. Such a table only comes near
f₀: it is reported as near-attaining with its gap (:func:`level_bracket`), and f is not called tight.

Candidate exact tables come from the search's best float table in two ways: snapped onto the face of
A's feasible set it lies on (:func:`snapped_tables`: the conditions of A and B it meets with equality,
solved exactly as linear equations in the entries, as an LP vertex is exact), or rounded
(:func:`rounded_tables`). Floats only propose; every table is decided by the exact checks above, and
the attaining table is read back from its JSON text and checked again (:func:`reverify`).
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import expr_text
from symbolic.core.tables import MechTable
from symbolic.graph.constants.fit import MarginOps, Shape
from symbolic.graph.maps import claim_params
from symbolic.graph.sampling import holds_exactly

ROUNDINGS = (10 ** 2, 10 ** 3, 10 ** 4, 10 ** 6)
MIXES = (0, sp.Rational(1, 10 ** 9), sp.Rational(1, 10 ** 6), sp.Rational(1, 10 ** 4), sp.Rational(1, 10 ** 3),
         sp.Rational(1, 100))


def mechanism_doc(table, a=None) -> dict:
    """An exact or symbolic table as the mechanism JSON ``dpcheck derive level --mechanism`` reads, each
    entry written exactly as it is (no simplification that could change a rational's value)."""
    doc = {"n": table.n, "domain": list(table.domain), "outputs": list(table.outputs),
           "rows": {",".join(map(str, d)) if isinstance(d, tuple) else str(d): [expr_text(p) for p in row]
                    for d, row in table.rows.items()}}
    if a is not None:
        doc["params"] = {p.name: p.range_text().replace("≤", "<=") for p in claim_params(a)}
    return doc


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


MAX_PIECES = 256   # sign patterns of the Max/Min/Abs inside one sum enumerated before giving up (then: unknown)


def _leaves(expr, b, budget=None):
    """The polynomial pieces of a margin expression that mention ``b`` (inside Min, Max, Abs, Piecewise and its
    conditions), such that the sign of the margin can change only where one of them vanishes. A sum or product
    with a Max, Min or Abs inside (a hockey-stick sum Σ max(0, p − b·q)) is cut into its pieces: each choice of
    the active argument gives one polynomial, and the differences of the arguments mark where the choice
    changes. Past :data:`MAX_PIECES` pieces the expression itself is yielded (it is then not a polynomial, and
    the caller says it cannot decide)."""
    budget = [MAX_PIECES] if budget is None else budget
    if not expr.has(b):
        return
    if isinstance(expr, (sp.Min, sp.Max)) or isinstance(expr, sp.Abs):
        for a in expr.args:
            yield from _leaves(a, b, budget)
        return
    inner = None if isinstance(expr, (sp.Piecewise, sp.core.relational.Relational)) else next(
        (a for a in sp.preorder_traversal(expr) if isinstance(a, (sp.Min, sp.Max, sp.Abs, sp.Piecewise)) and a.has(b)),
        None)
    if inner is not None:
        if isinstance(inner, sp.Piecewise):   # the value jumps where a condition changes: those are kinks too
            choices = tuple(e for e, _ in inner.args)
            for _, c in inner.args:
                for rel in ([c] if isinstance(c, sp.core.relational.Relational) else
                            c.atoms(sp.core.relational.Relational) if isinstance(c, sp.Basic) else []):
                    yield from _leaves(rel.lhs - rel.rhs, b, budget)
        else:
            choices = (inner.args[0], -inner.args[0]) if isinstance(inner, sp.Abs) else inner.args
            for i, x in enumerate(choices):
                for y in choices[i + 1:]:
                    yield from _leaves(x - y, b, budget)
        for x in choices:
            budget[0] -= 1
            if budget[0] < 0:
                yield expr
                return
            yield from _leaves(expr.xreplace({inner: x}), b, budget)
        return
    if isinstance(expr, sp.Piecewise):
        for e, c in expr.args:
            yield from _leaves(e, b, budget)
            if isinstance(c, sp.core.relational.Relational):
                yield from _leaves(c.lhs - c.rhs, b, budget)
    elif isinstance(expr, sp.core.relational.Relational):
        yield from _leaves(expr.lhs - expr.rhs, b, budget)
    else:
        yield expr


def _largest_root_below(polys, f0, floor):
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


LEVEL = sp.Symbol("b_level", real=True)   # the level, a symbol in the margin of a notion on a fixed table


def level_polynomials(notion, table: MechTable, name: str, fixed: dict):
    """(the polynomials in :data:`LEVEL`, None) whose real roots are the only values of parameter ``name`` where
    ``notion``'s truth on the exact ``table`` can change (every comparison of its body, read as a margin and cut
    into pieces by :func:`_leaves`, denominators cleared), or (None, the reason) when a piece is not a polynomial
    with rational coefficients."""
    expr = sp.sympify(notion.body(MarginOps(), table, **{**fixed, name: LEVEL})).doit()
    polys = []
    for leaf in _leaves(expr, LEVEL):
        try:
            poly = sp.Poly(sp.numer(sp.together(leaf)), LEVEL)
        except sp.PolynomialError:
            return None, f"a condition of {notion.name} is not polynomial in {name}"
        if poly.degree() > 0:
            if not all(c.is_Rational for c in poly.all_coeffs()):
                return None, "a condition has coefficients that are not rational numbers"
            polys.append(poly)
    return polys, None


def level_is_exactly(b_notion, name, spec, table: MechTable, fixed: dict, f0):
    """"exact" when the B-level of the exact ``table`` is ``f0``, "within 1%" when B fails at
    f0 − (f0 − b_min)/100, else None (with B(f0) required to hold in both cases)."""
    f0 = sp.nsimplify(f0)
    if holds_exactly(b_notion, table, None, {**fixed, name: f0}) is not True:
        return None
    floor = sp.sympify(spec.lower) if spec.lower is not None else None
    if floor is not None and f0 == floor:
        return "exact"  # B's least value: no table has a smaller level
    polys, _why = level_polynomials(b_notion, table, name, fixed)
    if polys is not None:
        r = _largest_root_below(polys, f0, floor if floor is not None else f0 - 1)
        if r is not None and r < f0:
            test = (r + f0) / 2
            if holds_exactly(b_notion, table, None, {**fixed, name: test}) is False:
                return "exact"
    low = f0 - (f0 - (floor if floor is not None else 0)) / 100
    if holds_exactly(b_notion, table, None, {**fixed, name: low}) is False:
        return "within 1%"
    return None


def rational_record(a_notion, b_notion, name, spec, table: MechTable, fixed: dict, point: dict, f0, found_by: str,
                    **more) -> dict | None:
    """The record of an exact ``table`` that attains ``f0`` at A's values ``point`` (its B-level already shown to be
    exactly ``f0``), read back from its JSON text and checked again (:func:`reverify`); None when the text does
    not check."""
    doc = {"kind": "rational", "at": {k: expr_text(v) for k, v in point.items()}, "mechanism": mechanism_doc(table),
           "level": "exact", "found_by": found_by, **more}
    if not reverify(a_notion, b_notion, name, spec, doc["mechanism"]["rows"], Shape(table.n, len(table.domain),
                                                                                     len(table.outputs)),
                    fixed, point, f0):
        return None
    return {**doc, "reverified": True}


SNAP_TOL = 1e-7                      # a condition within this of equality on the float table is taken as active
SNAP_DENOMINATORS = (10, 100, 1000, 10 ** 4, 10 ** 6)


def _active(expr, at: dict, ties: list):
    """``expr`` with every Max, Min and Abs replaced by the argument active on the float table ``at``
    (ties between arguments recorded as equations in ``ties``); None where that does not apply."""
    if not expr.args or not expr.free_symbols:
        return expr
    if isinstance(expr, sp.Piecewise):
        return None
    args = [_active(a, at, ties) for a in expr.args]
    if any(a is None for a in args):
        return None
    if isinstance(expr, (sp.Max, sp.Min)):
        vals = [float(a.xreplace(at)) for a in args]
        best = max(vals) if isinstance(expr, sp.Max) else min(vals)
        chosen = [a for a, v in zip(args, vals) if abs(v - best) <= SNAP_TOL]
        ties.extend(chosen[0] - c for c in chosen[1:])
        return chosen[0]
    if isinstance(expr, sp.Abs):
        v = float(args[0].xreplace(at))
        if abs(v) <= SNAP_TOL:
            ties.append(args[0])
        return args[0] if v >= 0 else -args[0]
    return expr.func(*args)


def _conjuncts(expr):
    """The margins of a conjunction (MarginOps writes And as Min)."""
    if isinstance(expr, sp.Min):
        for a in expr.args:
            yield from _conjuncts(a)
    else:
        yield expr


def _active_equations(notion, cells, shape, values, at) -> list:
    """The conditions of ``notion`` at ``values`` that the float table ``at`` meets with equality, as
    expressions in the cell symbols that vanish there (only those linear in the cells)."""
    body = notion.body(MarginOps(), shape.table(cells), **values)
    if isinstance(body, bool):
        return []
    eqs = []
    for m in _conjuncts(sp.sympify(body)):
        ties = []
        lin = _active(m, at, ties)
        if lin is None:
            continue
        for e in [lin] + ties:
            if not e.free_symbols or abs(float(e.xreplace(at))) > SNAP_TOL:
                continue
            try:
                if sp.Poly(e, *[c for r in cells for c in r]).total_degree() <= 1:
                    eqs.append(e)
            except sp.PolynomialError:
                continue
    return eqs


def snapped_tables(a, b, name, fixed: dict, shape, rows, point: dict, f0):
    """Exact tables on the face of A's feasible set where the float table ``rows`` lies: the active
    conditions of A at ``point`` and of B at ``f0`` with the row sums, solved exactly; entries they
    leave free take ``rows``' values rounded to growing denominators."""
    cells = [[sp.Symbol(f"c{i}_{o}") for o in range(shape.outputs)] for i in range(len(rows))]
    flat = [c for r in cells for c in r]
    at = {c: float(v) for c, v in zip(flat, (p for r in rows for p in r))}
    try:
        eqs = [sp.Add(*r) - 1 for r in cells]
        eqs += _active_equations(a, cells, shape, dict(point), at)
        eqs += _active_equations(b, cells, shape, {**fixed, name: f0}, at)
        sols = sp.linsolve(eqs, flat)
    except (TypeError, ValueError, ZeroDivisionError, NotImplementedError):
        return
    for sol in sols:
        free = sorted(set().union(*(sp.sympify(v).free_symbols for v in sol)), key=str)
        for den in SNAP_DENOMINATORS:
            sub = {c: sp.Rational(Fraction(at[c]).limit_denominator(den).numerator,
                                  Fraction(at[c]).limit_denominator(den).denominator) for c in free}
            vals = [sp.sympify(v).xreplace(sub) for v in sol]
            if any(v.free_symbols or v < 0 for v in vals):
                continue
            k = shape.outputs
            yield exact_table(shape, [vals[i * k:(i + 1) * k] for i in range(len(rows))])
        break


def level_bracket(b_notion, name, spec, table: MechTable, fixed: dict, f0, steps: int = 12):
    """(low, f0): B holds on the exact ``table`` at f0 and fails at low, low pushed up by exact
    bisection (``steps`` evaluations); None when B fails at f0 or holds at B's least value."""
    f0 = sp.nsimplify(f0)
    if holds_exactly(b_notion, table, None, {**fixed, name: f0}) is not True:
        return None
    lo = sp.sympify(spec.lower) if spec.lower is not None else f0 - 1
    if holds_exactly(b_notion, table, None, {**fixed, name: lo}) is not False:
        return None
    hi = f0
    for _ in range(steps):
        mid = (lo + hi) / 2
        got = holds_exactly(b_notion, table, None, {**fixed, name: mid})
        if got is None:
            break
        lo, hi = (mid, hi) if got is False else (lo, mid)
    return lo, f0


def reverify(a_notion, b_notion, name, spec, rows_doc: dict, shape, fixed: dict, point: dict, f0, syms=()) -> bool:
    """The attaining table read back from its JSON text (entries in A's parameter names, substituted at
    ``point``): a probability table, A holds exactly at ``point`` and B's level is exactly ``f0``."""
    from symbolic.core.exact import parse_expr
    from symbolic.graph.recheck import is_distribution
    names = {str(s): sp.Symbol(str(s), real=True) for s in syms}
    sub = {names[k]: v for k, v in point.items() if k in names}
    try:
        rows = [[parse_expr(str(p), names).xreplace(sub) for p in r] for r in rows_doc.values()]
    except (ValueError, TypeError, DPCheckError):
        return False
    t = exact_table(shape, rows)
    return (is_distribution(t) and holds_exactly(a_notion, t, None, point) is True
            and level_is_exactly(b_notion, name, spec, t, fixed, f0) == "exact")


RATIONAL_DENOMINATORS = 12   # f = p/q is tried for q up to this
RATIONAL_POINTS = 2          # values of A tried


def rational_value_points(formula, syms, points) -> list:
    """Values of A's one parameter, inside the range the sampled ``points`` span, at which the irrational
    ``formula`` is a simple rational p/q (q ≤ 12): solved exactly by sympy, kept when rational. An exact table can
    attain f only where f is rational, and the sample points may all miss such values.

    >>> E = sp.Symbol("E", positive=True)
    >>> rational_value_points(sp.sqrt((E - 1) / (E + 3)), [E], [{"E": 2}, {"E": 3}, {"E": 11}])
    [{'E': 7/3}, {'E': 21/5}]
    """
    if len(syms) != 1 or len(points) < 2:
        return []
    x = syms[0]
    xs = sorted(sp.Rational(p[str(x)]) for p in points)
    values = [sp.nsimplify(formula.subs(x, v)) for v in (xs[0], xs[-1])]
    if all(v.is_Rational for v in values) or not all(v.is_real for v in values):
        return []
    lo, hi = sorted(float(v) for v in values)
    out = []
    for q in range(2, RATIONAL_DENOMINATORS + 1):
        for p in range(int(lo * q), int(hi * q) + 1):
            r = sp.Rational(p, q)
            if r.q != q or not lo < r < hi:
                continue
            try:
                roots = sp.solve(sp.Eq(formula, r), x)
            except (NotImplementedError, ValueError, TypeError):
                return out
            for root in roots:
                if root.is_Rational and xs[0] <= root <= xs[-1] and {str(x): root} not in out:
                    out.append({str(x): root})
            if len(out) >= RATIONAL_POINTS:
                return out
    return out


__all__ = ["exact_table", "rational_value_points", "rounded_tables", "snapped_tables", "level_is_exactly", "level_bracket", "reverify"]
