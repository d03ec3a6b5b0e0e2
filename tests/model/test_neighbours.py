"""Neighbour relations as values (symbolic.model.neighbours): the pairs each one yields, checked
against independent descriptions of the relation (the engine's own replace-one enumeration,
multisets for add/remove, Hamming distances, graph edges, metric values), and the same pairs on
a table of solver terms as on an exact table."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest
import z3

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.core.tables import MechTable, databases, replace
from symbolic.model.neighbours import (AddRemove, AllPairs, Constraint, Hamming, Metric, PolicyGraph, ReplaceOne,
                                       at_dataset, count_constraint, hamming, l1_positions)

SHAPES = [(1, (0, 1)), (1, (0, 1, 2)), (2, (0, 1)), (2, (0, 1, 2)), (3, (0, 1))]


def pairset(rel, n, domain, rows=None):
    return {(p.d, p.d2) for p in rel.pairs(n, domain, rows)}


def exact_table(n, domain):
    return MechTable(n, domain, (0, 1), {d: (1, 0) for d in databases(n, domain)})


RELATIONS = [ReplaceOne(), AddRemove(), AddRemove(absent=1), AllPairs(), Hamming(1), Hamming(2), PolicyGraph(),
             PolicyGraph("complete"), PolicyGraph(((0, 1),)), Metric(), Metric("hamming"), Metric("discrete")]


@pytest.mark.parametrize("rel", RELATIONS, ids=str)
@pytest.mark.parametrize("n,domain", SHAPES)
def test_every_relation_is_symmetric_irreflexive_and_without_repeats(rel, n, domain):
    pairs = list(rel.pairs(n, domain))
    keys = [(p.d, p.d2) for p in pairs]
    assert len(keys) == len(set(keys))
    assert all(d != d2 for d, d2 in keys)
    assert {(b, a) for a, b in keys} == set(keys)
    for p in pairs:   # index and distance say what they claim
        assert hamming(p.d, p.d2) >= 1
        if p.index is not None:
            assert hamming(p.d, p.d2) == 1 and p.d[p.index] != p.d2[p.index]


@pytest.mark.parametrize("n,domain", SHAPES)
def test_replace_one_is_the_engines_neighbour_enumeration(n, domain):
    tab = exact_table(n, domain)
    engine = [(d, replace(d, i, v), i) for i, d, v in tab.neighbours()]
    ours = [(p.d, p.d2, p.index) for p in ReplaceOne().of(tab)]
    assert sorted(ours, key=repr) == sorted(engine, key=repr)
    assert all(p.distance == 1 for p in ReplaceOne().of(tab))


@pytest.mark.parametrize("n,domain", SHAPES)
def test_hamming_bounds_and_all_pairs(n, domain):
    assert pairset(Hamming(1), n, domain) == pairset(ReplaceOne(), n, domain)
    assert pairset(Hamming(n), n, domain) == pairset(AllPairs(), n, domain)
    dbs = databases(n, domain)
    for k in range(1, n + 1):
        expect = {(a, b) for a in dbs for b in dbs if 1 <= sum(x != y for x, y in zip(a, b)) <= k}
        assert pairset(Hamming(k), n, domain) == expect
    assert len(pairset(AllPairs(), n, domain)) == len(dbs) * (len(dbs) - 1)


def _multiset(d, bot):
    return Counter(x for x in d if x != bot)


@pytest.mark.parametrize("n,domain", SHAPES)
@pytest.mark.parametrize("absent", [None, 1])
def test_add_remove_is_one_record_more_or_less(n, domain, absent):
    """Each pair differs by adding or removing exactly one record of the multiset of present records;
    and every such pair of multisets (of at most n records) is realised by some pair of slot tables."""
    rel = AddRemove(absent=absent)
    bot = domain[0] if absent is None else absent
    pairs = pairset(rel, n, domain)
    assert pairs <= pairset(ReplaceOne(), n, domain)
    for a, b in pairs:
        ma, mb = _multiset(a, bot), _multiset(b, bot)
        small, big = (ma, mb) if sum(ma.values()) < sum(mb.values()) else (mb, ma)
        assert sum(big.values()) == sum(small.values()) + 1 and not (small - big)
    realised = {(frozenset(_multiset(a, bot).items()), frozenset(_multiset(b, bot).items())) for a, b in pairs}
    dbs = databases(n, domain)
    for a, b in itertools.product(dbs, dbs):
        ma, mb = _multiset(a, bot), _multiset(b, bot)
        if sum(mb.values()) == sum(ma.values()) + 1 and not (ma - mb):
            assert (frozenset(ma.items()), frozenset(mb.items())) in realised


def test_add_remove_absent_must_be_a_domain_value():
    with pytest.raises(InvalidParameter, match="absent value 7 is not in the domain"):
        list(AddRemove(absent=7).pairs(1, (0, 1)))


@pytest.mark.parametrize("n,domain", SHAPES)
def test_policy_graphs(n, domain):
    assert pairset(PolicyGraph("complete"), n, domain) == pairset(ReplaceOne(), n, domain)
    line = pairset(PolicyGraph("line"), n, domain)
    for a, b in line:
        (i,) = [j for j in range(n) if a[j] != b[j]]
        assert abs(domain.index(a[i]) - domain.index(b[i])) == 1
    assert {(a, b) for a, b in pairset(ReplaceOne(), n, domain)
            if abs(l1_positions(a, b, domain)) == 1} == line
    only01 = pairset(PolicyGraph(((0, 1),)), n, domain)
    assert all({a[i], b[i]} == {0, 1} for a, b in only01 for i in range(n) if a[i] != b[i])


def test_policy_graph_bad_edge():
    with pytest.raises(InvalidParameter, match="two different domain values"):
        list(PolicyGraph(((0, 0),)).pairs(1, (0, 1)))


def test_policy_graph_with_a_count_constraint():
    """Q: exactly one record is 1. No two databases of I_Q differ in one record; the minimal changes
    are swaps, which Blowfish makes neighbours; databases outside I_Q are never compared."""
    rel = PolicyGraph("complete", count_constraint(1, 1))
    assert pairset(rel, 2, (0, 1)) == {((0, 1), (1, 0)), ((1, 0), (0, 1))}
    three = pairset(rel, 3, (0, 1))
    iq = [d for d in databases(3, (0, 1)) if sum(d) == 1]
    assert three == {(a, b) for a in iq for b in iq if a != b}
    assert all(p.distance == 2 and p.index is None for p in rel.pairs(3, (0, 1)))


def test_policy_graph_constraint_minimality():
    """With no constraint binding (Q always true) the constrained reading gives back one-record moves."""
    free = PolicyGraph("line", Constraint("true", lambda d: True))
    for n, domain in SHAPES:
        assert pairset(free, n, domain) == pairset(PolicyGraph("line"), n, domain)


@pytest.mark.parametrize("n,domain", SHAPES)
def test_metrics(n, domain):
    dbs = databases(n, domain)
    l1 = {(p.d, p.d2): p.distance for p in Metric().pairs(n, domain)}
    assert set(l1) == {(a, b) for a in dbs for b in dbs if a != b}
    for (a, b), k in l1.items():
        assert k == sum(abs(domain.index(x) - domain.index(y)) for x, y in zip(a, b)) >= 1
    assert all(p.distance == hamming(p.d, p.d2) for p in Metric("hamming").pairs(n, domain))
    assert all(p.distance == 1 for p in Metric("discrete").pairs(n, domain))


def test_metric_errors():
    with pytest.raises(InvalidParameter, match="unknown metric 'taxicab'"):
        list(Metric("taxicab").pairs(1, (0, 1)))
    with pytest.raises(InvalidParameter, match="must be a whole number"):
        list(Metric("half", lambda d, d2, dom: 0.5).pairs(1, (0, 1)))
    with pytest.raises(InvalidParameter, match="must be a whole number"):
        list(Metric("negative", lambda d, d2, dom: -1).pairs(1, (0, 1)))


def test_hamming_needs_a_whole_group_size():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(InvalidParameter, match="group size"):
            Hamming(bad)


def test_at_dataset():
    assert at_dataset(None, 2, (0, 1)) == (0, 0)
    assert at_dataset((1, 0), 2, (0, 1)) == (1, 0)
    assert at_dataset(1, 1, (0, 1)) == (1,)
    with pytest.raises(InvalidSize, match="not a database"):
        at_dataset((0, 5), 2, (0, 1))


@pytest.mark.parametrize("rel", RELATIONS, ids=str)
def test_same_pairs_on_solver_terms(rel):
    """The pairs depend on the table's databases only: a table of z3 unknowns gives the same pairs."""
    n, domain = 2, (0, 1, 2)
    sym = MechTable(n, domain, (0, 1), {d: (z3.Real(f"a{d}0"), z3.Real(f"a{d}1")) for d in databases(n, domain)})
    assert list(rel.of(sym)) == list(rel.of(exact_table(n, domain)))


def test_rows_subset():
    """Only databases present among ``rows`` are related."""
    rows = [(0, 0), (0, 1), (1, 1)]
    assert pairset(ReplaceOne(), 2, (0, 1), rows) == {((0, 0), (0, 1)), ((0, 1), (0, 0)), ((0, 1), (1, 1)),
                                                      ((1, 1), (0, 1))}
    assert pairset(AllPairs(), 2, (0, 1), rows) == {(a, b) for a in rows for b in rows if a != b}
