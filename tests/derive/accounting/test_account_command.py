"""`dpcheck account`: the JSON contract, claims proved, refuted with a witness or unknown, a run file giving
the flags' enclosure, the libraries' numbers inside it, and bad input refused in one line (exit 2)."""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from theorems.cli.main import main

SMALL = ["--noise", "gaussian:1", "--rate", "1/10", "--steps", "4"]


def _json(args, capsys):
    code = main(["account", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_json_gives_the_enclosure_as_decimal_strings(capsys):
    code, doc = _json([*SMALL, "--delta", "1e-5"], capsys)
    lo, hi = F(doc["epsilon"]["lower"]), F(doc["epsilon"]["upper"])
    assert code == 0 and 0 < lo < hi and hi - lo <= hi / 100
    assert doc["run"] == [{"noise": "gaussian", "scale": "1", "rate": "1/10", "steps": 4}]


@pytest.mark.slow
def test_claims_are_proved_refuted_or_unknown_by_where_they_fall(capsys):
    _, doc = _json([*SMALL, "--delta", "1e-5"], capsys)
    lo, hi = F(doc["epsilon"]["lower"]), F(doc["epsilon"]["upper"])
    above, below, inside = hi * F(101, 100), lo * F(99, 100), (lo + hi) / 2
    got = {}
    for name, x in (("above", above), ("below", below), ("inside", inside)):
        code, d = _json([*SMALL, "--delta", "1e-5", "--claim", f"eps={float(x):.9f}"], capsys)
        got[name] = (code, d["claim"]["verdict"])
    assert got["above"] == (0, "proved") and got["below"] == (1, "refuted") and got["inside"] == (1, "unknown")


def test_a_refutation_names_the_event_and_its_certified_hockey_stick(capsys):
    code, doc = _json([*SMALL, "--delta", "1e-5", "--claim", "eps=0.1"], capsys)
    w = doc["claim"]["witness"]
    assert code == 1 and "total privacy loss > 0.1" in w["event"] and F(w["hockey_stick_lower"]) > F(1, 10 ** 5)


@pytest.mark.slow
def test_a_run_file_gives_the_enclosure_of_the_same_run_given_by_flags(capsys, tmp_path):
    gauss = {"kind": "density", "outputs": "reals", "domain": [0, 1],
             "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    run = {"kind": "composition", "times": 4, "of": {"kind": "subsampled", "sampling": "poisson", "rate": "1/10",
                                                      "of": gauss}}
    (tmp_path / "run.json").write_text(json.dumps(run))
    _, by_flags = _json([*SMALL, "--delta", "1e-5"], capsys)
    _, by_file = _json(["--noise", str(tmp_path / "run.json"), "--delta", "1e-5"], capsys)
    assert by_flags["epsilon"] == by_file["epsilon"]


def test_the_libraries_numbers_for_a_laplace_run_fall_inside_the_enclosure(capsys):
    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    _, doc = _json(["--noise", "laplace:2", "--rate", "1/10", "--steps", "30", "--epsilon", "1/2"], capsys)
    lo, hi = F(doc["delta"]["lower"]), F(doc["delta"]["upper"])
    pess = pld.from_laplace_mechanism(2.0, sampling_prob=0.1, value_discretization_interval=1e-4)
    opt = pld.from_laplace_mechanism(2.0, sampling_prob=0.1, value_discretization_interval=1e-4,
                                     pessimistic_estimate=False, use_connect_dots=False)
    upper_lib = F(pess.self_compose(30).get_delta_for_epsilon(0.5))
    lower_lib = F(opt.self_compose(30).get_delta_for_epsilon(0.5))
    assert lo <= upper_lib * (1 + F(1, 10 ** 6)) and lower_lib <= hi


@pytest.mark.parametrize("args, field", [
    (["--noise", "gaussian:-1", "--rate", "1/10", "--steps", "5", "--delta", "1e-5"], "--noise"),
    (["--noise", "gaussian:1", "--rate", "0", "--steps", "5", "--delta", "1e-5"], "--rate"),
    (["--noise", "gaussian:1", "--rate", "3/2", "--steps", "5", "--delta", "1e-5"], "--rate"),
    (["--noise", "gaussian:1", "--rate", "1/10", "--steps", "0", "--delta", "1e-5"], "--steps"),
    (["--noise", "gaussian:1", "--rate", "1/10", "--steps", "5", "--delta", "1"], "--delta"),
    (["--noise", "gaussian:1", "--rate", "1/10", "--steps", "5"], "--delta"),
    (["--noise", "gaussian:1", "--rate", "1/10", "--steps", "5", "--delta", "1e-5", "--claim", "mu=1"], "--claim"),
    (["--noise", "cauchy:1", "--rate", "1/10", "--steps", "5", "--delta", "1e-5"], "--noise"),
    (["--noise", "gaussian:1", "--rate", "exp(1)", "--steps", "5", "--delta", "1e-5"], "--rate")])
def test_bad_input_exits_2_in_one_line_naming_the_field(args, field, capsys):
    code = main(["account", *args])
    err = capsys.readouterr().err
    assert code == 2 and field in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_libraries_numbers_are_decided_as_claims(capsys):
    pytest.importorskip("dp_accounting")
    code, doc = _json([*SMALL, "--delta", "1e-5", "--libraries"], capsys)
    got = {o["source"]: o for o in doc["libraries"]}
    rdp = got["dp-accounting RDP"]
    assert code == 0 and rdp["verdict"] == "proved" and F(rdp["above_upper"]) > 0
    assert all(o["verdict"] in ("proved", "unknown") for o in doc["libraries"])
