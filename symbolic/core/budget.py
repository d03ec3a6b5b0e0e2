"""A budget of work for a derivation, counted in processor seconds (never for a verdict: verdicts are decided
by the solvers' effort).

`derive level` and `derive map` can run for many minutes on a large table; a :class:`Budget` stops them
and says how far they got. It counts the processor time of this process (``time.process_time``), as the
solvers' effort does (:mod:`symbolic.solve.backends.effort`): processor time does not grow when the machine
is busy, so the same question gets the same answer on a busy machine, only later. The derivation names its
stage (``budget.at("maximising over 9 candidates")``), which compares the processor time spent with the
budget; inside a stage, where the work is a library call (sympy, scipy) with no place to check, the budget,
when entered as a context in the main thread, also sets a processor-time timer (``ITIMER_VIRTUAL``, whose
``SIGVTALRM`` handler raises :class:`BudgetSpent` at the next Python instruction). ``ITIMER_PROF`` is left to
the limits of a user's notion (:mod:`symbolic.graph.user_limits`): a process has one of each timer.

A stage that waits rather than computes spends no processor time; a wall-clock safety net
(``ITIMER_REAL``, :func:`safety_net` seconds, well above the budget) still ends it, and a derivation it
stopped says so: "the wall-clock safety net (N s), not the budget". A budget of 0 stops at the first stage,
whatever the machine's speed.
"""
from __future__ import annotations

import math
import signal
import threading
import time

SAFETY_FACTOR = 10.0    # the wall-clock safety net is this many times the budget ...
SAFETY_EXTRA = 60.0     # ... and at least this many seconds more than the budget
RING_AGAIN = 0.01       # seconds to the next ring when a ring lands inside a destructor


def safety_net(seconds: float) -> float:
    """Wall-clock seconds of the safety net behind a budget of ``seconds`` processor seconds.

    >>> safety_net(5), safety_net(60)
    (65.0, 600.0)
    """
    return max(SAFETY_FACTOR * seconds, seconds + SAFETY_EXTRA)


class BudgetSpent(Exception):
    """The budget of a derivation ran out; ``where``: the stage the derivation had reached; ``safety``: the
    wall-clock safety net's seconds when it, not the budget, stopped the derivation (else None).

    >>> str(BudgetSpent(5, "estimating at n = 2"))
    'stopped by the budget (5 processor seconds) while estimating at n = 2'
    >>> str(BudgetSpent(5, "proving", safety=65))
    'stopped by the wall-clock safety net (65 s), not the budget (5 processor seconds), while proving'
    """

    def __init__(self, seconds, where, safety=None):
        if safety is None:
            text = f"stopped by the budget ({seconds:g} processor seconds) while {where}"
        else:
            text = (f"stopped by the wall-clock safety net ({safety:g} s), not the budget "
                    f"({seconds:g} processor seconds), while {where}")
        super().__init__(text)
        self.seconds, self.where, self.safety = seconds, where, safety


def _in_destructor(frame, depth: int = 8) -> bool:
    """Whether the interrupted code runs inside a ``__del__`` (z3 frees its contexts there)."""
    while frame is not None and depth > 0:
        if frame.f_code.co_name == "__del__":
            return True
        frame, depth = frame.f_back, depth - 1
    return False


