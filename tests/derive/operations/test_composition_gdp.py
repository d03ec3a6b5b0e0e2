"""μ-GDP of compositions of finite tables: the certified enclosure of five runs of randomized response at
ε = 1/2 is where a 40-digit scan of the composed binomial pair puts the least μ, a list of two tables is
enclosed too, and an output one row never gives is μ = ∞."""
from __future__ import annotations

import mpmath as mp
import pytest
import sympy as sp

from symbolic.derive.composition_gdp import composition_gdp_level
from symbolic.derive.level import derive_level

RR_HALF = {"n": 1, "domain": [0, 1], "outputs": [0, 1],
           "rows": {"0": ["exp(1/2)/(1+exp(1/2))", "1/(1+exp(1/2))"], "1": ["1/(1+exp(1/2))", "exp(1/2)/(1+exp(1/2))"]}}


def _violated(mu, k, eps_grid):
    """Is δ_k(ε) > δ_μ(ε) somewhere on the grid, for k runs of randomized response at ε = 1/2 (a binomial pair)?"""
    a = mp.e ** mp.mpf(0.5) / (1 + mp.e ** mp.mpf(0.5))
    P = [mp.binomial(k, j) * a ** j * (1 - a) ** (k - j) for j in range(k + 1)]
    Q = [mp.binomial(k, j) * (1 - a) ** j * a ** (k - j) for j in range(k + 1)]
    for e in eps_grid:
        x = mp.e ** e
        got = sum(max(0, p - x * q) for p, q in zip(P, Q))
        if got > mp.ncdf(-e / mu + mu / 2) - x * mp.ncdf(-e / mu - mu / 2) + mp.mpf(10) ** -25:
            return True
    return False


def test_five_runs_of_randomized_response_are_enclosed_where_a_scan_puts_the_least_mu():
    d = derive_level("gaussian-dp", {"kind": "composition", "of": RR_HALF, "times": 5})
    lo, hi = d.enclosure
    assert d.ok and hi - lo < sp.Rational(1, 500)
    with mp.workdps(40):
        grid = [mp.mpf(i) / 200 for i in range(0, 1200)] + [mp.mpf(j) / 2 for j in range(-5, 6, 2)]
        assert _violated(mp.mpf(float(lo)) - mp.mpf("0.01"), 5, grid)
        assert not _violated(mp.mpf(float(hi)), 5, grid)


@pytest.mark.slow
def test_a_list_of_two_tables_is_enclosed_and_below_the_composition_bound():
    other = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2],
             "rows": {"0": ["1/2", "1/4", "1/4"], "1": ["1/4", "1/4", "1/2"]}}
    d = composition_gdp_level({"kind": "composition", "of": [RR_HALF, other]})
    assert d.ok and 0 < d.enclosure[0] <= d.enclosure[1]


def test_an_output_one_row_never_gives_is_mu_infinite():
    zero = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["1/2", "1/2"], "1": ["1", "0"]}}
    d = composition_gdp_level({"kind": "composition", "of": zero, "times": 3})
    assert d.value == sp.oo
