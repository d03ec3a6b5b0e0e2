"""`dpcheck graph --tight`: whether each proved edge carries the tight map at the graph's sizes
(symbolic.graph.constants.tightness, through `derive map`)."""
import json
from fractions import Fraction

import pytest
import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.literature import relations_by_pair
from symbolic.graph.pair import PairResult, decide_pair
from symbolic.graph.sweep import GraphResult, graph_settings
from symbolic.notions.listed.catalog import find_notion
from symbolic.graph.constants.tightness import tighten_graph
from tests.cli.test_cli_frame import dpcheck


@pytest.mark.slow
def test_edges_are_called_tight_only_when_the_derived_map_is_theirs():
    sizes, settings = Sizes(1, 2, 2), graph_settings(6)
    lit = relations_by_pair()
    pairs = [decide_pair(find_notion(a), find_notion(b), sizes, settings, lit.get((a, b)))
             for a, b in (("pure-dp", "tv-privacy"), ("tv-privacy", "pure-dp"))]
    # the graph infers this edge (bounded range ⇒ ε-DP ⇒ TV) with the composed map
    pairs.append(PairResult("bounded-range", "tv-privacy", "implies", "delta = (E - 1)/(E + 1)"))
    g = tighten_graph(GraphResult(("pure-dp", "tv-privacy", "bounded-range"), sizes, tuple(pairs), 0.0), settings)
    by = {(p.source, p.target): p for p in g.pairs}
    assert by[("pure-dp", "tv-privacy")].tight is True          # (E − 1)/(E + 1): randomized response
    assert by[("tv-privacy", "pure-dp")].tight is False         # not an implies edge: nothing to tighten
    loose = by[("bounded-range", "tv-privacy")]
    derived = loose.extra["tightness"]["derived"]
    # proved within bounds, so the tight map, proved and attained at the same sizes, replaces it
    assert loose.relation == "implies" and loose.tight is True and derived["tight"] is True
    assert loose.map == derived["map"] and loose.extra["former_map"]["map"] == "delta = (E - 1)/(E + 1)"
    E = sp.Symbol("E", positive=True)
    f = sp.sympify(derived["map"].split("=", 1)[1], locals={"E": E})
    assert sp.simplify(f - (sp.sqrt(E) - 1) / (sp.sqrt(E) + 1)) == 0
    # independently: the binary ε-bounded-range pairs P = (l, 1 − l), Q = (l·m, (1 − l)·m·E), m = 1/(l + (1 − l)E),
    # have TV = l(1 − m); over a grid of l at E = 9 the largest is (√9 − 1)/(√9 + 1) = 1/2, never more
    best = max(Fraction(k, 400) * (1 - 1 / (Fraction(k, 400) + (1 - Fraction(k, 400)) * 9)) for k in range(1, 400))
    assert Fraction(49, 100) < best <= Fraction(1, 2)


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])   # 2: the worker pool
def test_graph_tight_by_the_console_script(tmp_path, jobs):
    path = tmp_path / "g.json"
    code, out, err = dpcheck("graph", "--notions", "pure-dp,tv-privacy", "--n", "1", "--tight", "--no-cache",
                             "--jobs", jobs, "--json", str(path))
    assert code == 0, err
    assert "tight maps: 1 of 1 implies edges carry the tight map" in out
    doc = json.loads(path.read_text())
    edge = next(p for p in doc["pairs"] if p["relation"] == "implies")
    assert edge["tight"] is True and edge["tightness"]["derived"]["attained_by"]["level"] == "exact"


def test_a_proved_edge_attained_exactly_is_tight_without_a_new_derivation(monkeypatch):
    # the edge's own map is proved already; an exact table at its level is enough, and derive map is not run
    from symbolic.graph.constants import derivation, tightness
    monkeypatch.setattr(derivation, "derive_map", lambda *a, **k: pytest.fail("the full derivation ran"))
    sizes = Sizes(1, 2, 2)
    edge = PairResult("pure-dp", "bayesian-dp", "implies", "E = E")
    got = tightness.tighten(edge, find_notion("pure-dp"), find_notion("bayesian-dp"), sizes, graph_settings(6))
    rec = got.extra["tightness"]["derived"]
    assert got.tight is True and rec["attained_by"]["level"] == "exact" and rec["attained_by"]["reverified"] is True
    # a map that is proved but not attained (E² for ε-DP ⇒ TV-style levels is too large) falls through to derive map
    called = []
    monkeypatch.setattr(derivation, "derive_map", lambda *a, **k: called.append(1) or pytest.skip("reached"))
    loose = PairResult("pure-dp", "bayesian-dp", "implies", "E = E**2")
    try:
        tightness.tighten(loose, find_notion("pure-dp"), find_notion("bayesian-dp"), sizes, graph_settings(6))
    except pytest.skip.Exception:
        pass
    assert called == [1]


def test_an_edge_under_a_side_condition_is_not_tightened():
    from symbolic.graph.constants.tightness import tighten
    edge = PairResult("lip", "local-dp", "implies", "E = E**2", extra={"assuming": ["full-support prior"]})
    got = tighten(edge, find_notion("lip"), find_notion("local-dp"), Sizes(1, 2, 2), graph_settings(6))
    assert got.tight is False and "side condition" in got.extra["tightness"]["text"]
