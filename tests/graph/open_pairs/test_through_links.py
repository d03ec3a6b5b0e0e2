"""Pairs settled through other pairs: A ⇏ B and C ⇒ B give A ⇏ C (a family carried through C's map, re-verified
at C's own levels); maximal leakage bounds mutual information, so MI-DP follows from the maps into maximal
leakage; a map in several parameters stays in the target's range by the sign of its distance to each end."""
from __future__ import annotations

import random

import sympy as sp

from symbolic.core.tables import MechTable
from symbolic.derive.notion_bounds import decide_leakage_to_information
from symbolic.graph.maps import claim_params, stays_in_range
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.separations.families import family_separation, family_through, recheck_record
from symbolic.notions.listed.catalog import find_notion


def test_a_family_separation_is_carried_through_a_proved_map_of_the_target():
    renyi, pure, unbounded = (find_notion(x) for x in ("renyi-dp", "pure-dp", "unbounded-dp"))
    via = family_separation(renyi, pure)
    # unbounded ε-DP gives bounded 2ε-DP (E ↦ E²): at level L of unbounded DP the tables must beat L² for ε-DP
    sep = family_through(renyi, unbounded, via, "E = E**2")
    assert sep is not None and sep.verified and sep.through == "pure-dp"
    for level, t, a_holds, c_holds in sep.at_levels:
        ratio = via.target_ratio.xreplace({s: t for s in via.target_ratio.free_symbols})
        assert ratio > level ** 2 and (a_holds, c_holds) == (True, False)
    assert recheck_record(renyi.notion, unbounded.notion, sep.to_json())
    assert family_through(renyi, unbounded, via, "delta = E") is None      # a map that does not give B's E


def test_maximal_leakage_bounds_mutual_information_on_tables():
    E = sp.Symbol("E", positive=True)
    assert decide_leakage_to_information(E, E, 1, None).verdict == "proved"
    assert decide_leakage_to_information(E ** 2, E, 1, None).verdict == "proved"
    assert decide_leakage_to_information(sp.sqrt(E), E, 1, None) is None
    assert decide_leakage_to_information(E - sp.Rational(1, 10), E, 1, None) is None
    # the inequality itself, apart from the module: on random tables, MI-DP holds at the table's maximal leakage
    rng = random.Random(7)
    ml, mi = find_notion("maximal-leakage").notion, find_notion("mi-dp").notion
    for _ in range(6):
        p, q = (sp.Rational(rng.randint(1, 19), 20) for _ in range(2))
        table = MechTable(1, (0, 1), (0, 1), {(0,): (p, 1 - p), (1,): (q, 1 - q)})
        level = max(p, q) + max(1 - p, 1 - q)
        assert holds_exactly(ml, table, None, {"E": level}) is True
        assert holds_exactly(mi, table, None, {"E": level}) is True


def test_a_map_in_two_parameters_stays_in_range_only_when_both_ends_are_kept():
    a, b = find_notion("approx-dp").notion, find_notion("tv-privacy").notion
    E, d = (p.symbol for p in claim_params(a))
    assert stays_in_range((E - 1 + 2 * d) / (E + 1), b.params[0], a.params)
    assert not stays_in_range((E - 1 + 3 * d) / (E + 1), b.params[0], a.params)   # 3/2 at E = 1, δ = 1/2
    mu = claim_params(find_notion("gaussian-dp").notion)[0].symbol
    assert stays_in_range(1 - sp.erfc(sp.sqrt(2) * mu / 4), b.params[0], find_notion("gaussian-dp").notion.params)
    assert not stays_in_range(2 * sp.erf(mu), b.params[0], find_notion("gaussian-dp").notion.params)


def test_zcdp_and_gdp_bound_the_total_variation_and_a_smaller_bound_is_not_proved():
    from symbolic.derive.continuous.conversions import decide_gdp_to_dp, decide_zcdp_to_dp
    from symbolic.notions.claims import Param
    r, m = Param("rho", lower=0), Param("mu", lower=0)
    got = decide_zcdp_to_dp(r.symbol, sp.Integer(1), sp.sqrt(1 - sp.exp(-r.symbol)), (r,))
    assert got.verdict == "proved" and "Bretagnolle" in got.reason
    # half the bound: the Gaussian mechanism (TV erf(√ρ/2)) refutes it somewhere, or nothing is proved
    assert decide_zcdp_to_dp(r.symbol, sp.Integer(1), sp.sqrt(1 - sp.exp(-r.symbol)) / 4, (r,)).verdict != "proved"
    assert decide_gdp_to_dp(m.symbol, sp.Integer(1), sp.erf(m.symbol / (2 * sp.sqrt(2))), (m,)).verdict == "proved"
    assert decide_gdp_to_dp(m.symbol, sp.Integer(1), sp.erf(m.symbol / (4 * sp.sqrt(2))), (m,)).verdict == "refuted"


def test_zcdp_gives_renyi_and_gdp_gives_zcdp_by_their_divergences_and_no_less():
    from symbolic.api import Param, Sizes, implication_claim
    from symbolic.derive.continuous.conversions import decide_curve_claim
    zcdp, gdp, renyi = (find_notion(x).notion for x in ("zcdp", "gaussian-dp", "renyi-dp"))
    r, m = Param("rho", lower=0), Param("mu", lower=0)

    def decided(h, c, param):
        got = decide_curve_claim(implication_claim(h, c, params=(param,), sizes=Sizes(1, 2, 2)))
        return None if got is None else got[0].verdict
    assert decided(zcdp(r.symbol), renyi(sp.exp(2 * r.symbol)), r) == "proved"
    assert decided(zcdp(r.symbol), renyi(sp.exp(r.symbol)), r) is None          # D_2 may reach 2ρ
    assert decided(gdp(m.symbol), zcdp(m.symbol ** 2 / 2), m) == "proved"
    assert decided(gdp(m.symbol), zcdp(m.symbol ** 2 / 4), m) is None
    # apart from the module: a two-output table's D_2 stays within 2ρ at its own zCDP level
    from symbolic.derive.continuous.table_curves import table_curve_level
    rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    rho = table_curve_level("zcdp", rr).enclosure[1]
    chi = sp.Rational(3, 4) ** 2 / sp.Rational(1, 4) + sp.Rational(1, 4) ** 2 / sp.Rational(3, 4)
    assert chi <= sp.exp(2 * rho)
