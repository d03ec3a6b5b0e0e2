"""Regressions found by the mutation self-test."""
from symbolic.notions.claims import E, Implies
from symbolic.notions.families.dp import Bayesian0DP, PureDP
from symbolic.solve.search import Settings, check_implication
from symbolic.core.verdicts import Sizes
from symbolic.solve.backends.effort import units

Es = E.symbol


def test_family_route_counterexample_names_its_witness_population():
    """With tiny effort the search reaches the last resort (the conclusion's ∀𝒫 decided on its
    sufficient family); its counterexample must carry the violated member as P' and re-verify, not crash."""
    quick = Settings(query_effort=1, effort=units(5), cheap_effort=1, minimise=False, second_solver=False)
    seen = set()
    for _ in range(3):
        v = check_implication(Implies(PureDP(Es), Bayesian0DP(Es)), (E,), Sizes(2, 2, 2), Sizes(2, 2, 2), quick)
        seen.add(v.name)
        if v.name == "refuted":
            assert v.verified_exactly and "P'" in v.counterexample.populations
    assert seen <= {"refuted", "unknown"}


def test_empty_size_grid_is_unknown_not_proved():
    v = check_implication(Implies(PureDP(Es), PureDP(Es)), (E,), Sizes(2, 2, 2), Sizes(1, 2, 2), Settings())
    assert v.name == "unknown" and "no sizes" in v.reason
