"""A solver call that ends when it should: z3's own timeout, and a watchdog behind it.

z3's ``timeout`` parameter is checked at points inside the search; in nonlinear real arithmetic a
single step can run far past it (seen: minutes past a 20 s limit). The watchdog thread interrupts
the context a grace period after the limit, which makes ``check`` return ``unknown`` ("canceled").
An interruption can only turn an answer into ``unknown``, never into ``sat`` or ``unsat``.
"""
from __future__ import annotations

import threading

GRACE = 1.0  # seconds past the limit before the watchdog interrupts, at least; a quarter of the limit at most


def check_within(solver, seconds: float, *assumptions):
    """``solver.check(*assumptions)`` with ``seconds`` as z3's timeout and a watchdog behind it."""
    solver.set("timeout", max(1, int(1000 * seconds)))
    timer = threading.Timer(seconds + max(GRACE, 0.25 * seconds), solver.ctx.interrupt)
    timer.daemon = True
    timer.start()
    try:
        return solver.check(*assumptions)
    finally:
        timer.cancel()
