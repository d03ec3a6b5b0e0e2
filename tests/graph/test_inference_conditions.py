"""The graph infers only through implications that hold unconditionally: an edge proved under a side
condition (LIP ⇒ local DP for a full-support prior) must never feed transitivity, composition, the
lifting of a scope or a separation carried upward. Were it to, `lip ⇒ tv-privacy` would be printed,
which is false. A property over random graphs of notions with one parameter E, each implication
under a side condition or not."""
from __future__ import annotations

import re

from hypothesis import example, given, settings as hsettings, strategies as st

from symbolic.graph.infer import by_composition, by_transitivity, lift_by_chains, separation_upward
from symbolic.graph.pair import PairResult
from symbolic.notions.listed.catalog import find_notion

IDS = ("pure-dp", "free-lunch", "EventApprox", "PointwiseApprox")
EVERY = {"scope": "all sizes", "all_sizes": {"reduction": "r", "argument": ["x"]}}
SIDE = {"assuming": ["full-support prior"]}
# a separation of free-lunch from pure-dp whose witness satisfies both E-type notions at E = 2 and breaks none:
# only its shape matters here (separation_upward re-checks it exactly and must not even get that far)
WITNESS = {"n": 1, "domain": 2, "outputs": 2, "population": None, "parameters": {"E": "2"},
           "mechanism": {"A": {"0": {"0": "2/3", "1": "1/3"}, "1": {"0": "1/3", "1": "2/3"}}}}

edge = st.sampled_from(["none", "implies", "implies-every", "implies-side", "implies-side-every", "unknown",
                        "not-implies"])


def _result(a, c, kind, map_text):
    if kind == "none":
        return None
    if kind == "unknown":
        return PairResult(a, c, "unknown", reason="effort")
    if kind == "not-implies":
        return PairResult(a, c, "not-implies", counterexample=WITNESS, verified_exactly=True, qualitative=True,
                          extra={"fails_at": {"E": "1024"}})
    extra = {**(EVERY if kind.endswith("every") else {"scope": "within bounds"}),
             **(SIDE if "side" in kind else {})}
    return PairResult(a, c, "implies", map=map_text, extra=extra)


def _graph(kinds, maps):
    done, i = {}, 0
    for a in IDS:
        for c in IDS:
            if a != c:
                r = _result(a, c, kinds[i], maps[i])
                if r is not None:
                    done[(a, c)] = r
                i += 1
    return done


def _plain(done, a, b):
    r = done.get((a, b))
    return r is not None and r.relation == "implies" and not r.extra.get("assuming")


PAIRS = len(IDS) * (len(IDS) - 1)
SIDE_ONLY = (["implies-side-every"] * PAIRS, ["E = E"] * PAIRS)   # every link conditional: nothing may follow


@given(st.lists(edge, min_size=PAIRS, max_size=PAIRS), st.lists(st.sampled_from(["E = E", "E = E**2"]),
                                                                   min_size=PAIRS, max_size=PAIRS))
@example(*SIDE_ONLY)
@hsettings(max_examples=60, deadline=None)
def test_no_inference_passes_through_an_edge_under_a_side_condition(kinds, maps):
    done = _graph(kinds, maps)
    infos = {x: find_notion(x) for x in IDS}
    for a in IDS:
        for c in IDS:
            if a == c:
                continue
            r = by_transitivity(a, c, done, IDS)
            if r is not None:
                via = r.extra["map_source"].split(" via ")[1]
                assert _plain(done, a, via) and _plain(done, via, c), (a, via, c)
    before = dict(done)
    for (a, c), r in by_composition(done, infos).items():
        via = re.search(r"via (\S+)", r.extra["map_source"]).group(1)
        assert _plain(done, a, via) and _plain(done, via, c), (a, via, c)
        assert not before[(a, c)].extra.get("assuming")
    for (a, c), r in lift_by_chains(dict(before)).items():
        via = r.extra["all_sizes"]["reduction"].split("through ")[1]
        assert _plain(before, a, via) and _plain(before, via, c), (a, via, c)
    for b in IDS:
        for c in IDS:
            if b == c:
                continue
            r = separation_upward(infos[b], c, dict(before), IDS)
            if r is not None:
                via = re.search(r"via (\S+)", r.extra["map_source"]).group(1)
                assert _plain(before, via, b), (via, b, c)
    if (kinds, maps) == SIDE_ONLY:   # the all-conditional graph: not one pair inferred
        assert not any(by_transitivity(a, c, before, IDS) for a in IDS for c in IDS if a != c)
