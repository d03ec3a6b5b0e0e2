"""The exact and z3 readings of the polynomial DP-type zoo notions agree (symbolic.notions.zoo.dp,
zoo_dp_laws), on random small tables with frequent ties, nudged by ±10⁻³⁰ half of the time (the
strategies of tests/notions/notion_cases.py, as in tests/notions/test_notion_agreement.py, which also covers the
modules' ``ALL`` lists). Here: every notion of the two ``ALL`` lists and factory variants with other
neighbour relations and structural parameters, through (a) the body on z3 numerals, (b) the engine's
own Encoding with everything fixed, and (c) near misses at a ratio equal to E."""
from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.notions.notion_cases import TINY, cases, check_agreement, describe, encoding_value, exact_value, nudged, z3_value
from symbolic.core.tables import MechTable, databases
from symbolic.model.neighbours import AddRemove, AllPairs, Hamming, Metric, count_constraint
from symbolic.notions.zoo import dp as z
from symbolic.notions.zoo import dp_laws as w

VARIANTS = [
    z.dp_over(AddRemove(absent=1)), z.group_dp(1), z.group_dp(3), z.blowfish("complete"),
    z.blowfish(((0, 1),)), z.blowfish("line", count_constraint(1, 1)), z.metric_dp(Metric("hamming")),
    z.metric_dp(Metric("discrete")), z.individual_dp(neighbours=AddRemove()), z.personalized_dp(3),
    z.personalized_dp(2, AddRemove()), z.probabilistic_dp(AllPairs()),
    w.bounded_range(AllPairs()), w.renyi_dp(4), w.renyi_dp(2, AddRemove()), w.tv_privacy(Hamming(2)),
    w.trade_off_dp(AddRemove()),
]
NOTIONS = z.ALL + w.ALL + VARIANTS
FAST = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def test_names_are_distinct_and_the_lists_complete():
    names = [nt.name for nt in NOTIONS]
    assert len(names) == len(set(names))
    assert {i.notion.name for i in z.ENTRIES + w.ENTRIES} <= {nt.name for nt in z.ALL + w.ALL}
    assert len(z.ENTRIES) + len(w.ENTRIES) == 12


@pytest.mark.parametrize("notion", NOTIONS, ids=lambda nt: nt.name)
@settings(max_examples=6, **FAST)   # 100 with -m slow (below)
@given(data=st.data())
def test_exact_and_z3_agree(notion, data):
    check_agreement(data.draw(nudged(data.draw(cases(notion, k=data.draw(st.sampled_from((2, 3))))))))


@pytest.mark.parametrize("notion", NOTIONS, ids=lambda nt: nt.name)
@settings(max_examples=3, **FAST)
@given(data=st.data())
def test_fixed_encoding_agrees_with_exact(notion, data):
    ni, env, pop, sizes = data.draw(nudged(data.draw(cases(notion, families=False))))
    assert encoding_value(ni, env, pop, sizes) == exact_value(ni, env, pop), describe(ni, env, pop)


def test_both_outcomes_are_exercised():
    """The random cases are not degenerate: both truth values turn up, many times (seeded draws)."""
    seen = {True: 0, False: 0}
    for nt in NOTIONS:
        @settings(max_examples=4, derandomize=True, **FAST)
        @given(data=st.data())
        def run(data):
            seen[check_agreement(data.draw(cases(nt)))] += 1
        run()
    assert seen[True] > 10 and seen[False] > 10, seen


@pytest.mark.slow
@pytest.mark.parametrize("notion", NOTIONS, ids=lambda nt: nt.name)
@settings(max_examples=100, **FAST)
@given(data=st.data())
def test_exact_and_z3_agree_thoroughly(notion, data):
    """More examples, |𝒟| up to 3, and z3's answer from a solver rather than simplify."""
    case = data.draw(nudged(data.draw(cases(notion, k=data.draw(st.sampled_from((2, 3)))))))
    ni, env, pop, _ = case
    assert z3_value(ni, env, pop, use_solver=True) == check_agreement(case), describe(ni, env, pop)


def rr(E, n=1):
    """Randomised response on each of n bits at keep-odds E: every neighbour ratio is E or 1/E."""
    dom = (0, 1)
    rows = {d: tuple(sp.Mul(*[E / (E + 1) if a == b else 1 / (E + 1) for a, b in zip(d, o)])
                     for o in databases(n, dom)) for d in databases(n, dom)}
    return MechTable(n, dom, tuple(range(2 ** n)), rows)


def both(ni, table):
    env = {"A": table}
    e, v = exact_value(ni, env, None), z3_value(ni, env, None)
    assert e == v, f"exact says {e}, z3 says {v}: {describe(ni, env, None)}"
    return e


@pytest.mark.parametrize("E", [sp.Rational(3, 2), sp.Integer(2), sp.Integer(3)], ids=str)
@pytest.mark.parametrize("dE,where", [(0, "at"), (TINY, "above"), (-TINY, "below")], ids=lambda x: str(x)[:6])
def test_near_miss_at_the_level(E, dE, where):
    """Randomised response at E: each ratio notion holds at its level and 10⁻³⁰ above, fails 10⁻³⁰
    below, in both readings (a tolerance anywhere would show)."""
    holds = where != "below"
    for n in (1, 2):
        A = rr(E, n)
        for nt in (z.UnboundedDP, z.IndividualDP, z.BlowfishLine, z.MetricDPL1):
            assert both(nt(E + dE), A) is holds, nt.name
        assert both(z.PersonalizedDP(E + dE, E), A) is holds
        assert both(z.ProbabilisticDP(E + dE, 0), A) is holds
        assert both(z.GroupDP2(E ** min(n, 2) + dE), A) is holds
        assert both(z.LocalDP(E ** n + dE), A) is holds
        assert both(w.BoundedRange(E ** 2 + dE), A) is holds
        assert both(w.TradeOffDP(E + dE, 0), A) is holds
    A = rr(E)
    assert both(w.TVPrivacy((E - 1) / (E + 1) + dE), A) is holds
    level2 = (E ** 3 + 1) / (E * (E + 1))     # Σ_o p²/q = E²/(E+1) + 1/(E(E+1)) for the two RR rows
    assert both(w.RenyiDP2(level2 + dE), A) is holds
