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
   fixed-table query that established it for C. Only a qualitative separation travels.
3. **Composition of any proved maps** (:func:`by_composition`, after the pairs are decided): a pair
   left with only refuted maps (or unknown) becomes A ⇒ C(g∘f) when A ⇒ B(f) and B ⇒ C(g) are proved
   and f(a) stays in B's range for every a (decided exactly); the refuted map stays on record.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import expr_text, parse_expr
from symbolic.graph.all_sizes import holds_at_every_size, scope_record
from symbolic.graph.hasse import same_level
from symbolic.graph.maps import stays_in_range
from symbolic.graph.pair import PairResult
from symbolic.graph.recheck import failing_values, parse_map, table_of
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


def chain_scope(a: str, b: str, c: str, ab: PairResult, bc: PairResult) -> dict:
    """The scope keys of A ⇒ C inferred through B: every size when both links hold at every size (the argument
    names them), else within bounds.

    >>> every = {"scope": "all sizes", "all_sizes": {"reduction": "x"}}
    >>> ab, bc = PairResult("a", "b", "implies", extra=every), PairResult("b", "c", "implies", extra=every)
    >>> chain_scope("a", "b", "c", ab, bc)["all_sizes"]["argument"][0]
    'a ⇒ b holds at every size (x)'
    >>> chain_scope("a", "b", "c", ab, PairResult("b", "c", "implies"))
    {'scope': 'within bounds'}
    """
    if not (holds_at_every_size(ab.extra) and holds_at_every_size(bc.extra)):
        return scope_record(None)
    return scope_record({"scope": "all sizes", "reduction": f"a chain through {b}",
                         "argument": [f"{u} ⇒ {v} holds at every size ({r.extra['all_sizes'].get('reduction')})"
                                      for u, v, r in ((a, b, ab), (b, c, bc))]})


def by_transitivity(a: str, c: str, done: dict, ids) -> PairResult | None:
    """A ⇒ C through the first B with both links proved and level-keeping maps; a chain that holds at every size
    is preferred (it says more than one within bounds)."""
    first = None
    for b in ids:
        ab, bc = done.get((a, b)), done.get((b, c))
        if ab is None or bc is None or not (_plain(ab) and _plain(bc)):
            continue
        m = compose(ab.map, bc.map)
        if m is not None:
            res = PairResult(a, c, "implies", map=m,
                             certificate={"method": f"transitivity: {a} ⇒ {b} ({ab.map}) and {b} ⇒ {c} ({bc.map}), "
                                                    f"each proved at these sizes"},
                             extra={"map_source": f"transitivity via {b}", **chain_scope(a, b, c, ab, bc)})
            if holds_at_every_size(res.extra):
                return res
            first = first or res
    return first


def separation_upward(b_info, c: str, done: dict, ids) -> PairResult | None:
    """B ⇏ C from some A ⇒ B(f) and a qualitative A ⇏ C whose witness satisfies B(f(a)) exactly. Only a
    qualitative separation travels: a counterexample to one map of C says nothing about C's other levels."""
    b = b_info.id
    for a in ids:
        ab, ac = done.get((a, b)), done.get((a, c))
        if ab is None or ac is None or not _plain(ab) or ac.relation != "not-implies" or not ac.qualitative:
            continue
        cx = ac.counterexample
        if not cx or "A" not in (cx.get("mechanism") or {}) or ac.verified_exactly is not True:
            continue
        try:
            tab, pop = table_of(cx)
            a_names = [k for k in cx["parameters"] if not k.startswith("eps") or k == "eps" and "E" not in
                       cx["parameters"]]
            avals = {k: parse_expr(str(cx["parameters"][k])) for k in a_names}
            bvals = failing_values(_Names(a_names), ab.map, avals)
        except (KeyError, ValueError, TypeError, DPCheckError):
            continue
        if bvals is None or set(bvals) != {p.name for p in b_info.notion.params}:
            continue
        if holds_exactly(b_info.notion, tab, pop, bvals):
            shown = dict(cx, parameters={k: expr_text(v) for k, v in bvals.items()},
                         implication=f"{b} at the parameters shown, {c} at no level")
            return PairResult(b, c, "not-implies", counterexample=shown, verified_exactly=ac.verified_exactly,
                              qualitative=True,
                              reason=f"the witness of {a} ⇏ {c} satisfies {b} (through {a} ⇒ {b}, {ab.map}), checked "
                                     f"exactly, and {c} at no level",
                              extra={"map_source": f"separation via {a}", "fails_at": ac.extra.get("fails_at")})
    return None


class _Names:
    """Parameter names seen through a notion's ``params`` attribute."""

    def __init__(self, names):
        self.params = tuple(type("P", (), {"name": n})() for n in names)


