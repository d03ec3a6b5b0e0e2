"""A wall-clock budget for a derivation (never for a verdict: verdicts are decided by effort).

`derive level` and `derive map` can run for many minutes on a large table; a :class:`Budget` stops them
and says how far they got. The derivation names its stage (``budget.at("maximising over 9 candidates")``),
which checks the clock; inside a stage, where the work is a library call (sympy, scipy) with no place to
check, the budget, when entered as a context in the main thread, also sets a timer (``SIGALRM``) whose
handler raises :class:`BudgetSpent` at the next Python instruction. A budget of 0 stops at the first
stage, whatever the machine's speed.
"""
from __future__ import annotations

import math
import signal
import threading
import time


class BudgetSpent(Exception):
    """The time budget of a derivation ran out; ``where``: the stage the derivation had reached.

    >>> str(BudgetSpent(5, "estimating at n = 2"))
    'stopped by the time budget (5 s) while estimating at n = 2'
    """

    def __init__(self, seconds, where):
        super().__init__(f"stopped by the time budget ({seconds:g} s) while {where}")
        self.seconds, self.where = seconds, where


def _in_destructor(frame, depth: int = 8) -> bool:
    """Whether the interrupted code runs inside a ``__del__`` (z3 frees its contexts there)."""
    while frame is not None and depth > 0:
        if frame.f_code.co_name == "__del__":
            return True
        frame, depth = frame.f_back, depth - 1
    return False


class Budget:
    """``seconds`` of wall-clock time from now (None: no limit).

    >>> b = Budget(0)
    >>> try:
    ...     b.at("reading the table")
    ... except BudgetSpent as e:
    ...     print(e)
    stopped by the time budget (0 s) while reading the table
    """

    def __init__(self, seconds=None):
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds
        self.where = "starting"
        self._old = None
        self._rang = False

    def at(self, where: str) -> None:
        """Enter the stage ``where``; stop here if the time is spent."""
        self.where = where
        self.check()

    def check(self) -> None:
        if self.end is not None and time.monotonic() >= self.end:
            raise BudgetSpent(self.seconds, self.where)

    def remaining(self) -> float:
        return math.inf if self.end is None else max(0.0, self.end - time.monotonic())

    def _ring(self, signum, frame):
        if _in_destructor(frame):   # an exception there is only printed ("Exception ignored"): ring again soon
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            return
        self._rang = True
        raise BudgetSpent(self.seconds, self.where)

    def __enter__(self):
        if (self.end is not None and self.seconds > 0 and hasattr(signal, "setitimer")
                and threading.current_thread() is threading.main_thread()):
            self._old = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, max(self.remaining(), 1e-3))
        return self

    def __exit__(self, exc_type, exc, tb):
        """Stop the timer. Once it has rung, the context always ends in :class:`BudgetSpent`: the exception
        it raised may have surfaced wrapped (ctypes turns it into an ``ArgumentError`` when it lands while
        z3's arguments are converted) or been caught and replaced on the way, and work it interrupted is
        not a result.

        >>> import time
        >>> try:
        ...     with Budget(0.01):
        ...         try:
        ...             while True:
        ...                 time.sleep(0.001)
        ...         except BudgetSpent:
        ...             raise ValueError("wrapped on the way")
        ... except BudgetSpent as e:
        ...     print(type(e).__name__, type(e.__cause__).__name__)
        BudgetSpent ValueError
        """
        if self._old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
            self._old = None
        if self._rang and not isinstance(exc, BudgetSpent):
            raise BudgetSpent(self.seconds, self.where) from exc
        return False
