"""Separations by a listed table: a small exact table on which A holds at a level short of its trivial end and B
holds at no level.

The solver's own separation search asks for a table failing B at one weak level, and only for B whose parameters
are ratios. Some pairs need no search: an output that one database can give and its neighbour cannot makes every
notion that compares probabilities by a ratio (ε-DP, Rényi DP, zCDP, μ-GDP, …) fail at every level, while notions
of a difference (TV, (ε, δ)-DP with δ > 0) still hold. The tables of :data:`CANDIDATES` are tried in order:

- A holds on the table at a value of a short ladder of A's parameters, each strictly inside its range (so never
  at a level every table meets, δ = 1), decided by exact evaluation of A's condition;
- B holds at no level: for ρ-zCDP and μ-GDP by the table's certified curve level being ∞ (an exact test: an
  output with probability 0 under one row of a neighbouring pair only), for the others by the solver's
  decision that B's condition on the fixed table has no solution in B's parameters
  (:func:`~symbolic.graph.separations.one_table.level_free`).

The record is an ordinary counterexample, re-verified from its JSON like any other (:mod:`symbolic.graph.recheck`):
A at the ladder's value, B failing at a weak level.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.tables import MechTable
from symbolic.core.verdicts import Counterexample, Sizes
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.separations.one_table import level_free

H = sp.Rational(1, 2)
#: (what the table shows, its two rows): one record, two databases, two outputs
CANDIDATES = (
    ("an output one database gives and its neighbour never does", ((sp.Integer(1), sp.Integer(0)), (H, H))),
    ("a rare output one database never gives", ((sp.Integer(1), sp.Integer(0)), (sp.Rational(9, 10),
                                                                                sp.Rational(1, 10)))),
)
WEAK = sp.Integer(1024)   # B's level at which the record asks B to fail (it fails at every level)
TABLE_CURVES = ("zcdp", "gaussian-dp")   # listed notions whose table level is a certified curve level


def ladder(param) -> tuple:
    """Values of one parameter strictly inside its range, strongest first: a ratio from 3/2, a mass from 1/2."""
    lo = sp.sympify(param.lower) if param.lower is not None else sp.Integer(0)
    if param.upper is not None:
        hi = sp.sympify(param.upper)
        return tuple(lo + (hi - lo) * t for t in (H, sp.Rational(9, 10)))
    if lo == 1:
        return tuple(sp.sympify(v) for v in (sp.Rational(3, 2), 2, 4, 16, WEAK))
    return tuple(lo + sp.sympify(v) for v in (H, 1, 4, 64, WEAK))


REVEALING = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Integer(0), sp.Integer(1))})


def source_level(notion, table) -> dict | None:
    """The first point of A's ladder (all parameters crossed) at which A holds on ``table`` exactly and fails on the
    table that reveals the record (its output is the record): a level that says something. At a level every table
    meets (ε ≥ 1 for two-point semantic privacy) nothing follows, and no separation is claimed there."""
    params = notion.params
    for values in itertools.product(*(ladder(p) for p in params)):
        point = dict(zip([p.name for p in params], values))
        if holds_exactly(notion, table, None, point) is True and \
                holds_exactly(notion, REVEALING, None, point) is False:
            return point
    return None


def no_level(info, table, settings) -> bool:
    """Whether B (a listing record) holds at no level on ``table``."""
    if info.id in TABLE_CURVES:
        from symbolic.derive.continuous.table_curves import table_curve_level
        doc = {"n": table.n, "domain": list(table.domain), "outputs": list(table.outputs),
               "rows": {",".join(map(str, d)): [str(x) for x in r] for d, r in table.rows.items()}}
        return table_curve_level(info.id, doc).value == sp.oo
    if info.cls == "transcendental" or not info.notion.params:
        return False
    return level_free(info.notion, table, settings) == "no level"


def candidate_separation(a, b, settings):
    """(counterexample, B's failing values, what the table shows) for the listing records ``a`` ⇏ ``b`` from the
    first table of :data:`CANDIDATES` that separates them; None when none does.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> from symbolic.graph.sweep import graph_settings
    >>> cx, fails, why = candidate_separation(find_notion("tv-privacy"), find_notion("zcdp"), graph_settings(3))
    >>> cx.parameters, fails
    ({'delta': 1/2}, {'rho': 1024})
    """
    if a.notion.arity != 1 or b.notion.arity != 1 or a.notion.population != "none" or \
            b.notion.population != "none":
        return None
    for why, rows in CANDIDATES:
        table = MechTable(1, (0, 1), (0, 1), {(d,): row for d, row in enumerate(rows)})
        try:
            point = source_level(a.notion, table)
            if point is None or not no_level(b, table, settings):
                continue
        except DPCheckError:
            continue
        fails = {p.name: (WEAK if p.upper is None else sp.sympify(p.upper)) for p in b.notion.params}
        cx = Counterexample(Sizes(1, 2, 2), {"A": table}, {}, point,
                            f"{b.notion.name} holds at no level on this table", f"{a.id} ⇒ {b.id}")
        return cx, fails, why
    return None


__all__ = ["CANDIDATES", "candidate_separation", "ladder", "no_level", "source_level"]
