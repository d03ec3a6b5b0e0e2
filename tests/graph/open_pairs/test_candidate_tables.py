"""Separations by listed tables and by the witnesses of other separations: A holds at a level that says something
(it fails on the table that reveals the record), B at no level, or only at the level every table meets; each
record re-verified from its JSON."""
from __future__ import annotations

import sympy as sp

from symbolic.core.tables import MechTable
from symbolic.core.verdicts import Sizes
from symbolic.graph.late_separations import by_candidate_table
from symbolic.graph.pair import PairResult, no_level_on
from symbolic.graph.recheck import recheck
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.separations.candidates import REVEALING, candidate_separation, source_level
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion

N1 = Sizes(1, 2, 2)
S = graph_settings(3)
HALF = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Rational(1, 2), sp.Rational(1, 2))})


def test_tv_privacy_is_separated_from_zcdp_and_gdp_by_an_output_one_row_never_gives():
    for target in ("zcdp", "gaussian-dp"):
        got = by_candidate_table(find_notion("tv-privacy"), find_notion(target),
                                 PairResult("tv-privacy", target, "unknown"), N1, S)
        assert got.relation == "not-implies" and got.verified_exactly is True and got.qualitative
        assert got.counterexample["parameters"] == {"delta": "1/2"}
        # checked again here: TV holds at 1/2 on the table, the target fails even at 1024
        b = find_notion(target).notion
        assert holds_exactly(find_notion("tv-privacy").notion, HALF, None, {"delta": sp.Rational(1, 2)}) is True
        assert holds_exactly(b, HALF, None, {b.params[0].name: sp.Integer(1024)}) is False
        assert recheck(find_notion("tv-privacy").notion, b, got.counterexample, got.extra["fails_at"]) is True


def test_a_level_every_table_meets_separates_nothing():
    # two-point semantic privacy holds on every table from ε = 1 on (and is ε-DP below it): no listed table may
    # separate it at such a level
    assert source_level(find_notion("TwoPointSemanticPrivacy").notion, HALF) is None
    assert candidate_separation(find_notion("TwoPointSemanticPrivacy"), find_notion("gaussian-dp"), S) is None
    assert holds_exactly(find_notion("TwoPointSemanticPrivacy").notion, REVEALING, None, {"eps": sp.Integer(1)})


def test_the_trivial_level_of_the_target_counts_only_at_a_level_of_the_source_that_says_something():
    tv = find_notion("tv-privacy").notion
    # the revealing table has TV 1: below δ = 1 there is no level. Whether A holds on the table is the caller's
    # (a counterexample's A is checked exactly); here only whether A's level says something is asked
    assert no_level_on(tv, REVEALING, S, None, find_notion("approx-dp").notion,
                       {"E": sp.Integer(2), "delta": sp.Rational(1, 2)}) == "only the trivial level"
    assert no_level_on(tv, REVEALING, S, None, find_notion("TwoPointSemanticPrivacy").notion,
                       {"eps": sp.Integer(2)}) is None                               # ε = 2: every table meets it
    assert no_level_on(tv, REVEALING, S, None) is None                               # no source named: no claim
    assert no_level_on(find_notion("pure-dp").notion, REVEALING, S, None) == "no level"
