"""`--budget` bounds the wall time of a `check` run, whatever the per-call `--timeout` (a behaviour:
the bound is generous, the point is that the run stops instead of running on)."""
import json
import time

from theorems.cli import main


def test_budget_bounds_a_hard_check(capsys):
    t0 = time.monotonic()
    code = main(["check", "T-P5", "--n", "2", "--domain", "3", "--outputs", "3", "--timeout", "0.01",
                 "--budget", "3", "--json"])
    took = time.monotonic() - t0
    doc = json.loads(capsys.readouterr().out)["claims"][0]
    assert took < 25, took                      # budget 3 s; without the bound this ran about a minute
    assert code in (0, 1) and doc["verdict"] in ("unknown", "refuted", "proved")
    if doc["verdict"] == "unknown":
        assert code == 1 and doc["reason"]
