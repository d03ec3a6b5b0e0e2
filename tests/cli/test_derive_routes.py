"""Which route `dpcheck derive level NOTION --mechanism FILE` takes: zcdp and gaussian-dp of a density go to the
density levels and of a finite table to the certified enclosures of its rows (not to the exact scan, which
refused the density's "params" or ended in an internal error); a density without "params" is read as a
density; a notion that has only the exact scan refuses a density with one line. Each value is compared with
one computed here from the definitions (mpmath, 30 digits) or the published closed form."""
from __future__ import annotations

import json
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from theorems.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def run(capsys, *args):
    code = main(["derive", "level", *args])
    got = capsys.readouterr()
    assert "Traceback" not in got.err
    return code, got.out, got.err


def run_json(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    return code, json.loads(out), err


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpcheck: error: "), err
    return lines[0]


def inside(doc, ref, width=sp.Rational(1, 10 ** 12)):
    """The certified enclosure of a JSON level contains ``ref`` (an mpmath number, 30 digits) and is narrow."""
    lo, hi = (sp.Rational(doc["enclosure"][k]) for k in ("lower", "upper"))
    r = sp.Rational(mpmath.nstr(ref, 28))
    return lo - sp.Rational(1, 10 ** 25) <= r <= hi + sp.Rational(1, 10 ** 25) and hi - lo < width


def gaussian_sigma_one(tmp_path):
    """docs/examples/gaussian.json with σ written as 1 and no "params"."""
    doc = json.loads((EXAMPLES / "gaussian.json").read_text())
    doc.pop("params")
    doc["density"] = {k: v.replace("sigma", "1") for k, v in doc["density"].items()}
    f = tmp_path / "gaussian1.json"
    f.write_text(json.dumps(doc))
    return f


@pytest.mark.slow
def test_zcdp_of_the_gaussian_file_is_its_formula_in_sigma(capsys):
    code, doc, err = run_json(capsys, "zcdp", "--mechanism", str(EXAMPLES / "gaussian.json"))
    assert code == 0, err
    sigma = sp.Symbol("sigma", positive=True)
    assert sp.simplify(sp.sympify(doc["formula"], locals={"sigma": sigma}) - 1 / (2 * sigma ** 2)) == 0 and doc["ok"]


@pytest.mark.slow
def test_gaussian_dp_of_the_gaussian_file_at_sigma_one_is_one(capsys):
    code, doc, err = run_json(capsys, "gaussian-dp", "--mechanism", str(EXAMPLES / "gaussian.json"),
                              "--param", "sigma=1")
    assert code == 0, err
    sigma = sp.Symbol("sigma", positive=True)
    assert doc["value"] == "1" and doc["exact"] and doc["ok"]
    assert sp.simplify(sp.sympify(doc["formula"], locals={"sigma": sigma}) - 1 / sigma) == 0


@pytest.mark.slow
def test_zcdp_at_sigma_one_and_gaussian_dp_in_sigma(capsys):
    code, doc, err = run_json(capsys, "zcdp", "--mechanism", str(EXAMPLES / "gaussian.json"), "--param", "sigma=1")
    assert code == 0 and doc["value"] == "1/2" and doc["ok"], err
    code, doc, err = run_json(capsys, "gaussian-dp", "--mechanism", str(EXAMPLES / "gaussian.json"))
    sigma = sp.Symbol("sigma", positive=True)
    assert code == 0 and sp.simplify(sp.sympify(doc["formula"], locals={"sigma": sigma}) - 1 / sigma) == 0, err


@pytest.mark.slow
def test_a_density_without_params_is_read_as_a_density(tmp_path, capsys):
    f = gaussian_sigma_one(tmp_path)
    code, doc, err = run_json(capsys, "zcdp", "--mechanism", str(f))
    assert code == 0 and doc["value"] == "1/2" and doc["ok"], err


def test_zcdp_of_randomized_response_encloses_half_log_3(capsys):
    """RR at p = 3/4: D_α/α decreases in α, so ρ is the KL divergence (3/4 − 1/4)·log 3 = log(3)/2."""
    code, doc, err = run_json(capsys, "zcdp", "--mechanism", str(EXAMPLES / "rr.json"))
    assert code == 0 and doc["ok"], err
    assert inside(doc, mpmath.log(3) / 2, width=sp.Rational(1, 10 ** 13))
    assert "the KL divergence) is log(3)/2, inside the enclosure" in doc["proof"]


def test_gaussian_dp_of_randomized_response_encloses_its_tight_mu(capsys):
    """RR with ratio E is μ-GDP exactly for μ = 2Φ⁻¹(E/(1+E)) (its trade-off's kink on G_μ); E = 3 here."""
    code, doc, err = run_json(capsys, "gaussian-dp", "--mechanism", str(EXAMPLES / "rr.json"))
    assert code == 0 and doc["ok"], err
    mpmath.mp.dps = 30
    assert inside(doc, 2 * mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(1) / 2), width=sp.Rational(1, 100))


