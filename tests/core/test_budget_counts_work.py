"""A derivation's budget counts work (processor seconds of this process), not the wall clock: waiting spends
none of it, computing does, and a wall-clock safety net behind it says so when it is what stopped the work.
The budget's timers live beside a user notion's limits (which use ``ITIMER_PROF``) without either disarming
the other. No assertion is on a duration: the budget's own count is what is compared."""
from __future__ import annotations

import signal
import time

import pytest

from symbolic.core.budget import Budget, BudgetSpent, safety_net
from symbolic.graph.user_limits import Account, UserLimit

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interval timers are POSIX")


def spin():
    """Work that never ends by itself."""
    x = 0
    while True:
        x += 1


def timers():
    return (signal.getitimer(signal.ITIMER_VIRTUAL), signal.getitimer(signal.ITIMER_REAL),
            signal.getitimer(signal.ITIMER_PROF))


def handlers():
    return tuple(signal.getsignal(s) for s in (signal.SIGVTALRM, signal.SIGALRM, signal.SIGPROF))


@pytest.fixture(autouse=True)
def clean_timers():
    """Every test starts and ends with no interval timer set and the handlers it found."""
    before = handlers()
    assert timers() == ((0.0, 0.0),) * 3
    yield
    assert timers() == ((0.0, 0.0),) * 3
    assert handlers() == before


def test_sleeping_is_not_work():
    with Budget(0.5) as b:
        time.sleep(1.0)
        b.at("after a nap")   # not spent: the nap took no processor time
    assert b.remaining() > 0 and b.where == "after a nap"


def test_work_is_stopped_by_the_budget_inside_a_call_with_no_stage():
    with pytest.raises(BudgetSpent) as caught:
        with Budget(0.5) as b:
            b.at("spinning")
            spin()
    e = caught.value
    assert str(e) == "stopped by the budget (0.5 processor seconds) while spinning"
    assert e.safety is None and e.seconds == 0.5 and e.where == "spinning"
    assert time.process_time() >= b.end   # it rang once the count was spent, not before


def test_a_stage_after_the_work_is_refused():
    b = Budget(0.2)
    end = b.end
    while time.process_time() < end:
        pass
    with pytest.raises(BudgetSpent, match=r"^stopped by the budget \(0.2 processor seconds\) while the next stage$"):
        b.at("the next stage")


def test_budget_zero_stops_at_the_first_stage():
    with pytest.raises(BudgetSpent, match=r"^stopped by the budget \(0 processor seconds\) while reading$"):
        with Budget(0) as b:
            b.at("reading")


def test_the_safety_net_stops_a_wait_and_says_it_was_not_the_budget():
    with pytest.raises(BudgetSpent) as caught:
        with Budget(100, safety=0.2) as b:
            b.at("waiting")
            time.sleep(30)
    e = caught.value
    assert e.safety == 0.2 and e.seconds == 100
    assert str(e) == ("stopped by the wall-clock safety net (0.2 s), not the budget (100 processor seconds), "
                      "while waiting")
    assert b.remaining() > 0   # the budget itself was not spent


def test_the_safety_net_is_checked_at_a_stage_too():
    b = Budget(100, safety=0)
    with pytest.raises(BudgetSpent, match="the wall-clock safety net \\(0 s\\), not the budget"):
        b.at("estimating")


def test_the_default_safety_net_is_well_above_the_budget():
    assert Budget(60).safety == safety_net(60) == 600
    assert Budget(1).safety == 61
    assert Budget().safety is None and Budget().remaining() == Budget().safety_remaining() == float("inf")


def test_a_caught_ring_still_ends_in_budget_spent():
    with pytest.raises(BudgetSpent) as caught:
        with Budget(0.1) as b:
            b.at("fitting")
            try:
                spin()
            except BudgetSpent:
                raise RuntimeError("a library replaced it") from None
    assert caught.value.where == "fitting" and caught.value.safety is None
    assert isinstance(caught.value.__cause__, RuntimeError)


def test_a_user_notion_account_inside_does_not_disarm_the_budget():
    account = Account(UserLimit(100.0, wall=50.0), "Honest", "mine.py")
    with pytest.raises(BudgetSpent) as caught:
        with Budget(0.5) as b:
            b.at("evaluating")
            assert account.run(lambda: sum(range(1000))) == sum(range(1000))
            # the account's processor-time timer (ITIMER_PROF) came and went; the budget's is still set
            assert signal.getitimer(signal.ITIMER_VIRTUAL)[0] > 0 and signal.getitimer(signal.ITIMER_PROF)[0] == 0
            assert signal.getsignal(signal.SIGVTALRM) == b._ring
            spin()
    assert caught.value.safety is None and account.hit is None


def test_the_budget_rings_inside_a_user_notion_and_the_account_is_restored():
    account = Account(UserLimit(100.0, wall=50.0), "Spin", "mine.py")
    prof = signal.getsignal(signal.SIGPROF)
    with pytest.raises(BudgetSpent) as caught:
        with Budget(0.3) as b:
            b.at("evaluating the notion")
            account.run(spin)
    assert str(caught.value).startswith("stopped by the budget (0.3 processor seconds)")
    assert account.hit is None and 0 < account.spent   # the budget stopped it, not the notion's own limit
    assert signal.getsignal(signal.SIGPROF) == prof


def test_an_inner_budget_gives_the_outer_one_its_timers_back():
    with pytest.raises(BudgetSpent) as caught:
        with Budget(0.3) as outer:
            outer.at("the outer stage")
            with Budget(100):
                pass
            assert signal.getsignal(signal.SIGVTALRM) == outer._ring and signal.getitimer(signal.ITIMER_VIRTUAL)[0] > 0
            spin()
    assert caught.value.where == "the outer stage" and caught.value.seconds == 0.3
