"""Effort: what a question may spend, counted in work, so that a verdict is a fact about the question.

Every z3 call is bounded by z3's resource limit (``rlimit``: a count of the solver's elementary
steps, the same on any machine and under any load) and by the processor time of the thread that
solves (some of z3's procedures, nlsat among them, advance the count slowly: 10^5 steps a second
against 10^6 elsewhere; processor time, unlike the wall clock, does not grow when the machine is
busy). What a call spent is charged to the :class:`Meter` of the claim part it serves; every loop of
the engine is bounded by a count. So the same question asked with the
same effort gets the same answer on an idle machine and on a busy one, only later on the busy one.
This is how program verifiers keep their verdicts stable (Dafny's ``--resource-limit``, F*'s
``--z3rlimit``, Verus' ``rlimit``).

Wall-clock limits stay behind the counts as a safety net, set well above the normal time (a query
that stops counting, say inside one long polynomial step, still ends). A result cut off by the
safety net says so: its reason names the ``wall-clock safety limit`` and the option that raises it,
as a result cut off by effort names the ``effort limit`` and ``--effort``.

Units. One *unit* is one step of z3's resource counter. Settings are written as nominal seconds
times :data:`UNITS_PER_SECOND`, the fastest rate measured on this engine's queries on one core (from
10^5 to 10^6 units a second by query). ``n`` units also allow ``CPU_SLACK · n / UNITS_PER_SECOND``
seconds of processor time: a query that counts fast stops at its count (exactly reproducible), one that counts
slowly at its processor time (reproducible under any load, to the timer's resolution). cvc5 counts
its own resource units (:data:`CVC5_UNITS_PER_SECOND`), with processor seconds in its child process.
"""
from __future__ import annotations

import threading
import time

UNITS_PER_SECOND = 1_000_000        # z3 resource units in a nominal second of solving
CPU_SLACK = 2.0                     # processor seconds a nominal second allows: the step count decides first wherever
                                    # z3 counts at least half as fast as the nominal rate (a busy sibling core can
                                    # slow a processor second down; a count of steps does not change)
CVC5_UNITS_PER_SECOND = 30_000      # cvc5 resource units in a nominal second of solving (its coverings count coarsely)
EFFORT_HINT = "raise it with --effort (e.g. --effort thorough or --effort 4)"
SAFETY_HINT = "a wall-clock safety limit, not effort: raise it with --timeout"


def units(seconds: float) -> int:
    """z3 resource units for ``seconds`` nominal seconds (at least 1).

    >>> units(2), units(0.5)
    (2000000, 500000)
    """
    return max(1, int(round(seconds * UNITS_PER_SECOND)))


def cvc5_units(seconds: float) -> int:
    """cvc5 resource units for ``seconds`` nominal seconds (at least 1)."""
    return max(1, int(round(seconds * CVC5_UNITS_PER_SECOND)))


class Exhausted(Exception):
    """The meter has nothing left: ``limit`` is "effort" or "wall-clock"."""

    def __init__(self, limit: str, text: str):
        super().__init__(text)
        self.limit, self.text = limit, text


class Meter:
    """The effort account of one question: z3 units spent against ``limit`` and a wall-clock safety end.

    A meter may have a parent (:meth:`sub`): what the child spends is charged to the parent too, and
    the child has at most what the parent has left. Not a frozen value: it counts.

    >>> m = Meter(1000, safety=60.0)
    >>> m.charge(400); m.left()
    600
    >>> m.charge(0, cpu=0.001); m.left()     # 0.001 s of processor time counts as 500 units
    500
    >>> r = m.sub(100); r.charge(150); (r.left(), m.left())
    (0, 450)
    >>> r.exhausted(), m.exhausted()
    (True, False)
    """

    def __init__(self, limit: int, *, safety: float | None = None, safety_end: float | None = None,
                 parent: "Meter | None" = None, name: str = "part", cpu_slack: float = CPU_SLACK):
        self.limit, self.spent, self.parent, self.name = int(limit), 0, parent, name
        self.cpu_slack = cpu_slack   # processor seconds a nominal second of this account allows
        end = safety_end if safety_end is not None else (
            time.monotonic() + safety if safety is not None else float("inf"))
        self.safety_end = min(end, parent.safety_end) if parent is not None else end
        self.safety_hits = 0   # queries or loops cut off by the wall clock (not by effort)
        self.cpu = 0.0         # processor seconds its solver calls took
        self._lock = threading.Lock()

    # --- accounts --------------------------------------------------------------------------------
    def sub(self, limit: int, name: str = "route") -> "Meter":
        """A nested account of at most ``limit`` units (and what this one has left)."""
        return Meter(limit, safety_end=self.safety_end, parent=self, name=name, cpu_slack=self.cpu_slack)

    def charge(self, n: int, cpu: float = 0.0) -> None:
        """Count ``n`` units and ``cpu`` processor seconds as spent here and in every parent."""
        m = self
        while m is not None:
            with m._lock:
                m.spent += max(0, int(n))
                m.cpu += max(0.0, cpu)
            m = m.parent

    def note_safety(self) -> None:
        """Record that the wall clock cut something off (here and in every parent)."""
        m = self
        while m is not None:
            m.safety_hits += 1
            m = m.parent

    def left(self) -> int:
        """Units left: this account's and every parent's, whichever is least (never negative); processor
        time counts too, at :data:`UNITS_PER_SECOND` / ``cpu_slack`` units a second (:data:`CPU_SLACK` unless set)."""
        m, out = self, None
        while m is not None:
            rest = min(m.limit - m.spent, int(m.limit - m.cpu * UNITS_PER_SECOND / m.cpu_slack))
            out = rest if out is None else min(out, rest)
            m = m.parent
        return max(0, out)

    def seconds_left(self) -> float:
        """Wall-clock seconds to the safety end."""
        return self.safety_end - time.monotonic()

    def out_of_time(self) -> bool:
        return self.seconds_left() <= 0

    def exhausted(self) -> bool:
        """No effort or no safety time left."""
        return self.left() <= 0 or self.out_of_time()

    def check(self) -> None:
        """Raise :class:`Exhausted` (saying which limit) when nothing is left."""
        if self.left() <= 0:
            raise Exhausted("effort", self.effort_reason())
        if self.out_of_time():
            self.note_safety()
            raise Exhausted("wall-clock", self.safety_reason())

    def reason(self) -> str:
        """Why this account stopped: the effort limit or the safety net."""
        return self.effort_reason() if self.left() <= 0 else self.safety_reason()

    def effort_reason(self) -> str:
        top = self
        while top.parent is not None and top.limit - top.spent > 0:
            top = top.parent
        return (f"effort limit ({top.name}: {top.limit:,} z3 units or {top.cpu_slack * top.limit / UNITS_PER_SECOND:g} "
                f"processor seconds spent; {EFFORT_HINT})")

    def safety_reason(self) -> str:
        return f"wall-clock safety limit ({SAFETY_HINT})"
