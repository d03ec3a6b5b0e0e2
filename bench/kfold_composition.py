"""k-fold composition of randomized response at ε = 1/2 (docs/examples/rr-half.json): δ(ε′ = 1) by
``derive_level`` over count vectors (its cross-checks included), beside the naive baseline that enumerates the
explicit product table's |𝒪|^k rows in exact arithmetic (run only where |𝒪|^k ≤ 2^12). Prints k, the number of
count vectors per pair, seconds, δ, and the naive seconds and whether it agrees.
Usage: python bench/kfold_composition.py [k ...]   (default: 10 100 1000)"""
import json
import sys
import time
from itertools import product
from math import comb
from pathlib import Path

import sympy as sp

from symbolic.api import derive_level
from symbolic.core.ops import exact_sign

ROOT = Path(__file__).resolve().parents[1]
RR = json.loads((ROOT / "docs" / "examples" / "rr-half.json").read_text())
NAIVE_ROWS = 2 ** 12


def naive_delta(k, E):
    """δ of the explicit product table: every k-tuple of outputs, both directions, exact."""
    rows = {d: [sp.sympify(x) for x in r] for d, r in RR["rows"].items()}
    best = sp.Integer(0)
    for d, e in (("0", "1"), ("1", "0")):
        total = []
        for t in product(range(len(RR["outputs"])), repeat=k):
            P, Q = sp.Mul(*(rows[d][i] for i in t)), sp.Mul(*(rows[e][i] for i in t))
            if exact_sign(P - E * Q) > 0:
                total.append(P - E * Q)
        s = sp.Add(*total)
        best = s if exact_sign(s - best) > 0 else best
    return best


def main(argv):
    ks = [int(a) for a in argv] or [10, 100, 1000]
    m = len(RR["outputs"])
    print(f"{'k':>6} {'count vectors':>14} {'seconds':>8} {'checks':>7}  {'delta(eps=1)':<34} {'naive rows':>11} "
          f"{'naive s':>8}  agrees")
    for k in ks:
        t0 = time.perf_counter()
        d = derive_level("approx-dp", {"kind": "composition", "of": RR, "times": k}, params={"eps": "1"})
        dt = time.perf_counter() - t0
        rows = m ** k
        if rows <= NAIVE_ROWS:
            t1 = time.perf_counter()
            ref = naive_delta(k, sp.E)
            nt = f"{time.perf_counter() - t1:8.2f}"
            lo, hi = d.enclosure
            agree = "yes" if lo <= sp.Rational(str(sp.N(ref, 40))) + sp.Rational(1, 10 ** 35) and \
                sp.Rational(str(sp.N(ref, 40))) - sp.Rational(1, 10 ** 35) <= hi else "NO"
            shown = str(rows)
        else:
            nt, agree, shown = " skipped", "-", f"2^{k}"
        ok = sum(1 for _, c in d.checks if c)
        print(f"{k:>6} {comb(k + m - 1, m - 1):>14} {dt:>8.2f} {ok:>3}/{len(d.checks):<3}  {d.value_text():<34} "
              f"{shown:>11} {nt}  {agree}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
