"""Benchmark: how long each claim takes to decide, at given sizes; prints a table ("sizes": the
claim's default sizes or the ones asked for; "at": where the verdict was reached, a proof's largest
sizes or a counterexample's).

    python bench/bench.py                      # the engine's acceptance set at n=2,|D|=2,|O|=2
    python bench/bench.py --source T           # every T claim at its default sizes
    python bench/bench.py --ids T-P1 T-P5 --sizes 2,3,2 3,2,2
    python bench/bench.py --eval               # exact evaluation of the counting table (bench/eval_bench.py)
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic.solve.run import check_claim  # noqa: E402
from symbolic.solve.search import Settings  # noqa: E402
from symbolic.core.verdicts import Proved, Refuted  # noqa: E402
from theorems.registry import by_source, get  # noqa: E402

ACCEPTANCE = ["T-P1", "T-P4.converse", "T-APPB", "T-P5"]


def _decided_at(v):
    """Where the verdict was reached: a proof's largest sizes, a counterexample's sizes."""
    if isinstance(v, Proved):
        return "%d,%d,%d" % v.bounds.as_tuple()
    if isinstance(v, Refuted):
        return "%d,%d,%d" % v.counterexample.sizes.as_tuple()
    return "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", nargs="*")
    ap.add_argument("--source", nargs="*")
    ap.add_argument("--sizes", nargs="*", help="n,domain,outputs (default: each claim's own sizes)")
    ap.add_argument("--profile", default="ci")
    ap.add_argument("--at", action="store_true", help="decide at exactly these sizes (no sweep from smaller ones)")
    ap.add_argument("--eval", nargs="*", type=int, metavar="N",
                    help="instead: exact evaluation of the n-record counting table (default n = 12 14 15 17)")
    args = ap.parse_args()
    if args.eval is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from eval_bench import SIZES, eval_rows
        eval_rows(args.eval or SIZES)
        return
    ids = args.ids or ([c.id for c in by_source(args.source) if c.kind != "def"] if args.source else ACCEPTANCE)
    sizes = [tuple(int(x) for x in s.split(",")) for s in args.sizes] if args.sizes else [None]
    if args.sizes is None and not args.source and not args.ids:
        sizes = [(2, 2, 2)]
    settings = Settings.profile(args.profile)
    print(f"{'claim':<16} {'sizes':<9} {'verdict':<8} {'at':<9} {'agrees':<6} {'seconds':>8}")
    total = time.monotonic()
    for cid in ids:
        for sz in sizes:
            c = get(cid)
            if sz is not None and c.parts and not c.only_sizes:
                try:
                    c = c.with_sizes(*sz)
                    if args.at:
                        c = replace(c, min_sizes=c.sizes)
                except Exception as e:  # sizes below the claim's minimum
                    print(f"{cid:<16} {','.join(map(str, sz)):<9} skipped: {e}")
                    continue
            t = time.monotonic()
            r = check_claim(c, settings)
            label = ",".join(map(str, sz)) if sz else "%d,%d,%d" % c.sizes.as_tuple()
            print(f"{cid:<16} {label:<9} {r.verdict.name:<8} {_decided_at(r.verdict):<9} "
                  f"{'yes' if r.agrees else 'NO':<6} {time.monotonic() - t:8.2f}", flush=True)
    print(f"total {time.monotonic() - total:.1f} s")


if __name__ == "__main__":
    main()