def compose_general(f_text, g_text, a_notion, b_notion) -> str | None:
    """g∘f for any maps written "k = expression, ...": f from A's parameters to B's, g from B's to C's.
    None when a map does not read, g names a parameter f does not give, or f leaves B's range somewhere
    in A's range (then B ⇒ C(g) says nothing there).

    >>> from symbolic.notions.listed.catalog import find_notion as f
    >>> compose_general("E = E", "delta = (E - 1)/(E + 1)", f("free-lunch").notion, f("pure-dp").notion)
    'delta = (E - 1)/(E + 1)'
    """
    fm = parse_map(f_text, [p.name for p in a_notion.params])
    gm = parse_map(g_text, [p.name for p in b_notion.params])
    if fm is None or gm is None or set(fm) != {p.name for p in b_notion.params}:
        return None
    for p in b_notion.params:
        if not stays_in_range(fm[p.name], p, a_notion.params):
            return None
    sub = {sp.Symbol(k, real=True): v for k, v in fm.items()}
    out = {k: sp.simplify(v.xreplace(sub)) for k, v in gm.items()}
    return ", ".join(f"{k} = {v}" for k, v in out.items()) or "no parameters"


def by_composition(done: dict, infos: dict) -> dict:
    """Pairs left without an implication (a refuted map, or unknown) that a chain of proved maps settles:
    A ⇒ B(f) and B ⇒ C(g), each proved at these sizes, give A ⇒ C(g∘f) when f stays in B's range. A
    composed map is tried before a pair is left with its refuted maps; it never overrides a separation.
    Repeated until nothing changes (chains of any length). Returns the new pairs."""
    new = {}
    changed = True
    while changed:
        changed = False
        for (a, c), res in sorted(done.items()):
            if res.relation != "unknown" or res.extra.get("assuming"):
                continue
            for b in infos:
                ab, bc = done.get((a, b)), done.get((b, c))
                if b in (a, c) or ab is None or bc is None or not (_plain(ab) and _plain(bc)):
                    continue
                m = compose_general(ab.map, bc.map, infos[a].notion, infos[b].notion)
                if m is None or m in (res.extra.get("refuted_maps") or ()):
                    continue
                keep = {k: v for k, v in res.extra.items() if k in ("refuted_maps", "refuted_map", "map_source")}
                if res.counterexample is not None and keep.get("refuted_maps"):
                    keep.update(map_counterexample=res.counterexample, map_fails_at=res.extra.get("fails_at"),
                                refuted_map=keep["refuted_maps"][0])
                keep["map_source"] = f"composition via {b}"
                keep.update(chain_scope(a, b, c, ab, bc))
                done[(a, c)] = new[(a, c)] = PairResult(
                    a, c, "implies", map=m, certificate={"method": f"composition: {a} ⇒ {b} ({ab.map}) and {b} ⇒ {c} "
                                                                   f"({bc.map}), each proved at these sizes"},
                    extra=keep)
                changed = True
                break
    return new


def lift_by_chains(done: dict) -> dict:
    """Proved pairs within bounds that a chain of all-size pairs gives at every size with the same map: A ⇒ B(f)
    and B ⇒ C(g) at every size, with g∘f (level-keeping maps) the pair's own map, make A ⇒ C hold at every size.
    Repeated until nothing changes. Returns the pairs lifted (also written into ``done``).

    >>> every = {"scope": "all sizes", "all_sizes": {"reduction": "r"}}
    >>> done = {("a", "b"): PairResult("a", "b", "implies", "E = E", extra=every),
    ...         ("b", "c"): PairResult("b", "c", "implies", "E = E", extra=every),
    ...         ("a", "c"): PairResult("a", "c", "implies", "E = E", extra={"scope": "within bounds"})}
    >>> lift_by_chains(done)[("a", "c")].extra["all_sizes"]["reduction"]
    'a chain through b'
    """
    lifted = {}
    ids = sorted({x for pair in done for x in pair})
    changed = True
    while changed:
        changed = False
        for (a, c), res in sorted(done.items()):
            if not _plain(res) or holds_at_every_size(res.extra):
                continue
            for b in ids:
                ab, bc = done.get((a, b)), done.get((b, c))
                if b in (a, c) or ab is None or bc is None or not (_plain(ab) and _plain(bc)):
                    continue
                if holds_at_every_size(ab.extra) and holds_at_every_size(bc.extra) and \
                        compose(ab.map, bc.map) == res.map:
                    scope = chain_scope(a, b, c, ab, bc)
                    done[(a, c)] = lifted[(a, c)] = replace(res, extra={**res.extra, **scope})
                    changed = True
                    break
    return lifted

