"""Separations tried once every pair of a graph has had its own search: tables that other pairs or a short list
already hold.

A pair A ⇏ B needs one table on which A holds at some level and B at no level (or, at a level of A that says
something, only at the level of B that every table meets: δ = 1). Two sources of tables that cost no search:

- the witnesses of A's other separations in the same run (A ⇏ C): each satisfies A at the parameters its record
  names; B is decided on it like on any counterexample (:func:`symbolic.graph.pair.no_level_on`);
- the listed tables of :mod:`symbolic.graph.separations.candidates`, at n = 1.

Either way the record is an ordinary counterexample with B's failing values, re-verified from its JSON alone
(:func:`symbolic.graph.pair.confirm`) before it counts.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.graph.pair import PairResult, confirm, no_level_on
from symbolic.graph.recheck import fails_at_json, source_values, table_of
from symbolic.graph.separations.candidates import WEAK, candidate_separation
from symbolic.report.results import counterexample_json

KEPT = ("refuted_maps", "map_counterexample", "map_fails_at", "map_source")
MAX_WITNESSES = 6   # distinct tables of A's other separations tried per pair


def _open(res) -> bool:
    return res.relation == "unknown" and not res.extra.get("assuming")


def by_candidate_table(a, b, res: PairResult, sizes, settings) -> PairResult | None:
    """A pair left undecided at n = 1 separated by a listed table, or None."""
    if not _open(res) or (sizes.n, sizes.domain) != (1, 2):
        return None
    found = candidate_separation(a, b, settings)
    if found is None:
        return None
    cx, fails, why = found
    sep = PairResult(a.id, b.id, "not-implies", map=res.map, counterexample=counterexample_json(cx), qualitative=True,
                     reason=f"a listed table ({why}) satisfies {a.id} at the parameters shown and {b.id} at no level",
                     extra={**{k: res.extra[k] for k in KEPT if k in res.extra}, "fails_at": fails_at_json(fails),
                            "found_by": "a listed table", "target_level": "no level"})
    return confirm(a.notion, b.notion, sep)


def witnesses_of(source_id: str, done: dict) -> list:
    """The counterexample records of the source's separations in ``done`` (pair → PairResult), one per table."""
    seen, out = set(), []
    for (s, _t), r in done.items():
        cx = r.counterexample
        if s != source_id or r.relation != "not-implies" or not cx or r.verified_exactly is not True:
            continue
        key = str(cx.get("mechanism")) + str(cx.get("population")) + str(cx.get("parameters"))
        if key not in seen:
            seen.add(key)
            out.append(cx)
    return out[:MAX_WITNESSES]


def by_sibling_witness(a, b, res: PairResult, witnesses: list, settings) -> PairResult | None:
    """A pair left undecided separated by a witness of another separation from the same A, or None."""
    if not _open(res):
        return None
    for cx in witnesses:
        try:
            tab, pop = table_of(cx)
            avals = source_values(a.notion, cx)
            level = no_level_on(b.notion, tab, settings, pop, a.notion, avals)
            if not level:
                continue
        except (KeyError, ValueError, TypeError, AttributeError, DPCheckError):
            continue
        fails = {p.name: WEAK if p.upper is None else sp.sympify(p.upper) * (1 - 1 / WEAK) for p in b.notion.params}
        doc = {**cx, "violated": f"{b.notion.name} holds at {level} on this table", "implication": f"{a.id} ⇒ {b.id}"}
        sep = PairResult(a.id, b.id, "not-implies", map=res.map, counterexample=doc, qualitative=True,
                         reason=f"the witness of another separation from {a.id} satisfies it at the parameters shown "
                                f"and {b.id} at {level}",
                         extra={**{k: res.extra[k] for k in KEPT if k in res.extra}, "fails_at": fails_at_json(fails),
                                "found_by": "the witness of another separation from the same notion",
                                "target_level": level})
        sep = confirm(a.notion, b.notion, sep)
        if sep.relation == "not-implies":
            return sep
    return None


