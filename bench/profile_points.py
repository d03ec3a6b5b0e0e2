"""A privacy profile at many points: the Gaussian's δ(ε) (σ = 1) derived once by sympy, then enclosed in 128-bit
balls at 1,000 values of ε; beside it, the naive route that substitutes each value into the formula and asks
sympy for 40 digits (no enclosure), timed on 50 points and scaled to 1,000.

    python bench/profile_points.py
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import sympy as sp

from symbolic.derive.level_points import enclose_at
from symbolic.derive.level import derive_level

GAUSSIAN = json.loads((Path(__file__).resolve().parents[1] / "docs/examples/gaussian.json").read_text())
POINTS = [sp.Rational(i, 100) for i in range(1, 1001)]


def main() -> None:
    t = time.process_time()
    d = derive_level("approx-dp", GAUSSIAN, params={"sigma": "1"})
    derived = time.process_time() - t
    f = d.formula.xreplace({s: 1 for s in d.formula.free_symbols if s.name == "sigma"})
    eps = next(s for s in f.free_symbols if s.name == "eps")
    t = time.process_time()
    balls = enclose_at(f, eps, POINTS)
    enclosed = time.process_time() - t
    widest = max(float(b.upper() - b.lower()) for b in balls)
    t = time.process_time()
    for v in POINTS[:50]:
        sp.N(f.subs(eps, v), 40)
    naive = (time.process_time() - t) * len(POINTS) / 50
    print("| step | CPU s | note |")
    print("|---|---|---|")
    print(f"| derive δ(ε) of the Gaussian once | {derived:.2f} | formula of {sp.count_ops(f)} operations |")
    print(f"| 1,000 certified points (128-bit balls) | {enclosed:.2f} | widest ball {widest:.1e} |")
    print(f"| naive: substitute and evalf at 40 digits, per point | {naive:.2f} | scaled from 50 points; no enclosure |")


if __name__ == "__main__":
    main()
