"""The all-size argument held against the bounded search (symbolic/graph/all_sizes_check.py): every refutation of
the listed notions reduces to the argument's small table, every lifted proof holds on it, and a wrong declaration
that makes them disagree stops the run: in the graph, in `implies` and in the audit's records."""
from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from symbolic.core.errors import EngineContradiction
from symbolic.core.tables import MechTable
from symbolic.core.verdicts import Sizes
from symbolic.graph.all_sizes_check import claim_reduces, refutation_reduces
from symbolic.graph.pair import decide_pair
from symbolic.graph.sweep import graph_settings
from symbolic.notions.listed.catalog import find_notion
from symbolic.notions.listed.structures import STRUCTURES, _rr
from symbolic.notions.structure import pair_table

R = sp.Rational
SMALL = Sizes(1, 2, 2)


@pytest.fixture
def declared(monkeypatch):
    """Replace fields of one notion's declared structure for the test's length."""
    def change(notion_id, **fields):
        monkeypatch.setitem(STRUCTURES, notion_id, dataclasses.replace(STRUCTURES[notion_id], **fields))
    return change


@pytest.mark.parametrize("a, b, how", [
    ("approx-dp", "pure-dp", "approx-dp's dominating pair fails pure-dp; a merge to 2 outputs fails it"),
    ("approx-dp", "renyi-dp", "approx-dp's dominating pair fails renyi-dp"),
    ("renyi-dp", "tv-privacy", "a merge to 2 outputs fails it"),
])
def test_the_refutations_of_listed_notions_reduce_to_the_small_table(a, b, how):
    res = decide_pair(find_notion(a), find_notion(b), SMALL, graph_settings(3))
    assert res.relation in ("not-implies", "unknown") and res.extra["reduces_to"] == [how]


def test_a_counterexample_of_two_records_reduces_through_its_neighbouring_rows():
    """ε-DP at E = 2 fails on the rows (0,0) and (0,1) of a table of two records only: the reduction finds them."""
    q = R(1, 6)
    rows = {(0, 0): (3 * q, 3 * q), (0, 1): (q, 5 * q), (1, 0): (3 * q, 3 * q), (1, 1): (3 * q, 3 * q)}
    t = MechTable(2, (0, 1), (0, 1), rows)
    how = refutation_reduces(find_notion("tv-privacy"), find_notion("pure-dp"), (None,), t, {"delta": R(1, 2)},
                             {"E": 2})
    assert how == "tv-privacy's dominating pair fails pure-dp; a merge to 2 outputs fails it"


def test_a_refuted_catalogue_claim_reduces_and_the_record_says_how():
    from symbolic.api import E, PureDP, Settings, check_implies
    from theorems.cli.audit_workers import scoped
    from symbolic.report.results import claim_json
    res = check_implies(PureDP(2 * E.symbol), PureDP(E.symbol), sizes=SMALL, settings=Settings(second_solver=False))
    assert scoped(res, claim_json(res))["reduces_to"] == claim_reduces(res.claim, res.verdict)
    assert "dominating pair fails" in claim_reduces(res.claim, res.verdict)


def test_a_dominating_pair_without_its_delta_stops_the_graph(declared):
    """Declared without δ, (ε, δ)-DP's "dominating pair" is ε-DP's: approx ⇏ pure is refuted by the search, and
    pure-dp holds on that pair, so the two disagree."""
    declared("approx-dp", dominating=lambda E, delta: _rr(E))
    with pytest.raises(EngineContradiction, match="pure-dp holds on approx-dp's dominating pair"):
        decide_pair(find_notion("approx-dp"), find_notion("pure-dp"), SMALL, graph_settings(3))


def test_a_dominating_pair_outside_its_notion_stops_the_graph(declared):
    """A dominating pair of ε-DP declared at ratio E²: it is not ε-DP, so the proof of ε-DP ⇒ (ε, 0)-DP, lifted
    through it, stops the run."""
    declared("pure-dp", dominating=lambda E: _rr(sp.sympify(E) ** 2))
    with pytest.raises(EngineContradiction, match="pure-dp fails on its own declared dominating pair"):
        decide_pair(find_notion("pure-dp"), find_notion("approx-dp"), SMALL, graph_settings(3))


