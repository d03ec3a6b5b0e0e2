"""A composition of different density mechanisms on one database: Gaussian runs are one Gaussian shift of
μ = √(Σ μ_i²) at the worst pair (not the runs' worst pairs taken apart), Laplace runs add their ε and Rényi
divergences pair by pair, each checked against closed forms computed here in 40 digits; runs over different
domains, or tables beside densities, are refused in one line."""
from __future__ import annotations

import json

import mpmath as mp
import pytest
import sympy as sp

from symbolic.derive.level import derive_level
from theorems.cli.main import main


def _gauss(sigma, means=(0, 1)):
    s2 = sp.Rational(sigma) ** 2
    return {"kind": "density", "outputs": "reals", "domain": list(range(len(means))),
            "density": {str(i): f"exp(-(y-({m}))^2/(2*{s2}))/sqrt(2*pi*{s2})" for i, m in enumerate(means)}}


def _laplace(b):
    return {"kind": "density", "outputs": "reals", "domain": [0, 1],
            "density": {"0": f"exp(-abs(y)/{b})/(2*{b})", "1": f"exp(-abs(y-1)/{b})/(2*{b})"}}


GAUSSIANS = {"kind": "composition", "of": [_gauss(1), _gauss(2), _gauss(2)]}


def _mp(x):
    return mp.mpf(sp.N(x, 50))


@pytest.mark.slow
def test_gaussian_runs_are_one_shift_whose_mu_adds_in_squares():
    assert derive_level("gaussian-dp", GAUSSIANS).value == sp.sqrt(6) / 2
    assert derive_level("zcdp", GAUSSIANS).value == sp.Rational(3, 4)
    d = derive_level("approx-dp", GAUSSIANS, params={"eps": 1})
    with mp.workdps(40):
        mu = mp.sqrt(mp.mpf(3) / 2)
        want = mp.ncdf(-1 / mu + mu / 2) - mp.e * mp.ncdf(-1 / mu - mu / 2)
        assert abs(_mp(d.value) - want) < mp.mpf(10) ** -30
    assert d.ok


def test_the_worst_pair_is_taken_over_the_sums_not_run_by_run():
    """Run 1 is worst at 0 ~ 1 (μ² = 1), run 2 at 1 ~ 2 and 0 ~ 2 (μ² = 1): the runs' worst pairs taken apart
    would give μ² = 2, but no pair has both; the composition's worst is μ² = 1/4 + 1 = 5/4."""
    doc = {"kind": "composition", "of": [_gauss(1, (0, 1, sp.Rational(1, 2))), _gauss(1, (0, 0, 1))]}
    d = derive_level("gaussian-dp", doc)
    assert d.value == sp.sqrt(5) / 2 and d.ok


def test_laplace_runs_add_their_epsilons_and_renyi_divergences_pair_by_pair():
    doc = {"kind": "composition", "of": [_laplace(1), _laplace(2)]}
    assert derive_level("pure-dp", doc).value == sp.Rational(3, 2)
    d = derive_level("renyi-dp", doc, params={"alpha": 2})
    with mp.workdps(40):
        one = lambda b: mp.log(mp.mpf(2) / 3 * mp.e ** (1 / b) + mp.mpf(1) / 3 * mp.e ** (-2 / b))
        assert abs(_mp(d.value) - (one(mp.mpf(1)) + one(mp.mpf(2)))) < mp.mpf(10) ** -30
    assert d.ok


def test_what_does_not_add_for_other_densities_is_an_honest_unknown():
    d = derive_level("gaussian-dp", {"kind": "composition", "of": [_laplace(1), _laplace(2)]})
    assert not d.ok and "not all Gaussian" in d.unknown


@pytest.mark.parametrize("runs, field", [
    ([_gauss(1), _gauss(1, (0, 1, 2))], "entry 2"),
    ([_gauss(1), {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["1/2", "1/2"], "1": ["1/2", "1/2"]}}],
     "mixes"),
])
def test_runs_over_different_domains_or_kinds_exit_2_in_one_line(runs, field, tmp_path, capsys):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({"kind": "composition", "of": runs}))
    assert main(["derive", "level", "gaussian-dp", "--mechanism", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err, err


@pytest.mark.slow
def test_a_list_repeated_k_times_is_the_list_of_its_k_copies():
    once = {"kind": "composition", "of": [_gauss(1), _gauss(2)]}
    assert derive_level("gaussian-dp", {**once, "times": 4}).value == sp.sqrt(4 * (1 + sp.Rational(1, 4)))
    assert derive_level("pure-dp", {"kind": "composition", "of": [_laplace(1), _laplace(2)], "times": 2}).value == 3
