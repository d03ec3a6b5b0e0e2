"""Proved pairs that hold at every size by the dominating-pair argument (symbolic.graph.all_sizes): which pairs
get it, which do not and why, and the lifted statement tested on tables beyond the proof's bounds."""
from __future__ import annotations

import random

import pytest
import sympy as sp

from symbolic.core.tables import MechTable, databases
from symbolic.core.verdicts import Sizes
from symbolic.graph.literature import relations_by_pair
from symbolic.graph.pair import decide_pair
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion


@pytest.mark.parametrize("a, b, scope", [
    ("pure-dp", "tv-privacy", "all sizes"), ("pure-dp", "renyi-dp", "all sizes"), ("pure-dp", "approx-dp", "all sizes"),
    ("pure-dp", "probabilistic-dp", "within bounds"),   # probabilistic DP is not closed under post-processing
    ("approx-dp", "tv-privacy", "within bounds"),        # its dominating pair has 4 outputs, the proof only 2
    ("pure-dp", "free-lunch", "within bounds"),          # two neighbour relations
])
def test_which_proved_pairs_hold_at_every_size(a, b, scope):
    r = decide_pair(find_notion(a), find_notion(b), Sizes(1, 2, 2), graph_settings(6), relations_by_pair().get((a, b)))
    assert r.relation == "implies" and r.extra["scope"] == scope
    if scope == "all sizes":
        assert len(r.extra["all_sizes"]["argument"]) == 4 and "Kairouz" in " ".join(r.extra["all_sizes"]["argument"])


def test_the_lifted_statement_on_tables_beyond_the_bounds():
    # ε-DP ⇒ TV ≤ (E − 1)/(E + 1) was proved at n = 1, |D| = |O| = 2; at E = 3 it must hold on every 3-DP table
    # with two records over three values and three outputs
    rng = random.Random(7)
    pure, tv = find_notion("pure-dp").notion, find_notion("tv-privacy").notion
    seen = 0
    for _ in range(300):
        rows = {}
        for d in databases(2, (0, 1, 2)):
            w = [rng.randint(2, 4) for _ in range(3)]
            rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
        t = MechTable(2, (0, 1, 2), (0, 1, 2), rows)
        if holds_exactly(pure, t, None, {"E": 3}):
            seen += 1
            assert holds_exactly(tv, t, None, {"delta": sp.Rational(1, 2)}) is True
    assert seen >= 20


def test_implies_reports_the_scope_by_the_console_script():
    import json
    from tests.cli.test_cli_frame import dpcheck
    code, out, err = dpcheck("implies", "pure-dp", "tv-privacy", "--target", "delta=(E-1)/(E+1)", "--n", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == "proved" and doc["scope"] == "all sizes" and len(doc["all_sizes"]["argument"]) == 4
    code, out, err = dpcheck("implies", "pure-dp", "probabilistic-dp", "--n", "1")
    assert code == 0 and "scope: within bounds" in out, err
