"""`dpcheck graph --tight`: whether each proved edge carries the tight map at the graph's sizes
(symbolic.graph.constants.tightness, through `derive map`)."""
import json
from fractions import Fraction

import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.sweep import graph_settings, run_graph
from symbolic.graph.constants.tightness import tighten_graph
from tests.cli.test_cli_frame import dpcheck


def test_edges_are_called_tight_only_when_the_derived_map_is_theirs():
    g = tighten_graph(run_graph(["pure-dp", "tv-privacy", "bounded-range"], sizes=Sizes(1, 2, 2),
                                settings=graph_settings(6)), graph_settings(6))
    by = {(p.source, p.target): p for p in g.pairs}
    assert by[("pure-dp", "tv-privacy")].tight is True          # (E − 1)/(E + 1): randomized response
    assert by[("tv-privacy", "pure-dp")].tight is False         # not an implies edge: nothing to tighten
    loose = by[("bounded-range", "tv-privacy")]
    derived = loose.extra["tightness"]["derived"]
    assert loose.relation == "implies" and loose.tight is False and derived["tight"] is True
    E = sp.Symbol("E", positive=True)
    f = sp.sympify(derived["map"].split("=", 1)[1], locals={"E": E})
    assert sp.simplify(f - (sp.sqrt(E) - 1) / (sp.sqrt(E) + 1)) == 0
    # independently: the binary ε-bounded-range pairs P = (l, 1 − l), Q = (l·m, (1 − l)·m·E), m = 1/(l + (1 − l)E),
    # have TV = l(1 − m); over a grid of l at E = 9 the largest is (√9 − 1)/(√9 + 1) = 1/2, never more
    best = max(Fraction(k, 400) * (1 - 1 / (Fraction(k, 400) + (1 - Fraction(k, 400)) * 9)) for k in range(1, 400))
    assert Fraction(49, 100) < best <= Fraction(1, 2)


def test_graph_tight_by_the_console_script(tmp_path):
    path = tmp_path / "g.json"
    code, out, err = dpcheck("graph", "--notions", "pure-dp,tv-privacy", "--n", "1", "--tight", "--no-cache",
                             "--json", str(path))
    assert code == 0, err
    assert "tight maps: 1 of 1 implies edges carry the tight map" in out
    doc = json.loads(path.read_text())
    edge = next(p for p in doc["pairs"] if p["relation"] == "implies")
    assert edge["tight"] is True and edge["tightness"]["derived"]["attained_by"]["level"] == "exact"
