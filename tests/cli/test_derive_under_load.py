"""`derive`'s budget counts work, so the same question gets the same answer on a busy machine: a real
`dpcheck derive map pure-dp group-dp --max-n 3 --json` with its default budget (the run the wall-clock budget
cut short at n = 2 under load) gives the same JSON alone and beside two busy loops per core, times aside.
A budget too small to finish stops with its line either way; where it stops depends on processor-time
jitter, so only the line is compared. No assertion is on a duration."""
from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

QUESTION = ["derive", "map", "pure-dp", "group-dp", "--max-n", "3", "--json"]


@contextlib.contextmanager
def busy_machine():
    """Two processes per core that only compute, ended (each by its own handle) when the block ends."""
    loops = []
    try:
        for _ in range(2 * (os.cpu_count() or 1)):
            loops.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        yield
    finally:
        for p in loops:
            p.kill()
        for p in loops:
            p.wait()


def dpcheck(*args):
    p = subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], capture_output=True, text=True,
                       timeout=1800)
    return p.returncode, p.stdout, p.stderr


def without_times(x):
    """The answer with what is a time taken out: ``seconds`` fields, and "12.3 s" inside texts."""
    if isinstance(x, dict):
        return {k: without_times(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [without_times(v) for v in x]
    if isinstance(x, str):
        return re.sub(r"\b\d+(\.\d+)? s\b", "<t> s", x)
    return x


def test_derive_map_gives_the_same_answer_on_a_busy_machine():
    answers = []
    for load in (contextlib.nullcontext, busy_machine):
        with load():
            code, out, err = dpcheck(*QUESTION)
        assert code == 0, err
        answers.append(without_times(json.loads(out)))
    alone, loaded = answers
    growth = alone["growth"]
    # the answer the question has: every size finished, each formula proved and attained
    assert growth["not_reached"] == [] and growth["stopped"] is None
    assert [r["sizes"]["n"] for r in growth["runs"]] == [1, 2, 3]
    assert all(r["tight"] and r["proof"] is not None and r["attained_by"]["level"] == "exact" for r in growth["runs"])
    for key in ("formulas", "summary", "not_reached", "stopped"):
        assert loaded["growth"][key] == growth[key], key
    for a, b in zip(growth["runs"], loaded["growth"]["runs"], strict=True):
        assert (a["formula"], a["proof"], a["attained_by"], a["sizes"]) == \
               (b["formula"], b["proof"], b["attained_by"], b["sizes"])
    assert loaded == alone


def test_a_budget_too_small_stops_with_its_line_on_a_busy_machine():
    said = "stopped by the budget (2 processor seconds) while "
    for load in (contextlib.nullcontext, busy_machine):
        with load():
            code, out, err = dpcheck(*QUESTION, "--budget", "2")
        assert code == 1, err
        growth = json.loads(out)["growth"]
        assert growth["stopped"].startswith(said) and "wall-clock" not in growth["stopped"]
        assert growth["not_reached"] and growth["not_reached"][-1] == 3
        assert len(growth["runs"]) + len(growth["not_reached"]) == 3
