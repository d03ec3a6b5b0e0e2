"""A derived tight level (:class:`~symbolic.derive.level.LevelDerivation`) as JSON and as text.

The JSON carries the keys of the derive contract, ``formula`` (sympy text), ``latex``, ``assumptions``,
``attained_by``, ``proof``, ``sizes``, ``checks``, and more: ``notion``, ``quantity``, ``params``,
``level_ratio`` (and its latex), ``maximisers`` (one entry per piece), ``infinite``, ``message``,
``proved``, ``ok``, and ``operation`` (lines) for a subsampled table. Databases are lists of their values; exact numbers are sympy text.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.core.math_text import LETTERS, math_text, tidy_text

MAX_LISTED = 20


def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    return expr_text(v) if isinstance(v, sp.Basic) else str(v)


def _label(label) -> dict:
    return {k: _jsonable(v) for k, v in label}


def level_json(d) -> dict:
    """The JSON document of a :class:`~symbolic.derive.level.LevelDerivation`.

    >>> from symbolic.derive.level import derive_level
    >>> doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
    ...        "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    >>> j = level_json(derive_level("pure-dp", doc))
    >>> j["formula"], j["attained_by"][0]["pair"], j["attained_by"][0]["output"], j["ok"]
    ('log(p/(1 - p))', [[0], [1]], 0, True)
    """
    from symbolic.derive.continuous.values import CurveLevel
    if isinstance(d, CurveLevel):
        from symbolic.derive.continuous.render import curve_json
        return curve_json(d)
    pieces = []
    for cond, expr, labels in d.pieces:
        pieces.append({"where": cond, "formula": expr_text(expr), "latex": sp.latex(expr),
                       "attained_by": [_label(x) for x in labels[:MAX_LISTED]], "count": len(labels)})
    return {
        "notion": d.notion,
        "quantity": d.quantity,
        "formula": expr_text(d.formula),
        "latex": sp.latex(d.formula),
        "level_ratio": None if d.level_ratio is None else expr_text(d.level_ratio),
        "level_ratio_latex": None if d.level_ratio is None else sp.latex(d.level_ratio),
        "assumptions": list(d.assumptions),
        "params": {k: expr_text(v) for k, v in d.params.items()},
        "attained_by": [{"where": p["where"], **p["attained_by"][0]} for p in pieces if p["attained_by"]],
        "maximisers": pieces,
        "proof": "\n".join(d.steps) if d.proved else None,
        "proved": d.proved,
        "infinite": d.infinite,
        "message": d.message,
        "sizes": dict(d.sizes),
        "checks": [{"text": t, "ok": bool(ok)} for t, ok in d.checks],
        "ok": d.ok,
        **({"operation": list(d.operation)} if d.operation else {}),
    }


def level_text(d) -> str:
    """Lines for a terminal: the formula, the pieces with their maximisers, the assumptions, the checks.

    >>> from symbolic.derive.level import derive_level
    >>> doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
    ...        "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    >>> print(level_text(derive_level("pure-dp", doc)).splitlines()[0])
    pure-dp: ε = ln(p/(1 − p))
    """
    from symbolic.derive.continuous.values import CurveLevel
    if isinstance(d, CurveLevel):
        from symbolic.derive.continuous.render import curve_text
        return curve_text(d)
    lines = [f"{d.notion}: {LETTERS.get(d.quantity, d.quantity)} = {math_text(d.formula)}"]
    lines += [f"operation: {t}" for t in d.operation]
    if d.infinite:
        lines.append(f"infinite: {d.message}")
    if d.level_ratio is not None and not d.infinite:
        lines.append(f"level ratio (inside the log): {math_text(d.level_ratio)}")
    for cond, expr, labels in d.pieces:
        first = ", ".join(f"{k} {_jsonable(v)}" for k, v in labels[0]) if labels else "-"
        more = f" (and {len(labels) - 1} more)" if len(labels) > 1 else ""
        lines.append(f"  on {tidy_text(cond)}: {math_text(expr)}, attained by {first}{more}")
    lines.append(f"assumptions: {', '.join(d.assumptions) or 'none (a numeric table)'}")
    lines.append(f"maximiser decided exactly: {'yes' if d.proved else 'no (see the checks)'}")
    for t, ok in d.checks:
        lines.append(f"check: {t}: {'ok' if ok else 'FAILED'}")
    return "\n".join(lines)


__all__ = ["level_json", "level_text"]
