"""The map `derive map` fits, proposed for a pair whose maps were refuted and proved by the graph's own route; a
fitted map that only puts the target at the level every table meets (δ = 1) is not proposed."""
from __future__ import annotations

import pytest
import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.proposal import derived_map
from symbolic.graph.pair import PairResult, by_derived_map
from symbolic.graph.recheck import parse_map
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion

N1 = Sizes(1, 2, 2)
S = graph_settings(3)


def _open(a, b, refuted):
    return PairResult(a, b, "unknown", map=refuted, extra={"refuted_maps": [refuted]})


@pytest.mark.slow
def test_a_fitted_map_is_proved_by_the_graph_route():
    a, b = find_notion("approx-dp"), find_notion("AdditiveSecrecy")
    got = by_derived_map(a, b, _open(a.id, b.id, "delta = delta"), N1, S)
    assert got is not None and got.relation == "implies" and got.extra["refuted_maps"] == ["delta = delta"]
    E, d = sp.Symbol("E", real=True), sp.Symbol("delta", real=True)
    assert sp.simplify(parse_map(got.map, ["E", "delta"])["delta"] - (E + 2 * d - 1) / (E + 1)) == 0
    assert "fitted by derive map" in got.extra["map_source"]


def test_a_map_to_the_level_every_table_meets_is_not_proposed():
    # maximal leakage at |D| = 2 is 1 + TV, so from E = 2 on (where derive map samples) TV is only bounded by 1
    a, b = find_notion("maximal-leakage"), find_notion("tv-privacy")
    assert derived_map(a, b, _open(a.id, b.id, "delta = 0"), N1, S) is None
