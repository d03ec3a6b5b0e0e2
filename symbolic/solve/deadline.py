"""A solver call bounded by effort, with the wall clock as a safety net behind it.

z3's resource limit (``rlimit``, a count of its elementary steps) decides when a call gives up, so
the same call gives up at the same point on any machine (:mod:`symbolic.solve.effort`). The units it
spent are read from z3's resource counter and charged to the caller's :class:`~symbolic.solve.effort.Meter`.

Behind the count, a wall-clock limit: z3's ``timeout``, and a watchdog thread that interrupts the
context a grace period after it (in nonlinear real arithmetic a single step can run far past z3's own
check points). An interruption can only turn an answer into ``unknown``, never into ``sat`` or
``unsat``; a call cut off that way is recorded on the meter, so the result can say that the safety
net, not the effort, ended it.
"""
from __future__ import annotations

import threading
import time

import z3

from symbolic.solve.effort import EFFORT_HINT, SAFETY_HINT, Exhausted, Meter

GRACE = 1.0            # seconds past the safety limit before the watchdog interrupts, at least; a quarter of it at most
SAFETY_SECONDS = 120.0  # the wall-clock safety net of a call that names none
RESOURCE_OUT = "max. resource limit exceeded"   # z3's reason when the rlimit ends a call


def _count(solver) -> int:
    """z3's resource counter of the solver's context (it only grows)."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError):
        return 0


def check_within(solver, units: int, *assumptions, meter: Meter | None = None, safety: float | None = None):
    """``solver.check(*assumptions)`` with at most ``units`` z3 resource units (and no more than
    ``meter`` has left, which is charged with what the call spent); ``safety`` seconds of wall
    clock (or the meter's safety end, whichever is first) as the safety net. Raises
    :class:`~symbolic.solve.effort.Exhausted` when the meter has nothing left before the call."""
    if meter is not None:
        meter.check()
        units = min(units, meter.left())
    seconds = safety if safety is not None else SAFETY_SECONDS
    if meter is not None:
        seconds = min(seconds, max(0.001, meter.seconds_left()))
    solver.set("rlimit", max(1, int(units)))
    solver.set("timeout", max(1, int(1000 * seconds)))
    timer = threading.Timer(seconds + max(GRACE, 0.25 * seconds), solver.ctx.interrupt)
    timer.daemon = True
    before, start = _count(solver), time.monotonic()
    timer.start()
    try:
        r = solver.check(*assumptions)
    finally:
        timer.cancel()
    spent = _count(solver) - before
    # which limit ended an unknown: z3 says "canceled" for both in some tactics, so count and clock decide
    limit = None
    if r == z3.unknown:
        raw = _raw(solver)
        if raw == RESOURCE_OUT or spent >= units:
            limit = "effort"
        elif raw in ("canceled", "timeout") or time.monotonic() - start >= seconds:
            limit = "wall-clock"
    try:
        solver._dpcheck_limit = limit
    except AttributeError:
        pass
    if meter is not None:
        meter.charge(spent)
        if limit == "wall-clock":
            meter.note_safety()
    return r


def _raw(solver) -> str:
    try:
        return solver.reason_unknown()
    except z3.Z3Exception:
        return "unknown"


def cut_by_clock(solver) -> bool:
    """Did the wall clock (not the resource count) end the solver's last call?"""
    limit = getattr(solver, "_dpcheck_limit", None)
    return limit == "wall-clock" if limit is not None else _raw(solver) in ("canceled", "timeout")


def unknown_reason(solver) -> str:
    """The solver's reason for its last ``unknown``, in the tool's words: which limit ended it."""
    limit = getattr(solver, "_dpcheck_limit", None)
    raw = _raw(solver)
    if limit == "effort" or (limit is None and raw == RESOURCE_OUT):
        return f"effort limit (one solver call; {EFFORT_HINT})"
    if limit == "wall-clock" or (limit is None and raw in ("canceled", "timeout")):
        return f"wall-clock safety limit ({SAFETY_HINT})"
    return raw


__all__ = ["check_within", "cut_by_clock", "unknown_reason", "Exhausted"]
