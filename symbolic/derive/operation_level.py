"""The level of an operation on mechanisms: routes a composition to :mod:`symbolic.derive.composition` and
derives a subsampled table's level with the table engine, on the tables of
:func:`symbolic.model.subsampling.operation_tables`.

Poisson sampling at rate q (add/remove one record, V standing for its absence; Li, Qardaji, Su 2012 and
Balle, Barthe, Gaboardi 2018 state the amplification): the level is the largest over x ≠ V of the level of
the two-row table M(V), (1 − q)·M(V) + q·M(x). Sampling m of N without replacement (replace one record): the
level of the averaged table over databases of N records. Every notion ``derive level`` takes of a table is
taken, with the parameters left symbolic when there is one table (formulas in q come out of the engine).
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import parse_expr
from symbolic.derive.composition import composition_level, largest
from symbolic.derive.continuous.values import CurveLevel, enclosure
from symbolic.model.continuous import is_continuous_document
from symbolic.model.operations import composition_from_json, is_operation_document, subsampled_from_json
from symbolic.model.subsampling import operation_tables


def operation_level(notion_id: str, doc, *, key: str, fixed: dict, table_level, params=None, assumptions=(),
                    prior=None, budget=None):
    """The level of ``notion_id`` for the operation ``doc`` (``key``, ``fixed``: the notion's ID and the
    parameters its alias fixes, when it is a listed level notion). A composition gives a
    :class:`~symbolic.derive.continuous.values.CurveLevel`; a subsampled table what ``table_level`` (the
    table engine, :func:`symbolic.derive.level.derive_level`) gives for its tables.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> from symbolic.derive.level import derive_level
    >>> d = operation_level("pure-dp", {"kind": "subsampled", "of": rr, "sampling": "poisson", "rate": "1/2"},
    ...                     key="pure-dp", fixed={}, table_level=derive_level)
    >>> d.formula, d.ok
    (log(2), True)
    """
    if not is_operation_document(doc):
        raise InvalidParameter('an operation is a JSON object with "kind": "composition" or "subsampled"')
    if prior is not None:
        raise InvalidParameter(f"the level of a {doc['kind']} takes no prior")
    if doc["kind"] == "composition":
        of = doc.get("of")
        if is_operation_document(of) and is_continuous_document(of.get("of")):
            from symbolic.derive.operations.subsampled_density import composed_subsampled_level
            return composed_subsampled_level(notion_id, doc, params=params, assumptions=assumptions)
        if isinstance(of, list) and of and is_continuous_document(of[0]):
            from symbolic.derive.operations.density_list import density_list_level
            return density_list_level(notion_id, doc, params=params, assumptions=assumptions)
        if is_continuous_document(doc.get("of")):
            from symbolic.derive.operations.density_composition import density_composition_level
            return density_composition_level(notion_id, doc, params=params, assumptions=assumptions)
        if key == "zcdp":
            return _zcdp_of_runs(doc, params, assumptions, table_level)
        if key == "gaussian-dp" and not is_operation_document(of):
            from symbolic.derive.composition_gdp import composition_gdp_level
            return composition_gdp_level(doc, params=params, assumptions=assumptions)
        return composition_level(key, doc, params=params, assumptions=assumptions, fixed=fixed)
    if is_continuous_document(doc.get("of")):
        from symbolic.derive.operations.subsampled_density import subsampled_density_level
        return subsampled_density_level(notion_id, doc, params=params, assumptions=assumptions)
    return _subsampled_level(notion_id, doc, params, assumptions, budget, table_level)


def _zcdp_of_runs(doc, params, assumptions, derive_level):
    """ρ of a composition of tables: the runs' ρ added (Rényi divergences add at every order, so their supremum
    over α of D_α/α adds; Bun, Steinke 2016, Lemma 2.3), each table's ρ a certified enclosure; k runs of one
    table with a symbolic k give k·ρ only when ρ is exact."""
    comp = composition_from_json(doc)
    k, rest = comp.times_at(dict(params or {}))
    parts = comp.of if isinstance(comp.of, tuple) else (comp.of,)
    levels = [derive_level("zcdp", part, params=rest, assumptions=assumptions) for part in parts]
    if any(d.enclosure is None for d in levels):
        return next(d for d in levels if d.enclosure is None)
    steps = ("zCDP adds under composition (Bun, Steinke 2016, Lemma 2.3): the level is the sum of the runs' ρ",
             *(f"run {i + 1}: ρ in [{sp.Float(d.enclosure[0], 15)}, {sp.Float(d.enclosure[1], 15)}]"
               for i, d in enumerate(levels)))
    if not isinstance(k, int):
        return replace(levels[0], value=None, enclosure=None, exact=False, steps=steps,
                       unknown=f"one run's ρ is only enclosed; a formula in {k} needs it exact: give {k} a value "
                               f"with --param {k}=…")
    lo = k * sum(d.enclosure[0] for d in levels)
    hi = k * sum(d.enclosure[1] for d in levels)
    value = None if any(d.value is None for d in levels) else k * sum(d.value for d in levels)
    checks = tuple(c for d in levels for c in d.checks)
    return replace(levels[0], value=value, formula=value, enclosure=(lo, hi), steps=steps, checks=checks)


def _subsampled_level(notion_id, doc, params, assumptions, budget, derive_level):
    sub = subsampled_from_json(doc)
    tables = operation_tables(doc, assumptions=tuple(assumptions))
    if sub.sampling == "poisson":
        absent = tables[0][1].mechanism.domain[0]
        rate = f"rate {sub.rate}" if sub.rate in sub.params else f"rate q = {sub.rate}"
        intro = (f"Poisson sampling at {rate} (add or remove one record; {absent} stands for its "
                 f"absence): the law at x is (1 − q)·M({absent}) + q·M(x); the level is the largest over x of the "
                 f"level of the two-row table of M({absent}) and that law")
    else:
        m = tables[0][1].mechanism
        intro = (f"sampling {parse_expr(sub.rate) * sub.size} of {sub.size} records without replacement (replace one "
                 f"record): the row of a database d of {m.n} records is the average over the subsets S of M(d_S)")
    derived = [(label, derive_level(notion_id, sm, params=params, budget=budget)) for label, sm in tables]
    if len(derived) == 1:
        return _with_operation(derived[0][1], (intro,))
    values = []
    for label, d in derived:
        v = _number(d)
        if v is None:
            raise InvalidParameter(f"a Poisson-subsampled table with {len(derived)} values besides the absent one is "
                                   f"derived at numbers: give every parameter a value with --param")
        values.append((label, None, v))
    best = largest(values)
    lines = tuple(f"{label}: {_shown(v)}" for label, _, v in values)
    if best is None:
        return replace(_with_operation(derived[0][1], (intro, *lines, "which x gives the largest level was not "
                                                       "decided exactly")),
                       checks=(("the largest over x decided exactly", False),))
    return _with_operation(derived[best][1], (intro, *lines, f"the largest is at {derived[best][0]}"))


def _with_operation(d, lines):
    """The derivation with the operation's lines: its own field for a table's level, first steps for a curve's."""
    if isinstance(d, CurveLevel):
        return replace(d, steps=(*lines, *d.steps))
    return replace(d, operation=tuple(lines))


def _number(d):
    """(exact value or oo, enclosure, note) of a derived level at numbers, or None while symbols remain."""
    if isinstance(d, CurveLevel):
        if d.value is None:
            return None if d.enclosure is None else (None, d.enclosure, "")
        v = d.value
    else:
        v = d.formula
    if v.free_symbols:
        return None
    return (v, None, "") if v == sp.oo else (v, enclosure(v), "")


def _shown(v) -> str:
    value, enc, _ = v
    if value == sp.oo:
        return "∞"
    return sp.sstr(value) if value is not None else f"in [{sp.Float(enc[0], 15)}, {sp.Float(enc[1], 15)}]"


__all__ = ["operation_level"]
