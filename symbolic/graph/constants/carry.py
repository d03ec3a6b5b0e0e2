"""The map at n + 1 records from the map at n, without a new search, when it has not changed.

A table on n records is also a table on n + 1 records that ignores the last one: its rows repeat, the row of
(x₁, …, xₙ, x) being the row of (x₁, …, xₙ) for every x. If the table attaining f at n still satisfies A exactly
and still has B-level exactly f once lifted so (both decided in exact arithmetic, on the lifted table read
back from its text: :func:`~symbolic.graph.constants.attain.reverify`), then f(a) ≤ the map at n + 1; if the
solver also proves A(a) ⇒ B(f(a)) at n + 1, then f is the map at n + 1, tight, whatever the search would
have found. Either failing says nothing (the caller derives the map at n + 1 afresh).
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.exact import parse_expr
from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.attain import reverify


def lifted_rows(rows: dict, n: int, dbs) -> dict | None:
    """The rows (keyed by databases spelled "x1,…,xn") of a table on ``n`` records as a table on the databases
    ``dbs`` (tuples of more records) that ignores the records after the first ``n``; None when a row is missing.

    >>> lifted_rows({"0": ["1/3", "2/3"], "1": ["2/3", "1/3"]}, 1, [(0, 0), (0, 1), (1, 0), (1, 1)])
    {'0,0': ['1/3', '2/3'], '0,1': ['1/3', '2/3'], '1,0': ['2/3', '1/3'], '1,1': ['2/3', '1/3']}
    """
    out = {}
    for d in dbs:
        key = ",".join(map(str, d[:n]))
        if key not in rows:
            return None
        out[",".join(map(str, d))] = list(rows[key])
    return out


def _point_texts(att: dict) -> list:
    """The values of A's parameters at which the attaining record was checked, as its text gives them."""
    return att.get("verified_at") or ([att["at"]] if att.get("at") else [])


def lifted_attainment(previous, an, bn, target, spec, fixed_b, shape, sizes: Sizes, syms) -> tuple:
    """(attaining record at ``sizes``, check text) from ``previous`` (the :class:`MapDerivation` at fewer
    records, tight), or (None, why not)."""
    att, f = previous.attained_by, previous.formula
    if not previous.tight or att is None or f is None or f.has(sp.oo, sp.zoo):
        return None, "the map at fewer records is not tight"
    if (previous.sizes.domain, previous.sizes.outputs) != (sizes.domain, sizes.outputs) or previous.sizes.n >= sizes.n:
        return None, "not the same table shape with fewer records"
    rows = lifted_rows(att["mechanism"]["rows"], previous.sizes.n, shape.dbs)
    names = {str(s): s for s in syms}
    points = [{k: parse_expr(str(v), names) for k, v in p.items()} for p in _point_texts(att)]
    if rows is None or not points:
        return None, "the attaining table cannot be lifted"
    for p in points:
        f0 = f.xreplace({s: p[str(s)] for s in syms})
        if not reverify(an, bn, target, spec, rows, shape, fixed_b(p), p, f0, syms):
            return None, f"the table attaining f at n={previous.sizes.n}, lifted, does not attain it at n={sizes.n}"
    mech = {**att["mechanism"], "n": sizes.n, "rows": rows}
    where = ", ".join(f"{k} = {v}" for p in _point_texts(att) for k, v in p.items())
    text = (f"the table attaining f at n={previous.sizes.n}, with records it ignores, read back from its text: "
            f"{an.name} holds exactly and {bn.name}'s level is exactly f at {where}")
    return {**att, "mechanism": mech, "found_by": f"lifted from n={previous.sizes.n}", "reverified": True}, text


__all__ = ["lifted_rows", "lifted_attainment"]
