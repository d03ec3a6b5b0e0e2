"""Separations by families: "A ⇏ B at every map" shown by tables that keep A's level fixed while B's grows.

No single table can show that no map f makes "A(a) ⇒ B(f(a))" hold when B holds at some level on every table
satisfying A. A one-parameter family can: tables T(t), t in a range, that all satisfy A at one level E_A, while
B's tight level on T(t) tends to ∞ as t tends to an end of the range. Then for any map, B(f(E_A)) fails on
T(t) for t near that end. The proof has three exact parts, each by sympy on the family:

- A's level ratio r_A(t) (e^level, the quantity the notion bounds by E) is derived by the table engine as a
  formula in t, and E_A − r_A(t) ≥ 0 is decided on the open range, with the closed end checked exactly;
- B's level ratio r_B(t) is derived likewise, and its limit at the end is ∞;
- at any requested level E_B an explicit rational t with r_B(t) > E_B is found, and the table T(t) is
  re-verified by exact evaluation of the notions' own conditions: A holds at E_A, B fails at E_B.

The levels here are those whose parameter is E = e^level: ε-DP, Rényi DP of order 2 (E = e^ε bounds
Σ p²/q), bounded range, free-lunch privacy.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import expr_text, parse_expr
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.tables import MechTable
from symbolic.graph.sampling import holds_exactly
from symbolic.model.param_space import symbolic_sign
from symbolic.model.symbolic_table import parse_ranges

#: the graph's notion → (derive level's name, its own parameters); each level is log of the ratio E bounds
LEVELS = {"pure-dp": ("pure-dp", {}), "renyi-dp": ("renyi-dp", {"alpha": 2}),
          "bounded-range": ("bounded-range", {}), "free-lunch": ("free-lunch", {})}
CHECKED_LEVELS = (sp.Integer(10), sp.Integer(1000))
MAX_HALVINGS = 4000


@dataclass(frozen=True)
class Family:
    """Tables over two databases of one record, rows written in ``t`` over ``range`` (and in the parameters of
    ``extra``, (name, range) pairs, when the family is one per level); the levels move as t tends to ``end`` from
    inside the range."""

    name: str
    rows: tuple          # (row of database 0, row of database 1), each a tuple of texts in t
    range: str
    end: sp.Rational
    extra: tuple = ()

    def document(self) -> dict:
        return {"n": 1, "domain": [0, 1], "outputs": list(range(len(self.rows[0]))),
                "params": {"t": self.range, **dict(self.extra)},
                "rows": {"0": list(self.rows[0]), "1": list(self.rows[1])}}

    def table_at(self, t, **values) -> MechTable:
        sym = {"t": sp.Rational(t), **{k: sp.Rational(v) for k, v in values.items()}}
        rows = {(d,): tuple(parse_expr(x, sym, what="family entry") for x in row) for d, row in enumerate(self.rows)}
        return MechTable(1, (0, 1), tuple(range(len(self.rows[0]))), rows)

    def text(self) -> str:
        ranges = "".join(f", {r}" for _, r in self.extra)
        return (f"{self.name}: rows ({', '.join(self.rows[0])}) and ({', '.join(self.rows[1])}), {self.range}"
                f"{ranges}, t → {self.end}")


FAMILIES = (
    Family("tiny probabilities with huge ratios", (("t", "1-t"), ("t^2", "1-t^2")), "0<t<=1/2", sp.Integer(0)),
)


@dataclass(frozen=True)
class FamilySeparation:
    """A proved family separation: A holds at ``source_E`` on every table of ``family``; B's level ratio
    ``target_ratio`` (in t) tends to ∞ at the family's end; ``at_levels``: (E_B, t, A holds, B fails)."""

    source: str
    target: str
    family: Family
    source_E: sp.Expr
    source_ratio: sp.Expr
    target_ratio: sp.Expr
    proof: tuple
    at_levels: tuple
    through: str = ""    # B, when the limit is B's and C ⇒ B carries it to the target C

    @property
    def verified(self) -> bool:
        return bool(self.at_levels) and all(a is True and b is False for _, _, a, b in self.at_levels)

    def to_json(self) -> dict:
        return {"separation": "family", "family": self.family.text(), "family_rows": [list(r) for r in self.family.rows],
                "source_level": f"E = {expr_text(self.source_E)}",
                "limit": (f"{self.through}'s level ratio " if self.through else "")
                         + f"{expr_text(self.target_ratio)} → ∞ as t → {self.family.end}", "proof": list(self.proof),
                "at_levels": [{"E": expr_text(e), "t": expr_text(t), "source_holds": a, "target_holds": b}
                              for e, t, a, b in self.at_levels]}