class Budget:
    """``seconds`` processor seconds of this process from now (None: no limit), with a wall-clock safety net
    of ``safety`` seconds (default :func:`safety_net` of ``seconds``). Not a frozen value: it counts.

    >>> b = Budget(0)
    >>> try:
    ...     b.at("reading the table")
    ... except BudgetSpent as e:
    ...     print(e)
    stopped by the budget (0 processor seconds) while reading the table
    >>> import time
    >>> with Budget(0.2) as b:
    ...     time.sleep(0.3)          # waiting is not work
    ...     b.at("after a nap")
    >>> b.remaining() > 0.1
    True
    """

    def __init__(self, seconds=None, *, safety=None):
        self.seconds = seconds
        self.end = None if seconds is None else time.process_time() + seconds
        self.safety = None if seconds is None else (safety_net(seconds) if safety is None else safety)
        self.safety_end = None if seconds is None else time.monotonic() + self.safety
        self.where = "starting"
        self._old = None        # (SIGVTALRM's, SIGALRM's) handlers before this budget's, while its timers are set
        self._rang = None       # once a timer has rung: "budget" or "safety"

    def at(self, where: str) -> None:
        """Enter the stage ``where``; stop here if the budget (or the safety net) is spent."""
        self.where = where
        self.check()

    def check(self) -> None:
        if self.end is None:
            return
        if time.process_time() >= self.end:
            raise self._spent("budget")
        if time.monotonic() >= self.safety_end:
            raise self._spent("safety")

    def remaining(self) -> float:
        """Processor seconds left."""
        return math.inf if self.end is None else max(0.0, self.end - time.process_time())

    def safety_remaining(self) -> float:
        """Wall-clock seconds left to the safety net."""
        return math.inf if self.end is None else max(0.0, self.safety_end - time.monotonic())

    def _spent(self, kind: str) -> BudgetSpent:
        return BudgetSpent(self.seconds, self.where, self.safety if kind == "safety" else None)

    def _ring(self, signum, frame):
        if self._old is None:       # rung while the timers were being stopped: the context is over
            return
        timer = signal.ITIMER_VIRTUAL if signum == signal.SIGVTALRM else signal.ITIMER_REAL
        if _in_destructor(frame):   # an exception there is only printed ("Exception ignored"): ring again soon
            signal.setitimer(timer, RING_AGAIN)
            return
        if timer == signal.ITIMER_VIRTUAL and self.remaining() > 0:   # the timer's tick-sampled count ran ahead
            signal.setitimer(timer, max(self.remaining(), 1e-3))
            return
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)   # one ring is enough: no timer outlives a spent budget
        signal.setitimer(signal.ITIMER_REAL, 0)
        self._rang = "budget" if timer == signal.ITIMER_VIRTUAL else "safety"
        raise self._spent(self._rang)

    def _arm(self) -> None:
        # ITIMER_VIRTUAL counts user time only (process_time adds system time): a ring is checked against the count
        signal.setitimer(signal.ITIMER_VIRTUAL, max(self.remaining(), 1e-3))
        signal.setitimer(signal.ITIMER_REAL, max(self.safety_remaining(), 1e-3))

    def __enter__(self):
        if (self.end is not None and self.seconds > 0 and hasattr(signal, "setitimer")
                and threading.current_thread() is threading.main_thread()):
            self._old = (signal.signal(signal.SIGVTALRM, self._ring), signal.signal(signal.SIGALRM, self._ring))
            self._arm()
        return self

    def __exit__(self, exc_type, exc, tb):
        """Stop the timers (a budget this one was nested in has its own set again). Once a timer has rung, the
        context always ends in :class:`BudgetSpent`: the exception it raised may have surfaced wrapped (ctypes
        turns it into an ``ArgumentError`` when it lands while z3's arguments are converted) or been caught
        and replaced on the way, and work it interrupted is not a result.

        >>> try:
        ...     with Budget(0.01):
        ...         try:
        ...             while True:
        ...                 pass
        ...         except BudgetSpent:
        ...             raise ValueError("wrapped on the way")
        ... except BudgetSpent as e:
        ...     print(type(e).__name__, type(e.__cause__).__name__)
        BudgetSpent ValueError
        """
        if self._old is not None:
            old_virtual, old_alarm = self._old
            self._old = None
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGVTALRM, signal.SIG_DFL if old_virtual is None else old_virtual)
            signal.signal(signal.SIGALRM, signal.SIG_DFL if old_alarm is None else old_alarm)
            outer = getattr(old_virtual, "__self__", None)
            if isinstance(outer, Budget) and outer._old is not None:
                outer._arm()
        if self._rang is not None and not isinstance(exc, BudgetSpent):
            raise self._spent(self._rang) from exc
        return False
