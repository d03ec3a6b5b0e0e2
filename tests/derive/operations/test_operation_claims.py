"""`dpcheck implies A B --compose K | --subsample SCHEME`: claims about operated mechanisms decided by the engine
over ranges of E and the rate, with the published errors refuted by exact witnesses."""
from __future__ import annotations

import json

import pytest
import sympy as sp

from theorems.cli.main import main


def _run(args, capsys):
    code = main(["implies", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_amplification_by_poisson_sampling_is_proved_for_every_rate(capsys):
    code, doc = _run(["pure-dp", "pure-dp", "--subsample", "poisson", "--target", "E=1+q*(E-1)"], capsys)
    assert code == 0 and doc["verdict"] == "proved" and "PoissonSubsample" in doc["statement"]


def test_the_rate_squared_is_refuted_with_an_exact_witness(capsys):
    code, doc = _run(["pure-dp", "pure-dp", "--subsample", "poisson", "--target", "E=1+q^2*(E-1)"], capsys)
    assert doc["verdict"] == "refuted" and doc["verified_exactly"] is True
    assert doc["counterexample"]["parameters"]["q"] == "1/2"


def test_a_looser_constant_is_proved_and_a_tighter_one_refuted_on_a_range_of_the_rate(capsys):
    _, loose = _run(["pure-dp", "pure-dp", "--subsample", "poisson", "--target", "E=1+2*q*(E-1)"], capsys)
    _, tight = _run(["pure-dp", "pure-dp", "--subsample", "poisson", "--target", "E=1+q*(E-1)/2",
                     "--assume", "q<=1/4"], capsys)
    assert loose["verdict"] == "proved" and tight["verdict"] == "refuted"
    assert sp.Rational(tight["counterexample"]["parameters"]["q"]) <= sp.Rational(1, 4)


@pytest.mark.slow
def test_basic_composition_of_two_runs_is_proved_and_one_delta_refuted(capsys):
    _, both = _run(["approx-dp", "approx-dp", "--compose", "2", "--target", "E=E^2", "--target", "delta=2*delta"],
                   capsys)
    _, one = _run(["approx-dp", "approx-dp", "--compose", "2", "--target", "E=E^2"], capsys)
    assert both["verdict"] == "proved" and one["verdict"] == "refuted"


@pytest.mark.parametrize("args", [["--compose", "5"], ["--compose", "k"], ["--subsample", "poisson", "--n", "2"],
                                  ["--subsample", "poisson:1"]])
def test_what_the_engine_cannot_state_exits_2_in_one_line(args, capsys):
    code = main(["implies", "pure-dp", "pure-dp", *args])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
