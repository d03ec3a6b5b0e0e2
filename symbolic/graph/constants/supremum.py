"""A map that no smaller map can replace though no table attains it: the supremum, shown by a sequence of tables.

When `derive map` proves A(E) ⇒ B(f(E)) but finds no exact table whose B-level is f(E), f may still be the
least map: a supremum approached and not reached. A family of tables T(E, t), t in a range, shows it:

- A holds at level E on every T(E, t): E − r_A(E, t) ≥ 0 over both ranges, decided by sympy, where r_A is A's
  level ratio (e^level, the quantity the notion bounds by E), derived by the table engine;
- B's level ratio r_B(E, t) tends to f(E) as t tends to the family's end (sympy's limit, compared with f
  exactly), so for any smaller map g(E) < f(E), B(g(E)) fails on T(E, t) for t near the end;
- at E = 3 a rational t is found at which B's level exceeds f(3) − 1/100, and the table T(3, t) is re-verified by
  exact evaluation of the notions' own conditions: A holds at E = 3, B fails at f(3) − 1/100.

The levels are those of :mod:`symbolic.graph.separations.families` (ε-DP, Rényi DP of order 2, bounded range,
free-lunch privacy), whose parameter is the ratio E.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.separations.families import LEVELS, Family, level_ratio
from symbolic.model.param_space import symbolic_sign
from symbolic.model.symbolic_table import parse_ranges

CHECK_E = sp.Integer(3)
GAP = sp.Rational(1, 100)
MAX_HALVINGS = 200


APPROACHING = (
    Family("ratio E on an output whose mass vanishes", (("E*t/(1+t*(E-1))", "(1-t)/(1+t*(E-1))"), ("t", "1-t")),
           "0<t<=1/2", sp.Integer(0), (("E", "1<E"),)),
)


def _symbols(expr, ranges):
    by_name = {r.symbol.name: r.symbol for r in ranges}
    return expr.xreplace({s: by_name[s.name] for s in expr.free_symbols if s.name in by_name})


def _holds_at_E(ratio, family) -> bool:
    """E − ratio ≥ 0 for every t and E in range (each argument of a Max), decided by sympy."""
    ranges = parse_ranges(family.document()["params"])
    E = next(r.symbol for r in ranges if r.symbol.name == "E")
    ratio = _symbols(ratio, ranges)
    parts = ratio.args if isinstance(ratio, sp.Max) else (ratio,)
    return all(symbolic_sign(sp.simplify(E - part), ranges) in (1, 0, "≥") for part in parts)


def _limit(ratio, family):
    """The ratio's limit as t tends to the family's end, a Max of the arguments' limits (max is continuous)."""
    t, E = sp.Symbol("t", positive=True), sp.Symbol("E", positive=True)
    ratio = ratio.xreplace({s: {"t": t, "E": E}[s.name] for s in ratio.free_symbols})
    parts = ratio.args if isinstance(ratio, sp.Max) else (ratio,)
    return sp.Max(*[sp.simplify(sp.limit(part, t, family.end, "+")) for part in parts]), E


def _max_at(value, E):
    """A Max of the limit's arguments with E > 1: the larger one when sympy can order them."""
    if not isinstance(value, sp.Max):
        return value
    ranges = parse_ranges({"E": "1<E"})
    big = ranges[0].symbol
    args = [a.xreplace({E: big}) for a in value.args]
    for a in args:
        if all(symbolic_sign(sp.simplify(a - b), ranges) in (1, 0, "≥") for b in args if b is not a):
            return a.xreplace({big: E})
    return value


@dataclass(frozen=True)
class Supremum:
    """f(E) is B's least level over A(E)'s tables as a supremum: ``family`` holds A at E, B's ratio tends to f."""

    family: Family
    source_ratio: sp.Expr
    target_ratio: sp.Expr
    limit: sp.Expr
    check: dict

    def to_json(self) -> dict:
        return {"family": self.family.text(), "family_rows": [list(r) for r in self.family.rows],
                "source_ratio": expr_text(self.source_ratio), "target_ratio": expr_text(self.target_ratio),
                "limit": f"{expr_text(self.target_ratio)} → {expr_text(self.limit)} as t → {self.family.end}",
                "proof": [f"A's level ratio on the family is at most E for every t and E > 1 (sympy)",
                          f"B's level ratio tends to {expr_text(self.limit)}, the map, as t → {self.family.end} "
                          f"(sympy's limit): no smaller map holds, though no table found attains it",
                          "one table of the family re-verified by exact evaluation of both notions' conditions"],
                "checked": self.check}


def supremum_family(a, b, formula) -> Supremum | None:
    """A family showing that the proved map B(E) = ``formula`` (in A's E) cannot be lowered, for the graph's
    notions ``a`` ⇒ ``b`` (NotionInfo records) whose levels are ratios; None when no family of
    :data:`APPROACHING` shows it.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> sup = supremum_family(find_notion("bounded-range"), find_notion("pure-dp"), sp.Symbol("E", real=True))
    >>> str(sup.limit), sup.check["source_holds"], sup.check["target_holds"]
    ('E', True, False)
    """
    if a.id not in LEVELS or b.id not in LEVELS or [p.name for p in a.notion.params] != ["E"]:
        return None
    f = sp.sympify(formula)
    for family in APPROACHING:
        ra, rb = level_ratio(a.id, family, True), level_ratio(b.id, family, True)
        if ra is None or rb is None or not _holds_at_E(ra, family):
            continue
        value, E = _limit(rb, family)
        value = _max_at(value, E)
        if sp.simplify(value - f.xreplace({s: E for s in f.free_symbols if s.name == "E"})) != 0:
            continue
        check = _checked(a, b, family, rb, f)
        if check is not None and check["source_holds"] is True and check["target_holds"] is False:
            return Supremum(family, ra, rb, value, check)
    return None


def _checked(a, b, family, rb, f) -> dict | None:
    """At E = 3: a rational t halving toward the end with B's ratio above f(3) − 1/100, and both notions evaluated
    exactly on the table there (A at E = 3, B at f(3) − 1/100)."""
    f3 = f.xreplace({s: CHECK_E for s in f.free_symbols})
    if not f3.is_Rational:
        return None
    level = f3 - GAP
    syms = {s.name: s for s in rb.free_symbols}
    r3 = rb.xreplace({syms["E"]: CHECK_E}) if "E" in syms else rb
    t = sp.Rational(parse_ranges({"t": family.range})[0].upper)
    for _ in range(MAX_HALVINGS):
        t = family.end + (t - family.end) / 2
        try:
            if exact_sign(r3.xreplace({syms["t"]: t}) - level) > 0:
                break
        except (UndecidedComparison, KeyError):
            return None
    else:
        return None
    table = family.table_at(t, E=CHECK_E)
    target = b.notion.params[-1].name
    return {"E": expr_text(CHECK_E), "t": expr_text(t), "target_level": f"{target} = {expr_text(level)}",
            "source_holds": holds_exactly(a.notion, table, None, {"E": CHECK_E}),
            "target_holds": holds_exactly(b.notion, table, None, {target: level})}


__all__ = ["APPROACHING", "Supremum", "supremum_family"]
