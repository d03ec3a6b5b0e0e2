"""The prior-quantified zoo notions (zoo_bayes, zoo_membership, zoo_pufferfish): exact and z3 readings
agree on random small tables, and each ``sufficient`` family decides its ∀-prior notion as z3 does over
every prior.

(1) Agreement: every notion of the three modules' ``ALL`` lists, the (mechanism, simulator) notions of
``zoo_pufferfish.PAIRED`` and Pufferfish with a finite list of distributions, on the strategies of
``tests/notions/notion_cases.py`` (small denominators, ±10⁻³⁰ nudges): the exact sympy reading and the z3
reading (folded by simplify or decided by a solver) give the same truth value, and the engine's
``Encoding`` with everything fixed agrees.

(2) Sufficient families: for random tables and levels, "the body holds at every member of the family"
(exact) must equal "z3 finds no prior violating a conjunct" (each conjunct one query, the prior an
unknown point of the simplex, or a product of simplices). For membership privacy the family notions'
body is the presence ratio; the module's lemma says its universal closure is that of the paper's two
conditions, and (3) checks that too: z3 searching priors against the two literal conditions agrees
with the family.
"""
from __future__ import annotations

import random

import pytest
import sympy as sp
import z3
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.notions.notion_cases import (R, check_agreement, encoding_value, exact_value, nudged, populations, tables, values_for,
                          z3_value)
from symbolic.core.ops import ExactOps
from symbolic.core.tables import MechTable, PopTable, databases
from symbolic.core.terms import MechVar
from symbolic.core.verdicts import Sizes
from symbolic.model.population import Population
from symbolic.notions.zoo import bayes as zoo_bayes
from symbolic.notions.zoo import membership as zoo_membership
from symbolic.notions.zoo import pufferfish as zoo_pufferfish
from symbolic.notions.zoo.pufferfish import DatabaseSecret, RecordSecret, pufferfish, record_pairs
from symbolic.solve.backends.z3_ops import Z3Ops

FAST = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
DOM = (0, 1)
THETAS = (Population({(0, 0): R(1, 2), (1, 1): R(1, 2)}, n=2, domain=DOM),
          Population({(0, 0): R(1, 4), (0, 1): R(1, 4), (1, 0): R(1, 6), (1, 1): R(1, 3)}, n=2, domain=DOM))
PF_FINITE = [pufferfish(record_pairs, THETAS, name="PufferfishRecordTwoThetas"),
             pufferfish([(DatabaseSecret(frozenset({(0, 0)})), DatabaseSecret(frozenset({(1, 1), (0, 1)})))], THETAS[1:],
                        name="PufferfishDatabaseSecret")]


