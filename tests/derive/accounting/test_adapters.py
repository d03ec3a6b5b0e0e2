"""The libraries' descriptions of a run read as its stages: a dp-accounting DpEvent (the object and its JSON),
an Opacus-style history and autodp's DP-SGD parameters give the run the flags give, and the same enclosure;
an unknown event type or a bad field is one line, exit 2."""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from symbolic.derive.accounting.adapters import (event_document, stages_from_autodp, stages_from_dp_event,
                                                 stages_from_opacus_history)
from symbolic.derive.accounting.run import Stage
from theorems.cli.main import main

RUN = (Stage("gaussian", F(1), F(1, 10), 4),)


def test_a_dp_event_object_and_its_json_read_as_the_run():
    dp_event = pytest.importorskip("dp_accounting.dp_event")
    event = dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.1, dp_event.GaussianDpEvent(1.0)), 4)
    assert stages_from_dp_event(event) == RUN
    assert stages_from_dp_event(json.loads(json.dumps(event_document(event)))) == RUN


def test_a_composed_event_of_two_stages_and_a_laplace_stage():
    dp_event = pytest.importorskip("dp_accounting.dp_event")
    event = dp_event.ComposedDpEvent([
        dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.0)), 600),
        dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.02, dp_event.LaplaceDpEvent(2.0)), 400)])
    assert stages_from_dp_event(event) == (Stage("gaussian", F(1), F(1, 100), 600),
                                           Stage("laplace", F(2), F(1, 50), 400))


def test_opacus_and_autodp_descriptions_read_as_the_run():
    assert stages_from_opacus_history([(1.0, 0.1, 4)]) == RUN
    assert stages_from_autodp({"prob": 0.1, "sigma": 1.0, "coeff": 4}) == RUN


@pytest.mark.slow
def test_the_three_descriptions_give_the_enclosure_the_flags_give(capsys, tmp_path):
    files = {"dp_event": {"class_name": "SelfComposedDpEvent", "count": 4, "event": {
                 "class_name": "PoissonSampledDpEvent", "sampling_probability": 0.1,
                 "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}},
             "opacus_history": [[1.0, 0.1, 4]]}
    seen = []
    for key, value in files.items():
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps({key: value}))
        assert main(["account", "--from", str(path), "--delta", "1e-5", "--json"]) == 0
        seen.append(json.loads(capsys.readouterr().out)["epsilon"])
    assert main(["account", "--noise", "gaussian:1", "--rate", "1/10", "--steps", "4", "--delta", "1e-5", "--json"]) == 0
    seen.append(json.loads(capsys.readouterr().out)["epsilon"])
    assert seen[0] == seen[1] == seen[2]


@pytest.mark.parametrize("doc, field", [
    ({"dp_event": {"class_name": "ZetaDpEvent"}}, "ZetaDpEvent"),
    ({"dp_event": {"class_name": "GaussianDpEvent", "noise_multiplier": -1}}, "noise_multiplier"),
    ({"dp_event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": 1.5,
                   "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1}}}, "sampling_probability"),
    ({"opacus_history": [[1.0, 0.1, 2.5]]}, "steps"),
    ({"autodp": {"prob": 0.1}}, "autodp"),
    ({"tfp": {}}, "--from")])
def test_a_bad_description_exits_2_in_one_line(doc, field, capsys, tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(doc))
    code = main(["account", "--from", str(path), "--delta", "1e-5"])
    err = capsys.readouterr().err
    assert code == 2 and field in err and len(err.strip().splitlines()) == 1
