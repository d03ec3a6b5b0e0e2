"""`dpcheck notions` and `dpcheck graph` as a user meets them: the JSON contract, pictures, bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest


def dpcheck(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_notions_json_contract():
    out = dpcheck("notions", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    notions = doc["notions"]
    assert len(notions) >= 25
    for n in notions:
        assert {"id", "name", "params", "neighbours", "class", "source", "definition"} <= set(n)
        assert n["class"] in ("polynomial", "forall-prior", "transcendental")
    ids = {n["id"] for n in notions}
    assert {"pure-dp", "approx-dp", "renyi-dp", "zcdp", "pufferfish", "SemanticPrivacy"} <= ids
    assert not ids & {"EAboveOne", "FullSupport", "RatioSafeMass", "TightDP"}   # proof helpers are hidden


def test_graph_writes_the_contract_and_both_pictures(tmp_path):
    j, svg = tmp_path / "g.json", tmp_path / "g.svg"
    out = dpcheck("graph", "--notions", "pure-dp,approx-dp,free-lunch", "--n", "1", "--json", str(j), "--svg",
                  str(svg), "--no-cache", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    doc = json.loads(j.read_text())
    assert doc["notions"] == ["pure-dp", "approx-dp", "free-lunch"] and doc["sizes"] == {"n": 1, "domain": 2, "outputs": 2}
    keys = {"from", "to", "relation", "map", "tight", "certificate", "counterexample", "verified_exactly",
            "literature_says", "agrees_with_literature", "reason", "seconds"}
    assert len(doc["pairs"]) == 6 and all(keys <= set(p) for p in doc["pairs"])
    assert all(p["verified_exactly"] for p in doc["pairs"] if p["relation"] == "not-implies")
    assert "<svg" in svg.read_text() and "<svg" in (tmp_path / "g-separations.svg").read_text()
    assert "6 pairs" in out.stdout


@pytest.mark.parametrize("args, message", [
    (("--notions", "pure-dp,puredpp"), "did you mean pure-dp"),
    (("--add", "no_such_file.py:Floor", "--notions", "pure-dp"), "no such file"),
    (("--add", "{bad}:X", "--notions", "pure-dp"), "failed to import"),
    (("--add", "{ok}:Nope", "--notions", "pure-dp"), "defines no"),
    (("--notions", "pure-dp"), "at least two notions"),
    (("--n", "0",), "must be at least 1"),
])
def test_graph_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "bad.py").write_text("import no_such_module_here\n")
    (tmp_path / "ok.py").write_text("X = 1\n")
    args = [a.format(bad=tmp_path / "bad.py", ok=tmp_path / "ok.py") for a in args]
    out = dpcheck("graph", *args, "--no-cache")
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.slow   # over 7 s on 2 cores; `pytest -m slow` and the self-test run it
def test_implies_takes_zoo_ids_and_notions_with_several_parameters():
    out = dpcheck("implies", "pure-dp", "approx-dp", "--n", "1", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["verdict"] == "proved" and doc["statement"] == "PureDP(E) ⇒ ApproxDP(E, 0)"
    out = dpcheck("implies", "approx-dp", "pure-dp", "--n", "1", "--json")
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["verdict"] == "refuted" and doc["verified_exactly"]
    assert doc["counterexample"]["parameters"]["delta"] != "0"      # δ is free in the hypothesis
    out = dpcheck("eval", "renyi-dp", "--mechanism", "/dev/null")  # a zoo ID is found (then the file is refused)
    assert out.returncode == 2 and "unknown notion" not in out.stderr


def test_implies_without_a_parameter_map_is_a_one_line_error(tmp_path):
    out = dpcheck("implies", "pure-dp", "zcdp", "--n", "1")
    # zcdp's ρ has a least value (0): a map exists; ε-DP ⇒ 0-zCDP fails at randomized response (E = 2)
    assert out.returncode == 0 and "refuted" in out.stdout and "E = 2" in out.stdout
