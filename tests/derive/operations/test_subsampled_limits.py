"""What Poisson sampling does not improve for the Gaussian: pure DP stays ∞, zCDP stays μ²/2 (a supremum the
orders approach), μ-GDP stays μ (a smaller μ′ fails far out in ε), each for one run and for k runs; every
number set against a value computed here in high-precision arithmetic."""
from __future__ import annotations

from pathlib import Path

import json

import mpmath as mp
import sympy as sp

from symbolic.derive.level import derive_level

ROOT = Path(__file__).resolve().parents[3]
GAUSS = json.loads((ROOT / "docs/examples/gaussian.json").read_text())
SUB = {**json.loads((ROOT / "docs/examples/gaussian-poisson.json").read_text()), "of": GAUSS}


def test_the_three_levels_of_one_subsampled_step():
    got = {n: derive_level(n, SUB, params={"sigma": "1"}) for n in ("pure-dp", "zcdp", "gaussian-dp")}
    assert got["pure-dp"].value == sp.oo and got["zcdp"].value == sp.Rational(1, 2) and got["gaussian-dp"].value == 1
    assert all(d.ok for d in got.values())


def test_k_runs_add_rho_and_mu_in_squares():
    run = {"kind": "composition", "times": 1000, "of": SUB}
    assert derive_level("zcdp", run, params={"sigma": "2"}).value == sp.Rational(1000, 8)
    d = derive_level("gaussian-dp", run, params={"sigma": "2"})
    assert d.value == sp.sqrt(1000) / 2 and d.ok


def test_the_orders_approach_rho_from_below():
    """D_α/α of the subsampled Gaussian (q = 1/100, μ = 1) by the binomial sum in 60 digits: below 1/2, and
    above 1/2 + log(q)/(α − 1) at α = 128."""
    with mp.workdps(60):
        q, a = mp.mpf(1) / 100, 128
        mass = sum(mp.binomial(a, j) * (1 - q) ** (a - j) * q ** j * mp.e ** (mp.mpf(j * j - j) / 2)
                   for j in range(a + 1))
        ratio = mp.log(mass) / (a - 1) / a
        assert mp.mpf(1) / 2 + mp.log(q) / (a - 1) <= ratio < mp.mpf(1) / 2


def test_a_smaller_mu_fails_where_the_exact_curve_says():
    """At ε = 512 the exact δ(ε) of the step (closed form at the threshold, 600 digits) exceeds δ_0.99(ε)."""
    with mp.workdps(600):
        q, eps = mp.mpf(1) / 100, mp.mpf(512)
        y = mp.log((mp.e ** eps - 1 + q) / q) + mp.mpf(1) / 2
        tail = lambda t: mp.ncdf(-t)
        step = (1 - q) * tail(y) + q * tail(y - 1) - mp.e ** eps * tail(y)
        m = mp.mpf(99) / 100
        gdp = mp.ncdf(-eps / m + m / 2) - mp.e ** eps * mp.ncdf(-eps / m - m / 2)
        assert step > gdp > 0