def separations_downward(done: dict, infos: dict, settings) -> dict:
    """A ⇏ C for undecided pairs from a separation A ⇏ B and a proved C ⇒ B(g): were A ⇒ C(f), A ⇒ B(g∘f) would
    hold. A table separation's witness has C at no level: B has none there, and C at any level c would give B at
    g(c), a level of B when g stays in B's range; so no solver is asked, and the record (C failing at a weak level)
    is re-verified by exact evaluation like any other (read back from the cache, "C at no level" is decided again
    on the table). A family's tables fail C at levels whose B-images they exceed
    (:func:`~symbolic.graph.separations.families.family_through`). A separation where B keeps its trivial level
    carries nothing. Repeated until nothing changes; returns the new pairs (also written into ``done``)."""
    from symbolic.graph.separations.families import family_separation, family_through, requested_levels
    new, changed = {}, True
    separated, kept_in_range = {}, {}
    for (a, b), r in done.items():   # the separations that carry over (new ones are added as they are found)
        if r.relation == "not-implies" and r.qualitative and r.verified_exactly is True and \
                r.extra.get("target_level") != "only the trivial level":
            separated.setdefault(a, []).append(b)
    while changed:
        changed = False
        for (a, c), res in sorted(done.items()):
            if not _open(res) or (a, c) in new:
                continue
            for b in separated.get(a, ()):
                ab, cb = done[(a, b)], done.get((c, b))   # ab: a separation ``separated`` lists
                if b == c or cb is None or cb.relation != "implies" or cb.extra.get("assuming"):
                    continue
                sep = None
                if ab.extra.get("separation") == "family":
                    via = family_separation(infos[a], infos[b], levels=requested_levels(settings))
                    fam = via and family_through(infos[a], infos[c], via, cb.map, levels=requested_levels(settings))
                    if fam is not None:
                        sep = PairResult(a, c, "not-implies", qualitative=True, extra={**fam.to_json(),
                                         "map_source": f"separation via {b}"},
                                         reason=f"a family of tables keeps {a} at one level while {b}'s level tends to "
                                                f"∞, and {c} ⇒ {b}")
                elif ab.counterexample and ab.extra.get("target_level", "no level") == "no level" and \
                        _in_range(cb.map, infos[c], infos[b], kept_in_range):
                    fails = {p.name: WEAK if p.upper is None else sp.sympify(p.upper) for p in infos[c].notion.params}
                    sep = PairResult(a, c, "not-implies", counterexample=ab.counterexample, qualitative=True,
                                     reason=f"the witness of {a} ⇏ {b} satisfies {a}; {b} holds there at no level, "
                                            f"and {c} ⇒ {b} ({cb.map}) for every level of {c}, so {c} holds there "
                                            f"at no level either",
                                     extra={"fails_at": fails_at_json(fails), "map_source": f"separation via {b}",
                                            "target_level": "no level"})
                if sep is not None:
                    sep = confirm(infos[a].notion, infos[c].notion, sep)
                if sep is not None and sep.relation == "not-implies":
                    done[(a, c)] = new[(a, c)] = sep
                    separated.setdefault(a, []).append(c)
                    changed = True
                    break
    return new


def _in_range(map_text, c_info, b_info, memo: dict) -> bool:
    """Whether the proved map C ⇒ B(g) gives a level of B (inside B's range) at every level of C, so that "B at no
    level" on a table rules out every level of C there."""
    from symbolic.graph.maps import stays_in_range
    from symbolic.graph.recheck import parse_map
    key = (c_info.id, b_info.id, map_text)
    if key not in memo:
        g = parse_map(map_text, [p.name for p in c_info.notion.params])
        memo[key] = g is not None and set(g) == {p.name for p in b_info.notion.params} and all(
            stays_in_range(g[p.name], p, c_info.notion.params) for p in b_info.notion.params)
    return memo[key]


__all__ = ["by_candidate_table", "by_sibling_witness", "separations_downward", "witnesses_of"]
