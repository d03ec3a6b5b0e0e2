"""The catalogue's claims over every belief or prior, asked in the plain form at n = 2.

Several claims of the catalogue are proved or refuted through a chain of lemmas (their ``Proof``), whose
direct statement the chain checks only at n = 1. This asks each such direct statement at sizes up
to n = 2 with nothing but the engine (no lemma, no chain), within a budget, and prints the verdict,
the seconds and what the chain needs of the statement (it holds, or it fails):

    python bench/chains.py [--budget 60] [--ids K-2.2a L-2.1]

A direct statement is a step of the chain that the chain checks at n = 1 only and in which some notion
quantifies over every belief, prior or population. Timings depend on the machine; verdicts do not.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic import Settings, Sizes, check  # noqa: E402
from symbolic.notions.claims import Check, Claim  # noqa: E402
from theorems.registry import claims, get  # noqa: E402


def direct_statements(claim):
    """The chain's steps over every belief / prior that it checks at n = 1 only."""
    if claim.proof is None:
        return []
    return [s for s in claim.proof.steps if isinstance(s, Check) and s.sizes.n == 1
            and any(ni.notion.population in ("all", "product") for ni in s.implication.instances)]


def as_claim(cid, step, n):
    sizes = Sizes(n, step.sizes.domain, step.sizes.outputs)
    return Claim(cid, "⇒" if step.expect_holds else "⇏", "-", str(step.implication), "(plain form)",
                 (replace(step.implication, expect_holds=step.expect_holds),), params=step.params, sizes=sizes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", nargs="*", help="catalogue IDs (default: every claim with such a chain)")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds for each statement")
    ap.add_argument("--n", type=int, default=2, help="largest number of records")
    args = ap.parse_args()
    settings = replace(Settings(second_solver=False), budget=args.budget, timeout=min(20.0, args.budget))
    print(f"{'claim':<10} {'needs':<6} {'direct statement':<70} {'sizes':<6} {'plain':<8} {'s':>6}")
    for cid in args.ids or claims():
        claim = get(cid)
        for step in direct_statements(claim):
            plain = as_claim(cid, step, args.n)
            t = time.monotonic()
            res = check(plain, settings)
            needs = "holds" if step.expect_holds else "fails"
            print(f"{cid:<10} {needs:<6} {str(step.implication)[:70]:<70} {'%d%d%d' % plain.sizes.as_tuple():<6} "
                  f"{res.verdict.name:<8} {time.monotonic() - t:6.1f}", flush=True)


if __name__ == "__main__":
    main()
