"""Batches of queries decided in one cvc5 child process (symbolic.solve.backends.cvc5_backend.decide_batch):
answers in order and matched by index, a child that hangs or crashes costs only its query, and the
budget stops new queries. The failure paths use a scripted child in place of cvc5."""
from __future__ import annotations

import time

import pytest
import z3

from symbolic.solve.backends import cvc5_backend
from symbolic.solve.backends.cvc5_backend import Decision, decide_batch, prepare

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
    monkeypatch.setattr(cvc5_backend, "_CHILD", SCRIPT)
    monkeypatch.setattr(cvc5_backend, "GRACE", 0.3)


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
