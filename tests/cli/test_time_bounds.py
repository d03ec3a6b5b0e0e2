"""Effort, not the clock, bounds a `check` run: a hard check at a tiny effort stops, says that the
effort ran out and which option raises it, and gives the same answer on a second run."""
import json

from theorems.cli.main import main


def _run(capsys):
    code = main(["check", "T-P3", "--n", "2", "--domain", "3", "--outputs", "3", "--effort", "1/1000",
                 "--budget", "0", "--json"])
    return code, json.loads(capsys.readouterr().out)["claims"][0]


def test_a_tiny_effort_stops_a_hard_check_and_names_the_option(capsys):
    code, doc = _run(capsys)
    assert code == 1 and doc["verdict"] == "unknown"
    assert "effort limit" in doc["reason"] and "--effort" in doc["reason"]
    assert "wall-clock" not in doc["reason"]
    again = _run(capsys)   # at so small an effort a query may end by processor time, so only the verdict is compared
    assert again[0] == code and again[1]["verdict"] == doc["verdict"] and "effort limit" in again[1]["reason"]
