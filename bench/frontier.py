"""The hard questions of the engine-power issue, one command: each row's verdict and seconds with the
engine, beside the naive monolithic z3 query on the same question (one solver call, parameters
symbolic, a ∀𝒫 hypothesis written as a z3 ForAll over the population simplex) and their ratio.

    python bench/frontier.py                      # every row, 60 s a question
    python bench/frontier.py --rows T-P5 --budget 10

Rows: T-P5, T-P1 and T-F2b at n=3, |𝒟|=3, |𝒪|=2 (each part at exactly those sizes); a claim over
all beliefs asked in the plain `implies` form at n=2 (and at exactly n=3, and |𝒟|=3); (ε,δ)-semantic
privacy from (ε,δ)-DP and from DP on most databases at n=2 (Kasiviswanathan–Smith's constants); entry
leakage over every prior ⇒ free-lunch privacy at n=2 and exactly n=3 (a hypothesis over all priors);
posterior approximation over every population ⇒ ε-DP at n=2 (it holds only as a limit of populations);
Claim 3.3(4)'s mixture with its first stage free (K-3.3.4 at n=1); basic
composition of (ε,δ)-DP with ε and δ symbolic at n=1, |𝒟|=|𝒪|=2, non-adaptive and adaptive; a
parameter map with a division, and multiplied out. Timings depend on the machine; the verdicts do not.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sympy as sp  # noqa: E402

from symbolic.solve.backends.effort import units  # noqa: E402
from symbolic import (E, AdaptiveVar, ApproxDP, ApproxSemanticPrivacy, Compose, FreeLunchPrivacy,  # noqa: E402
                      MechVar, Param, PureDP, SemanticPrivacy, Settings, Sizes, check, implication_claim)
from symbolic.notions.claims import Claim, Implies  # noqa: E402
from symbolic.notions.families.pml import EntryPMLAllPriors  # noqa: E402
from symbolic.notions.families.semantic import LocallyDPSemanticPrivacy, PosteriorApprox  # noqa: E402
from theorems.registry import get  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from naive import naive  # noqa: E402
from rational_maps import PAIRS  # noqa: E402

Es = E.symbol


def _catalogue(cid, sizes):
    c = get(cid).with_sizes(*sizes)
    return _at(c)


def _at(claim):
    """The claim at exactly its sizes (the smaller ones are other rows)."""
    return replace(claim, min_sizes=claim.sizes)


def _composition(adaptive=True):
    E1, E2 = Param("E1", lower=1), Param("E2", lower=1)
    D1, D2 = Param("d1", lower=0, upper=1), Param("d2", lower=0, upper=1)
    A1 = MechVar("A1")
    A2 = AdaptiveVar("A2", after=A1) if adaptive else MechVar("A2")
    hyp = (ApproxDP(E1.symbol, D1.symbol).of(A1), ApproxDP(E2.symbol, D2.symbol).of(A2))
    concl = ApproxDP(E1.symbol * E2.symbol, D1.symbol + D2.symbol).of(Compose(A1, A2))
    return implication_claim(hyp, concl, params=(E1, E2, D1, D2), sizes=Sizes(1, 2, 2))


def _division(form):
    """The point-wise indistinguishability constant with E = R/δ (bench/rational_maps.py's "ind-pw")."""
    sizes, _, div, mul = PAIRS["ind-pw"]
    hyp, concl, params = div if form == "division" else mul
    return implication_claim(hyp, concl, params=params, sizes=sizes)


def _fixed_e(hyp, concl):
    """Kasiviswanathan–Smith's constants at E = 11/10, δ = 1/100: ε' = E³ − 1 + 2√δ, δ' = √δ; n = 2."""
    imp = Implies(hyp, concl, parameters={"E": sp.Rational(11, 10)})
    return Claim("plain", "⇒", "-", str(imp), "(plain form)", (imp,), params=(E,), sizes=Sizes(2, 2, 2))


TENTH = sp.Rational(1, 10)
LEVEL = Es ** 3 - 1 + 2 * TENTH
ROWS = {
    "T-P5": lambda: _catalogue("T-P5", (3, 3, 2)),
    "T-P1": lambda: _catalogue("T-P1", (3, 3, 2)),
    "T-F2b": lambda: _catalogue("T-F2b", (3, 3, 2)),
    "beliefs": lambda: implication_claim(PureDP(Es), SemanticPrivacy(Es - 1), sizes=Sizes(2, 2, 2)),
    "beliefs-n3": lambda: _at(implication_claim(PureDP(Es), SemanticPrivacy(Es - 1), sizes=Sizes(3, 2, 2))),
    "beliefs-d3": lambda: _at(implication_claim(PureDP(Es), SemanticPrivacy(Es - 1), sizes=Sizes(2, 3, 2))),
    "approx-beliefs": lambda: _fixed_e(ApproxDP(Es, TENTH ** 2), ApproxSemanticPrivacy(LEVEL, TENTH)),
    "local-beliefs": lambda: _fixed_e((), LocallyDPSemanticPrivacy(Es, TENTH ** 2, LEVEL, TENTH)),
    "priors": lambda: implication_claim(EntryPMLAllPriors(Es), FreeLunchPrivacy(Es), sizes=Sizes(2, 2, 2)),
    "priors-n3": lambda: _at(implication_claim(EntryPMLAllPriors(Es), FreeLunchPrivacy(Es), sizes=Sizes(3, 2, 2))),
    "posterior": lambda: implication_claim(PosteriorApprox(Es), PureDP(Es), sizes=Sizes(2, 2, 2)),
    "mixture": lambda: _catalogue("K-3.3.4", (1, 2, 2)),
    "composition": lambda: _composition(adaptive=False),
    "adaptive": _composition,
    "division": lambda: _division("division"),
    "multiplied": lambda: _division("multiplied"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", nargs="*", choices=list(ROWS), help="default: all")
    ap.add_argument("--budget", type=float, default=60.0, help="effort for each question in nominal seconds "
                    "(10^6 z3 steps or one processor second each), engine and naive alike")
    ap.add_argument("--no-naive", action="store_true", help="leave out the naive single query")
    args = ap.parse_args()
    settings = replace(Settings(second_solver=False), effort=units(args.budget), query_effort=units(min(20.0, args.budget)))
    print(f"{'row':<12} {'part':<52} {'sizes':<6} {'engine':<8} {'s':>7} {'naive':<8} {'s':>7} {'ratio':>6}")
    for name in args.rows or list(ROWS):
        claim = ROWS[name]()
        t = time.monotonic()
        res = check(claim, settings)
        total = time.monotonic() - t
        for part in res.parts:
            imp = next(i for i in claim.parts if str(i) == part.implication)
            answer, secs = ("skipped", 0.0) if args.no_naive else naive(imp, claim.params, claim.sizes, args.budget)
            answer = {"unsat": "proved", "sat": "refuted"}.get(answer, "unknown")
            ratio = secs / part.seconds if part.seconds > 0 else float("inf")
            # a naive query that ran out of time gives only a lower bound on its ratio
            shown = f"≥{ratio:.1f}" if answer == "unknown" else f"{ratio:.1f}"
            print(f"{name:<12} {part.implication[:52]:<52} {'%d%d%d' % claim.sizes.as_tuple():<6} "
                  f"{part.verdict.name:<8} {part.seconds:7.2f} {answer:<8} {secs:7.2f} {shown:>6}", flush=True)
        effort = getattr(res.verdict, "certificate", {}).get("effort", "") if hasattr(res.verdict, "certificate") else ""
        print(f"{name:<12} {'(claim: ' + res.verdict.name + ')':<52} {'':<6} {'':<8} {total:7.2f}  {effort}", flush=True)


if __name__ == "__main__":
    main()
