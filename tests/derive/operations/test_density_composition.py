"""The k-fold composition of a density mechanism: Gaussian laws through the shifted means (the published
16-fold number), levels that add for any density, an honest unknown otherwise, and the seeded checks."""
import json
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symbolic.core.ops import exact_sign
from symbolic.derive.level import derive_level
from symbolic.derive.operations import density_composition as dc
from symbolic.model.continuous import continuous_from_json
from theorems.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
GAUSS = json.loads((EXAMPLES / "gaussian.json").read_text())
LAPLACE = json.loads((EXAMPLES / "laplace.json").read_text())


def _comp(of, k):
    return {"kind": "composition", "of": of, "times": k}


def _gdp_delta(mu, eps):
    """δ(ε) of μ-GDP (Dong, Roth, Su 2022), in 40 digits, written here from the formula."""
    mpmath.mp.dps = 40
    mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e ** eps * mpmath.ncdf(-eps / mu - mu / 2)


@pytest.mark.slow
def test_sixteen_fold_gaussian_at_sigma_two_is_two_gdp(capsys):
    comp_file = str(EXAMPLES / "gaussian-16fold.json")
    assert main(["derive", "level", "gaussian-dp", "--mechanism", comp_file, "--param", "sigma=2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["value"] == "2" and got["ok"] and "√16" in got["proof"]


def test_sixteen_fold_gaussian_at_sigma_two_has_the_published_delta():
    delta = derive_level("approx-dp", _comp(GAUSS, 16), params={"sigma": "2", "eps": "1"})
    lo, hi = delta.enclosure
    assert delta.ok and hi - lo < sp.Rational(1, 10 ** 20)
    assert abs(float(lo) - 0.509861660054670) < 1e-12
    assert abs(lo - sp.Float(_gdp_delta(2, 1), 40)) < sp.Rational(1, 10 ** 25)


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2, 9])
def test_the_gaussian_route_gives_mu_times_root_k_and_rho_times_k_as_formulas(k):
    sigma = sp.Symbol("sigma", positive=True)
    mu = derive_level("gaussian-dp", _comp(GAUSS, k))
    assert sp.simplify(mu.formula - sp.sqrt(k) / sigma) == 0
    renyi = derive_level("renyi-dp", _comp(GAUSS, k), params={"alpha": "5/2"})
    assert sp.simplify(renyi.formula - k * sp.Rational(5, 2) / (2 * sigma ** 2)) == 0


def test_a_gaussian_with_another_mean_and_variance_is_recognised_exactly():
    doc = {"kind": "density", "outputs": "reals", "domain": [0, 1],
           "density": {"0": "exp(-(y-3)^2/8)/sqrt(8*pi)", "1": "exp(-(y-5)^2/8)/sqrt(8*pi)"}}
    A, means = dc.gaussian_location(continuous_from_json(doc))
    assert A == sp.Rational(1, 8) and set(means.values()) == {3, 5}
    assert derive_level("renyi-2", _comp(doc, 4)).value == 4   # 4 runs of α·Δ²/(2s²) = 2·4/8


@pytest.mark.slow
def test_laplace_zcdp_adds():
    rho = derive_level("zcdp", _comp(LAPLACE, 10), params={"b": "1"})
    lo, hi = rho.enclosure
    assert rho.ok and lo <= 10 * sp.exp(-1) <= hi   # ρ of Laplace(b = 1) is 1/e (Bun, Steinke 2016)


def test_laplace_levels_that_add_are_k_times_one_run_and_delta_is_unknown():
    comp = _comp(LAPLACE, 10)
    eps = derive_level("pure-dp", comp, params={"b": "1"})
    assert eps.ok and eps.value == 10
    r2 = derive_level("renyi-2", comp, params={"b": "1"})
    one = derive_level("renyi-2", LAPLACE, params={"b": "1"})
    assert r2.ok and exact_sign(r2.value - 10 * one.value) == 0
    delta = derive_level("approx-dp", comp, params={"b": "1", "eps": "1"})
    assert not delta.ok and "not Gaussian" in delta.unknown


def test_a_wrong_scaling_of_the_means_fails_the_additivity_check(monkeypatch):
    """Seeded fault: means multiplied by k instead of √k; the Rényi additivity check must fail."""
    real = dc._shifted
    monkeypatch.setattr(dc, "_shifted", lambda m, A, means, k, *rest: real(m, A, {d: sp.sqrt(k) * v for d, v in means.items()}, k, *rest))
    d = derive_level("renyi-2", _comp(GAUSS, 4), params={"sigma": "1"})
    assert not d.ok and any(not ok for _, ok in d.checks)


def test_a_symbolic_number_of_gaussian_runs_gives_formulas_in_k():
    doc = json.loads((EXAMPLES / "gaussian-k-fold.json").read_text())
    doc["of"] = GAUSS
    k, sigma = sp.Symbol("k", positive=True), sp.Symbol("sigma", positive=True)
    r2 = derive_level("renyi-2", doc)
    assert r2.ok and sp.simplify(r2.formula - k / sigma ** 2) == 0   # α·k/(2σ²) at α = 2
    lap = derive_level("pure-dp", {**doc, "of": LAPLACE})
    assert lap.ok and sp.simplify(lap.formula - k / sp.Symbol("b", positive=True)) == 0


@pytest.mark.slow
def test_mu_of_k_gaussian_runs_is_root_k_over_sigma():
    doc = {**json.loads((EXAMPLES / "gaussian-k-fold.json").read_text()), "of": GAUSS}
    mu = derive_level("gaussian-dp", doc)
    assert mu.ok and sp.simplify(mu.formula - sp.sqrt(sp.Symbol("k", positive=True)) / sp.Symbol("sigma", positive=True)) == 0


def test_a_symbolic_number_of_runs_of_an_enclosed_level_is_unknown_not_empty():
    """ρ of Laplace is only enclosed: k times it is no formula, and the answer says so (it was an empty 'ok')."""
    doc = {"kind": "composition", "of": LAPLACE, "times": "k", "params": {"k": "k>=1"}}
    d = derive_level("zcdp", doc, params={"b": "1"})
    assert not d.ok and d.unknown and "--param k=" in d.unknown and d.enclosure is None
