"""Search settings: the effort a question may spend (which decides verdicts), and the wall-clock safety net.

Effort is counted in z3 resource units (:mod:`symbolic.solve.backends.effort`) and loop counts, so a verdict does
not depend on the machine or its load. ``timeout`` and ``budget`` are wall-clock seconds: a safety net
well above the normal time, never what decides a verdict on a working machine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from symbolic.solve.backends.effort import cvc5_units, units

LEVELS = {"quick": Fraction(1, 3), "ci": Fraction(1), "thorough": Fraction(10)}   # effort levels, as multiples of ci


@dataclass(frozen=True)
class Settings:
    """Search settings; named effort levels: quick, ci, thorough (:meth:`profile`), or any multiple of
    ci (:meth:`at_effort`).

    Effort (decides verdicts): ``query_effort`` z3 units for one solver call, ``effort`` for one claim
    part (every size of its grid, every route, CEGIS and the vacuity witness), ``cheap_effort`` for one
    query of the cheap refutation sweep, ``minimise_effort`` for minimising a counterexample,
    ``cegis_rounds`` refinements; for cvc5, ``second_query_effort`` units a query and ``second_effort``
    for every query of one proof, and ``second_cpu`` processor seconds a query (cvc5 does not look at its
    count inside some procedures).

    Safety net (wall clock, seconds): ``timeout`` for one solver call, ``budget`` for one claim part,
    ``stop_at`` a hard stop for the whole run.

    >>> s = Settings(); (s.query_effort, s.effort, s.timeout, s.budget)
    (20000000, 60000000, 120.0, 900.0)
    >>> Settings.profile("quick").effort, Settings.at_effort(4).query_effort
    (20000000, 80000000)
    """

    query_effort: int = units(20)      # z3 units for one solver call
    effort: int = units(60)            # z3 units for one claim part
    cheap_effort: int = units(0.25)    # z3 units a query while refuting cheaply (a quarter of a second: the
                                       # audit's z3 work 126 → 108 claim-seconds against one second, the same
                                       # verdicts and counterexamples; posteriors stay nonlinear at fixed values)
    minimise_effort: int = units(10)   # z3 units for minimising one counterexample
    cegis_rounds: int = 60
    second_query_effort: int = cvc5_units(8)   # cvc5 units for one query of the second solver
    second_effort: int = cvc5_units(100)       # cvc5 units for every query of one proof
    second_cpu: float = 8.0       # processor seconds of one cvc5 query (its step count is not honoured everywhere;
                                  # processor time, unlike the wall clock, does not grow with the machine's load)
    timeout: float = 120.0        # wall-clock safety net of one solver call (seconds)
    budget: float = 900.0         # wall-clock safety net of one claim part (seconds)
    second_timeout: float = 60.0  # wall-clock safety net of one cvc5 query (seconds)
    second_workers: int | None = None   # cvc5 processes at once for one proof (None: one a core, at most 2); the
                                        # answer does not depend on it (the audit, a claim a core, sets 1)
    refute_values: tuple = (2, Fraction(3, 2), 3)
    family_levels: tuple = (10, 1000)   # the graph's levels E of B at which a family separation's tables are checked
    structured: bool = True
    minimise: bool = True
    split: bool = True
    second_solver: bool = True    # cvc5 re-decides every query a proof rests on
    hockey: bool = False          # hockey-stick sums as events / bounds in the encoding (symbolic.solve.queries.hockey);
                                  # off by default: measured slower on additive-secrecy composition
    stop_at: float | None = None  # a hard stop for the whole run (time.monotonic() value), or None
    argument_ranges: bool = False # keep every notion argument inside its range in the query (set by the
                                  # search after a candidate failed re-verification for that reason)
    level: str = "ci"             # the effort level's name, for reasons and reports

    def until(self, t: float) -> float:
        """``t``, or the hard stop if that comes first."""
        return t if self.stop_at is None else min(t, self.stop_at)

    def capped(self, seconds: float) -> "Settings":
        """These settings with one solver call held to ``seconds`` nominal seconds of effort at most
        (a short leash for a first try; scaled with the effort level)."""
        return replace(self, query_effort=min(self.query_effort, self.scale(units(seconds))))

    def scale(self, n: int) -> int:
        """``n`` units (written for the ci level) at this level."""
        return max(1, int(n * self.factor))

    @property
    def factor(self) -> Fraction:
        """This level as a multiple of ci (from the part's effort)."""
        return Fraction(self.effort, Settings.effort)

    @classmethod
    def at_effort(cls, factor, **changes) -> "Settings":
        """The ci settings with every effort multiplied by ``factor`` (a positive number)."""
        f = Fraction(factor)
        if not (f > 0 and math.isfinite(float(f))):
            raise ValueError(f"an effort factor is a positive number, not {factor!r}")
        base = cls()
        name = next((k for k, v in LEVELS.items() if v == f), f"{float(f):g}x ci")
        return replace(base, query_effort=int(base.query_effort * f), effort=int(base.effort * f),
                       cheap_effort=int(base.cheap_effort * f), minimise_effort=int(base.minimise_effort * f),
                       second_query_effort=int(base.second_query_effort * f),
                       second_effort=int(base.second_effort * f), second_cpu=float(base.second_cpu * f),
                       level=name, **changes)

    def confirming(self, factor) -> "Settings":
        """These settings with the second solver's limits multiplied by ``factor`` (a positive number): its
        cvc5 units a query and a proof (the counts) and its processor and wall-clock seconds a query.

        >>> s = Settings().confirming(4); (s.second_query_effort, s.second_effort, s.second_cpu, s.second_timeout)
        (960000, 12000000, 32.0, 240.0)
        >>> s.query_effort == Settings().query_effort
        True
        """
        try:
            f = Fraction(factor)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            f = Fraction(0)
        if not f > 0:
            raise ValueError(f"a confirmation effort is a positive number, not {factor!r}")
        return replace(self, second_query_effort=max(1, int(self.second_query_effort * f)),
                       second_effort=max(1, int(self.second_effort * f)), second_cpu=float(self.second_cpu * f),
                       second_timeout=float(self.second_timeout * f))

    @staticmethod
    def level_names() -> tuple:
        """The names of the effort levels: ('quick', 'ci', 'thorough')."""
        return tuple(LEVELS)

    @classmethod
    def named(cls, text) -> "Settings":
        """The effort level ``text``: a level's name, or a positive number (a multiple of ci) as text."""
        if str(text) in LEVELS:
            return cls.profile(str(text))
        try:
            f = Fraction(str(text))
        except (ValueError, ZeroDivisionError):
            return cls.profile(str(text))   # the unknown-name error, with the levels
        return cls.at_effort(f)

    @classmethod
    def profile(cls, name: str) -> "Settings":
        """The named effort level (quick, ci, thorough)."""
        from symbolic.core.errors import UnknownName
        if name not in LEVELS:
            raise UnknownName(f"no effort level {name!r}; levels: {', '.join(LEVELS)} (or a number: a multiple of ci)")
        return cls.at_effort(LEVELS[name])
