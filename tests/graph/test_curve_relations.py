"""The published conversions between privacy curves and (ε, δ)-DP as literature relations of the graph,
decided on privacy curves at every size (symbolic.graph.pair → symbolic.derive.continuous.conversions)."""
from symbolic.core.verdicts import Sizes
from symbolic.graph.literature import Relation, relations_by_pair
from symbolic.graph.maps import parameter_map
from symbolic.graph.pair import decide_pair
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion


def _pair(a, b, relation=None):
    relation = relation or relations_by_pair()[(a, b)]
    return decide_pair(find_notion(a), find_notion(b), Sizes(1, 2, 2), graph_settings(3), relation)


def test_a_recorded_map_may_name_the_conclusions_delta():
    pm = parameter_map(find_notion("zcdp"), find_notion("approx-dp"), relations_by_pair()[("zcdp", "approx-dp")])
    assert [p.range_text() for p in pm.free] == ["0 < delta ≤ 1"]


def test_zcdp_and_gdp_conversions_are_proved_and_the_gdp_one_is_tight():
    z = _pair("zcdp", "approx-dp")
    assert z.relation == "implies" and z.agrees_with_literature is True and z.extra["tight"] is False
    assert z.extra["scope"] == "all sizes" and "every size" in z.extra["all_sizes"]["argument"][0]
    g = _pair("gaussian-dp", "approx-dp")
    assert g.relation == "implies" and g.agrees_with_literature is True and g.extra["tight"] is True


def test_a_wrong_recorded_conversion_is_refuted_with_a_table_and_not_drawn():
    wrong = Relation("zcdp", "approx-dp", True, {"E": "exp(2*sqrt(rho*log(1/delta)))", "delta": "delta"},
                     "a conversion that drops ρ", "none", ranges=("0<delta<=1",))
    r = _pair("zcdp", "approx-dp", wrong)
    assert r.relation == "unknown" and r.extra["refuted_maps"]
    assert r.extra["curve_counterexample"]["table"]["rows"]["0"][0] == "4723/7812500000000"
    assert r.agrees_with_literature is not True
