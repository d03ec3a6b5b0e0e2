"""Run a :class:`~symbolic.notions.claims.Proof`: its checks through the search, its facts in sympy,
and the verdict they give together; and :func:`combine`, the verdict of several parts."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from symbolic.core.verdicts import Derived, Proved, Refuted, Unknown, Vacuous
from symbolic.notions.claims import Check, Fact
from symbolic.notions.induction import Induction
from symbolic.solve.induction import prove_induction
from symbolic.solve.search import check_implication
from symbolic.solve.queries.solver import fresh_context


@dataclass(frozen=True)
class PartResult:
    implication: str
    expect_holds: bool
    verdict: object
    seconds: float


def run_part(imp, params, sizes, settings, *, lo=None, expect=True) -> PartResult:
    """One engine check of a proof: the grid ``lo``..``sizes`` in a fresh z3 context (so that
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
    if isinstance(p.verdict, Derived):  # a fact: it agrees when every one of its checks holds
        return all(ok for _, ok in p.verdict.checks)
    return isinstance(p.verdict, Proved) if p.expect_holds else isinstance(p.verdict, Refuted)


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


def _fact_part(fact: Fact) -> PartResult:
    start = time.monotonic()
    checks = tuple((str(text), bool(ok)) for text, ok in fact.compute())
    seconds = time.monotonic() - start
    if fact.proves is not None:  # a proof of a direction at these sizes by exact means
        s = fact.proves
        v = (Proved(s, ((s, round(seconds, 3), fact.how),), {"method": fact.how}) if all(ok for _, ok in checks)
             else Unknown(f"sympy check failed: {fact.name}"))
        return PartResult(fact.name, True, v, seconds)
    return PartResult(fact.name, True, Derived(fact.name, "exact (sympy)", checks), seconds)


def run_proof(proof, params, settings):
    """The steps of ``proof`` in order (each check in a fresh z3 context, timed), then its verdict as
    :class:`~symbolic.notions.claims.Proof` defines it. Returns (verdict, parts): the parts are the
    checks and the listed facts, in step order."""
    ran, checks, facts, inductions = [], [], [], []
    for step in proof.steps:
        if isinstance(step, Induction):
            inductions.append((step, prove_induction(step, settings)))
            continue
        if isinstance(step, Check):
            p = run_part(step.implication, params if step.params is None else step.params, step.sizes, settings,
                         lo=step.lo, expect=step.expect_holds)
            checks.append(p)
        else:
            p = _fact_part(step)
            (checks if step.proves is not None else facts).append(p)
        ran.append((p, isinstance(step, Check) or step.listed))
    parts = [p for p, listed in ran if listed]
    if proof.verdict == "chain":
        failed = [p for p in facts if not _part_agrees(p)]
        if failed:
            return Unknown("; ".join(f"{p.implication} failed: " + "; ".join(t for t, ok in p.verdict.checks if not ok)
                                     for p in failed)), parts
        lemmas = len(checks) if proof.lemmas is None else proof.lemmas
        v, _ = chain(checks, lemmas, proof.method, proof.claim_sizes or None)
        if isinstance(v, Proved) and facts:
            v = replace(v, certificate={**v.certificate, **{p.implication: "; ".join(t for t, _ in p.verdict.checks)
                                                            for p in facts}})
    elif proof.verdict == "derived":
        d = proof.derive()
        v = replace(d, checks=tuple(d.checks) + tuple(c for p in facts for c in p.verdict.checks)
                    + tuple((f"engine: {p.implication}: {p.verdict.name}", _part_agrees(p)) for p in checks))
    else:
        v = checks[0].verdict
        others = [p for p, _ in ran if p is not checks[0]]
        if others and isinstance(v, Refuted):
            v = replace(v, note=v.note + "; " + "; ".join(_supporting(p) for p in others))
    if inductions and isinstance(v, Proved):
        v = replace(v, certificate={**v.certificate, **_by_induction(proof, inductions)})
    if isinstance(v, Refuted) and proof.recheck is not None:
        ok, text = proof.recheck(v.counterexample)
        v = replace(v, verified_exactly=v.verified_exactly and bool(ok), note=v.note + "; " + text)
    return v, parts


def _by_induction(proof, inductions) -> dict:
    """The certificate keys of a proved verdict whose proof has inductions: ``all_sizes`` (the argument) when every
    induction is proved and the proof says what they establish at every size; ``induction`` (what was not proved)
    otherwise. The verdict itself is the checks'."""
    lines = [line for ind, res in inductions for line in res.argument(ind)]
    if proof.every_size and all(res.status == "proved" for _, res in inductions):
        return {"all_sizes": {"scope": "all sizes", "reduction": "induction in k",
                              "argument": [proof.every_size, *lines],
                              "step_confirmed_by_cvc5": all(res.confirmed for _, res in inductions)}}
    return {"induction": "; ".join(f"{ind.name}: {res.status}" + (f" ({res.reason})" if res.reason else "")
                                   for ind, res in inductions)}


def _supporting(p: PartResult) -> str:
    if isinstance(p.verdict, Derived):
        return f"{p.implication}: " + "; ".join(t for t, _ in p.verdict.checks)
    return f"{p.implication}: {p.verdict.name}"
