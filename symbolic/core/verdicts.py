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
        from symbolic.core.tables import check_sizes
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


@dataclass(frozen=True)
class Witness:
    """Exact values at which a claim's hypotheses all hold (re-verified exactly): the proof of the
    claim at ``sizes`` is not a proof of nothing."""

    sizes: Sizes
    mechanisms: dict
    populations: dict
    parameters: dict
    implication: str = ""


@dataclass(frozen=True)
class Obligation:
    """One query the proof rests on: the conjunction of ``assertions`` (solver terms) was found
    unsatisfiable. For a CEGIS proof the ∀𝒫 hypotheses appear instantiated at the populations the
    refinement used, so that the unsatisfiability of this query alone implies the claim at ``sizes``."""

    label: str
    sizes: Sizes
    assertions: tuple = field(repr=False, compare=False)


@dataclass(frozen=True)
class Proved:
    """No counterexample exists at any of the sizes in ``sizes_proved``, for every parameter
    value in range (parameters symbolic, not sampled). ``bounds`` is the largest of them.

    ``vacuity``: "satisfiable" when ``witness`` shows the hypotheses can hold together at the proved
    sizes, "unknown" when no witness was established, None when there is nothing to check (a part
    proved without a solver query). ``obligations``: the queries the proof rests on, for a second
    solver or an export."""

    bounds: Sizes
    sizes_proved: tuple
    certificate: dict = field(default_factory=dict)
    vacuity: str | None = None
    witness: Witness | None = None
    obligations: tuple = field(default=(), repr=False, compare=False)
    name = "proved"

    @property
    def note(self):
        return f"proved within bounds ({self.bounds}; {len(self.sizes_proved)} sizes)"


@dataclass(frozen=True)
class Vacuous:
    """The solver found no counterexample, but the hypotheses cannot hold together at ``sizes``
    (or a fixed parameter lies outside its range): the 'proof' is a proof of nothing."""

    reason: str
    sizes: Sizes | None = None
    name = "vacuous"


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
