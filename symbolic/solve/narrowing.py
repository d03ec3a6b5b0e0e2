"""A proof chain's verdict for a claim whose parameter ranges were narrowed or fixed by the user.

The checks of a :class:`~symbolic.notions.claims.Proof` carry their own parameters (the lemmas are
stated over the source's ranges), so narrowing the claim (``--assume E>=2``, ``--param E=3``) does
not reach them. What the chain gives still answers the narrowed claim, one way only:

- proved over the steps' ranges: the narrowed claim says less (fewer parameter values), so it is
  proved too; the certificate says the proof covers the larger range;
- refuted: the counterexample answers the narrowed claim only when its parameter values lie in
  the narrowed ranges (decided exactly); otherwise the verdict is unknown, saying why.
"""
from __future__ import annotations

from dataclasses import replace

from symbolic.core.ops import UndecidedComparison
from symbolic.core.verdicts import Proved, Refuted, Unknown
from symbolic.notions.claims import Check


def narrowed_params(claim) -> list:
    """The claim's parameters whose range differs from that of a proof step's parameter of the same
    name (the user narrowed or fixed them after the proof was stated)."""
    if claim.proof is None:
        return []
    steps = {p.name: p for s in claim.proof.steps if isinstance(s, Check) and s.params for p in s.params}
    return [p for p in claim.params if p.name in steps and p != steps[p.name]]


def within_narrowed_ranges(claim, verdict):
    """The chain's ``verdict`` read against the claim's narrowed parameters (see the module text)."""
    narrowed = narrowed_params(claim)
    if not narrowed:
        return verdict
    ranges = ", ".join(p.range_text() for p in narrowed)
    if isinstance(verdict, Proved):
        return replace(verdict, certificate={**verdict.certificate, "ranges": (
            f"the proof's steps hold over the source's parameter ranges, which contain {ranges}")})
    if isinstance(verdict, Refuted):
        values = verdict.counterexample.parameters
        try:
            wrong = [w for p in narrowed for w in p.range_problems(values.get(p.name, p.symbol))]
        except UndecidedComparison as e:
            wrong = [str(e)]
        if wrong:
            return Unknown(f"the proof chain's counterexample is outside the narrowed range ({'; '.join(wrong)}): "
                           f"it says nothing for {ranges}")
    return verdict
