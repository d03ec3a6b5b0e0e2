"""Benchmark of exact evaluation (``dpcheck eval``) on the binary counting table (bench/counting.py):
n binary records, 2^n rows, n neighbours a row, 2 outputs, rational entries.

Columns: n; rows (databases); verdict of PureDP(E=2) (holds, with ties) and of PureDP(E=2-10^-30)
(fails); "load s": JSON text to a validated Mechanism (as the CLI reads a file); "now s": evaluation
in one pass over integers (``explain``, arithmetic="auto", on a fresh table so the integer view is
built inside the timing); "sympy s": the same body with sympy numbers (``arithmetic="sympy"``, the
baseline); ratio = sympy / now. Timed per row, one run each. A failing table stops the sympy body at
its first failed comparison (here near the start), while the one pass reads the whole table to find
the first failure in the body's order; both report the same reason.

    python bench/bench.py --eval                 # n = 12, 14, 15, 17
    python bench/eval_bench.py 10 12 --no-sympy  # skip the (slow) baseline
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sympy as sp  # noqa: E402

from counting import counting_json  # noqa: E402
from symbolic.api import PureDP, explain  # noqa: E402
from symbolic.model.mechanism import mechanism_from_json  # noqa: E402

SIZES = (12, 14, 15, 17)


def _timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def eval_rows(sizes=SIZES, sympy_baseline=True, out=print):
    out(f"{'n':>3} {'rows':>8} {'E':<9} {'verdict':<8} {'load s':>7} {'now s':>7} {'sympy s':>8} {'ratio':>7}")
    for n in sizes:
        text = counting_json(n)
        mech, load = _timed(lambda: mechanism_from_json(json.loads(text)))
        for label, E in (("2", sp.Integer(2)), ("2-1e-30", 2 - sp.Rational(1, 10 ** 30))):
            inst = PureDP(E)
            (holds, why), now = _timed(lambda: explain(inst, mech.table()))
            slow = ratio = "-"
            if sympy_baseline:
                res, t = _timed(lambda: explain(inst, mech.table(), arithmetic="sympy"))
                if res != (holds, why):
                    raise AssertionError(f"n={n}, E={label}: one pass says {holds, why}, sympy {res}")
                slow, ratio = f"{t:8.3f}", f"{t / now:7.1f}"
            out(f"{n:>3} {2 ** n:>8} {label:<9} {'holds' if holds else 'fails':<8} {load:7.2f} {now:7.3f} "
                f"{slow:>8} {ratio:>7}")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", nargs="*", type=int, default=list(SIZES))
    ap.add_argument("--no-sympy", action="store_true", help="skip the sympy baseline")
    args = ap.parse_args(argv)
    eval_rows(args.sizes, not args.no_sympy)


if __name__ == "__main__":
    main()