def test_a_notion_not_decided_on_merges_stops_the_run(declared):
    """Rényi DP declared decided on events: the three-output pair with three different ratios fails it at a level
    between every merge's level and its own."""
    from symbolic.graph.constants.table_level import table_level
    from symbolic.graph.structure_checks import _merged_pairs
    declared("renyi-dp", coarsening=2, coarsening_reason="an event")
    renyi = find_notion("renyi-dp")
    p, q = (R(1, 3), R(1, 3), R(1, 3)), (R(1, 6), R(1, 3), R(1, 2))
    whole = table_level(renyi.notion, pair_table(p, q), target="E").value
    merged = max(table_level(renyi.notion, t, target="E").value for _, t in _merged_pairs(p, q, 2))
    assert merged < whole
    with pytest.raises(EngineContradiction, match="no merge of it to 2 outputs does"):
        refutation_reduces(find_notion("tv-privacy"), renyi, (None,), pair_table(p, q), {"delta": 1},
                           {"E": (merged + whole) / 2})


def test_a_notion_that_is_not_pairwise_stops_the_run(declared):
    """Probabilistic DP declared pairwise: on a table of two records, (0, 0) has a bad output against each of its
    two neighbours, 1/10 each, so 1/5 in all; every pair of rows has 1/10."""
    from symbolic.graph.sampling import holds_exactly
    from symbolic.notions.structure import neighbour_pairs
    declared("probabilistic-dp", pairwise="replace one record")
    pdp, at = find_notion("probabilistic-dp"), {"E": 2, "delta": R(3, 20)}
    base = (R(1, 2), R(3, 10), R(1, 10), R(1, 10))
    rows = {(0, 0): base, (0, 1): (R(1, 2), R(3, 10), R(1, 5), 0), (1, 0): (R(1, 2), R(3, 10), 0, R(1, 5)),
            (1, 1): base}
    t = MechTable(2, (0, 1), (0, 1, 2, 3), rows)
    assert holds_exactly(pdp.notion, t, None, at) is False
    assert all(holds_exactly(pdp.notion, pair_table(t.rows[d], t.rows[e]), None, at)
               for d, e in neighbour_pairs(t, "replace one record"))
    with pytest.raises(EngineContradiction, match="not pairwise as declared"):
        refutation_reduces(find_notion("tv-privacy"), pdp, (None,), t, {"delta": 1}, at)


def test_a_lifted_catalogue_proof_is_held_on_the_dominating_pair(declared):
    from symbolic.api import E, ApproxDP, PureDP, Settings, check_implies
    from symbolic.report.results import claim_json
    from theorems.cli.audit_workers import scoped
    res = check_implies(PureDP(E.symbol), ApproxDP(E.symbol, 0), sizes=SMALL, settings=Settings(second_solver=False))
    assert scoped(res, claim_json(res))["scope"] == "all sizes"
    declared("pure-dp", dominating=lambda E: _rr(sp.sympify(E) ** 2))
    with pytest.raises(EngineContradiction, match="pure-dp fails on its own declared dominating pair"):
        scoped(res, claim_json(res))


def test_implies_stops_with_an_internal_error(declared, capsys):
    from theorems.cli.main import main
    declared("approx-dp", dominating=lambda E, delta: _rr(E))
    code = main(["implies", "approx-dp", "pure-dp", "--target", "E=E", "--n", "1", "--domain", "2",
                 "--outputs", "2"])
    assert code == 3
    err = capsys.readouterr().err
    assert "EngineContradiction" in err and err.count("\n") <= 2


@pytest.mark.parametrize("b", ["approx-dp", "renyi-dp", "f-dp", "bounded-range"])
def test_lifted_proofs_hold_on_the_dominating_pair(b):
    res = decide_pair(find_notion("pure-dp"), find_notion(b), SMALL, graph_settings(3))
    assert res.relation == "implies" and res.extra["scope"] == "all sizes"
    assert res.extra["all_sizes"]["reduction"] == "pure-dp: dominating pair, 2 outputs"
