"""Batches of queries decided in one cvc5 child process (symbolic.solve.backends.cvc5_child.decide_batch):
answers in order and matched by index, a child that hangs or crashes costs only its query, and the
budget stops new queries. The failure paths use a scripted child in place of cvc5."""
from __future__ import annotations

import time

import pytest
import z3

from symbolic.solve.backends.settings import Settings
from symbolic.solve.backends import cvc5_backend, cvc5_child
from symbolic.solve.backends.cvc5_backend import Decision, prepare
from symbolic.solve.backends.cvc5_child import decide_batch

SCRIPT = """import json, sys, time
req = json.loads(sys.stdin.read())
for i, d in enumerate(req["batch"]):
    if d.get("hang"):
        time.sleep(30)
    if d.get("crash"):
        sys.exit(3)
    print(json.dumps({"index": d.get("index", i), "status": d["status"], "reason": "scripted"}), flush=True)
"""


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(cvc5_child, "_CHILD", SCRIPT)
    monkeypatch.setattr(cvc5_child, "GRACE", 0.3)


def _statuses(ds):
    return [d.status for d in ds]


def test_a_batch_of_real_queries_is_answered_in_order():
    x, y = z3.Reals("x y")
    queries = [[x * y > 1, x < 0, y > 0], [x > 0], [x * x < 0], [x > 1, x < 0], [x * y == 2, x > y]]
    want = ["unsat", "sat", "unsat", "unsat", "sat"]
    ds = [prepare(q) for q in queries]
    assert _statuses(decide_batch(ds, timeout=5)) == want
    assert [cvc5_backend.solve(d, 5)[0] for d in ds] == want     # the same, one by one in this process


def test_an_answer_out_of_order_is_unknown(scripted):
    out = decide_batch([{"status": "sat", "index": 1}, {"status": "unsat", "index": 0}], timeout=2)
    assert _statuses(out) == ["unknown", "unknown"]
    assert "where query 0 was due" in out[0].reason


def test_a_hanging_or_crashing_query_costs_only_itself(scripted):
    t = time.monotonic()
    out = decide_batch([{"status": "unsat"}, {"status": "unsat", "hang": True}, {"status": "sat"},
                        {"status": "unsat", "crash": True}, {"status": "unsat"}], timeout=0.5)
    assert _statuses(out) == ["unsat", "unknown", "sat", "unknown", "unsat"]
    assert "killed" in out[1].reason and "without an answer" in out[3].reason
    assert time.monotonic() - t < 10


def test_untranslated_queries_pass_through_and_the_budget_stops_new_ones(scripted):
    skip = Decision("unknown", "cvc5 converter: unsupported operator mod", 0.0)
    assert _statuses(decide_batch([{"status": "unsat"}, skip, {"status": "sat"}], timeout=1)) == ["unsat", "unknown", "sat"]
    assert decide_batch([{"status": "unsat"}], timeout=1, budget=0) == []


LADDER_SCRIPT = """import json, os, signal, sys
req = json.loads(sys.stdin.read())
for i, d in enumerate(req["batch"]):
    stage = req["resume"]["stage"] + 1 if i == 0 and req.get("resume") else 0
    print(json.dumps({"index": i, "stage": stage, "cut": []}), flush=True)
    if d.get("cut_at") == stage:
        os.kill(os.getpid(), signal.SIGPROF)   # what cvc5's processor slice does to the child
    print(json.dumps({"index": i, "status": d["status"], "reason": f"stage {stage}", "units": 7}), flush=True)
"""


