"""The catalogue's claims over every belief or prior, asked in the plain form at n = 2.

Several claims of the catalogue are proved or refuted through a chain of lemmas (their ``Proof``), which
checks the direct statement only at n = 1. This asks each direct statement at sizes up to n = 2 with
nothing but the engine (no lemma, no chain), within a budget, and prints what the source says of it,
the engine's verdict and the seconds ("refuted?": a counterexample found whose hypothesis over every
belief cannot be re-verified exactly, so it decides nothing):

    python bench/chains.py [--budget 60] [--ids K-2.2a L-2.1]

The statements are the chains' own final steps where they have one, and the plain converse otherwise
(K-2.2b and K-2.4's second part: semantic privacy as the hypothesis; S-TH11's (3) ⇒ (1): entry leakage
over every prior as the hypothesis, whose chain takes the limit of priors in sympy). Timings depend on the machine;
verdicts do not.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic.solve.backends.effort import units  # noqa: E402
from symbolic import (E, ApproxDP, ApproxSemanticPrivacy, FreeLunchPrivacy, PureDP, SemanticPrivacy,  # noqa: E402
                      Settings, Sizes, check)
from symbolic.notions.claims import Check, Claim, Implies, NotImplies, Param  # noqa: E402
from symbolic.notions.families.pml import EntryPMLAllPriors  # noqa: E402
from theorems.registry import get  # noqa: E402

Es = E.symbol
DELTA = Param("delta", lower=0, upper=1)
Ds = DELTA.symbol


def _step(cid, prefix):
    """The chain's step of ``cid`` whose statement starts with ``prefix`` (its implication and parameters)."""
    step = next(s for s in get(cid).proof.steps if isinstance(s, Check) and str(s.implication).startswith(prefix))
    return step.implication, step.params


def _plain(hyp, concl, params, holds=True):
    return (Implies(hyp, concl) if holds else NotImplies(hyp, concl)), params


S_BAR = (Es - 1) / 2
ROWS = [   # (catalogue ID, what the source says of the direct statement, how to build it)
    ("K-2.2a", lambda: _step("K-2.2a", "PureDP(E) ⇒ SemanticPrivacy(E - 1)")),
    ("K-2.2b", lambda: _plain(SemanticPrivacy(S_BAR), PureDP(Es ** 2), (E,))),
    ("K-2.4", lambda: _step("K-2.4", "ApproxDP(E, 1/100) ⇒ ApproxSemanticPrivacy")),
    ("K-2.4", lambda: _plain(ApproxSemanticPrivacy(S_BAR, Ds), ApproxDP(Es ** 2, 2 * Ds), (E, DELTA))),
    ("K-A.3", lambda: _step("K-A.3", "ApproxDP(E, 1/100) ⇒ InformedSemanticPrivacy")),
    ("K-5.1", lambda: _step("K-5.1", "True ⇒ LocallyDPSemanticPrivacy")),
    ("L-2.1", lambda: _step("L-2.1", "PureDP(E) ⇒ PosteriorApprox(E**2)")),
    ("L-2.3", lambda: _step("L-2.3", "AdditiveSecrecy(1/2) ⇏ PosteriorApprox(E)")),
    ("S-TH11", lambda: _plain(EntryPMLAllPriors(Es), FreeLunchPrivacy(Es), (E,))),
]


def as_claim(cid, imp, params, n):
    return Claim(cid, "⇒" if imp.expect_holds else "⇏", "-", str(imp), "(plain form)", (imp,), params=params,
                 sizes=Sizes(n, 2, 2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", nargs="*", help="catalogue IDs (default: every row)")
    ap.add_argument("--budget", type=float, default=60.0, help="effort for each statement, in nominal seconds")
    ap.add_argument("--n", type=int, default=2, help="largest number of records")
    args = ap.parse_args()
    settings = replace(Settings(second_solver=False), effort=units(args.budget), query_effort=units(min(20.0, args.budget)))
    print(f"{'claim':<10} {'says':<6} {'direct statement':<70} {'sizes':<6} {'plain':<8} {'s':>6}")
    for cid, build in ROWS:
        if args.ids and cid not in args.ids:
            continue
        imp, params = build()
        plain = as_claim(cid, imp, params, args.n)
        t = time.monotonic()
        res = check(plain, settings)
        says = "holds" if imp.expect_holds else "fails"
        # a counterexample whose ∀-belief hypothesis cannot be re-verified exactly decides nothing
        verdict = res.verdict.name if res.definite else f"{res.verdict.name}?"
        print(f"{cid:<10} {says:<6} {str(imp)[:70]:<70} {'%d%d%d' % plain.sizes.as_tuple():<6} "
              f"{verdict:<8} {time.monotonic() - t:6.1f}", flush=True)

if __name__ == "__main__":
    main()
