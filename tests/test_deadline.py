"""A solver call ends near its limit even when z3's own timeout is not honoured."""
from __future__ import annotations

import time

import z3

from symbolic.solve import deadline


def test_watchdog_interrupts_a_call_that_overruns(monkeypatch):
    # a hard nonlinear problem; z3's timeout is set far above the watchdog's limit, so only the
    # watchdog can stop it in time
    monkeypatch.setattr(deadline, "GRACE", 0.0)
    x, y, z = z3.Reals("x y z")
    s = z3.SolverFor("QF_NRA")
    s.add(x * x * x * y + y * y * z * x - 7 * z * z * z * x == 3, x * y * z > 11, x ** 5 + y ** 5 + z ** 5 == 13 * x * y,
          x > 0, y > 0, z > 0, x * x + y * y < z)
    start = time.monotonic()
    r = deadline.check_within(s, 0.2)
    took = time.monotonic() - start
    assert r in (z3.unknown, z3.sat, z3.unsat)
    assert took < 5.0
    if r == z3.unknown:
        assert s.reason_unknown() in ("canceled", "timeout")


def test_an_easy_call_is_answered_and_the_context_stays_usable():
    x = z3.Real("x")
    s = z3.Solver()
    s.add(x > 1, x < 2)
    assert deadline.check_within(s, 5.0) == z3.sat
    t = z3.Solver()
    t.add(x > 2, x < 1)
    assert deadline.check_within(t, 5.0) == z3.unsat