def test_a_notion_with_only_the_exact_scan_refuses_a_density_in_one_line(tmp_path, capsys):
    code, out, err = run(capsys, "lip", "--mechanism", str(EXAMPLES / "laplace.json"))
    assert code == 2 and "density or mass function" in one_line(err) and "unknown key" not in err
    (tmp_path / "mine.py").write_text(
        "from symbolic.api import Notion, E_SPEC\n"
        "def floor(ops, A, P=None, *, E):\n"
        "    return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)\n"
        "Floor = Notion('Floor', (E_SPEC,), floor)\n")
    code, out, err = run(capsys, f"{tmp_path / 'mine.py'}:Floor", "--mechanism", str(gaussian_sigma_one(tmp_path)))
    assert code == 2 and "density or mass function" in one_line(err) and "unknown key" not in err


def test_a_prior_or_an_order_that_the_level_does_not_take_is_refused(tmp_path, capsys):
    code, out, err = run(capsys, "zcdp", "--mechanism", str(EXAMPLES / "rr.json"), "--prior", str(EXAMPLES / "rr.json"))
    assert code == 2 and "takes no prior" in one_line(err)
    code, out, err = run(capsys, "pure-dp", "--mechanism", str(gaussian_sigma_one(tmp_path)), "--param", "alpha=2")
    assert code == 2 and "no parameter 'alpha'" in one_line(err)


@pytest.mark.parametrize("name, param", [("laplace.json", "b=1"), ("discrete-laplace.json", "b=1"),
                                         ("staircase.json", "eps0=1"), ("discrete-gaussian.json", "sigma=1")])
@pytest.mark.slow
def test_every_density_file_has_a_zcdp_answer_or_an_honest_unknown(name, param, capsys):
    """Laplace b = 1: KL e^(−1) (D_α/α is largest as α → 1); discrete Laplace b = 1: KL tanh(1/2); staircase:
    checked against D_α/α by quadrature in the derivation's own checks; discrete Gaussian: unknown, with why."""
    code, doc, err = run_json(capsys, "zcdp", "--mechanism", str(EXAMPLES / name), "--param", param)
    if name == "discrete-gaussian.json":
        assert code == 1 and doc["unknown"] and not doc["ok"], err
        return
    assert code == 0 and doc["ok"], err
    mpmath.mp.dps = 30
    ref = {"laplace.json": mpmath.e ** -1, "discrete-laplace.json": mpmath.tanh(mpmath.mpf(1) / 2)}.get(name)
    if ref is not None:
        assert inside(doc, ref, width=sp.Rational(1, 10 ** 12))


@pytest.mark.parametrize("name, param", [("laplace.json", "b=1"), ("discrete-laplace.json", "b=1"),
                                         ("discrete-gaussian.json", "sigma=1")])
def test_gaussian_dp_of_a_density_that_is_no_gaussian_shift_is_unknown_with_its_reason(name, param, capsys):
    code, doc, err = run_json(capsys, "gaussian-dp", "--mechanism", str(EXAMPLES / name), "--param", param)
    assert code == 1 and "not one" in doc["unknown"] and not doc["ok"], err
