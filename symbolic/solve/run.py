"""Check a whole claim: every part over its size grid, combined into one result."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from symbolic.solve.search import Settings, check_implication
from symbolic.solve.solver import fresh_context
from symbolic.solve.second_opinion import second_opinion
from symbolic.core.verdicts import Derived, Proved, Refuted, Sizes, Unknown, Vacuous


@dataclass(frozen=True)
class PartResult:
    implication: str
    expect_holds: bool
    verdict: object
    seconds: float


@dataclass(frozen=True)
class ClaimResult:
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


def run_part(imp, params, sizes, settings, *, lo=None, expect=True) -> PartResult:
    """One engine call of a ``run=`` claim: the grid ``lo``..``sizes`` in a fresh z3 context (so that
    its answer does not depend on the parts run before it), timed."""
    fresh_context()
    start = time.monotonic()
    v = check_implication(imp, params, lo or sizes, sizes, settings)
    return PartResult(str(imp), expect, v, time.monotonic() - start)


def chain(parts, lemmas, method, claim_sizes=None):
    """A proof through lemmas: the first ``lemmas`` parts must be proved (else the verdict is
    Unknown, naming the first that is not); the verdict is then the combination of all parts, with
    ``method`` (the glue between the lemmas, in words) in the certificate. ``claim_sizes``: the sizes
    at which the chained argument establishes the claim itself (the lemmas have their own sizes);
    they become the verdict's bounds. Returns (verdict, parts)."""
    for p in parts[:lemmas]:
        if not isinstance(p.verdict, Proved):
            return Unknown(f"lemma not proved: {p.implication}: {p.verdict.name}: "
                           f"{getattr(p.verdict, 'reason', '')}"), parts
    v = combine([p.verdict for p in parts])
    if isinstance(v, Proved):
        bounds, sizes = v.bounds, v.sizes_proved
        if claim_sizes:
            bounds = max(claim_sizes, key=lambda s: s.as_tuple())
            sizes = tuple((s, None, "chain of the lemmas below") for s in claim_sizes)
        v = replace(v, bounds=bounds, sizes_proved=sizes, certificate={**v.certificate, "method": method})
    elif isinstance(v, Refuted):
        v = Refuted(v.counterexample, v.verified_exactly, v.minimal, v.sizes_searched, v.note + "; " + method)
    return v, parts


def _part_agrees(p: PartResult) -> bool:
    return isinstance(p.verdict, Proved) if p.expect_holds else isinstance(p.verdict, Refuted)


def check_claim(claim, settings: Settings | None = None, *, explore: float = 0.0) -> ClaimResult:
    """Run a claim. ``explore``: seconds to spend proving larger sizes after the default grid."""
    settings = settings or Settings()
    fresh_context()
    t0 = time.monotonic()
    if claim.derive is not None:
        return ClaimResult(claim, _checked(claim.derive()), (), time.monotonic() - t0)
    if claim.run is not None:
        v, parts = claim.run(settings)
        return ClaimResult(claim, second_opinion(_checked(v), settings), tuple(parts), time.monotonic() - t0)
    lo = claim.sizes if claim.only_sizes else claim.min_sizes
    parts = []
    for imp in claim.parts:  # each part has its own time budget
        ts = time.monotonic()
        a, b = (imp.sizes, imp.sizes) if imp.sizes is not None else (lo, claim.sizes)
        v = check_implication(imp, claim.params, a, b, settings, ts + settings.budget)
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


def combine(verdicts):
    refuted = [v for v in verdicts if isinstance(v, Refuted)]
    if refuted:
        bad = [v for v in refuted if not v.verified_exactly]
        return bad[0] if bad else refuted[0]
    vacuous = [v for v in verdicts if isinstance(v, Vacuous)]
    if vacuous:
        return Vacuous("; ".join(v.reason for v in vacuous), vacuous[0].sizes)
    unknown = [v for v in verdicts if isinstance(v, Unknown)]
    if unknown:
        return Unknown("; ".join(v.reason for v in unknown))
    proved = [v for v in verdicts if isinstance(v, Proved)]
    if not proved:
        return Unknown("no part was checked")
    bounds = min((v.bounds for v in proved), key=lambda s: s.as_tuple())
    sizes = tuple(s for v in proved for s in v.sizes_proved)
    checked = [v.vacuity for v in proved if v.vacuity is not None]
    vacuity = None if not checked else ("satisfiable" if all(x == "satisfiable" for x in checked) else "unknown")
    witness = next((v.witness for v in proved if v.witness is not None), None)
    return Proved(bounds, sizes, proved[0].certificate, vacuity, witness,
                  tuple(o for v in proved for o in v.obligations))


def _explore(claim, settings, seconds):
    """Prove the claim's parts at single larger sizes, one dimension up at a time, while time lasts.

    Only parts without pinned sizes take part (a part pinned to its sizes says nothing elsewhere);
    when every part is pinned nothing is explored. A size is reported only after the solver proved
    every such part there. A refutation found here is not minimised, and says so."""
    free = [imp for imp in claim.parts if imp.sizes is None]
    if not free:
        return (), None
    end = settings.until(time.monotonic() + seconds)
    done, frontier, seen = [], [claim.sizes], {claim.sizes.as_tuple()}
    while frontier and time.monotonic() < end:
        base = frontier.pop(0)
        for step in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            s = Sizes(base.n + step[0], base.domain + step[1], base.outputs + step[2])
            if s.as_tuple() in seen or time.monotonic() >= end:
                continue
            seen.add(s.as_tuple())
            ts = time.monotonic()
            verdicts = []
            for imp in free:
                v = check_implication(imp, claim.params, s, s, replace(settings, minimise=False), deadline=end)
                verdicts.append(v)
                if not isinstance(v, Proved):
                    break
            if isinstance(verdicts[-1], Refuted):
                v = verdicts[-1]
                return tuple(done), replace(v, minimal=False, note=v.note + "; found while exploring sizes above "
                                            "the default grid, not minimised")
            if len(verdicts) == len(free) and isinstance(verdicts[-1], Proved):  # the loop stops at the first non-proof
                done.append((s, round(time.monotonic() - ts, 2)))
                frontier.append(s)
    return tuple(done), None