def first_vs_second_half(n, domain):
    """A database secret pair at every size: D = the first database vs D in the second half."""
    dbs = databases(n, tuple(domain))
    return [(DatabaseSecret(frozenset(dbs[:1])), DatabaseSecret(frozenset(dbs[max(1, len(dbs) // 2):])))]


PF_DATABASE_ALL = pufferfish(first_vs_second_half, "all")
ONE = zoo_bayes.ALL + zoo_membership.ALL + zoo_pufferfish.ALL + [PF_DATABASE_ALL]
PAIRED = zoo_pufferfish.PAIRED


def _ids(notions):
    return [pytest.param(nt, id=nt.name) for nt in notions]


@st.composite
def arity_one(draw, notion, ns=(1, 2), k=2):
    params = [draw(st.sampled_from(values_for(p))) for p in notion.params]
    n, m = draw(st.sampled_from(ns)), draw(st.sampled_from((2, 3)))
    env = {"A": draw(tables(n, k, m))}
    pop = None
    if notion.population != "none":
        pop = draw(populations(n, k, product=notion.population == "product" and draw(st.booleans())))
    return notion(*params), env, pop, Sizes(n, k, m)


@st.composite
def with_simulator(draw, notion, k=2):
    params = [draw(st.sampled_from(values_for(p))) for p in notion.params]
    n, m = draw(st.sampled_from((1, 2))), draw(st.sampled_from((2, 3)))
    env = {"A": draw(tables(n, k, m)), "S": draw(tables(n, k, m))}
    pop = draw(populations(n, k))
    return notion(*params).of(MechVar("A"), MechVar("S")), env, pop, Sizes(n, k, m)


@pytest.mark.parametrize("notion", _ids(ONE))
@settings(max_examples=8, **FAST)   # 100 with -m slow (below)
@given(data=st.data())
def test_exact_and_z3_agree(notion, data):
    check_agreement(data.draw(nudged(data.draw(arity_one(notion)))))


@pytest.mark.parametrize("notion", _ids(PF_FINITE))
@settings(max_examples=15, **FAST)
@given(data=st.data())
def test_exact_and_z3_agree_finite_theta(notion, data):
    check_agreement(data.draw(nudged(data.draw(arity_one(notion, ns=(2,))))))


@pytest.mark.parametrize("notion", _ids(PAIRED))
@settings(max_examples=8, **FAST)   # 100 with -m slow (below)
@given(data=st.data())
def test_exact_and_z3_agree_with_a_simulator(notion, data):
    check_agreement(data.draw(nudged(data.draw(with_simulator(notion)))))


@pytest.mark.parametrize("notion", _ids(ONE + PAIRED))
@settings(max_examples=3, **FAST)
@given(data=st.data())
def test_fixed_encoding_agrees_with_exact(notion, data):
    case = data.draw(with_simulator(notion) if notion.arity == 2 else arity_one(notion))
    ni, env, pop, sizes = case
    assert encoding_value(ni, env, pop, sizes) == exact_value(ni, env, pop)


@pytest.mark.slow
@pytest.mark.parametrize("notion", _ids(ONE + PAIRED))
@settings(max_examples=100, **FAST)
@given(data=st.data())
def test_exact_and_z3_agree_thoroughly(notion, data):
    """More examples, |𝒟| up to 3, z3's answer from a solver."""
    k = data.draw(st.sampled_from((2, 3)))
    case = data.draw(nudged(data.draw(with_simulator(notion, k=k) if notion.arity == 2 else arity_one(notion, k=k))))
    ni, env, pop, _ = case
    e = check_agreement(case)
    assert z3_value(ni, env, pop, use_solver=True) == e


def test_finite_theta_refuses_other_sizes():
    from symbolic.core.errors import InvalidSize
    A = MechTable(1, DOM, (0, 1), {(0,): (R(1, 2), R(1, 2)), (1,): (R(1, 2), R(1, 2))})
    with pytest.raises(InvalidSize, match="n=2"):
        PF_FINITE[0].body(ExactOps(), A, E=2)


# --- (2) sufficient families against z3 over every prior -------------------------------------------

def _random_table(rng, n, k, m, positive):
    rows = {}
    for d in databases(n, tuple(range(k))):
        w = [rng.randint(1 if positive else 0, 4) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
    return MechTable(n, tuple(range(k)), tuple(range(m)), rows)


def _z3_table(tab):
    return MechTable(tab.n, tab.domain, tab.outputs, {d: tuple(z3.RealVal(str(x)) for x in r) for d, r in tab.rows.items()})


def _z3_prior(n, k, product):
    dom = tuple(range(k))
    base = []
    if product:
        marg = [[z3.Real(f"m{j}_{v}") for v in dom] for j in range(n)]
        for row in marg:
            base += [x >= 0 for x in row] + [z3.Sum(row) == 1]
        probs = {}
        for d in databases(n, dom):
            t = marg[0][d[0]]
            for j in range(1, n):
                t = t * marg[j][d[j]]
            probs[d] = t
    else:
        probs = {d: z3.Real(f"p{d}") for d in databases(n, dom)}
        base += [x >= 0 for x in probs.values()] + [z3.Sum(list(probs.values())) == 1]
    return PopTable(n, dom, probs), base


def _z3_finds_violation(body_of, n, k, product):
    """Does some prior (z3 unknown) violate one conjunct of the body? Each conjunct is one query."""
    pop, base = _z3_prior(n, k, product)
    formula = body_of(Z3Ops(), pop)
    parts, todo = [], [formula]
    while todo:
        x = todo.pop()
        (todo.extend(x.children()) if z3.is_and(x) else parts.append(x))
    for part in parts:
        s = z3.Solver()
        s.set("timeout", 20000)
        s.add(base + [z3.Not(part)])
        answer = s.check()
        assert answer != z3.unknown, part
        if answer == z3.sat:
            return True
    return False


FAMILY_NOTIONS = [nt for nt in ONE + PAIRED if nt.population in ("all", "product")]
SHAPES = [(2, 2, 2), (1, 3, 2)]


def _params(rng, notion):
    vals = [sp.Rational(rng.choice([3, 4, 6, 10, 20, 40]), 2)]
    if len(notion.params) == 2:   # (E, delta)
        vals.append(sp.Rational(rng.choice([0, 0, 1, 2, 3]), 8))
    return dict(zip([p.name for p in notion.params], vals))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("notion", _ids(FAMILY_NOTIONS))
def test_sufficient_family_agrees_with_solver(notion, shape):
    n, k, m = shape
    rng = random.Random(11)
    seen = set()
    for trial in range(8):
        tabs = [_random_table(rng, n, k, m, positive=trial % 2 == 0) for _ in range(notion.arity)]
        if notion.arity == 2 and trial % 4 == 0:   # the simulator as the mechanism's own rows: DDP holds more often
            tabs[1] = tabs[0]
        kw = _params(rng, notion)
        fam = notion.sufficient(n, tuple(range(k)))
        exact = all(notion.body(ExactOps(), *tabs, P=q.table(), **kw) for q in fam)
        z3kw = {name: z3.RealVal(str(v)) for name, v in kw.items()}
        violated = _z3_finds_violation(lambda ops, pop: notion.body(ops, *map(_z3_table, tabs), P=pop, **z3kw),
                                       n, k, notion.population == "product")
        assert exact == (not violated), (trial, [t.rows for t in tabs], kw)
        seen.add(exact)
    assert seen == {True, False}, "both outcomes exercised"


# --- (3) membership privacy: the family decides the paper's two conditions too -------------------------

@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("notion", _ids([zoo_membership.MembershipPrivacy, zoo_membership.MembershipPrivacyAllPriors]))
def test_membership_family_decides_the_literal_conditions(notion, shape):
    n, k, m = shape
    rng = random.Random(5)
    seen = set()
    literal = zoo_membership.MembershipPrivacyFor.body
    for trial in range(8):
        A = _random_table(rng, n, k, m, positive=trial % 2 == 0)
        g = sp.Rational(rng.choice([3, 4, 6, 10]), 2)
        exact = all(notion.body(ExactOps(), A, P=q.table(), gamma=g) for q in notion.sufficient(n, tuple(range(k))))
        violated = _z3_finds_violation(lambda ops, pop: literal(ops, _z3_table(A), pop, gamma=z3.RealVal(str(g))),
                                       n, k, notion.population == "product")
        assert exact == (not violated), (trial, A.rows, g)
        seen.add(exact)
    assert seen == {True, False}
