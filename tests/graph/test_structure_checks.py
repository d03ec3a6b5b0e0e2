"""The declared structure of the listed DP-type notions (symbolic.notions.listed.structures), checked by the engine
on tables: pairwise form, closure under post-processing at each table's exact level, dominating pairs by exact
stochastic maps. Probabilistic DP is declared not closed, and the check finds why."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy as sp

from symbolic.core.tables import MechTable, databases
from symbolic.graph.constants.table_level import table_level
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.structure_checks import (closure_holds, failing_merge, leaks, merge_keeps_level, pairwise_agrees,
                                             post_processed, post_processing_map)
from symbolic.notions.listed.catalog import find_notion
from symbolic.notions.listed.structures import STRUCTURES
from symbolic.notions.structure import Structure, merged, merges, pair_table

FIXED = {key: {"delta": sp.Rational(1, 10)} for key in ("approx-dp", "probabilistic-dp", "f-dp", "Indistinguishable",
                                                        "PointwiseIndistinguishable")}


def _row(rng, k, light=0):
    """A random distribution on k outputs; with ``light`` = m, the first output's weight is 1/(m·(2 or 4))."""
    w = [sp.Integer(rng.randint(1, 9)) for _ in range(k)]
    if light:
        w[0] = sp.Rational(1, light * rng.choice((2, 4)))
    return tuple(x / sum(w) for x in w)


def _table(rng, n, domain, outputs):
    return MechTable(n, tuple(range(domain)), tuple(range(outputs)),
                     {d: _row(rng, outputs) for d in databases(n, tuple(range(domain)))})


def _target(key):
    notion = find_notion(key).notion
    return notion, next(p.name for p in notion.params if p.name not in FIXED.get(key, {})), FIXED.get(key, {})


def _keys(keep):
    """The declared notions ``keep`` selects; f-DP's checks (2^|𝒪| tests a pair) only in the slow run."""
    return [pytest.param(k, marks=pytest.mark.slow) if k == "f-dp" else k for k, s in sorted(STRUCTURES.items())
            if keep(s)]


# the default run checks each declaration on fewer random tables; the slow run on all of them
DEPTH = ["quick", pytest.param("full", marks=pytest.mark.slow)]


@pytest.mark.parametrize("depth", DEPTH)
@pytest.mark.parametrize("key", _keys(lambda s: s.pairwise))
def test_a_declared_pairwise_notion_is_decided_by_its_pairs_of_rows(key, depth):
    notion, target, fixed = _target(key)
    relation = STRUCTURES[key].pairwise
    rng = random.Random(key)
    shapes = [(1, 3, 2), (1, 3, 3), (1, 3, 2)] + ([(2, 2, 2), (2, 2, 3)] if relation == "replace one record" else [])
    if depth == "quick":
        shapes = shapes[1::2]   # three outputs at n = 1; two records with three outputs where neighbours differ
    for n, domain, outputs in shapes:
        t = _table(rng, n, domain, outputs)
        level = table_level(notion, t, target=target, fixed=fixed).value
        assert level is not None, (key, t.rows)
        spec = next(p for p in notion.params if p.name == target)
        lower = sp.sympify(spec.lower if spec.lower is not None else 0)
        for v in {level, (level + lower) / 2} - {sp.oo}:
            assert pairwise_agrees(notion, relation, t, {**fixed, target: v}) is True, (key, t.rows, v)


@pytest.mark.parametrize("key", sorted(k for k, s in STRUCTURES.items() if s.closed))
def test_a_notion_declared_closed_stays_at_its_level_after_post_processing(key):
    notion, target, fixed = _target(key)
    rng = random.Random(f"closed {key}")
    for trial in range(5):
        # from the second table on, one output light on both rows and far lighter on one, so that at the level it
        # may be a bad output of small mass (where notions counting bad mass lose closure)
        t = MechTable(1, (0, 1), (0, 1, 2), {(v,): _row(rng, 3, light=trial and 10 ** v) for v in (0, 1)})
        kernels = [[_row(rng, 2) for _ in range(3)]] + leaks(3, sp.Rational(1, 2))
        level, ok = closure_holds(notion, t, kernels, target, fixed)
        assert ok is True, (key, t.rows, level)


def test_pointwise_indistinguishability_is_not_closed_and_the_check_shows_it():
    assert not STRUCTURES["PointwiseIndistinguishable"].closed
    notion, target, fixed = _target("PointwiseIndistinguishable")
    t = pair_table((sp.Rational(9, 17), sp.Rational(1, 17), sp.Rational(7, 17)),
                   (sp.Rational(14, 33), sp.Rational(1, 33), sp.Rational(6, 11)))
    assert closure_holds(notion, t, leaks(3, sp.Rational(1, 2))[:1], target, fixed) == (sp.Rational(102, 77), False)


@pytest.mark.parametrize("depth", DEPTH)
@pytest.mark.parametrize("key", _keys(lambda s: s.coarsening))
def test_a_notion_declared_decided_on_merges_keeps_its_level_on_one(key, depth):
    notion, target, fixed = _target(key)
    k = STRUCTURES[key].coarsening
    rng = random.Random(f"merges {key}")
    decided = 0
    sizes = (3, 4, 3, 4, 3) if depth == "full" else (3, 4)
    for outputs in sizes:
        p, q = _row(rng, outputs), _row(rng, outputs)
        kept = merge_keeps_level(notion, p, q, target, k, fixed)
        if kept is not None:
            decided += 1
            assert kept is True, (key, p, q)
    assert decided >= len(sizes) - 1
    # and the merge that fails is found below the level
    p, q = _row(rng, 4), _row(rng, 4)
    level = table_level(notion, pair_table(p, q), target=target, fixed=fixed).value
    spec = next(x for x in notion.params if x.name == target)
    below = {**fixed, target: (level + sp.sympify(spec.lower or 0)) / 2}
    assert holds_exactly(notion, pair_table(p, q), None, below) is False
    assert failing_merge(notion, p, q, below, k) is not None