@lru_cache(maxsize=64)
def level_ratio(notion_id: str, family: Family, allow_max: bool = False):
    """e^level of ``notion_id`` on the family, a formula in t (and the family's extra parameters; a Max where the
    maximiser changes only with ``allow_max``), None when not derived as one; kept per process, since a source's
    ratio serves every target it is set against."""
    from symbolic.derive.level import derive_level
    name, own = LEVELS[notion_id]
    try:
        d = derive_level(name, family.document(), params=own)
    except DPCheckError:
        return None
    f = getattr(d, "formula", None)
    if f is None or not getattr(d, "ok", False) or f.has(sp.Piecewise) or (not allow_max and f.has(sp.Max, sp.Min)):
        return None
    return sp.simplify(sp.exp(f))


def _bound(ratio, family: Family):
    """(E_A, proof lines): the least of the ratio's values at the range's closed end and its limit at the
    other, when the ratio stays below it on the whole range (decided by sympy), else None."""
    rng = parse_ranges({"t": family.range})[0]
    t = rng.symbol
    ratio = ratio.xreplace({s: t for s in ratio.free_symbols if s.name == "t"})
    ends = [sp.limit(ratio, t, rng.lower, "+"), ratio.subs(t, rng.upper)]
    if any(e.has(sp.oo, sp.zoo, sp.nan) or not e.is_finite for e in ends):
        return None
    top = max(ends, key=lambda e: sp.N(e, 30))
    sign = symbolic_sign(top - ratio, (rng,))
    if sign not in (1, 0, "≥"):
        return None
    return top, (f"A's level ratio on the family is {expr_text(ratio)}; E_A − ratio ≥ 0 on the open range (sympy) "
                 f"with E_A = {expr_text(top)}, its value or limit at the ends",)


def _limit(ratio, family: Family):
    t = sp.Symbol("t", positive=True)
    ratio = ratio.xreplace({s: t for s in ratio.free_symbols if s.name == "t"})
    return sp.limit(ratio, t, family.end, "+")


def _t_above(ratio, family: Family, level):
    """A rational t between the end and the range, halving toward the end, where the ratio exceeds ``level``."""
    rng = parse_ranges({"t": family.range})[0]
    sym = next(s for s in ratio.free_symbols if s.name == "t")
    t = sp.Rational(rng.upper)
    for _ in range(MAX_HALVINGS):
        t = family.end + (t - family.end) / 2
        try:
            if exact_sign(ratio.subs(sym, t) - level) > 0:
                return t
        except UndecidedComparison:
            return None
    return None


