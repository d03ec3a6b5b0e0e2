"""Effort sub-accounts, as a property over random trees of accounts and random charges: a sub-account
never has more left than any account above it, what it spends is spent by every account above it, and
work that spends no more than what its account has left never overdraws an account above it."""
from __future__ import annotations

from hypothesis import given, settings as hsettings, strategies as st

from symbolic.solve.backends.effort import UNITS_PER_SECOND, Meter

step = st.one_of(
    st.tuples(st.just("sub"), st.integers(0, 30), st.integers(0, 5000)),
    st.tuples(st.just("charge"), st.integers(0, 30), st.integers(0, 3000)),
    st.tuples(st.just("cpu"), st.integers(0, 30), st.integers(0, 2000)),
)


@given(st.integers(1, 10_000), st.lists(step, max_size=60))
@hsettings(max_examples=200, deadline=None)
def test_a_sub_account_never_spends_more_than_its_parents_have_left(root_limit, steps):
    root = Meter(root_limit)
    meters, own = [root], {id(root): 0}
    for kind, i, amount in steps:
        m = meters[i % len(meters)]
        if kind == "sub":
            child = m.sub(amount)
            meters.append(child)
            own[id(child)] = 0
            continue
        allowed = m.left()
        if kind == "charge":      # work that asks its account first, as the engine's loops do
            spend = min(amount, allowed)
            m.charge(spend)
            own[id(m)] += spend
        else:                     # processor time: charged as measured, up to what the account had left
            seconds = min(amount, allowed) / UNITS_PER_SECOND * m.cpu_slack / 2
            m.charge(0, cpu=seconds)
        for x in meters:
            assert 0 <= x.left() <= max(0, x.limit - x.spent)
            if x.parent is not None:
                assert x.left() <= x.parent.left()
    for x in meters:   # an account has spent its own work and all its descendants'
        below = [y for y in meters if _under(y, x)]
        assert x.spent == sum(own[id(y)] for y in below)
        assert x.spent <= x.limit


def _under(y, x) -> bool:
    while y is not None:
        if y is x:
            return True
        y = y.parent
    return False
