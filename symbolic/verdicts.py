"""Verdicts are values: Proved, Refuted, Unknown, Derived."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Sizes:
    """Sizes at which a claim is checked: n data points, |𝒟| values, |𝒪| outputs."""

    n: int
    domain: int
    outputs: int

    def __post_init__(self):
        from .mechanism import check_sizes
        check_sizes(self.n, self.domain, self.outputs)

    def as_tuple(self):
        return (self.n, self.domain, self.outputs)

    def as_dict(self):
        return {"n": self.n, "domain": self.domain, "outputs": self.outputs}

    def __str__(self):
        return f"n={self.n}, |D|={self.domain}, |O|={self.outputs}"


@dataclass(frozen=True)
class Counterexample:
    """Exact witnesses: mechanisms (name -> Mechanism, or family/kernel tables), populations
    (name -> Population), parameter values, and which instance of which notion fails."""

    sizes: Sizes
    mechanisms: dict
    populations: dict
    parameters: dict
    violated: str
    implication: str = ""

    def pretty(self) -> str:
        from .report import counterexample_text
        return counterexample_text(self)


@dataclass(frozen=True)
class Proved:
    """No counterexample exists at any of the sizes in ``sizes_proved``, for every parameter
    value in range (parameters symbolic, not sampled). ``bounds`` is the largest of them."""

    bounds: Sizes
    sizes_proved: tuple
    certificate: dict = field(default_factory=dict)
    name = "proved"

    @property
    def note(self):
        return f"proved within bounds ({self.bounds}; {len(self.sizes_proved)} sizes)"


@dataclass(frozen=True)
class Refuted:
    """A counterexample, re-verified by exact evaluation of the notions in sympy."""

    counterexample: Counterexample
    verified_exactly: bool
    minimal: bool
    sizes_searched: tuple = ()
    note: str = ""
    name = "refuted"


@dataclass(frozen=True)
class Unknown:
    reason: str
    sizes_proved: tuple = ()
    name = "unknown"


@dataclass(frozen=True)
class Derived:
    """A formula computed by sympy from a mechanism, checked at sample points."""

    formula: object
    assumptions: str
    checks: tuple = ()
    extras: dict = field(default_factory=dict)
    name = "derived"
