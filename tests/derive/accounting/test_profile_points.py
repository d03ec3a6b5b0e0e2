"""A derived profile at many points: one derivation, each point a ball that holds the 40-digit value of the
Gaussian's privacy profile, a thousand points from one formula, and a bad list refused in one line."""
from __future__ import annotations

import json
from pathlib import Path

import mpmath as mp
import sympy as sp

from symbolic.derive.level_points import enclose_at, level_points
from theorems.cli.main import main

GAUSS = json.loads((Path(__file__).resolve().parents[3] / "docs" / "examples" / "gaussian.json").read_text())


def _gaussian_profile(eps, sigma):
    """δ(ε) of N(0, σ²) against N(1, σ²): Φ(1/(2σ) − εσ) − e^ε·Φ(−1/(2σ) − εσ)."""
    eps, sigma = mp.mpf(eps.p) / eps.q, mp.mpf(sigma)
    return mp.ncdf(1 / (2 * sigma) - eps * sigma) - mp.e ** eps * mp.ncdf(-1 / (2 * sigma) - eps * sigma)


def test_a_thousand_points_of_the_gaussian_profile_each_hold_the_independent_value():
    values = [sp.Rational(i, 250) for i in range(1000)]
    d, pts = level_points("approx-dp", GAUSS, "eps", values, params={"sigma": "2"})
    assert d.ok and len(pts) == 1000
    with mp.workdps(40):
        for v, b in pts[::97]:
            want = _gaussian_profile(v, 2)
            assert b.lower() <= sp.Rational(str(want)) + sp.Rational(1, 10 ** 35) and \
                sp.Rational(str(want)) - sp.Rational(1, 10 ** 35) <= b.upper()


def test_enclosing_at_a_value_seeds_the_symbol_without_substitution():
    x = sp.Symbol("x")
    (b,) = enclose_at(sp.exp(x) - x, x, [sp.Rational(1, 3)])
    with mp.workdps(40):
        want = sp.Rational(str(mp.e ** (mp.mpf(1) / 3) - mp.mpf(1) / 3))
    assert b.lower() - sp.Rational(1, 10 ** 35) <= want <= b.upper() + sp.Rational(1, 10 ** 35)
    assert b.upper() - b.lower() < sp.Rational(1, 10 ** 30)


def test_the_command_line_takes_a_list_for_one_parameter(capsys):
    assert main(["derive", "level", "approx-dp", "--mechanism", "docs/examples/gaussian.json", "--param", "sigma=1",
                 "--param", "eps=0,1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["eps"] for p in doc["points"]] == ["0", "1"] and float(doc["points"][1]["lower"]) > 0.1269
    code = main(["derive", "level", "approx-dp", "--mechanism", "docs/examples/gaussian.json", "--param", "sigma=1,2",
                 "--param", "eps=0,1"])
    assert code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