def recheck_record(source_notion, target_notion, record: dict) -> bool:
    """A family separation's JSON record re-verified alone: each listed table rebuilt from the rows' text at its t
    (restricted parser, exact numbers, rows summing to 1), A holding at E_A and B failing at the level listed."""
    from symbolic.graph.recheck import is_distribution
    try:
        rows = tuple(tuple(str(x) for x in r) for r in record["family_rows"])
        source_E = parse_expr(record["source_level"].split("=", 1)[1])
        levels = record["at_levels"]
        if not levels or source_E.free_symbols:
            return False
        family = Family("record", rows, "0<t<=1", sp.Integer(0))
        for entry in levels:
            table = family.table_at(parse_expr(entry["t"]))
            if not is_distribution(table):
                return False
            level = parse_expr(entry["E"])
            if holds_exactly(source_notion, table, None, {"E": source_E}) is not True or \
                    holds_exactly(target_notion, table, None, {p.name: level for p in target_notion.params}) is not False:
                return False
        return True
    except (DPCheckError, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return False


def requested_levels(settings) -> tuple:
    """The levels of B at which the run's family separations give their tables (``settings.family_levels``)."""
    return tuple(sp.Rational(v) for v in settings.family_levels)


def family_separation(source, target, levels=CHECKED_LEVELS) -> FamilySeparation | None:
    """A family separation of the graph's notions ``source`` ⇏ ``target`` (NotionInfo records), re-verified at
    each E_B of ``levels``, or None when no family of :data:`FAMILIES` shows one.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> sep = family_separation(find_notion("renyi-dp"), find_notion("pure-dp"))
    >>> sep.source_E, sep.verified
    (2, True)
    """
    if source.id not in LEVELS or target.id not in LEVELS:
        return None
    for family in FAMILIES:
        ra, rb = level_ratio(source.id, family), level_ratio(target.id, family)
        if ra is None or rb is None:
            continue
        bound = _bound(ra, family)
        if bound is None or _limit(rb, family) != sp.oo:
            continue
        source_E, lines = bound
        checked = []
        for level in levels:
            t = _t_above(rb, family, level)
            if t is None:
                break
            table = family.table_at(t)
            checked.append((level, t, holds_exactly(source.notion, table, None, {"E": source_E}),
                            holds_exactly(target.notion, table, None, {"E": level})))
        proof = (*lines, f"B's level ratio on the family is {expr_text(rb)}, which tends to ∞ as t → {family.end}: "
                         f"for any map f, B(f(E_A)) fails on the family's tables near t = {family.end}",
                 "each requested level's table re-verified by exact evaluation of both notions' conditions")
        sep = FamilySeparation(source.id, target.id, family, source_E, ra, rb, proof, tuple(checked))
        if sep.verified:
            return sep
    return None


def family_through(source, target, via: FamilySeparation, target_map: str,
                   levels=CHECKED_LEVELS) -> FamilySeparation | None:
    """A ⇏ C from the family separation ``via`` (A ⇏ B) and a proved C ⇒ B(g), g = ``target_map`` (B's ratio E
    in C's parameters, all of them ratios): were C's level bounded by L on the family, B's would be by g(L), but it
    tends to ∞. Re-verified like any family: at each level L of C (every parameter of C at L), a rational t where
    B's ratio exceeds g(L), and on T(t) A holds at E_A and C fails at L by exact evaluation."""
    from symbolic.graph.recheck import parse_map
    names = [p.name for p in target.notion.params]
    g = parse_map(target_map, names)
    if not names or g is None or set(g) != {"E"} or any(p.lower != 1 or p.upper is not None
                                                         for p in target.notion.params):
        return None
    checked = []
    for level in levels:
        b_level = g["E"].xreplace({s: level for s in g["E"].free_symbols})
        if b_level.free_symbols or not b_level.is_finite:
            return None
        t = _t_above(via.target_ratio, via.family, b_level)
        if t is None:
            return None
        table = via.family.table_at(t)
        checked.append((level, t, holds_exactly(source.notion, table, None, {"E": via.source_E}),
                        holds_exactly(target.notion, table, None, {n: level for n in names})))
    proof = (*via.proof[:1], f"{target.id} ⇒ {via.target} ({target_map}) is proved, so were {target.id}'s level bounded on the family, {via.target}'s would be; "
             f"{via.target}'s level ratio is {expr_text(via.target_ratio)}, which tends to ∞ as t → {via.family.end}",
             "each requested level's table re-verified by exact evaluation of both notions' conditions")
    sep = FamilySeparation(source.id, target.id, via.family, via.source_E, via.source_ratio, via.target_ratio, proof,
                           tuple(checked), through=via.target)
    return sep if sep.verified else None


__all__ = ["FAMILIES", "Family", "FamilySeparation", "family_separation", "family_through", "level_ratio",
           "recheck_record", "requested_levels"]
