"""A solver call is bounded by effort (z3's resource count), charged to a meter, with the wall clock
only as a safety net that says so when it bites."""
from __future__ import annotations

import z3

from symbolic.solve.backends import deadline
from symbolic.solve.backends.effort import Exhausted, Meter


def _hard():
    x, y, z = z3.Reals("x y z")
    s = z3.SolverFor("QF_NRA")
    s.add(x * x * x * y + y * y * z * x - 7 * z * z * z * x == 3, x * y * z > 11, x ** 5 + y ** 5 + z ** 5 == 13 * x * y,
          x > 0, y > 0, z > 0, x * x + y * y < z)
    return s


def test_the_resource_count_ends_a_call_the_same_way_every_time():
    answers = []
    for _ in range(2):
        m = Meter(10 ** 9)
        s = _hard()
        r = deadline.check_within(s, 2000, meter=m)
        answers.append((r, s.reason_unknown() if r == z3.unknown else ""))
        assert 0 < m.spent <= 2000 + 5000   # charged; z3 checks its count between steps
        assert m.safety_hits == 0
    assert answers[0] == answers[1] == (z3.unknown, deadline.RESOURCE_OUT)
    assert "effort limit" in deadline.unknown_reason(s) and "--effort" in deadline.unknown_reason(s)


def test_the_watchdog_is_a_safety_net_that_says_so(monkeypatch):
    # a generous count and a tiny wall clock: only the safety net can stop the call
    monkeypatch.setattr(deadline, "GRACE", 0.0)
    s = _hard()
    m = Meter(10 ** 12)
    r = deadline.check_within(s, 10 ** 12, meter=m, safety=0.05)
    if r == z3.unknown:   # a fast machine may finish first; then there is nothing to say
        assert deadline.cut_by_clock(s) and m.safety_hits == 1
        assert "wall-clock safety limit" in deadline.unknown_reason(s)


def test_an_empty_meter_refuses_the_call_and_names_the_limit():
    m = Meter(10)
    m.charge(10)
    x = z3.Real("x")
    s = z3.Solver()
    s.add(x > 1)
    try:
        deadline.check_within(s, 1000, meter=m)
    except Exhausted as e:
        assert e.limit == "effort" and "--effort" in e.text
    else:
        raise AssertionError("an exhausted meter must refuse the call")


def test_an_easy_call_is_answered_and_the_context_stays_usable():
    x = z3.Real("x")
    s = z3.Solver()
    s.add(x > 1, x < 2)
    assert deadline.check_within(s, 10 ** 6) == z3.sat
    t = z3.Solver()
    t.add(x > 2, x < 1)
    assert deadline.check_within(t, 10 ** 6) == z3.unsat
