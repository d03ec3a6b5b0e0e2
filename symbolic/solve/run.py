"""Check a whole claim: every part over its size grid, combined into one result."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from symbolic.solve.narrowing import within_narrowed_ranges
from symbolic.solve.proof import PartResult, _part_agrees, combine, run_proof
from symbolic.solve.backends.effort import Meter, units
from symbolic.solve.search import Settings, check_implication
from symbolic.solve.queries.solver import fresh_context
from symbolic.solve.backends.second_opinion import second_opinion
from symbolic.solve.queries.verify import defined_witness
from symbolic.core.math_text import tidy_text
from symbolic.core.verdicts import Derived, Proved, Refuted, Sizes, Unknown, Vacuous, esc, latex_text

# How a result stands against its source, in words: the part (or claim) came out as the source
# says, definitely differs from it (a finding), or the run reached no definite verdict.
AS_SAID, DIFFERS, UNDECIDED = "as the source says", "differs from the source", "undecided"


def part_outcome(p: PartResult) -> str:
    """One part against what the source expects of it: :data:`AS_SAID`, :data:`DIFFERS` or
    :data:`UNDECIDED` (unknown, vacuous, or a counterexample that failed exact re-verification)."""
    v = p.verdict
    if isinstance(v, (Unknown, Vacuous)) or (isinstance(v, Refuted) and not v.verified_exactly):
        return UNDECIDED
    return AS_SAID if _part_agrees(p) else DIFFERS


def is_ad_hoc(claim) -> bool:
    """A question asked without a source (``source`` "-", as :func:`symbolic.api.implication_claim`
    builds it): there is nothing to agree or differ with."""
    return claim.source == "-" or claim.id == "adhoc"


@dataclass(frozen=True)
class ClaimResult:
    """The result of checking a claim: its ``verdict`` (one of :class:`~symbolic.core.verdicts.Proved`,
    ``Refuted``, ``Unknown``, ``Vacuous``, ``Derived``), the verdict of each part, the time taken, and
    the larger sizes proved when asked to ``explore``. In Jupyter it renders as the claim's statement
    and its verdict.

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> res.claim.statement, res.verdict.name, len(res.parts), res.outcome
    ('PureDP(E) ⇒ PureDP(2E)', 'proved', 1, None)
    """

    claim: object
    verdict: object               # Proved | Refuted | Unknown | Derived
    parts: tuple
    seconds: float
    explored: tuple = ()          # extra sizes proved beyond the default bounds: (Sizes, seconds)

    @property
    def agrees(self) -> bool:
        v = self.verdict
        if isinstance(v, (Unknown, Vacuous)):
            return False
        if isinstance(v, Refuted) and not v.verified_exactly:
            return False
        if self.parts:
            return all(_part_agrees(p) for p in self.parts)
        return v.name == self.claim.expect

    @property
    def definite(self) -> bool:
        v = self.verdict
        return not isinstance(v, (Unknown, Vacuous)) and not (isinstance(v, Refuted) and not v.verified_exactly)

    @property
    def outcome(self) -> str | None:
        """The claim against its source: :data:`AS_SAID`, :data:`DIFFERS` (a finding: a definite
        verdict that is not the source's, with some part that definitely differs when the claim has
        parts) or :data:`UNDECIDED`; None for an ad hoc question (no source)."""
        if is_ad_hoc(self.claim):
            return None
        if not self.definite:
            return UNDECIDED
        if self.agrees:
            return AS_SAID
        parts = [part_outcome(p) for p in self.parts]
        return UNDECIDED if UNDECIDED in parts and DIFFERS not in parts else DIFFERS

    def _repr_html_(self):
        claim, v = self.claim, self.verdict
        head = f"<div><code>{esc(tidy_text(getattr(claim, 'statement', claim)))}</code></div>"
        outcome = f"<div>{esc(self.outcome)}</div>" if self.outcome else ""
        verdict = v._repr_html_() if hasattr(v, "_repr_html_") else esc(v)
        return (f'<div class="dpcheck-result">{head}{verdict}{outcome}'
                f"<div>{len(self.parts)} part{'s' * (len(self.parts) != 1)}, {self.seconds:.2f} s</div></div>")

    def _repr_latex_(self):
        v = self.verdict
        verdict = v._repr_latex_()[1:] if hasattr(v, "_repr_latex_") else rf"\text{{{latex_text(v)}}}$"
        return rf"$\text{{{latex_text(tidy_text(getattr(self.claim, 'statement', self.claim)))}: }}" + verdict


def check_claim(claim, settings: Settings | None = None, *, explore: float = 0.0) -> ClaimResult:
    """Run a claim. ``explore``: effort to spend proving larger sizes after the default grid, in nominal
    seconds (``explore`` × :data:`~symbolic.solve.backends.effort.UNITS_PER_SECOND` z3 units at the ci level)."""
    settings = settings or Settings()
    fresh_context()
    t0 = time.monotonic()
    if claim.derive is not None:
        return ClaimResult(claim, _checked(claim.derive()), (), time.monotonic() - t0)
    if claim.proof is not None:
        v, parts = run_proof(claim.proof, claim.params, settings)
        v = within_narrowed_ranges(claim, _checked(v))
        return ClaimResult(claim, second_opinion(v, settings), tuple(parts), time.monotonic() - t0)
    lo = claim.sizes if claim.only_sizes else claim.min_sizes
    parts = []
    for imp in claim.parts:  # each part has its own effort account
        ts = time.monotonic()
        a, b = (imp.sizes, imp.sizes) if imp.sizes is not None else (lo, claim.sizes)
        v = check_implication(imp, claim.params, a, b, settings)
        if isinstance(v, Refuted) and v.verified_exactly:   # show a witness whose conditionals are defined
            v = replace(v, counterexample=defined_witness(imp, v.counterexample))
        parts.append(PartResult(str(imp), imp.expect_holds, v, time.monotonic() - ts))
    verdict = combine([p.verdict for p in parts])
    verdict = second_opinion(verdict, settings)
    explored = ()
    if explore > 0 and isinstance(verdict, Proved) and not claim.only_sizes:
        explored, refutation = _explore(claim, settings, explore)
        if refutation is not None:  # a counterexample at a larger size overrides "proved"
            verdict = refutation
    return ClaimResult(claim, verdict, tuple(parts), time.monotonic() - t0, explored)


def _checked(v):
    """A derivation whose checks do not all pass is not a result."""
    if isinstance(v, Derived) and not all(ok for _, ok in v.checks):
        bad = [c for c, ok in v.checks if not ok]
        return Unknown("derived formula failed its checks: " + "; ".join(bad))
    return v


def _explore(claim, settings, seconds):
    """Prove the claim's parts at single larger sizes, one dimension up at a time, while the effort
    (``seconds`` nominal seconds of z3 units, scaled with the level) lasts. Building the queries is
    charged as processor time, so the exploring effort bounds the whole exploration, not only the solver;
    which sizes get explored may therefore vary between machines (the verdict on the default grid does not).

    Only parts without pinned sizes take part (a part pinned to its sizes says nothing elsewhere);
    when every part is pinned nothing is explored. A size is reported only after the solver proved
    every such part there. A refutation found here is not minimised, and says so."""
    free = [imp for imp in claim.parts if imp.sizes is None]
    if not free:
        return (), None
    meter = Meter(settings.scale(units(seconds)), safety_end=settings.until(time.monotonic() + settings.budget),
                  name="exploring")
    done, frontier, seen = [], [claim.sizes], {claim.sizes.as_tuple()}
    while frontier and not meter.exhausted():
        base = frontier.pop(0)
        for step in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            s = Sizes(base.n + step[0], base.domain + step[1], base.outputs + step[2])
            if s.as_tuple() in seen or meter.exhausted():
                continue
            seen.add(s.as_tuple())
            ts, cpu0, charged0 = time.monotonic(), time.thread_time(), meter.cpu
            verdicts = []
            for imp in free:
                v = check_implication(imp, claim.params, s, s, replace(settings, minimise=False),
                                      meter=meter.sub(settings.effort, f"part at {s}"))
                verdicts.append(v)
                if not isinstance(v, Proved):
                    break
            # building the queries counts too (at large sizes it outweighs the solver): the processor time
            # of this thread not already charged by a solver call
            meter.charge(0, cpu=(time.thread_time() - cpu0) - (meter.cpu - charged0))
            if isinstance(verdicts[-1], Refuted):
                v = verdicts[-1]
                return tuple(done), replace(v, minimal=False, note=v.note + "; found while exploring sizes above "
                                            "the default grid, not minimised")
            if len(verdicts) == len(free) and isinstance(verdicts[-1], Proved):  # the loop stops at the first non-proof
                done.append((s, round(time.monotonic() - ts, 2)))
                frontier.append(s)
    return tuple(done), None
