"""Maps of two parameters and of square roots, proposed when the first map is refuted and proved by the engine:
(ε, δ)-DP ⇒ probabilistic (ε + log 2, 3δ)-DP, TV δ ⇒ probabilistic (log 2, 3δ)-DP, Rényi DP of order 2 ⇒
probabilistic (log(2E/δ), δ)-DP for every δ and ⇒ TV √(E − 1)/2; each set against a hand computation on a
table that attains or nearly attains it, and a form that is refuted is not reported."""
from __future__ import annotations

from fractions import Fraction as F

from symbolic.core.verdicts import Sizes
from symbolic.graph.pair import by_shaped_map, decide_pair
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion

SIZES = Sizes(1, 2, 2)


def _pair(a, b):
    """The pair as the graph decides it: its own map first, then (when that is refuted) a map of another shape."""
    first = decide_pair(find_notion(a), find_notion(b), SIZES, graph_settings(6))
    return by_shaped_map(find_notion(a), find_notion(b), first, SIZES, graph_settings(6)) or first


def test_the_two_parameter_forms_are_proved_where_the_identity_fails():
    got = {a: _pair(a, "probabilistic-dp") for a in ("approx-dp", "tv-privacy")}
    assert got["approx-dp"].relation == "implies" and got["approx-dp"].map == "E = 2*E, delta = 3*delta"
    assert got["tv-privacy"].relation == "implies" and got["tv-privacy"].map == "E = 2, delta = 3*delta"
    for res in got.values():
        assert res.extra["refuted_maps"]       # the identity was tried first and refuted


def test_the_square_root_form_is_proved_and_attained_at_e_two():
    res = _pair("renyi-dp", "tv-privacy")
    assert res.relation == "implies" and res.map == "delta = sqrt(E - 1)/2"
    p, q = (F(1), F(0)), (F(1, 2), F(1, 2))       # Σ p²/q = 2 = E, TV = 1/2 = √(2 − 1)/2
    assert sum(a * a / b for a, b in zip(p, q) if b) == 2 and sum(abs(a - b) for a, b in zip(p, q)) / 2 == F(1, 2)


def test_the_mass_below_is_why_delta_is_tripled():
    """Probabilistic DP counts the outputs where the ratio leaves [1/E, E] on either side: doubling δ alone is
    refuted by the engine, with a counterexample confirmed by exact evaluation."""
    from symbolic.api import Settings, check_implies
    from symbolic.core.terms import MechVar
    from symbolic.notions.claims import E, Param
    delta = Param("delta", 0, 1)
    approx, prob = find_notion("approx-dp").notion, find_notion("probabilistic-dp").notion
    A = MechVar("A")
    v = check_implies(approx(E.symbol, delta.symbol).of(A), prob(2 * E.symbol, 2 * delta.symbol).of(A),
                      sizes=SIZES, params=(E, delta), settings=Settings(second_solver=False)).verdict
    assert v.name == "refuted" and v.verified_exactly
