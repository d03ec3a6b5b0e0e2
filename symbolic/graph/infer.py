"""Pair results implied by others, without a solver call.

Two sound rules, applied to pairs decided at the same sizes (every pair of a run shares its size
grid):

1. **Transitivity.** A ⇒ B(f) and B ⇒ C(g), both proved, give A ⇒ C(g∘f) at the same sizes. Used
   only when both maps keep the level (each parameter maps to a parameter or a constant), so the
   composed map is one the direct check would have tried first, and only for pairs without side
   conditions.
2. **A separation travels along implications.** If a mechanism M satisfies A at parameters a and C
   at no level, and A ⇒ B(f) is proved, then M satisfies B at f(a) — checked here again by exact
   evaluation — so B ⇏ C with the same witness. Dually, if M satisfies B and C at no level and
   D ⇒ C(h) is proved, M satisfies D at no level (else C would hold at h(d)), checked by the same
   fixed-table query that established it for C.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.tables import MechTable, PopTable
from symbolic.graph.hasse import same_level
from symbolic.graph.pair import PairResult
from symbolic.graph.sampling import holds_exactly


def _map_dict(text) -> dict | None:
    if not text or text == "no parameters":
        return {}
    out = {}
    for part in text.split(","):
        if "=" not in part:
            return None
        k, v = part.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def compose(f_text, g_text) -> str | None:
    """g∘f for level-keeping maps written as "k = v, ..." (values names or numbers); None otherwise.

    >>> compose("E = E, delta = 0", "E = E")
    'E = E'
    >>> compose("gamma = E", "E = gamma, delta = 0")
    'E = E, delta = 0'
    """
    if not (same_level(f_text) and same_level(g_text)):
        return None
    f, g = _map_dict(f_text), _map_dict(g_text)
    if f is None or g is None:
        return None
    out = []
    for k, v in g.items():
        if v.isidentifier():
            if v not in f:
                return None
            v = f[v]
        out.append(f"{k} = {v}")
    return ", ".join(out) or "no parameters"


def _plain(r: PairResult) -> bool:
    return r.relation == "implies" and not r.extra.get("assuming")


def by_transitivity(a: str, c: str, done: dict, ids) -> PairResult | None:
    for b in ids:
        ab, bc = done.get((a, b)), done.get((b, c))
        if ab is None or bc is None or not (_plain(ab) and _plain(bc)):
            continue
        m = compose(ab.map, bc.map)
        if m is not None:
            return PairResult(a, c, "implies", map=m,
                              certificate={"method": f"transitivity: {a} ⇒ {b} ({ab.map}) and {b} ⇒ {c} ({bc.map}), "
                                                     f"each proved at these sizes"},
                              extra={"map_source": f"transitivity via {b}"})
    return None


def table_of(cx: dict) -> tuple:
    """(mechanism A, population P or None) of a counterexample's JSON, as exact tables."""
    rows = cx["mechanism"]["A"]
    keys = [tuple(int(x) for x in k.split(",")) for k in rows]
    outs = tuple(sorted({int(o) for r in rows.values() for o in r}))
    dom = tuple(range(cx["domain"]))
    tab = MechTable(cx["n"], dom, outs, {k: tuple(sp.Rational(rows[t][str(o)]) for o in outs)
                                         for k, t in zip(keys, rows)})
    pops = cx.get("population") or {}
    pop = None
    if "P" in pops:
        probs = {tuple(int(x) for x in k.split(",")): sp.Rational(v) for k, v in pops["P"].items()}
        full = {d: probs.get(d, sp.Integer(0)) for d in keys}
        pop = PopTable(cx["n"], dom, full)
    return tab, pop


def separation_upward(b_info, c: str, done: dict, ids) -> PairResult | None:
    """B ⇏ C from some A ⇒ B(f) and a qualitative A ⇏ C whose witness satisfies B(f(a)) exactly."""
    b = b_info.id
    for a in ids:
        ab, ac = done.get((a, b)), done.get((a, c))
        if ab is None or ac is None or not _plain(ab) or ac.relation != "not-implies" or not ac.qualitative:
            continue
        cx = ac.counterexample
        if not cx or "A" not in (cx.get("mechanism") or {}):
            continue
        try:
            tab, pop = table_of(cx)
            avals = {k: sp.Rational(v) for k, v in cx["parameters"].items() if not k.startswith("eps")
                     or k == "eps" and "E" not in cx["parameters"]}
            f = _map_dict(ab.map) or {}
            syms = {k: sp.Symbol(k, real=True) for k in avals}
            bvals = {k: sp.sympify(v, locals=syms).subs({syms[n]: x for n, x in avals.items()}) for k, v in f.items()}
        except (KeyError, ValueError, TypeError, sp.SympifyError):
            continue
        if any(getattr(v, "free_symbols", None) for v in bvals.values()):
            continue
        if holds_exactly(b_info.notion, tab, pop, bvals):
            shown = dict(cx, parameters={k: str(v) for k, v in bvals.items()},
                         implication=f"{b} at the parameters shown, {c} at no level")
            return PairResult(b, c, "not-implies", counterexample=shown, verified_exactly=True, qualitative=True,
                              reason=f"the witness of {a} ⇏ {c} satisfies {b} (through {a} ⇒ {b}, {ab.map}), checked "
                                     f"exactly, and {c} at no level",
                              extra={"map_source": f"separation via {a}"})
    return None
