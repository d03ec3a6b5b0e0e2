"""Each published number of composition and subsampling, derived as `dpcheck derive level` derives it (the
level's checks included), with its seconds, beside a naive baseline: the explicit product table in exact
arithmetic where it has at most 2^12 rows, else a 40-digit mpmath computation that proves nothing.
Usage: python bench/operation_numbers.py"""
import json
import time
from itertools import product
from pathlib import Path

import mpmath
import sympy as sp

from symbolic.api import derive_level

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "docs" / "examples"
GAUSS = json.loads((EX / "gaussian.json").read_text())
RR_HALF = json.loads((EX / "rr-half.json").read_text())
RR_ONE = json.loads((EX / "rr-one.json").read_text())


def _rr(eps):
    hi, lo = f"exp({eps})/(1+exp({eps}))", f"1/(1+exp({eps}))"
    return {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [hi, lo], "1": [lo, hi]}}


def naive_product_delta(eps, k, eps_prime):
    """δ of k-fold ε-randomized response by enumerating its 2^k output tuples, both directions, 40 digits."""
    mpmath.mp.dps = 40
    e = mpmath.e ** mpmath.mpf(eps)
    p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
    E = mpmath.e ** mpmath.mpf(eps_prime)
    best = 0
    for a, b in ((p, q), (q, p)):
        total = 0
        for t in product((0, 1), repeat=k):
            P, Q = mpmath.fprod(a[i] for i in t), mpmath.fprod(b[i] for i in t)
            total += max(P - E * Q, 0)
        best = max(best, total)
    return best


def naive_gdp_delta(mu, eps):
    mpmath.mp.dps = 40
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e ** eps * mpmath.ncdf(-eps / mu - mu / 2)


def naive_sampled_gaussian(q, alpha):
    """D_α(mixture‖N(0, 1)) by 40-digit quadrature (one direction; no proof)."""
    mpmath.mp.dps = 40
    f = lambda y: mpmath.npdf(y) * (1 - q + q * mpmath.e ** (y - mpmath.mpf(1) / 2)) ** alpha
    return mpmath.log(mpmath.quad(f, [-mpmath.inf, -10, 0, 10, mpmath.inf])) / (alpha - 1)


CASES = [
    ("5-fold ε = 1/2 RR, δ(ε′ = 1)", "0.184097926255053", "approx-dp",
     {"kind": "composition", "of": RR_HALF, "times": 5}, {"eps": "1"}, lambda: naive_product_delta("1/2", 5, 1)),
    ("100-fold 0.01-DP, δ at Dwork–Rothblum–Vadhan's ε′", "≤ 1e-5", "approx-dp",
     {"kind": "composition", "of": _rr("1/100"), "times": 100},
     {"eps": "sqrt(2*100*log(100000))/100 + (exp(1/100) - 1)"}, None),
    ("Poisson q = 1/10 of 1-DP, ε′", "0.158565078740429", "pure-dp",
     {"kind": "subsampled", "of": RR_ONE, "sampling": "poisson", "rate": "1/10"}, {},
     lambda: mpmath.log(1 + (mpmath.e - 1) / 10)),
    ("16-fold Gaussian σ = 2, μ", "2", "gaussian-dp", {"kind": "composition", "of": GAUSS, "times": 16},
     {"sigma": "2"}, lambda: mpmath.sqrt(16) / 2),
    ("16-fold Gaussian σ = 2, δ(1)", "0.509861660054670", "approx-dp",
     {"kind": "composition", "of": GAUSS, "times": 16}, {"sigma": "2", "eps": "1"}, lambda: naive_gdp_delta(2, 1)),
    *((f"Poisson q = 1/100 Gaussian σ = 1, Rényi α = {a}", v, "renyi-dp",
       {"kind": "subsampled", "of": GAUSS, "sampling": "poisson", "rate": "1/100"}, {"sigma": "1", "alpha": str(a)},
       (lambda a=a: naive_sampled_gaussian(mpmath.mpf(1) / 100, a)))
      for a, v in ((2, "1.718134220745479e-4"), (3, "2.646375745846613e-4"), (8, "8.936439076060318e-4"))),
]


def _value(d):
    v = getattr(d, "enclosure", None)
    if v is not None:
        return sp.Float((v[0] + v[1]) / 2, 16)
    return sp.N(d.formula, 16)


def main():
    print(f"{'number':<52} {'published':>20} {'derived':>22} {'s':>6}  ok  {'naive':>22} {'naive s':>8}")
    for name, published, notion, doc, params, naive in CASES:
        t0 = time.perf_counter()
        d = derive_level(notion, doc, params=params)
        dt = time.perf_counter() - t0
        nv, nt = "—", ""
        if naive is not None:
            t1 = time.perf_counter()
            nv = mpmath.nstr(naive(), 16)
            nt = f"{time.perf_counter() - t1:8.2f}"
        print(f"{name:<52} {published:>20} {str(_value(d)):>22} {dt:6.2f}  {'yes' if d.ok else 'NO ':>3} {nv:>22} {nt:>8}")


if __name__ == "__main__":
    main()
