"""Which limit left the second solver's query undecided: a count (the same on every machine) or a time limit
(not), recorded for each stage of cvc5's ladder and for the proof, in the certificate and its JSON.

Undecided queries are made so by tiny counts (cvc5's resource units, the rewrite's operations, the proof's
units) with processor seconds far above what those counts take, so no test here depends on the machine's
speed or load; a processor-time cut is played by a scripted child that sends itself the signal."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import z3

from symbolic.core.verdicts import Proved, Sizes
from symbolic.notions.claims import Claim, E, Implies
from symbolic.notions.families.dp import PureDP, StrongAdversaryDP
from symbolic.report.results import claim_json
from symbolic.solve.backends import cvc5_backend, cvc5_child
from symbolic.solve.backends import second_opinion as so
from symbolic.solve.backends.cvc5_backend import CONFIGS, Decision, prepare
from symbolic.solve.backends.cvc5_child import decide_batch
from symbolic.solve.backends.limits import RESOURCE, TIME, machine_independent, query_limit
from symbolic.solve.backends.settings import Settings
from symbolic.solve.backends.substitution import attempt, ops_for, substituted
from symbolic.solve.run import check_claim

GENEROUS_CPU = 120.0   # processor seconds far above what the tiny counts below take: the count ends first


def _hard_query() -> dict:
    """A query of T-P1's proof with linear equalities (rows summing to one) that no stage decides in a few
    cvc5 units."""
    return json.loads((Path(__file__).parent / "coverings_runs_on.json").read_text())["query"]


def _config(name):
    return [(n, o) for n, o in CONFIGS if n == name]


def test_a_tiny_resource_count_leaves_the_query_undecided_the_same_way_every_time():
    """Linearisation stops at its step count: with 300 units the query is unknown, the stage says "resource",
    and a second run spends exactly the same units (a count, not a clock)."""
    runs = [decide_batch([_hard_query()], timeout=120, configs=_config("linearisation"), effort=300,
                         cpu=GENEROUS_CPU)[0] for _ in range(2)]
    d = runs[0]
    assert d.status == "unknown" and d.stages == (("linearisation", RESOURCE),) and d.limit == RESOURCE, d
    assert (runs[1].status, runs[1].stages, runs[1].units) == (d.status, d.stages, d.units)
    assert d.units >= 300


def test_every_stage_of_the_ladder_ended_by_a_count_makes_the_query_machine_independent():
    """The whole ladder with 20 cvc5 units: the rewrite stops at its operation count, each cvc5 stage at
    its step count; no stage is cut by time, so the query's limit is "resource"."""
    d, = decide_batch([_hard_query()], timeout=120, effort=20, cpu=GENEROUS_CPU)
    assert d.status == "unknown" and d.limit == RESOURCE and machine_independent(d.limit), d
    assert [stage for stage, _ in d.stages] == ["substitution", "coverings", "linearisation"], d.stages
    assert all(limit == RESOURCE for _, limit in d.stages), d.stages
    assert "substitution: rewrite stopped at its operation count" in d.reason


def test_a_stage_cut_at_its_processor_slice_is_recorded_as_time(monkeypatch):
    """A child killed by its processor-time slice (the signal sent by the scripted child itself): the stage
    says "time", and so does the query, whatever the later stages said."""
    script = """import json, os, signal, sys
req = json.loads(sys.stdin.read())
first = req["resume"]["stage"] + 1 if req.get("resume") else 0
for stage in range(first, 2):
    print(json.dumps({"index": 0, "stage": stage, "cut": [], "notes": [], "units": 0, "stages": []}), flush=True)
    if stage == 0:
        os.kill(os.getpid(), signal.SIGPROF)
print(json.dumps({"index": 0, "status": "unknown", "reason": "cvc5: linearisation: effort limit", "units": 9,
                  "stages": [["linearisation", "resource"]]}), flush=True)
"""
    monkeypatch.setattr(cvc5_child, "_CHILD", script)
    monkeypatch.setattr(cvc5_child, "GRACE", 0.3)
    d, = decide_batch([{"any": "query"}], timeout=5, effort=1000, cpu=1.0,
                      ladder=[("coverings", 0.25), ("linearisation", 1.0)])
    assert d.stages == (("coverings", TIME), ("linearisation", RESOURCE)) and d.limit == TIME
    assert not machine_independent(d.limit)
    assert "coverings: time limit (0.25 s of processor time" in d.reason


def test_a_counted_stage_has_its_processor_time_only_as_a_safety_net():
    """Linearisation (which stops at its count) gets twice its share of processor seconds, coverings its
    share: the count, not the clock, is meant to end linearisation on a slower machine too."""
    assert cvc5_child._slice("linearisation", 1.0, 8.0) == cvc5_child.COUNTED_MARGIN * 8.0 > 8.0
    assert cvc5_child._slice("coverings", 0.0625, 8.0) == 0.5
    assert "linearisation" in cvc5_backend.COUNTED and "coverings" not in cvc5_backend.COUNTED


