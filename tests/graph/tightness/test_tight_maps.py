"""`graph --tight` on ε-DP, TV, Rényi DP and bounded range: every implies edge is tight, or names the tight map
it cannot take (a proof at the sizes only), or is the least map as a supremum; the maps are checked here against
their closed forms."""
import pytest
import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.tightness import tighten_graph
from symbolic.graph.sweep import graph_settings, run_graph

E = sp.Symbol("E", positive=True)


def _f(text):
    return sp.sympify(text.split("=", 1)[1], locals={"E": E})


@pytest.mark.slow
def test_every_edge_of_the_four_notions_is_tight_or_says_why():
    settings = graph_settings(3)
    g = run_graph(["pure-dp", "tv-privacy", "renyi-dp", "bounded-range"], sizes=Sizes(1, 2, 2), settings=settings)
    by = {(p.source, p.target): p for p in tighten_graph(g, settings).pairs}
    edges = [p for p in by.values() if p.relation == "implies"]
    assert len(edges) == 7 and all(p.relation != "unknown" for p in by.values())
    for p in edges:
        said = p.extra["tightness"]
        assert p.tight or said["derived"].get("tight") or said["derived"].get("supremum"), (p.source, p.target)
    expected = {("bounded-range", "tv-privacy"): (sp.sqrt(E) - 1) / (sp.sqrt(E) + 1),
                ("renyi-dp", "tv-privacy"): sp.sqrt((E - 1) / (E + 3)),
                ("pure-dp", "renyi-dp"): (E ** 2 - E + 1) / E,
                ("pure-dp", "tv-privacy"): (E - 1) / (E + 1)}
    for pair, f in expected.items():
        assert by[pair].tight and sp.simplify(_f(by[pair].map) - f) == 0, pair
        assert by[pair].extra["scope"] == "all sizes"
    # Rényi ⇒ TV is attained where √((E − 1)/(E + 3)) is rational: E = 7/3, TV 1/2
    att = by[("renyi-dp", "tv-privacy")].extra["tightness"]["derived"]["attained_by"]
    assert att["reverified"] is True and att["level"] == "exact"
    assert by[("bounded-range", "pure-dp")].extra["tightness"]["derived"]["supremum"]["checked"]["target_holds"] is False
