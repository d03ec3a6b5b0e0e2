"""Claims whose parameter map divides by a symbolic parameter, each beside the same claim written
multiplied out (E = R/δ against R = E·δ): verdict and seconds of both forms.

    python bench/rational_maps.py            # every pair
    python bench/rational_maps.py ind-pw     # pairs whose name contains "ind-pw"

R ≥ 1, E ≥ 1 and 0 < δ ≤ 1 (δ strictly positive: R/δ is defined on the whole range).
"""
from __future__ import annotations

import sys
import time

from symbolic.api import ApproxDP, Param, PureDP, Settings, Sizes, check_implies
from symbolic.notions.families.semantic import Indistinguishable, PointwiseIndistinguishable

R = Param("R", lower=1)
E = Param("E", lower=1)
DELTA = Param("delta", lower=0, lower_strict=True, upper=1)
r, e, d = R.symbol, E.symbol, DELTA.symbol

# name: (sizes, holds, division form, multiplied form); a form is (hypothesis, conclusion, params)
PAIRS = {
    "pure-widen": (Sizes(1, 2, 2), True, (PureDP(r), PureDP(r / d), (R, DELTA)),
                   (PureDP(e * d), PureDP(e), (E, DELTA))),
    "pure-narrow": (Sizes(1, 2, 2), False, (PureDP(r / d), PureDP(r), (R, DELTA)),
                    (PureDP(e), PureDP(e * d), (E, DELTA))),
    "pure-approx": (Sizes(2, 2, 2), True, (PureDP(r / d), ApproxDP(r, 1 - d), (R, DELTA)),
                    (PureDP(e), ApproxDP(e * d, 1 - d), (E, DELTA))),
    "pure-approx-half": (Sizes(1, 2, 2), False, (PureDP(r / d), ApproxDP(r, (1 - d) / 2), (R, DELTA)),
                         (PureDP(e), ApproxDP(e * d, (1 - d) / 2), (E, DELTA))),
    "approx-cancel": (Sizes(1, 2, 3), True, (ApproxDP(e, d), ApproxDP(e * d * (1 + 1 / d), d), (E, DELTA)),
                      (ApproxDP(e, d), ApproxDP(e * (1 + d), d), (E, DELTA))),
    "ind-pw": (Sizes(1, 2, 3), True,
               (Indistinguishable(r / d, d), PointwiseIndistinguishable(r ** 2 / d ** 2, d * (r ** 2 + d ** 2) / (r * (r - d))),
                (R, DELTA)),
               (Indistinguishable(e, d), PointwiseIndistinguishable(e ** 2, d * (e ** 2 + 1) / (e * (e - 1))), (E, DELTA))),
    "ind-pw-half": (Sizes(1, 2, 3), False,
                    (Indistinguishable(r / d, d), PointwiseIndistinguishable(r ** 2 / d ** 2, d / 2), (R, DELTA)),
                    (Indistinguishable(e, d), PointwiseIndistinguishable(e ** 2, d / 2), (E, DELTA))),
}


def run(name, form, settings=None):
    sizes, _, div, mul = PAIRS[name]
    hyp, concl, params = div if form == "division" else mul
    t = time.monotonic()
    res = check_implies(hyp, concl, params=params, sizes=sizes, settings=settings or Settings(second_solver=False))
    return res.verdict.name, time.monotonic() - t


def main(argv):
    names = [n for n in PAIRS if not argv or any(a in n for a in argv)]
    print(f"{'claim':18} {'holds':5} {'form':10} {'verdict':8} {'seconds':>7}")
    for name in names:
        for form in ("division", "multiplied"):
            verdict, secs = run(name, form)
            print(f"{name:18} {str(PAIRS[name][1]):5} {form:10} {verdict:8} {secs:7.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