def test_renyi_dp_is_not_decided_on_two_outputs_and_the_check_shows_it():
    # three outputs whose ratios 2/3, 1, 2 all differ: every merge to two outputs joins two different ratios and
    # lowers the Rényi divergence, so at the largest level of a merge the pair fails and no merge does
    assert STRUCTURES["renyi-dp"].coarsening is None
    notion = find_notion("renyi-dp").notion
    third = sp.Rational(1, 3)
    p, q = (third, third, third), (third / 2, third, 1 - third * 3 / 2)
    level = table_level(notion, pair_table(p, q), target="E").value
    best = max(table_level(notion, pair_table(merged(p, a, 2), merged(q, a, 2)), target="E").value
               for a in merges(3, 2))
    assert best < level and merge_keeps_level(notion, p, q, "E", 2) is False
    assert holds_exactly(notion, pair_table(p, q), None, {"E": best}) is False
    assert failing_merge(notion, p, q, {"E": best}, 2) is None


def test_probabilistic_dp_is_not_pairwise_and_the_check_shows_it():
    # d = (0, 0) has two neighbours; each pair's bad output weighs 1/10 under A(d), their union 1/5
    notion = find_notion("probabilistic-dp").notion
    tenth = sp.Rational(1, 10)
    t = MechTable(2, (0, 1), (0, 1, 2), {(0, 0): (tenth, tenth, 8 * tenth), (1, 0): (tenth / 4, tenth, 35 * tenth / 4),
                                          (0, 1): (tenth, tenth / 4, 35 * tenth / 4),
                                          (1, 1): (tenth / 2, tenth / 2, 9 * tenth)})
    values = {"E": 2, "delta": tenth}
    assert holds_exactly(notion, t, None, values) is False
    assert pairwise_agrees(notion, "replace one record", t, values) is False


def test_probabilistic_dp_is_not_closed_and_the_check_shows_it():
    # P = (1/10, 9/10), Q = (1/100, 99/100) is (E, 1/10)-probabilistically private from E = 11/10 (the bad output
    # has mass 1/10); merging a twentieth of the second output into the first makes a bad output of mass 29/200
    assert not STRUCTURES["probabilistic-dp"].closed
    notion, target, fixed = _target("probabilistic-dp")
    t = pair_table((sp.Rational(1, 10), sp.Rational(9, 10)), (sp.Rational(1, 100), sp.Rational(99, 100)))
    kernel = [(1, 0), (sp.Rational(1, 20), sp.Rational(19, 20))]
    assert closure_holds(notion, t, [kernel], target, fixed) == (sp.Rational(11, 10), False)
    assert post_processed(t, kernel).rows[(0,)] == (sp.Rational(29, 200), sp.Rational(171, 200))


@pytest.mark.parametrize("key, values", [("pure-dp", {"E": 3}), ("free-lunch", {"E": 2}),
                                         ("approx-dp", {"E": 2, "delta": sp.Rational(1, 10)}),
                                         ("tv-privacy", {"delta": sp.Rational(1, 5)})])
def test_every_private_pair_is_a_post_processing_of_the_dominating_pair(key, values):
    notion, s = find_notion(key).notion, STRUCTURES[key]
    p0, q0 = s.dominating(**values)
    assert holds_exactly(notion, pair_table(p0, q0), None, values) is True
    rng = random.Random(f"dominated {key}")
    found = 0
    for _ in range(400):
        p, q = _row(rng, 3), _row(rng, 3)
        if holds_exactly(notion, pair_table(p, q), None, values) is True:
            kernel = post_processing_map((p0, q0), (p, q))
            assert kernel is not None, (key, p, q)
            assert post_processed(pair_table(p0, q0), kernel).rows == pair_table(p, q).rows
            found += 1
        if found == 5:
            break
    assert found == 5
    # a pair that breaks the notion is no post-processing of the dominating pair (post-processing keeps it)
    bad = next(pq for pq in itertools.product([(1, 0, 0)], [(0, sp.Rational(1, 2), sp.Rational(1, 2))]))
    assert holds_exactly(notion, pair_table(*bad), None, values) is False
    assert post_processing_map((p0, q0), bad) is None


def test_an_unknown_relation_is_refused():
    with pytest.raises(ValueError, match="unknown neighbour relation"):
        Structure("replace two records", "x")


def test_a_map_proposed_by_the_float_lp_is_checked_exactly(monkeypatch):
    # a float LP that claims success: the exact solution of the equations has a negative entry, so no map
    import numpy as np
    import scipy.optimize
    from types import SimpleNamespace
    monkeypatch.setattr(scipy.optimize, "linprog", lambda *a, **k: SimpleNamespace(status=0, x=np.full(4, 0.5)))
    q = sp.Rational(1, 4)
    rr = ((3 * q, q), (q, 3 * q))
    assert post_processing_map(rr, ((1, 0), (0, 1))) is None   # 3-DP cannot be post-processed into a 0/1 pair
