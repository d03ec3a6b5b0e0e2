"""What the code of a user's own notion may spend while it runs (``FILE.py:NAME``, :mod:`symbolic.graph.user`).

The user's body is code, and it can loop: it runs under the command's limits like the rest of the work.
Its processor time is counted (``time.process_time``, with a ``SIGPROF`` timer while it runs, as
effort is: the answer does not depend on the machine's load) against an :class:`Account` made when the
notion is loaded from a :class:`UserLimit`; a call that does not end by processor time (a body that
sleeps, or waits) is ended by a wall-clock safety net (``SIGALRM``; or the one the command has set
already, e.g. a derivation budget's). Either ends in :class:`UserLimitReached`: one line naming
the notion, its file, the limit and the option that raises it; the command's answer is then unknown
(exit 1), never a verdict. Timers are set in the main thread only; elsewhere the time is charged after
each call, and a call made once the account is spent is refused.
"""
from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass

from symbolic.core.errors import DPCheckError

USER_CPU_SECONDS = 120.0   # processor seconds of a user's code at effort ci: what one claim part's effort allows
RING_AGAIN = 0.02          # seconds to the next ring once rung: code that catches the first one is stopped again


class UserLimitReached(DPCheckError):
    """A user's notion spent what its code may spend: not an input error, the answer is unknown (exit 1)."""

    exit_code = 1


class _Rung(BaseException):
    """Raised into the user's code by a timer: not an ``Exception``, so code that catches those does not hold it;
    :meth:`Account.run` turns it into :class:`UserLimitReached`."""


@dataclass(frozen=True)
class UserLimit:
    """What the code of a user's notion may spend: ``cpu`` processor seconds in all (every call of its
    body), raised by ``cpu_option``; ``wall`` wall-clock seconds for one call (a safety net; None: only the
    command's own), raised by ``wall_option``.

    >>> UserLimit.at_effort(2, wall=120.0).cpu
    240.0
    """

    cpu: float
    cpu_option: str = "--effort"
    wall: float | None = None
    wall_option: str = "--timeout"

    @classmethod
    def at_effort(cls, factor, *, wall: float | None, wall_option: str = "--timeout") -> "UserLimit":
        """The limit at an effort level, ``factor`` times ci (:class:`~symbolic.solve.backends.settings.Settings`
        ``factor``); the option that raises it is a doubled ``--effort``."""
        f = float(factor)
        return cls(USER_CPU_SECONDS * f, f"--effort (e.g. --effort {2 * f:g})", wall, wall_option)

    @classmethod
    def of_settings(cls, settings, *, wall_option: str = "--timeout") -> "UserLimit":
        """The limit at ``settings``' effort level, with its ``timeout`` (one solver call) as the wall-clock net."""
        return cls.at_effort(settings.factor, wall=settings.timeout, wall_option=wall_option)


def graph_limit(settings) -> UserLimit:
    """The limit of a user's notion in one pair of ``dpcheck graph`` (its settings from ``graph_settings(budget)``):
    the processor seconds the pair's effort allows, and the pair's wall-clock net; ``--budget`` raises both."""
    from symbolic.solve.backends.effort import CPU_SLACK, UNITS_PER_SECOND
    budget = settings.effort / UNITS_PER_SECOND
    return UserLimit(CPU_SLACK * budget, f"--budget (e.g. --budget {2 * budget:g})", settings.timeout, "--budget")


def _ours(handler) -> bool:
    return isinstance(getattr(handler, "__self__", None), Account)


class Account:
    """What the code of one loaded notion has spent, against its :class:`UserLimit`. Not a frozen value: it
    counts. :meth:`run` runs one call of the body under the limits.

    >>> a = Account(UserLimit(0.05), "Spin", "spin.py")
    >>> try:
    ...     a.run(lambda: [0 for _ in iter(int, 1)])
    ... except UserLimitReached as e:
    ...     print(str(e)[:65])
    spin.py: the notion Spin used the processor time its code may use
    """

    def __init__(self, limit: UserLimit, name: str, where: str):
        self.limit, self.name, self.where = limit, name, where
        self.spent = 0.0          # processor seconds charged
        self.hit = None           # the message once a limit is reached: every later call is refused with it
        self._depth = 0
        self._armed = False

    def message(self, kind: str) -> str:
        lim = self.limit
        if kind == "cpu":
            return (f"{self.where}: the notion {self.name} used the processor time its code may use "
                    f"({lim.cpu:g} s): raise it with {lim.cpu_option}")
        return (f"{self.where}: the notion {self.name} ran past one call's wall-clock time limit ({lim.wall:g} s, "
                f"a safety net, not effort): raise it with {lim.wall_option}")

    def _reach(self, kind: str) -> UserLimitReached:
        if self.hit is None:
            self.hit = self.message(kind)
        return UserLimitReached(self.hit)

    def _ring(self, signum, frame):
        if not self._armed:   # rung while the timers were being stopped: the call is over
            return
        signal.setitimer(signal.ITIMER_PROF if signum == signal.SIGPROF else signal.ITIMER_REAL, RING_AGAIN)
        self._reach("cpu" if signum == signal.SIGPROF else "wall")
        raise _Rung(self.hit)

    def run(self, call):
        """``call()`` under the limits: its processor time charged here; :class:`UserLimitReached` once the
        account is spent or the call outlasts the wall-clock net. A call from inside a call (the body calling
        itself, or another notion's) runs under the timers already set."""
        if self.hit is not None:
            raise UserLimitReached(self.hit)
        if self.spent >= self.limit.cpu:
            raise self._reach("cpu")
        if self._depth:
            return call()
        arm = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
               and not _ours(signal.getsignal(signal.SIGPROF)))
        old_prof = old_alarm = False   # False: not replaced (a handler set outside Python reads as None)
        self._depth += 1
        t0 = time.process_time()
        try:
            if arm:
                old_prof = signal.signal(signal.SIGPROF, self._ring)
                # a net already set (a derivation budget's) stays: it ends the call too, with its own message
                if self.limit.wall is not None and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0):
                    old_alarm = signal.signal(signal.SIGALRM, self._ring)
                    signal.setitimer(signal.ITIMER_REAL, max(self.limit.wall, 1e-3))
                self._armed = True
                signal.setitimer(signal.ITIMER_PROF, max(self.limit.cpu - self.spent, 1e-3))
            return call()
        finally:
            self._armed = False
            if old_prof is not False:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.signal(signal.SIGPROF, signal.SIG_DFL if old_prof is None else old_prof)
            if old_alarm is not False:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, signal.SIG_DFL if old_alarm is None else old_alarm)
            self._depth -= 1
            self.spent += time.process_time() - t0
            if self.hit is not None:   # rung: the call ends so, whatever the user's code did with the exception
                raise UserLimitReached(self.hit) from None


def reached(*notions) -> str | None:
    """The message of the first of ``notions`` (loaded user notions, or any) whose code reached its limit,
    else None. A command asks after its run: an engine step that treats a failing body as "not evaluable"
    may have gone on, and its answer is then not one to give."""
    for nt in notions:
        account = getattr(getattr(nt, "body", None), "account", None)
        if account is not None and account.hit is not None:
            return account.hit
    return None


def check_reached(*notions) -> None:
    """Raise :class:`UserLimitReached` if one of ``notions`` reached its limit (:func:`reached`).

    >>> from symbolic.api import PureDP
    >>> check_reached(PureDP) is None      # a listed notion keeps no account: nothing is raised
    True
    """
    hit = reached(*notions)
    if hit is not None:
        raise UserLimitReached(hit)
