"""A level derived for a density or mass function (:class:`~symbolic.derive.continuous.values.CurveLevel`) as
text and as JSON.

The JSON has the keys of the level contract (``notion``, ``quantity``, ``formula``, ``latex``,
``assumptions``, ``attained_by``, ``proof``, ``checks``, ``ok``) and ``value`` (exact, sympy text),
``enclosure`` (``[lower, upper]`` as exact rationals and as decimals rounded outward) and ``exact`` (False when only the
enclosure is certified). ∞ is the text ``"oo"`` and the word "infinite".
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.derive.continuous.values import decimal_down, decimal_up


def _text(e):
    return None if e is None else expr_text(e)


def curve_json(d) -> dict:
    """The JSON document of a CurveLevel."""
    enc = None
    if d.enclosure is not None:
        lo, hi = d.enclosure
        enc = {"lower": expr_text(lo), "upper": expr_text(hi), "lower_decimal": decimal_down(lo, 20),
               "upper_decimal": decimal_up(hi, 20)}
    return {
        "notion": d.notion,
        "quantity": d.quantity,
        "outputs": d.mechanism.outputs if d.mechanism is not None else None,
        "formula": _text(d.formula),
        "latex": None if d.formula is None else sp.latex(d.formula),
        "value": _text(d.value),
        "value_decimal": d.value_text(),
        "enclosure": enc,
        "exact": d.exact,
        "infinite": d.infinite,
        "params": {k: str(v) for k, v in d.params.items()},
        "assumptions": list(d.assumptions),
        "attained_by": d.where,
        "proof": "\n".join(d.steps),
        "checks": [{"text": t, "ok": bool(ok)} for t, ok in d.checks],
        "ok": d.ok,
        "unknown": d.unknown,
    }


def curve_text(d) -> str:
    """Lines for a terminal: the level, its formula, where it is reached, how, and the checks."""
    given = ", ".join(f"{k} = {v}" for k, v in d.params.items())
    head = f"{d.notion}: {d.quantity} = {d.value_text()}" + (f"   at {given}" if given else "")
    lines = [head]
    if d.unknown is not None:
        lines.append(f"unknown: {d.unknown}")
    if d.infinite:
        lines.append(f"infinite: the level is ∞, reached {d.where}")
    if d.formula is not None and d.formula != sp.oo:
        lines.append(f"formula: {d.quantity} = {expr_text(d.formula)}")
    elif d.formula is None and not d.infinite and d.unknown is None:
        lines.append("formula: none derived in closed form; the value is a certified enclosure")
    if not d.exact and d.enclosure is not None:
        lo, hi = d.enclosure
        lines.append(f"enclosure: [{decimal_down(lo, 18)}, {decimal_up(hi, 18)}] (certified)")
    if d.where:
        lines.append(f"reached: {d.where}")
    lines.append(f"assumptions: {', '.join(d.assumptions) or 'none'}")
    for s in d.steps:
        lines.append(f"step: {s}")
    for t, ok in d.checks:
        lines.append(f"check: {t}: {'ok' if ok else 'FAILED'}")
    return "\n".join(lines)


__all__ = ["curve_json", "curve_text"]
