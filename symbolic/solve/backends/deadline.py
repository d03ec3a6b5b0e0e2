"""A solver call bounded by effort, with the wall clock as a safety net behind it.

z3's resource limit (``rlimit``, a count of its elementary steps) decides when a call gives up, so
the same call gives up at the same point on any machine (:mod:`symbolic.solve.backends.effort`). The units it
spent are read from z3's resource counter and charged to the caller's :class:`~symbolic.solve.backends.effort.Meter`.

The count alone is not enough: some of z3's procedures (nlsat) advance it slowly, so a call is also
bounded by the processor time of the thread that solves, at :data:`~symbolic.solve.backends.effort.UNITS_PER_SECOND`
/ :data:`~symbolic.solve.backends.effort.CPU_SLACK` units a second; processor time does not grow when the machine is busy. A watchdog thread looks at it
and interrupts the context when it is spent.

Behind both, a wall-clock limit: the same watchdog interrupts the context a grace period after the
safety seconds (in nonlinear real arithmetic a single step can run far past z3's own check points). An interruption can only turn an answer into ``unknown``, never into ``sat`` or
``unsat``; a call cut off that way is recorded on the meter, so the result can say that the safety
net, not the effort, ended it.
"""
from __future__ import annotations

import threading
import time

import z3

from symbolic.solve.backends.effort import CPU_SLACK, EFFORT_HINT, SAFETY_HINT, UNITS_PER_SECOND, Exhausted, Meter

GRACE = 1.0            # seconds past the safety limit before the watchdog interrupts, at least; a quarter of it at most
SAFETY_SECONDS = 120.0  # the wall-clock safety net of a call that names none
RESOURCE_OUT = "max. resource limit exceeded"   # z3's reason when the rlimit ends a call
POLL = 0.02             # seconds between two looks of the watchdog at the processor time and the clock
MIN_CPU = 0.25          # processor seconds a call may always take: below that the step count alone decides


def _count(solver) -> int:
    """z3's resource counter of the solver's context (it only grows)."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError):
        return 0


def check_within(solver, units: int, *assumptions, meter: Meter | None = None, safety: float | None = None):
    """``solver.check(*assumptions)`` with at most ``units`` z3 resource units and ``CPU_SLACK · units /
    UNITS_PER_SECOND`` seconds of the calling thread's processor time (at least :data:`MIN_CPU`) (no more than ``meter`` has left,
    which is charged with what the call spent; the meter's own ``cpu_slack`` replaces ``CPU_SLACK``, as in
    minimisation, where the step count alone should decide); ``safety`` seconds of wall clock (or the meter's safety
    end, whichever is first) as the safety net. Raises :class:`~symbolic.solve.backends.effort.Exhausted` when
    the meter has nothing left before the call."""
    if meter is not None:
        meter.check()
        units = min(units, meter.left())
    units = max(1, int(units))
    seconds = safety if safety is not None else SAFETY_SECONDS
    if meter is not None:
        seconds = min(seconds, max(0.001, meter.seconds_left()))
    cpu_limit = max(MIN_CPU, (CPU_SLACK if meter is None else meter.cpu_slack) * units / UNITS_PER_SECOND)
    solver.set("rlimit", units)
    solver.set("timeout", max(1, int(1000 * seconds)))
    cut = []
    done = threading.Event()
    clock = _thread_clock()
    cpu0, start = _cpu(clock), time.monotonic()
    wall_end = start + seconds + max(GRACE, 0.25 * seconds)

    def watch():   # processor time of the solving thread (effort), the wall clock behind it (safety)
        while not done.wait(POLL):
            if clock is not None and _cpu(clock) - cpu0 > cpu_limit:
                cut.append("effort")
                solver.ctx.interrupt()
                return
            if time.monotonic() > wall_end:
                cut.append("wall-clock")
                solver.ctx.interrupt()
                return
    watchdog = threading.Thread(target=watch, daemon=True)
    before = _count(solver)
    watchdog.start()
    try:
        r = solver.check(*assumptions)
    finally:
        done.set()
        watchdog.join()
    spent, cpu = _count(solver) - before, _cpu(clock) - cpu0
    # which limit ended an unknown: z3 says "canceled" for several, so the counts and the clock decide
    limit = None
    if r == z3.unknown:
        raw = _raw(solver)
        if cut:
            limit = cut[0]
        elif raw == RESOURCE_OUT or spent >= units:
            limit = "effort"
        elif raw in ("canceled", "timeout") or time.monotonic() - start >= seconds:
            limit = "wall-clock"
    try:
        solver._dpcheck_limit = limit
    except AttributeError:
        pass
    if meter is not None:
        meter.charge(spent, cpu)
        if limit == "wall-clock":
            meter.note_safety()
    return r


def _thread_clock():
    """The processor-time clock of the calling thread, or None where there is none."""
    try:
        return time.pthread_getcpuclockid(threading.get_ident())
    except (AttributeError, OSError):
        return None


def _cpu(clock) -> float:
    if clock is None:
        return time.thread_time()
    try:
        return time.clock_gettime(clock)
    except OSError:
        return 0.0


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
