"""Search settings: time limits per query and per claim, CEGIS rounds, minimisation, the second solver."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Settings:
    """Search settings; named profiles: quick, ci, thorough.

    >>> Settings().budget, Settings.profile("quick").timeout, Settings(second_solver=False).second_solver
    (60.0, 10, False)
    """

    timeout: float = 20.0          # seconds for one solver call
    budget: float = 60.0           # seconds for one claim
    refute_values: tuple = (2, Fraction(3, 2), 3)
    structured: bool = True
    minimise: bool = True
    minimise_seconds: float = 10.0
    cegis_rounds: int = 60
    split: bool = True
    cheap_timeout: float = 0.5    # seconds per query while refuting cheaply
    second_solver: bool = True    # cvc5 re-decides every query a proof rests on
    second_timeout: float = 8.0   # seconds per query for the second solver
    second_budget: float = 20.0   # seconds for the second solver on one claim
    hockey: bool = False          # hockey-stick sums as events / bounds in the encoding (symbolic.solve.hockey);
                                  # off by default: measured slower on additive-secrecy composition
    stop_at: float | None = None  # a hard stop for the whole run (time.monotonic() value), or None
    argument_ranges: bool = False # keep every notion argument inside its range in the query (set by the
                                  # search after a candidate failed re-verification for that reason)

    def until(self, t: float) -> float:
        """``t``, or the hard stop if that comes first."""
        return t if self.stop_at is None else min(t, self.stop_at)

    @classmethod
    def profile(cls, name: str) -> "Settings":
        from symbolic.core.errors import UnknownName
        table = {"quick": cls(timeout=10, budget=20, minimise_seconds=5),
                 "ci": cls(),
                 "thorough": cls(timeout=120, budget=600, minimise_seconds=60)}
        if name not in table:
            raise UnknownName(f"no settings profile {name!r}; profiles: {', '.join(table)}")
        return table[name]
