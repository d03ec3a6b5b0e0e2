"""The staircase mechanism (Geng, Viswanath 2014): a density with floor, cut into cells
(symbolic.model.line_cuts). Each level is compared with an independent 30-digit value summed here over
the cells between the density's steps (mpmath), never with the engine's closed form."""
import json
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symbolic.core.errors import InvalidDistribution, InvalidParameter
from symbolic.derive.continuous.level import derive_curve_level
from symbolic.model.continuous import continuous_from_json, gaussian, staircase

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
mpmath.mp.dps = 30


def stair(t, eps0, gamma):
    """The staircase density at t (30 digits), from its definition: a on [0, γ), a·e^(−ε₀) on [γ, 1), …"""
    b = mpmath.e ** (-eps0)
    a = (1 - b) / (2 * (gamma + (1 - gamma) * b))
    k = mpmath.floor(abs(t) - gamma) + 1
    return a * b ** k


def cell_sum(f, eps0, gamma, reach=120):
    """Σ over the cells between the steps of p(y) = stair(y) and q(y) = stair(y − 1) of f(p, q)·width."""
    pts = {mpmath.mpf(0), mpmath.mpf(1)}
    for k in range(reach):
        for s in (k + gamma, -(k + gamma)):
            pts |= {mpmath.mpf(s), mpmath.mpf(s) + 1}
    pts = sorted(pts)
    total = mpmath.mpf(0)
    for lo, hi in zip(pts, pts[1:]):
        mid = (lo + hi) / 2
        total += f(stair(mid, eps0, gamma), stair(mid - 1, eps0, gamma)) * (hi - lo)
    return total


def close(d, ref, tol=sp.Rational(1, 10 ** 9)):
    lo, hi = d.enclosure
    ref = sp.Rational(mpmath.nstr(ref, 28))
    return lo - tol <= ref <= hi + tol


def test_the_staircase_is_a_valid_density_and_its_pure_dp_level_is_eps0_on_cells():
    d = derive_curve_level("pure-dp", staircase(None, sp.Rational(1, 2)))
    assert d.formula == sp.Symbol("eps0", positive=True) and d.ok
    assert "cells" in d.where


_E_HALF = mpmath.e ** mpmath.mpf(0.5)
_LEVELS = {"total-variation": ({}, lambda g: cell_sum(lambda p, q: max(p - q, 0), 1, g)),
           "renyi-dp": ({"alpha": 2}, lambda g: mpmath.log(cell_sum(lambda p, q: p * p / q, 1, g))),
           "approx-dp": ({"eps": sp.Rational(1, 2)}, lambda g: cell_sum(lambda p, q: max(p - _E_HALF * q, 0), 1, g))}


@pytest.mark.parametrize("gamma, notion", [(sp.Rational(1, 2), "approx-dp")] + [
    pytest.param(g, n, marks=pytest.mark.slow) for g in (sp.Rational(1, 2), None) for n in _LEVELS
    if (g, n) != (sp.Rational(1, 2), "approx-dp")])
def test_staircase_levels_match_a_sum_over_its_cells(gamma, notion):
    """At ε₀ = 1, γ = 1/2 and the optimal γ* = 1/(1 + e^(1/2)): total variation, D₂ and δ at ε = 1/2 (the default
    run: δ at γ = 1/2)."""
    m = staircase(1, gamma)
    g = mpmath.mpf(1) / 2 if gamma is not None else 1 / (1 + mpmath.e ** mpmath.mpf(0.5))
    params, cells = _LEVELS[notion]
    level = derive_curve_level(notion, m, params=params) if params else derive_curve_level(notion, m)
    assert close(level, cells(g)) and level.ok


@pytest.mark.slow
def test_staircase_total_variation_in_eps0_at_gamma_one_half():
    """The formula in ε₀ agrees with the cell sum at three values (the engine's formula, checked)."""
    d = derive_curve_level("total-variation", staircase(None, sp.Rational(1, 2)))
    eps0 = sp.Symbol("eps0", positive=True)
    for v in ("1/3", "2", "5"):
        got = mpmath.mpf(sp.N(d.formula.subs(eps0, sp.Rational(v)), 35))
        assert abs(got - cell_sum(lambda p, q: max(p - q, 0), mpmath.mpf(sp.Rational(v)), mpmath.mpf(1) / 2)) < 1e-12


def test_floor_is_read_only_in_step_densities():
    base = {"kind": "density", "outputs": "reals", "domain": [0, 1]}
    curved = dict(base, density={"0": "exp(-abs(y))*exp(-floor(abs(y)))", "1": "exp(-abs(y))"})
    with pytest.raises(InvalidDistribution, match="not constant between the steps"):
        continuous_from_json(curved)
    square = dict(base, density={"0": "exp(-floor(y^2))", "1": "exp(-floor(y^2))"})
    with pytest.raises(InvalidDistribution, match="not of an argument linear"):
        continuous_from_json(square)
    mass = {"kind": "mass", "outputs": "integers", "domain": [0, 1], "normalise": True,
            "mass": {"0": "exp(-floor(abs(y)/2))", "1": "exp(-floor(abs(y-1)/2))"}}
    with pytest.raises(InvalidDistribution, match="floor is read in densities over the reals"):
        continuous_from_json(mass)
    unnormalised = dict(base, density={"0": "exp(-floor(abs(y)))", "1": "exp(-floor(abs(y-1)))"})
    with pytest.raises(InvalidDistribution, match="not 1"):
        continuous_from_json(unnormalised)


def test_a_mechanism_parameter_named_like_the_notions_own_is_refused():
    doc = json.loads((EXAMPLES / "laplace.json").read_text().replace('"b"', '"eps"').replace("/b", "/eps")
                     .replace("*b", "*eps").replace("b>0", "eps>0"))
    with pytest.raises(InvalidParameter, match="has the name of approx-dp's own parameter"):
        derive_curve_level("approx-dp", doc)


def test_a_level_infinite_in_every_parameter_value_is_checked_at_samples():
    """The Gaussian's pure-DP level is ∞ for every σ: the check samples σ (it once evaluated the law with σ
    left a symbol, an internal error)."""
    d = derive_curve_level("pure-dp", gaussian())
    assert d.value == sp.oo and d.ok and len(d.checks) == 2


@pytest.mark.slow
def test_staircase_example_file_from_the_command_line():
    out = subprocess.run([sys.executable, "-m", "theorems.cli.main", "derive", "level", "pure-dp", "--mechanism",
                          str(EXAMPLES / "staircase.json"), "--param", "eps0=1"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "epsilon = 1" in out.stdout and "cells" in out.stdout
