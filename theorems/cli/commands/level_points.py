"""`derive level NOTION --mechanism FILE --param eps=0.1,0.5,1`: the level at many values of one parameter, from
one derivation, each value enclosed in a ball (exact numbers in, certified decimals out)."""
from __future__ import annotations

import json

from symbolic import InvalidParameter, clip


def run_level_points(notion, doc, listed, values, assumptions, prior, as_json) -> int:
    from symbolic import level_points, parse_expr, tool_json
    if len(listed) != 1:
        raise InvalidParameter(f"--param takes a list of values for one parameter; {', '.join(listed)} are lists")
    if prior is not None:
        raise InvalidParameter("a list of values goes with the levels of densities and tables, not with --prior")
    name = listed[0]
    points = [parse_expr(x.strip(), {}, what=f"--param {name}") for x in values[name].split(",")]
    if any(not p.is_Rational for p in points):
        raise InvalidParameter(f"--param {clip(name, 20)}=…: each value of a list must be an exact rational (1/2, "
                               f"0.25, 3)")
    others = {k: v for k, v in values.items() if k != name}
    d, got = level_points(notion, doc, name, points, params=others, assumptions=assumptions)
    if not d.ok:
        print(f"the derivation's checks failed, so no point is given: {[c for c, ok in d.checks if not ok]}")
        return 1
    quantity = getattr(d, "quantity", "level")
    if as_json:
        print(json.dumps({"tool": tool_json(), "notion": notion, "quantity": quantity, "parameter": name,
                          "points": [{name: str(v), "lower": f"{float(b.lower()):.15g}", "upper": f"{float(b.upper()):.15g}"}
                                     for v, b in got]}, indent=2, ensure_ascii=False))
    else:
        for v, b in got:
            print(f"{name} = {v}: {quantity} = {float(b.lower()):.15g} (certified, ± {float(b.upper() - b.lower()):.1e})")
    return 0


__all__ = ["run_level_points"]
