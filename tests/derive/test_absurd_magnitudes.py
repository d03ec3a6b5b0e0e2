"""Absurd magnitudes given to `derive`: one line and exit 2 (or an answer, well within the budget), never a run
past the budget, a crash (exit 3) or a cross-check failing because the numerics cannot resolve the input.

Each case ran for minutes or crashed before: σ = 10^±300 and ε = 10^9 built rationals of 10^11 bits from the
enclosures' ends; the discrete Gaussian's Rényi check at α = 100 summed past its peak into a complex
logarithm; a Gaussian's Rényi order 10^9 built (2π)^(10^9/2) exactly; ε = 10^9 in `derive map` printed a
4,300-digit integer or read an unbounded interval. The budget is set low (`--budget 20`): a case that runs
past it exits 1 with the budget's line, which fails these tests as surely as a hang would."""
import json
import pathlib

import pytest

from theorems.cli.main import main

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples"
GAUSS, DGAUSS = str(EXAMPLES / "gaussian.json"), str(EXAMPLES / "discrete-gaussian.json")

REFUSED = {   # command -> words the one line must contain
    "sigma-huge": (["derive", "level", "approx-dp", "--mechanism", GAUSS, "--param", "sigma=10^300", "--param",
                    "eps=1"], ["sigma=10^300", "between 10^-20 and 10^20"]),
    "sigma-tiny": (["derive", "level", "approx-dp", "--mechanism", GAUSS, "--param", "sigma=10^-300", "--param",
                    "eps=1"], ["sigma=10^-300", "between 10^-20 and 10^20"]),
    "eps-huge-level": (["derive", "level", "approx-dp", "--mechanism", GAUSS, "--param", "sigma=1", "--param",
                        "eps=10^30"], ["eps=10^30"]),
    "alpha-huge-gaussian": (["derive", "level", "renyi-dp", "--mechanism", GAUSS, "--param", "alpha=10^9"],
                            ["alpha=10^9", "largest Rényi order"]),
    "alpha-huge-discrete": (["derive", "level", "renyi-dp", "--mechanism", DGAUSS, "--param", "alpha=10^9"],
                            ["alpha=10^9", "largest Rényi order"]),
    "map-gdp-eps": (["derive", "map", "pure-dp", "gaussian-dp", "--param", "eps=10^9"], ["eps=1000000000", "ε ≤"]),
    "map-zcdp-eps": (["derive", "map", "pure-dp", "zcdp", "--param", "eps=10^9"], ["eps=1000000000", "ε ≤"]),
    "map-renyi-order": (["derive", "map", "pure-dp", "renyi-dp", "--param", "alpha=10^9", "--param", "eps=1"],
                        ["alpha=10^9", "largest Rényi order"]),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_absurd_value_is_refused_in_one_line(case, capsys):
    argv, words = REFUSED[case]
    assert main([*argv, "--budget", "20"] if argv[1] == "level" else argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpcheck: error: "), err
    assert all(w in lines[0] for w in words), lines[0]
    assert "Traceback" not in err and out == ""


def test_a_tiny_constant_in_the_file_is_refused(tmp_path, capsys):
    doc = {"kind": "density", "outputs": "reals", "domain": [0, 1],
           "density": {"0": "exp(-y^2/(2*10^-600))/sqrt(2*pi*10^-600)",
                       "1": "exp(-(y-1)^2/(2*10^-600))/sqrt(2*pi*10^-600)"}}
    f = tmp_path / "narrow.json"
    f.write_text(json.dumps(doc))
    assert main(["derive", "level", "approx-dp", "--mechanism", str(f), "--param", "eps=1", "--budget", "20"]) == 2
    err = capsys.readouterr().err
    # the parser has already folded 1/(2·10^-600) into 5·10^599: that is the number named
    assert "has the number 5000" in err and "between 10^-20 and 10^20" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, printed", [
    # δ far below 10^-39456: the enclosure's ends are rounded outward there, not built as rationals of 10^11 bits
    (["--param", "sigma=10^6", "--param", "eps=1"], "2.50e-39457"),
    (["--param", "sigma=1", "--param", "eps=10^9"], "2.50e-39457"),
    # a narrow density: its peaks split the quadrature, at digits raised for their width
    (["--param", "sigma=10^-12", "--param", "eps=1"], "delta = 1.00000000000000"),
])
def test_extreme_but_allowed_values_are_answered(argv, printed, capsys):
    assert main(["derive", "level", "approx-dp", "--mechanism", GAUSS, *argv, "--budget", "20"]) == 0
    out = capsys.readouterr().out
    assert printed in out and "FAILED" not in out


@pytest.mark.parametrize("mechanism, order, level", [
    (DGAUSS, "100", "50.0"), pytest.param(GAUSS, "10^4", "5000.0", marks=pytest.mark.slow)])   # the latter: 10 s
def test_a_large_renyi_order_is_checked_around_its_peak(mechanism, order, level, capsys):
    # D_α of two unit Gaussians (discrete or not) one apart is α/2; the integrand peaks near y = α
    assert main(["derive", "level", "renyi-dp", "--mechanism", mechanism, "--param", f"alpha={order}",
                 "--budget", "30"]) == 0
    out = capsys.readouterr().out
    assert f"at sigma=1: 30-digit quadrature gives {level} against {level}" in out, out


def test_zcdp_where_the_enclosures_lose_every_digit_is_unknown_not_an_error(capsys):
    laplace = str(EXAMPLES / "laplace.json")
    assert main(["derive", "level", "zcdp", "--mechanism", laplace, "--param", "b=10^-19", "--budget", "20"]) == 1
    out = capsys.readouterr().out
    assert "zcdp: rho = unknown" in out and "could not be enclosed at the working precision" in out


def test_map_at_an_epsilon_the_enclosures_cannot_reach_is_unknown_not_an_error(capsys):
    assert main(["derive", "map", "pure-dp", "zcdp", "--param", "eps=400"]) == 1
    out = capsys.readouterr().out
    assert "unknown: at ε = 400" in out


def test_a_large_order_of_the_renyi_map_keeps_its_form_unexpanded(capsys):
    # sympy's simplify expanded E^α term by term: over two minutes at α = 10^4 before; the level tends to e^ε
    assert main(["derive", "map", "pure-dp", "renyi-dp", "--param", "alpha=10^4", "--param", "eps=1"]) == 0
    out = capsys.readouterr().out
    assert "E = (E**19999 + 1)**(1/9999)/(E*(E + 1)**(1/9999))" in out and "ε = 1: E = 2.71819666792" in out
