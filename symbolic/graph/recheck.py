"""Exact re-verification of a pair's counterexample from its JSON record alone.

A pair that says "A ⇏ B", or that a parameter map was refuted, carries a counterexample: an exact
table (a population where a notion needs one), the values ``a`` of A's parameters, and the values of
B's parameters at which B fails (``fails_at``: the map at ``a``, or the weak level a separation search
asked for). :func:`recheck` reads those strings back (exact rationals or closed forms, through the
restricted parser), checks that every row is a probability distribution, and evaluates A and B on
the table by exact arithmetic (:func:`symbolic.graph.sampling.holds_exactly`): the counterexample is
confirmed when A holds and B fails. Nothing of what the solver said is reused, so a record written in
this run and one read back from the cache are judged the same way. ``verified_exactly`` is this
function's answer, never a constant.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import CURVE_CONSTANTS, CURVE_FUNCS, expr_text, parse_expr
from symbolic.core.tables import MechTable, PopTable
from symbolic.graph.sampling import holds_exactly


def _num(text) -> sp.Expr:
    value = parse_expr(str(text))
    if value.free_symbols:
        raise ValueError(f"{text} is not a number")
    return value


def table_of(cx: dict) -> tuple:
    """(mechanism A, population P or None) of a counterexample's JSON, as exact tables."""
    rows = cx["mechanism"]["A"]
    keys = [tuple(int(x) for x in k.split(",")) for k in rows]
    outs = tuple(sorted({int(o) for r in rows.values() for o in r}))
    dom = tuple(range(cx["domain"]))
    tab = MechTable(cx["n"], dom, outs, {k: tuple(_num(rows[t].get(str(o), "0")) for o in outs)
                                         for k, t in zip(keys, rows)})
    pops = cx.get("population") or {}
    pop = None
    if "P" in pops:
        probs = {tuple(int(x) for x in k.split(",")): _num(v) for k, v in pops["P"].items()}
        full = {d: probs.get(d, sp.Integer(0)) for d in keys}
        pop = PopTable(cx["n"], dom, full)
    return tab, pop


def is_distribution(tab: MechTable) -> bool:
    """Every entry a nonnegative exact number and every row summing to exactly 1."""
    for row in tab.rows.values():
        if any(not sp.sympify(p).is_number or isinstance(p, sp.Float) or sp.sympify(p).is_negative for p in row):
            return False
        if sp.simplify(sp.Add(*row) - 1) != 0:
            return False
    return True


def parse_map(text, names) -> dict | None:
    """"k = v, ..." → {k: expression in the symbols ``names``}; None when it does not read."""
    if text is None:
        return None
    if text == "no parameters":
        return {}
    syms = {n: sp.Symbol(n, real=True) for n in names}
    out = {}
    try:
        for part in str(text).split(","):
            k, v = part.split("=", 1)
            out[k.strip()] = parse_expr(v.strip(), syms, functions=CURVE_FUNCS, constants=CURVE_CONSTANTS)
    except (ValueError, DPCheckError):
        return None
    return out


def source_values(a_notion, cx: dict) -> dict:
    """A's parameter values as the counterexample states them (its own names only)."""
    names = [p.name for p in a_notion.params]
    return {k: _num(v) for k, v in (cx.get("parameters") or {}).items() if k in names}


def failing_values(a_notion, map_text, avals: dict):
    """B's parameters where B must fail: the map at A's values (None when the map does not read)."""
    m = parse_map(map_text, [p.name for p in a_notion.params])
    if m is None:
        return None
    out = {k: sp.sympify(v).subs({sp.Symbol(n, real=True): x for n, x in avals.items()}) for k, v in m.items()}
    return None if any(getattr(v, "free_symbols", None) for v in out.values()) else out


def fails_at_json(values: dict) -> dict:
    return {k: expr_text(v) for k, v in values.items()}


def recheck(a_notion, b_notion, cx: dict | None, fails_at) -> bool | None:
    """True when the counterexample ``cx`` is confirmed by exact evaluation: its table is a probability
    table, A holds at the stated parameters and B fails at ``fails_at`` (a dict of exact values or
    strings); False when any of that is refuted (or the record does not read); None when exact
    evaluation cannot decide one of the notions here."""
    if not cx or fails_at is None:
        return False
    try:
        tab, pop = table_of(cx)
        avals = source_values(a_notion, cx)
        bvals = {k: v if isinstance(v, sp.Basic) else _num(v) for k, v in fails_at.items()}
    except (KeyError, ValueError, TypeError, AttributeError, DPCheckError):
        return False
    if set(avals) != {p.name for p in a_notion.params} or set(bvals) != {p.name for p in b_notion.params}:
        return False
    if not is_distribution(tab):
        return False
    ha = holds_exactly(a_notion, tab, pop, avals)
    if ha is False:
        return False
    hb = holds_exactly(b_notion, tab, pop, bvals)
    if hb is True:
        return False
    return True if (ha is True and hb is False) else None


__all__ = ["recheck", "table_of", "parse_map", "failing_values", "fails_at_json", "source_values", "is_distribution"]
