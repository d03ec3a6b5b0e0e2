"""derive level of a Poisson-subsampled Gaussian density: the published Rényi numbers, the scale read from
the laws, nested files, and what is not yet derived."""
import json
from pathlib import Path

import pytest
import sympy as sp

from symbolic.core.ops import exact_sign
from symbolic.derive.level import derive_level
from theorems.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
GAUSS = json.loads((EXAMPLES / "gaussian.json").read_text())
LAPLACE = json.loads((EXAMPLES / "laplace.json").read_text())


def _poisson(of, rate="1/100", **more):
    return {"kind": "subsampled", "of": of, "sampling": "poisson", "rate": rate, **more}


@pytest.mark.parametrize("alpha, published", [(2, "1.718134220745479e-4"), (3, "2.646375745846613e-4"),
                                              (8, "8.936439076060318e-4")])
def test_the_subsampled_gaussian_file_gives_the_published_renyi_levels(alpha, published, capsys):
    args = ["derive", "level", "renyi-dp", "--mechanism", str(EXAMPLES / "gaussian-poisson.json"),
            "--param", "sigma=1", "--param", f"alpha={alpha}", "--json"]
    assert main(args) == 0
    got = json.loads(capsys.readouterr().out)
    lo, hi = sp.Rational(got["enclosure"]["lower"]), sp.Rational(got["enclosure"]["upper"])
    assert got["ok"] and got["exact"] and hi - lo < sp.Rational(1, 10 ** 30)
    assert abs(lo / sp.Rational(sp.Float(published, 20)) - 1) < sp.Rational(1, 10 ** 12)
    assert "forward direction" in got["attained_by"]


def test_the_scale_is_read_from_the_laws():
    """σ = 2 with sensitivity 1 is μ = 1/2: at α = 2 the level is log(1 + q²(e^(μ²) − 1)) exactly."""
    d = derive_level("renyi-2", _poisson(GAUSS, "1/10"), params={"sigma": "2"})
    q, mu = sp.Rational(1, 10), sp.Rational(1, 2)
    assert d.ok and exact_sign(d.value - sp.log(1 + q ** 2 * (sp.exp(mu ** 2) - 1))) == 0
    shifted = {"kind": "density", "outputs": "reals", "domain": [0, 1],
               "density": {"0": "exp(-(y-7)^2/8)/sqrt(8*pi)", "1": "exp(-(y-5)^2/8)/sqrt(8*pi)"}}
    e = derive_level("renyi-2", _poisson(shifted, "1/10"))   # |5 − 7|/2 = 1: the same as σ = 1
    f = derive_level("renyi-2", _poisson(GAUSS, "1/10"), params={"sigma": "1"})
    assert e.ok and exact_sign(e.value - f.value) == 0


def test_a_named_rate_and_a_nested_file(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps(GAUSS))
    (tmp_path / "s.json").write_text(json.dumps(_poisson("g.json", "q", params={"q": "0<q<1"})))
    assert main(["derive", "level", "renyi-2", "--mechanism", str(tmp_path / "s.json"), "--param", "sigma=1",
                 "--param", "q=1/100", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert abs(float(sp.Rational(got["enclosure"]["lower"])) - 1.718134220745479e-4) < 1e-15


@pytest.mark.parametrize("notion, doc, params, words", [
    ("bounded-range", _poisson(GAUSS), {"sigma": "1"}, "not yet derived"),
    ("renyi-2", _poisson(LAPLACE), {"b": "1"}, "not"),
    ("renyi-2", {"kind": "subsampled", "of": GAUSS, "sampling": "without-replacement", "rate": "1/2", "size": 2},
     {"sigma": "1"}, "without replacement is not yet derived"),
])
def test_what_is_not_yet_derived_is_an_honest_unknown(notion, doc, params, words):
    d = derive_level(notion, doc, params=params)
    assert not d.ok and d.unknown and words in d.unknown


@pytest.mark.parametrize("doc, args, field", [
    (_poisson("g.json"), ["--param", "alpha=2"], "sigma"),
    (_poisson("g.json"), ["--param", "sigma=1"], "alpha"),
    (_poisson("g.json", "2"), ["--param", "alpha=2", "--param", "sigma=1"], '"rate"'),
])
def test_bad_subsampled_density_files_exit_2(doc, args, field, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.json").write_text(json.dumps(GAUSS))
    (tmp_path / "s.json").write_text(json.dumps(doc))
    assert main(["derive", "level", "renyi-dp", "--mechanism", "s.json", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err, err


def test_subsample_then_compose_adds_the_renyi_levels(capsys):
    """A thousand steps at q = 1/100, σ = 1: the training-run shape; Rényi levels add over the steps."""
    one = derive_level("renyi-dp", _poisson(GAUSS), params={"sigma": "1", "alpha": "8"})
    assert main(["derive", "level", "renyi-dp", "--mechanism", str(EXAMPLES / "gaussian-poisson-1000.json"),
                 "--param", "sigma=1", "--param", "alpha=8", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["ok"] and exact_sign(sp.sympify(got["value"]) - 1000 * one.value) == 0
    lo = sp.Rational(got["enclosure"]["lower"])
    assert abs(lo - 1000 * sp.Rational(sp.Float("8.936439076060318e-4", 20))) < sp.Rational(1, 10 ** 12)


def test_present_values_at_the_same_distance_share_one_level_and_the_farther_one_wins():
    three = {"kind": "density", "outputs": "reals", "domain": [0, 1, 2],
             "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)",
                         "2": "exp(-(y+1)^2/2)/sqrt(2*pi)"}}
    d = derive_level("renyi-2", _poisson(three))
    one = derive_level("renyi-2", _poisson(GAUSS), params={"sigma": "1"})
    assert d.ok and exact_sign(d.value - one.value) == 0
    far = {**three, "density": {**three["density"], "2": "exp(-(y+2)^2/2)/sqrt(2*pi)"}}
    e = derive_level("renyi-2", _poisson(far))
    assert e.ok and "0 ~ 2" in e.where and exact_sign(e.value - one.value) > 0


def test_k_steps_at_a_real_order_with_k_symbolic_are_unknown_not_empty():
    sub = _poisson(GAUSS)
    doc = {"kind": "composition", "of": sub, "times": "k", "params": {"k": "k>=1"}}
    d = derive_level("renyi-dp", doc, params={"sigma": "1", "alpha": "5/2"})
    assert not d.ok and d.unknown and d.enclosure is None
    e = derive_level("renyi-dp", doc, params={"sigma": "1", "alpha": "5/2", "k": "3"})
    one = derive_level("renyi-dp", sub, params={"sigma": "1", "alpha": "5/2"})
    assert e.ok and e.enclosure == (3 * one.enclosure[0], 3 * one.enclosure[1])
