"""Tight constants between notions (symbolic.graph.constants.derivation.derive_map): one row per pair and size with
the formula, whether it is proved and attained (tight), how it is attained, and seconds. The second solver
is off (the proof is z3's alone), as in the fast tests.

    python bench/derive_map.py          # every case
    python bench/derive_map.py group    # cases whose name contains "group"
"""
from __future__ import annotations

import sys
import time

from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.derivation import derive_map
from symbolic.notions.listed.catalog import find_notion
from symbolic.solve.backends.settings import Settings

SETTINGS = Settings(second_solver=False)

CASES = [  # (name, A, B, sizes)
    ("pure->tv n=1", "pure-dp", "tv-privacy", Sizes(1, 2, 2)),
    ("pure->tv n=2", "pure-dp", "tv-privacy", Sizes(2, 2, 2)),
    ("pure->tv n=3", "pure-dp", "tv-privacy", Sizes(3, 2, 2)),
    ("pure->tv |O|=3", "pure-dp", "tv-privacy", Sizes(1, 2, 3)),
    ("pure->renyi-2 n=1", "pure-dp", "renyi-dp", Sizes(1, 2, 2)),
    ("pure->bounded-range n=1", "pure-dp", "bounded-range", Sizes(1, 2, 2)),
    ("pure->group-dp n=1", "pure-dp", "group-dp", Sizes(1, 2, 2)),
    ("pure->group-dp n=2", "pure-dp", "group-dp", Sizes(2, 2, 2)),
    ("pure->group-dp n=3", "pure-dp", "group-dp", Sizes(3, 2, 2)),
    ("pure->local-dp n=1", "pure-dp", "local-dp", Sizes(1, 2, 2)),
    ("pure->local-dp n=2", "pure-dp", "local-dp", Sizes(2, 2, 2)),
    ("pure->local-dp n=3", "pure-dp", "local-dp", Sizes(3, 2, 2)),
    ("approx->tv n=1", "approx-dp", "tv-privacy", Sizes(1, 2, 2)),
    ("unbounded->pure |D|=3", "unbounded-dp", "pure-dp", Sizes(1, 3, 2)),
    ("renyi->pure n=1", "renyi-dp", "pure-dp", Sizes(1, 2, 2)),
]


def main(argv):
    pick = argv[0] if argv else ""
    print(f"{'case':<26} {'sizes':<20} {'tight':>5} {'attained':>9} {'seconds':>8}  formula")
    for name, a, b, sizes in CASES:
        if pick not in name:
            continue
        t0 = time.perf_counter()
        d = derive_map(find_notion(a), find_notion(b), sizes=sizes, settings=SETTINGS)
        dt = time.perf_counter() - t0
        att = d.attained_by["level"].split(":")[0] if d.attained_by else "-"
        f = "unknown" if d.formula is None else str(d.formula)
        print(f"{name:<26} {str(sizes):<20} {'yes' if d.tight else 'no':>5} {att:>9} {dt:>8.2f}  {f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
