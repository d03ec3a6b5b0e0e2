"""Tight levels of symbolic mechanisms (symbolic.derive.level.derive_level): one row per case with the
formula's size, the number of pieces, whether the maximiser was decided exactly, the checks, and seconds.

    python bench/derive_level.py            # every case
    python bench/derive_level.py geometric  # cases whose name contains "geometric"
"""
from __future__ import annotations

import itertools
import sys
import time

import sympy as sp

from symbolic.derive.level import derive_level
from symbolic.model.example_tables import randomized_response_doc, truncated_geometric_doc
from symbolic.model.mechanism import Mechanism


def rr(k, rng="0<p<1"):
    return randomized_response_doc(k, rng)


def geometric(n):
    return truncated_geometric_doc(n)


def exponential(n):
    a = sp.Symbol("a", positive=True)
    table = {}
    for d in itertools.product((0, 1), repeat=n):
        w = [sp.exp(-a * abs(o - sum(d)) / 2) for o in range(n + 1)]
        table[d] = [x / sp.Add(*w) for x in w]
    return Mechanism.from_table(table, n=n, domain=(0, 1), outputs=tuple(range(n + 1)))


ZERO = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2], "params": {"p": "0<p<1"},
        "rows": {"0": ["p", "1-p", "0"], "1": ["1-p", "p/2", "p/2"]}}
TWO = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1", "q": "0<q<1/2"},
       "rows": {"0": ["p", "1-p"], "1": ["q", "1-q"]}}

CASES = {
    "rr2 pure-dp": ("pure-dp", lambda: rr(2, "1/2<p<1"), {}),
    "rr3 pure-dp": ("pure-dp", lambda: rr(3), {}),
    "rr4 pure-dp": ("pure-dp", lambda: rr(4), {}),
    "rr3 approx-dp eps=log2": ("approx-dp", lambda: rr(3), {"params": {"eps": "log(2)"}}),
    "rr3 renyi-2": ("renyi-2", lambda: rr(3), {}),
    "rr3 renyi-3": ("renyi-3", lambda: rr(3), {}),
    "rr3 tv": ("total-variation", lambda: rr(3), {}),
    "rr3 bounded-range": ("bounded-range", lambda: rr(3), {}),
    "rr3 pml uniform": ("pml", lambda: rr(3), {"prior": {"0": "1/3", "1": "1/3", "2": "1/3"}}),
    "rr3 maximal-leakage": ("maximal-leakage", lambda: rr(3), {}),
    "geometric n=2": ("pure-dp", lambda: geometric(2), {}),
    "geometric n=3": ("pure-dp", lambda: geometric(3), {}),
    "geometric n=3 renyi-2": ("renyi-2", lambda: geometric(3), {}),
    "exponential n=1": ("pure-dp", lambda: exponential(1), {"assumptions": ["a>0"]}),
    "exponential n=2": ("pure-dp", lambda: exponential(2), {"assumptions": ["a>0"]}),
    "zero entry": ("pure-dp", lambda: ZERO, {}),
    "two parameters": ("pure-dp", lambda: TWO, {}),
}


def main(argv):
    pick = argv[0] if argv else ""
    print(f"{'case':<26} {'notion':<16} {'pieces':>6} {'exact':>5} {'checks':>7} {'seconds':>8}  formula")
    for name, (nid, make, kw) in CASES.items():
        if pick not in name:
            continue
        m = make()
        t0 = time.perf_counter()
        d = derive_level(nid, m, **kw)
        dt = time.perf_counter() - t0
        ok = sum(1 for _, c in d.checks if c)
        text = str(d.formula)
        text = text if len(text) <= 60 else text[:59] + "…"
        print(f"{name:<26} {nid:<16} {len(d.pieces):>6} {'yes' if d.proved else 'no':>5} "
              f"{ok:>3}/{len(d.checks):<3} {dt:>8.2f}  {text}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
