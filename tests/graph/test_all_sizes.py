"""Proved pairs that hold at every size by the dominating-pair argument (symbolic.graph.all_sizes): which pairs
get it, which do not and why, and the lifted statement tested on tables beyond the proof's bounds."""
from __future__ import annotations

import random

import pytest
import sympy as sp

from symbolic.core.tables import MechTable, databases
from symbolic.core.verdicts import Sizes
from symbolic.graph.all_sizes import all_sizes_argument
from symbolic.graph.literature import relations_by_pair
from symbolic.graph.pair import decide_pair
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion


@pytest.mark.parametrize("a, b, scope, reduction", [
    ("pure-dp", "tv-privacy", "all sizes", "pure-dp: dominating pair, 2 outputs"),
    ("pure-dp", "renyi-dp", "all sizes", "pure-dp: dominating pair, 2 outputs"),
    ("approx-dp", "tv-privacy", "all sizes", "tv-privacy: decided on merges to 2 outputs"),  # KOV's pair has 4 outputs
    ("renyi-dp", "approx-dp", "all sizes", "approx-dp: decided on merges to 2 outputs"),
    ("free-lunch", "pure-dp", "all sizes", "free-lunch: dominating pair, 2 outputs"),    # every DP pair is a pair
    ("pure-dp", "probabilistic-dp", "within bounds", None),   # probabilistic DP is a union over neighbours
    ("pure-dp", "free-lunch", "within bounds", None),          # free lunch has pairs that DP does not
    ("free-lunch", "PointwiseIndistinguishable", "within bounds", None),   # not closed under post-processing
    ("PointwiseIndistinguishable", "Indistinguishable", "within bounds", None),   # neither is the hypothesis
    ("local-dp", "bounded-range", "within bounds", None),      # local DP is defined at n = 1 only
    ("approx-dp", "renyi-dp", None, None),                     # no Rényi level from (ε, δ)-DP
])
def test_which_proved_pairs_hold_at_every_size(a, b, scope, reduction):
    r = decide_pair(find_notion(a), find_notion(b), Sizes(1, 2, 2), graph_settings(6), relations_by_pair().get((a, b)))
    if scope is None:
        assert r.relation != "implies" and "scope" not in r.extra
        return
    assert r.relation == "implies" and r.extra["scope"] == scope
    if scope == "all sizes":
        arg = r.extra["all_sizes"]
        assert arg["reduction"] == reduction and len(arg["argument"]) == 4


def test_the_argument_needs_the_table_of_its_reduction_in_the_bounds():
    # (ε, δ)-DP's dominating pair has four outputs: a bounded proof at two does not cover it
    a, b = find_notion("approx-dp"), find_notion("renyi-dp")
    assert all_sizes_argument(a, b, Sizes(1, 2, 2), (None,)) is None
    assert all_sizes_argument(a, b, Sizes(1, 2, 4), (None,))["reduction"] == "approx-dp: dominating pair, 4 outputs"
    assert all_sizes_argument(a, b, Sizes(1, 2, 4), (None,), min_sizes=Sizes(2, 2, 2)) is None   # n = 1 not searched
    assert all_sizes_argument(a, b, Sizes(1, 2, 4), (None, None)) is None                          # two hypotheses


@pytest.mark.parametrize("a, a_values, b, b_values, spread", [
    # ε-DP ⇒ TV ≤ (E − 1)/(E + 1), through ε-DP's dominating pair: at E = 3, TV ≤ 1/2
    ("pure-dp", {"E": 3}, "tv-privacy", {"delta": sp.Rational(1, 2)}, (2, 4)),
    # Rényi-2 at E ⇒ (E/δ, δ)-DP, through events: at E = 2 and δ = 1/4, (8, 1/4)-DP
    ("renyi-dp", {"E": 2}, "approx-dp", {"E": 8, "delta": sp.Rational(1, 4)}, (1, 5)),
])
def test_the_lifted_statement_on_tables_beyond_the_bounds(a, a_values, b, b_values, spread):
    # proved at n = 1, |D| = |O| = 2, so it must hold on every table with two records over three values and
    # three outputs
    r = decide_pair(find_notion(a), find_notion(b), Sizes(1, 2, 2), graph_settings(6), relations_by_pair().get((a, b)))
    assert r.extra["scope"] == "all sizes"
    rng = random.Random(7)
    na, nb = find_notion(a).notion, find_notion(b).notion
    seen = 0
    for _ in range(300):
        rows = {}
        for d in databases(2, (0, 1, 2)):
            w = [rng.randint(*spread) for _ in range(3)]
            rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
        t = MechTable(2, (0, 1, 2), (0, 1, 2), rows)
        if holds_exactly(na, t, None, a_values):
            seen += 1
            assert holds_exactly(nb, t, None, b_values) is True
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


def test_which_catalogue_claims_the_argument_lifts():
    # parts between listed notions with declared structure, one hypothesis, any mechanism: lifted when proved;
    # composition and post-processing claims (two mechanisms, a fixed map) stay within bounds
    from symbolic import claim_scope
    from theorems.registry import claims, get
    lifted = {cid: claim_scope(get(cid)) for cid in claims()}
    every = sorted(cid for cid, s in lifted.items() if s["scope"] == "all sizes")
    assert every == ["B-CONV.balle", "B-CONV.mironov", "K-3.3.6", "K-D1.1", "L-EQ6"]
    assert lifted["K-3.3.6"]["all_sizes"]["reduction"] == "Indistinguishable: decided on merges to 2 outputs"
    assert len(lifted["L-EQ6"]["all_sizes"]["argument"]) == 8        # two parts, four lines each
