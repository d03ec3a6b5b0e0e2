"""The accountants' RDP route for a Gaussian run: each conversion's ε is a valid bound (at or above the certified
upper end of the tight ε), Balle et al.'s is below Mironov's, and a run the route does not cover is refused."""
from __future__ import annotations

import pytest

import json
from fractions import Fraction as F

from symbolic.derive.accounting.conversions import rdp_conversions, zcdp_conversions
from symbolic.derive.accounting.run import Stage, account
from theorems.cli.main import main

RUN = (Stage("gaussian", F(1), F(1, 10), 4),)


@pytest.mark.slow
def test_the_converted_epsilons_lie_above_the_tight_enclosure_and_balle_below_mironov():
    got = {name: eps for name, eps, _ in rdp_conversions(RUN, F(1, 10 ** 5), (2, 4, 8, 16))}
    lo, hi = account(RUN, delta=F(1, 10 ** 5)).epsilon
    mironov, balle = got["Mironov 2017, Prop. 3"], got["Balle et al. 2020, Thm. 21"]
    assert hi <= balle < mironov


def _converted(noise, rate, steps, capsys) -> list:
    """The command's conversions for a run at δ = 10⁻⁵, each checked to lie at or above the certified upper end."""
    assert main(["account", "--noise", noise, "--rate", rate, "--steps", steps, "--delta", "1e-5",
                 "--conversions", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["conversions"]
    assert all(float(c["above_upper"]) >= 0 for c in rows)
    return rows


@pytest.mark.slow
def test_the_command_line_reports_each_conversions_gap(capsys):
    rows = _converted("gaussian:1", "1/10", "4", capsys)
    assert [c["conversion"] for c in rows] == ["Mironov 2017, Prop. 3", "Balle et al. 2020, Thm. 21"]
    code = main(["account", "--noise", "laplace:1", "--rate", "1/10", "--steps", "4", "--delta", "1e-5",
                 "--conversions"])
    assert code == 2 and "Gaussian" in capsys.readouterr().err


def test_a_run_without_sampling_converts_its_exact_zcdp_and_each_bound_is_valid():
    """Sixteen runs at σ = 4 are ρ = 1/2-zCDP; the tight ε at δ = 10⁻⁵ is the 1-GDP value (computed here from
    its closed form in 40 digits), below Canonne–Kamath–Steinke's, below Bun–Steinke's."""
    import mpmath as mp
    run = (Stage("gaussian", F(4), F(1), 16),)
    got = {name.split(",")[0]: eps for name, eps, _ in zcdp_conversions(run, F(1, 10 ** 5))}
    with mp.workdps(40):
        delta = lambda e: mp.ncdf(-e + mp.mpf(1) / 2) - mp.e ** e * mp.ncdf(-e - mp.mpf(1) / 2)
        tight = mp.findroot(lambda e: delta(e) - mp.mpf(10) ** -5, 4.37)
        assert tight < mp.mpf(got["Canonne"].numerator) / got["Canonne"].denominator
    assert got["Canonne"] < got["Bun"]


@pytest.mark.slow
def test_the_command_line_converts_a_run_without_sampling_by_zcdp(capsys):
    assert [c["route"] for c in _converted("gaussian:4", "1", "16", capsys)] == ["zCDP", "zCDP"]


def test_the_rdp_route_of_the_poisson_subsampled_gaussian_is_refused_for_sampling_without_replacement(capsys):
    code = main(["account", "--noise", "gaussian:1", "--rate", "1/10", "--steps", "4", "--sampling",
                 "without-replacement", "--delta", "1e-5", "--conversions"])
    assert code == 2 and "Poisson" in capsys.readouterr().err