def test_the_rewrite_counts_operations_and_stops_at_the_same_point_every_time():
    query = _hard_query()
    full, spent, stopped = attempt(query)
    assert full is not None and not stopped and spent > 100
    assert attempt(query, ops=spent)[1:] == (spent, False)          # exactly enough
    cut = [attempt(query, ops=spent // 2) for _ in range(2)]
    assert cut[0][0] is None and cut[0][2] and cut[0][1:] == cut[1][1:]
    assert substituted(query, ops=spent // 2) is None and substituted(query).data == full.data
    assert ops_for(240_000, 1 / 16) == 75_000 and ops_for(1, 1 / 16) == 1


def test_limits_of_a_query_and_of_a_proof():
    assert query_limit([("substitution", "resource"), ("coverings", "incomplete")]) == RESOURCE
    assert query_limit([("coverings", "incomplete"), ("coverings", "time")]) == TIME
    assert query_limit([("converter", "unsupported")]) == "unsupported" and query_limit([]) is None
    assert Decision("unsat", "x", 0.0, 1, (("coverings", "time"),)).limit is None   # decided: no limit
    assert Decision("unknown", "x", 0.0, 1, (("coverings", "time"),)).limit == TIME


class _Ob:
    def __init__(self, i):
        self.assertions, self.label = (i,), f"query {i}"


def test_the_proof_records_which_limit_left_its_first_undecided_query_so():
    """Eight queries: the largest ("query 7") left undecided by a time cut, the rest unasked; with an
    effort of 250 units and 100 units a query, the fourth query is where the proof's count ran out."""
    def decide(datas, until_undecided=False, **kw):
        out = []
        for d in datas:
            hard = d == 7
            out.append(Decision("unknown" if hard else "unsat", "r", 0.0, 1,
                                (("coverings", TIME), ("linearisation", RESOURCE)) if hard else ()))
            if until_undecided and hard:
                break
        return out
    ended = {}
    so._decide_all([_Ob(i) for i in range(8)], Settings(), time.monotonic() + 60, lambda a: a[0], decide,
                   size=lambda d: d, ended_by=ended)
    assert ended == {7: (TIME, (("coverings", TIME), ("linearisation", RESOURCE)))}
    record = so.undecided_record([_Ob(i) for i in range(8)], ended)
    assert record == [{"query": "query 7", "limit": TIME, "stages": [{"stage": "coverings", "limit": TIME},
                                                                     {"stage": "linearisation", "limit": RESOURCE}]}]
    assert so.overall_limit(record) == TIME

    ended = {}
    so._decide_all([_Ob(i) for i in range(8)], Settings(second_effort=250), time.monotonic() + 60, lambda a: a[0],
                   lambda datas, **kw: [Decision("unsat", "r", 0.0, 100) for _ in datas], ended_by=ended)
    assert ended == {3: (RESOURCE, (("proof", RESOURCE),))}


@pytest.fixture(scope="module")
def tiny_count_proof():
    """PureDP ⇒ StrongAdversaryDP at (1, 2, 3), proved by z3, its queries given to cvc5 with 20 units each
    (a query cvc5 decides while it simplifies, before it counts a step, would be confirmed at any count)."""
    claim = Claim("t", "⇒", "-", "t", "holds", (Implies(PureDP(E.symbol), StrongAdversaryDP(E.symbol)),),
                  sizes=Sizes(1, 2, 3), min_sizes=Sizes(1, 2, 3))
    settings = Settings(second_query_effort=20, second_cpu=GENEROUS_CPU)
    return [check_claim(claim, settings) for _ in range(2)]


def test_the_json_certificate_says_a_resource_count_left_the_proof_unconfirmed(tiny_count_proof):
    res = tiny_count_proof[0]
    assert isinstance(res.verdict, Proved)
    cert = claim_json(res)["certificate"]
    assert cert["second_verdict"] == "unknown" and cert["second_limit"] == RESOURCE
    undecided = cert["second_undecided"]
    assert undecided and all(u["limit"] == RESOURCE and u["stages"] for u in undecided)
    assert all(s["limit"] == RESOURCE for u in undecided for s in u["stages"])   # no stage cut by time
    assert json.loads(json.dumps(cert)) == cert


def test_with_a_counted_limit_the_confirmation_is_the_same_on_every_run(tiny_count_proof):
    """Structural: every stage was ended by a count, none by a clock, so the certificate's confirmation,
    undecided queries and their stages are the same however busy or fast the machine."""
    a, b = (claim_json(r)["certificate"] for r in tiny_count_proof)
    keys = ("second_verdict", "second_checked", "second_limit", "second_undecided", "second_reason")
    assert {k: a.get(k) for k in keys} == {k: b.get(k) for k in keys}


def test_an_untranslatable_query_is_neither_a_count_nor_a_clock():
    d = prepare([z3.Int("i") % 2 == 1])
    assert isinstance(d, Decision) and d.limit == "unsupported" and machine_independent(d.limit)
