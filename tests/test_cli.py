"""The command line: contract of JSON fields and exit codes; bad input gives one line and exit 2."""
import json
import subprocess
import sys

import pytest

from theorems.cli import main


def run(*args):
    p = subprocess.run([sys.executable, "-m", "theorems.cli", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_list_has_definitions_and_claims(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "T-D1 " in out and "T-P4.converse" in out


def test_check_json_contract(capsys):
    assert main(["check", "T-APPB", "--json", "--budget", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc["tool"]) == {"version", "z3", "sympy"}
    c = doc["claims"][0]
    for key in ("id", "kind", "source", "statement", "source_says", "verdict", "agrees_with_source", "bounds",
                "seconds", "counterexample", "verified_exactly", "formula", "reason"):
        assert key in c
    assert c["verdict"] == "refuted" and c["verified_exactly"] is True
    cx = c["counterexample"]
    assert {"n", "domain", "outputs", "mechanism", "population", "parameters", "violated"} <= set(cx)
    assert cx["mechanism"]["A"]["1"] == {"0": "1", "1": "0"}


@pytest.mark.parametrize("args, words", [
    (["check", "T-NOPE"], "unknown claim ID"),
    (["check", "T-P1", "--n", "0"], "at least 1"),
    (["check", "T-P1", "--domain", "-2"], "at least 1"),
    (["audit", "X"], "unknown source"),
    (["implies", "PureDP", "Nonsense"], "unknown notion"),
    (["check", "T-P1", "--timeout", "-1"], "must be positive"),
])
def test_bad_input_one_line_exit_2(args, words):
    code, out, err = run(*args)
    assert code == 2
    lines = [l for l in err.strip().splitlines() if l]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in err


def test_smt2_export(tmp_path, capsys):
    f = tmp_path / "q.smt2"
    assert main(["check", "T-P1", "--smt2", str(f), "--budget", "0", "--n", "1"]) == 0
    text = f.read_text()
    assert "(check-sat)" in text and "declare-fun E" in text


def test_implies_adhoc(capsys):
    assert main(["implies", "DataPointInterventionDP", "PureDP", "--n", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "proved"