def test_a_query_cut_at_its_processor_slice_goes_on_at_the_next_stage(monkeypatch):
    """The child dies at the first stage's processor slice: a fresh child takes the same query from the next
    stage (its units carried over), then the rest of the batch. Cut at the last stage, it is unknown."""
    monkeypatch.setattr(cvc5_child, "_CHILD", LADDER_SCRIPT)
    monkeypatch.setattr(cvc5_child, "GRACE", 0.3)
    out = decide_batch([{"status": "unsat", "cut_at": 0}, {"status": "sat"}], timeout=5, effort=1000, cpu=1.0)
    first = int(1000 * cvc5_child.LADDER[0][1])   # the units of the stage cut: its share of the effort
    assert [(d.status, d.reason, d.units) for d in out] == [("unsat", "stage 1", 7 + first), ("sat", "stage 0", 7)]
    one = decide_batch([{"status": "unsat", "cut_at": 0}, {"status": "sat"}], timeout=5, effort=1000, cpu=1.0,
                       ladder=[("coverings", 1.0)])
    assert one[0].status == "unknown" and "1 s of processor time" in one[0].reason and one[1].status == "sat"


def test_linearisation_confirms_a_query_coverings_runs_on_past_its_step_count():
    """A query of T-P1's proof (PureDP ⇒ StrongAdversaryDP at n=2, |𝒟|=2, |𝒪|=3) on which cvc5's coverings
    ignores its step count and time limit: its quarter of the processor time cuts it, and linearisation
    decides the query. Before the ladder, this query was unknown. (The ladder without its first stage, the
    substitution, which decides this query at once: the next test.)"""
    s = Settings()
    on_query = [stage for stage in cvc5_child.LADDER if stage[0] != "substitution"]
    d, = decide_batch([_coverings_runs_on()], timeout=s.second_timeout, effort=s.second_query_effort,
                      cpu=s.second_cpu, ladder=on_query)
    assert d.status == "unsat" and "linearisation" in d.reason, d.reason


def test_the_same_query_with_its_linear_equalities_solved_is_decided_by_coverings_at_the_first_stage():
    """Solving the rows' and the population's sums for one unknown each leaves coverings a query it decides
    within its first slice, on the query as sent (not a copy of it)."""
    s = Settings()
    query = _coverings_runs_on()
    d, = decide_batch([query], timeout=s.second_timeout, effort=s.second_query_effort, cpu=s.second_cpu)
    assert (d.status, d.reason.split("(")[-1]) == ("unsat", "substitution): unsat"), d.reason
    assert query == _coverings_runs_on()


def _coverings_runs_on() -> dict:
    import json
    from pathlib import Path
    return json.loads((Path(__file__).parent / "coverings_runs_on.json").read_text())["query"]


NOTES_SCRIPT = """import json, os, signal, sys
req = json.loads(sys.stdin.read())
first = req["resume"]["stage"] + 1 if req.get("resume") else 0
notes, units = [], 0
for stage in range(first, 3):
    print(json.dumps({"index": 0, "stage": stage, "cut": [], "notes": notes, "units": units}), flush=True)
    if stage != 1:
        os.kill(os.getpid(), signal.SIGPROF)
    notes.append("linearisation: effort limit")
    units += 5
"""


def test_a_stage_left_undecided_between_two_cuts_is_named_in_the_reason(monkeypatch):
    """Coverings cut, linearisation gives up within the same child as coverings' second try, which is cut
    too: the reason names all three stages, and the units of each count."""
    monkeypatch.setattr(cvc5_child, "_CHILD", NOTES_SCRIPT)
    monkeypatch.setattr(cvc5_child, "GRACE", 0.3)
    three = [("coverings", 0.25), ("linearisation", 1.0), ("coverings", 0.75)]
    d, = decide_batch([{"status": "unsat"}], timeout=5, effort=1000, cpu=1.0, ladder=three)
    assert d.status == "unknown"
    assert d.reason == ("cvc5: coverings: time limit (0.25 s of processor time; cvc5 did not stop at its step "
                        "count); linearisation: effort limit; coverings: time limit (0.75 s of processor time; "
                        "cvc5 did not stop at its step count); process ended"), d.reason
    assert d.units == 250 + 5 + 750
