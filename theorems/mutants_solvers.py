"""Seeded faults of the second solver's batches (one cvc5 process deciding many queries): one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

BATCHES = "test:tests/test_cvc5_batches.py::"

_E("symbolic.solve.cvc5_backend:_answer", "    if at != index or status not in", "    if status not in",
   "cvc5.batch-index-unchecked", "a batch's answers are taken in the order they come, not matched to their queries",
   BATCHES + "test_an_answer_out_of_order_is_unknown")
_E("symbolic.solve.cvc5_backend:_batch_child",
   "                out.append((\"unknown\", f\"cvc5: wall-clock safety limit, no answer within {per:g} s (+{GRACE:g} s \"",
   "                out.append((\"unsat\", f\"cvc5: wall-clock safety limit, no answer within {per:g} s (+{GRACE:g} s \"",
   "cvc5.batch-killed-as-unsat",
   "a query whose child was killed at the time limit counts as confirmed",
   BATCHES + "test_a_hanging_or_crashing_query_costs_only_itself")
_E("symbolic.solve.second_opinion:_decide_all", "                for i, d in zip(running.pop(fut), fut.result()):",
   "                for i, d in zip(running.pop(fut)[1:], fut.result()):", "second-opinion.batch-shifted",
   "a batch's answers are given to the queries one place later",
   "test:tests/test_certificates.py::test_second_solver_confirms_a_cegis_proof")

EFFORT = "test:tests/test_effort.py::"

_E("symbolic.solve.deadline:check_within", '    solver.set("rlimit", units)', '    pass',
   "effort.rlimit-unset", "a solver call is not bounded by z3's resource count (only the wall clock would end it)",
   "test:tests/test_deadline.py::test_the_resource_count_ends_a_call_the_same_way_every_time")
_E("symbolic.solve.effort:Meter.charge", "m.spent += max(0, int(n))", "m.spent += 0",
   "effort.charge-ignored", "what a solver call spent is not charged to its meter (a part's effort never runs out)",
   "test:tests/test_deadline.py::test_the_resource_count_ends_a_call_the_same_way_every_time",
   EFFORT + "test_a_part_stops_at_its_effort_and_says_which_limit")
_E("symbolic.solve.deadline:unknown_reason", 'if limit == "wall-clock" or (limit is None and raw in ("canceled", "timeout")):',
   'if False:',
   "effort.safety-unnamed", "a call cut off by the wall-clock safety net is not reported as such",
   "test:tests/test_deadline.py::test_the_watchdog_is_a_safety_net_that_says_so")
_E("symbolic.solve.second_opinion:_decide_all", "        if spent > settings.second_effort:", "        if False:",
   "second-opinion.effort-unenforced", "the second solver's effort is not enforced: answers past it still count",
   EFFORT + "test_the_second_solver_counts_its_effort_in_index_order")
