"""Seeded faults of the second solver's batches (one cvc5 process deciding many queries): one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

BATCHES = "test:tests/test_cvc5_batches.py::"

_E("symbolic.solve.cvc5_backend:_answer", "    if at != index or status not in", "    if status not in",
   "cvc5.batch-index-unchecked", "a batch's answers are taken in the order they come, not matched to their queries",
   BATCHES + "test_an_answer_out_of_order_is_unknown")
_E("symbolic.solve.cvc5_backend:_batch_child",
   "                out.append((\"unknown\", f\"cvc5: no answer within {per:g} s (+{GRACE:g} s grace); process killed\"))",
   "                out.append((\"unsat\", \"cvc5: killed\"))", "cvc5.batch-killed-as-unsat",
   "a query whose child was killed at the time limit counts as confirmed",
   BATCHES + "test_a_hanging_or_crashing_query_costs_only_itself")
_E("symbolic.solve.second_opinion:_decide_all", "                for i, d in zip(running.pop(fut), fut.result()):",
   "                for i, d in zip(running.pop(fut)[1:], fut.result()):", "second-opinion.batch-shifted",
   "a batch's answers are given to the queries one place later",
   "test:tests/test_certificates.py::test_second_solver_confirms_a_cegis_proof")
