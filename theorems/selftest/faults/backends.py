"""Seeded faults of the solvers' backends and the effort they spend (z3 operations, effort limits, cvc5, the second opinion): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import T, TRUST, _E

BATCHES = "test:tests/solve/backends/test_cvc5_batches.py::"
EFFORT = "test:tests/solve/backends/test_effort.py::"


_E("symbolic.solve.backends.cvc5_child:_answer", "    if at != index or status not in", "    if status not in",
   "cvc5.batch-index-unchecked", "a batch's answers are taken in the order they come, not matched to their queries",
   BATCHES + "test_an_answer_out_of_order_is_unknown")


_E("symbolic.solve.backends.cvc5_child:_batch_child",
   "                out.append((\"unknown\", f\"cvc5: wall-clock safety limit, no answer within {timeout:g} s (+{GRACE:g} s \"",
   "                out.append((\"unsat\", f\"cvc5: wall-clock safety limit, no answer within {timeout:g} s (+{GRACE:g} s \"",
   "cvc5.batch-killed-as-unsat",
   "a query whose child was killed at the time limit counts as confirmed",
   BATCHES + "test_a_hanging_or_crashing_query_costs_only_itself")


_E("symbolic.solve.backends.second_opinion:_decide_all", "                for i, d in zip(batches[start], fut.result()):",
   "                for i, d in zip(batches[start][1:], fut.result()):", "second-opinion.batch-shifted",
   "a batch's answers are given to the queries one place later",
   "test:tests/solve/test_certificates.py::test_second_solver_confirms_a_cegis_proof")


_E("symbolic.solve.backends.smt2:renaming_key", "        out.append([op, list(args), sort, str(value)])",
   "        out.append([op, list(args), sort, None])", "second-opinion.copies-ignore-numerals",
   "two queries that differ in a numeral are taken for copies of each other, and one answer serves both",
   "test:tests/solve/backends/test_second_opinion_copies.py::test_formulas_that_differ_are_not_taken_for_copies")


_E("symbolic.solve.backends.second_opinion:_decide_all",
   "    same = {i: first[k] for i, k in enumerate(keys) if k is not None and first[k] != i}",
   "    same = {i: 0 for i, k in enumerate(keys) if i != 0}", "second-opinion.copies-take-the-first-answer",
   "every query after the first is taken for a copy of the first, whatever its formula",
   "test:tests/solve/backends/test_second_opinion_copies.py::test_copies_up_to_renaming_are_asked_once_and_share_the_answer")


_E("symbolic.solve.backends.deadline:check_within", '    solver.set("rlimit", units)', '    pass',
   "effort.rlimit-unset", "a solver call is not bounded by z3's resource count (only the wall clock would end it)",
   "test:tests/solve/backends/test_deadline.py::test_the_resource_count_ends_a_call_the_same_way_every_time")


_E("symbolic.solve.backends.effort:Meter.charge", "m.spent += max(0, int(n))", "m.spent += 0",
   "effort.charge-ignored", "what a solver call spent is not charged to its meter (a part's effort never runs out)",
   "test:tests/solve/backends/test_deadline.py::test_the_resource_count_ends_a_call_the_same_way_every_time",
   EFFORT + "test_a_part_stops_at_its_effort_and_says_which_limit")


_E("symbolic.solve.backends.deadline:unknown_reason", 'if limit == "wall-clock" or (limit is None and raw in ("canceled", "timeout")):',
   'if False:',
   "effort.safety-unnamed", "a call cut off by the wall-clock safety net is not reported as such",
   "test:tests/solve/backends/test_deadline.py::test_the_watchdog_is_a_safety_net_that_says_so")


_E("symbolic.solve.backends.second_opinion:_decide_all", "        elif spent > settings.second_effort:", "        elif False:",
   "second-opinion.effort-unenforced", "the second solver's effort is not enforced: answers past it still count",
   EFFORT + "test_the_second_solver_counts_its_effort_in_index_order")


_E("symbolic.solve.backends.z3_ops:Z3Ops.le", "return a <= b", "return a < b",
   "ops.z3-le-strict", "solver ≤ encoded as <", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.lt", "return a < b", "return a <= b",
   "ops.z3-lt-nonstrict", "solver < encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.ge", "return a >= b", "return a > b",
   "ops.z3-ge-strict", "solver ≥ encoded as >", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.eq", "return a == b", "return a <= b",
   "ops.z3-eq-as-le", "solver = encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.max0", "return self.z3.If(self.gt(x, 0), x, self.z3.RealVal(0))", "return x",
   "ops.z3-max0-identity", "solver max(0, x) encoded as x", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.Implies", "return self.Or([self.Not(a), b])", "return self.And([a, b])",
   "ops.z3-implies-as-and", "solver implication encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:Z3Ops.Or", "return self.z3.Or(xs) if xs else self.z3.BoolVal(False)",
   "return self.z3.And(xs) if xs else self.z3.BoolVal(False)",
   "ops.z3-or-as-and", "solver disjunction encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")


_E("symbolic.solve.backends.z3_ops:to_z3", "return out if k > 0 else 1 / out", "return out",
   "ops.to-z3-negative-power", "a negative power x^-k is given to the solver as x^k",
   T + "tests/solve/test_search.py::test_parameter_expressions_are_only_searched_where_defined")


_E("symbolic.solve.backends.z3_ops:Z3Ops.sqrt", "self.z3.And(s >= 0, s * s == self._t(x))", "s * s == self._t(x)",
   "ops.z3-sqrt-sign-dropped", "the solver's square root may be the negative root", TRUST + "test_solver_square_root_is_the_nonnegative_root")


_E("symbolic.solve.backends.cvc5_child:_batch_child",
   "                        out.append((\"unknown\", \"cvc5: \" + \"; \".join(notes) + \"; process ended\", units, stages))",
   "                        out.append((\"unsat\", \"cvc5: \" + \"; \".join(notes) + \"; process ended\", units, stages))",
   "cvc5.ladder-cut-as-unsat",
   "a query cut at the last stage of cvc5's ladder counts as confirmed",
   BATCHES + "test_a_query_cut_at_its_processor_slice_goes_on_at_the_next_stage")


_E("symbolic.solve.backends.second_opinion:_decide_all", "if status != \"unsat\":\n                why[i] = (query_limit(",
   "if False:\n                why[i] = (query_limit(", "second-opinion.asks-past-the-undecided",
   "answers after the first undecided query still count, so what is confirmed depends on which worker answered first",
   "test:tests/solve/backends/test_second_opinion_copies.py::"
   "test_the_largest_queries_are_asked_first_and_the_first_undecided_one_ends_the_asking")


_E("symbolic.solve.backends.smt2:lower",
   "    if memo is None or (roots and memo.setdefault(\"context\", roots[0].ctx) is not roots[0].ctx):",
   "    if memo is None:",
   "smt2.memo-across-contexts", "a memo of z3 term ids is shared by terms of two contexts (ids are per context)",
   T + "symbolic/solve/backends/smt2.py::symbolic.solve.backends.smt2.lower")


_E("symbolic.solve.backends.cvc5_child:_batch_child", "notes = (carried.notes if not out else ()) + before + (",
   "notes = (carried.notes if not out else ()) + (", "cvc5.stage-notes-dropped",
   "a query cut at its ladder's last stage drops, from its reason, the stages left undecided in the same child",
   BATCHES + "test_a_stage_left_undecided_between_two_cuts_is_named_in_the_reason")


LIMITS = "test:tests/solve/backends/test_second_solver_limits.py::"

_E("symbolic.solve.backends.cvc5_child:_batch_child", "stages = (carried.stages if not out else ()) + done + ((name, TIME),)",
   "stages = (carried.stages if not out else ()) + done + ((name, RESOURCE),)", "cvc5.time-cut-taken-for-a-count",
   "a stage cut at its processor-time slice is recorded as ended by a count (machine-independent)",
   LIMITS + "test_a_stage_cut_at_its_processor_slice_is_recorded_as_time")

_E("symbolic.solve.backends.substitution:_spend", "_WORK.spent += n", "_WORK.spent += 0",
   "substitution.operations-uncounted", "the rewrite before the substitution stage does not count its operations",
   LIMITS + "test_the_rewrite_counts_operations_and_stops_at_the_same_point_every_time")


SUBSTITUTION = "test:tests/solve/backends/test_substitution.py::"

_E("symbolic.solve.backends.substitution:_solvable", "    return x, _add({}, rest, -1 / c)",
   "    return x, _add({}, rest, 1 / c)", "substitution.solved-with-the-wrong-sign",
   "an equality c·x + L = 0 is solved as x := L/c, so cvc5 confirms a proof on another question",
   SUBSTITUTION + "test_the_rewritten_query_holds_exactly_where_the_query_holds_at_the_extended_point")

_E("symbolic.solve.backends.substitution:_conjuncts", "        if f[0] == \"and\":",
   "        if f[0] in (\"and\", \"or\"):", "substitution.disjunct-taken-for-conjunct",
   "an equality under a disjunction is solved as if it were asserted",
   SUBSTITUTION + "test_an_equality_under_a_disjunction_is_not_solved")

_E("symbolic.solve.backends.substitution:_Writer._formula",
   "        return self.node(f[1], [self.poly(f[2]), self.num(Fraction(0))], \"Bool\")",
   "        return self.node(f[1], [self.num(Fraction(0)), self.poly(f[2])], \"Bool\")",
   "substitution.comparison-turned-round", "the rewritten comparisons read p ⋈ 0 as 0 ⋈ p",
   SUBSTITUTION + "test_the_rewritten_query_holds_exactly_where_the_query_holds_at_the_extended_point")

_E("symbolic.solve.backends.substitution:_decided", "\"<\": c < 0,", "\"<\": c <= 0,",
   "substitution.strictness-lost", "a strict comparison of constants is decided as if it were not strict",
   SUBSTITUTION + "test_a_comparison_of_constants_after_the_substitution_is_decided")


ACCOUNTS = T + "tests/solve/backends/test_effort_accounts.py::test_a_sub_account_never_spends_more_than_its_parents_have_left"
_E("symbolic.solve.backends.effort:Meter.left", "m = m.parent", "m = None",
   "effort.sub-account-ignores-parent", "a sub-account has what its own limit leaves, whatever its parents have left",
   ACCOUNTS)
_E("symbolic.solve.backends.effort:Meter.charge", "m = m.parent", "m = None",
   "effort.charge-not-passed-up", "what a sub-account spends is not charged to the accounts above it", ACCOUNTS)

KINDS = T + "tests/solve/backends/test_substitution_node_kinds.py::test_the_rewrite_of_any_z3_query_holds_exactly_where_the_query_does"
_E("symbolic.solve.backends.substitution:_read", 'elif op in ("neg", "-") and len(a) == 1:\n                memo[i] = _add({}, a[0], Fraction(-1))',
   'elif op in ("neg", "-") and len(a) == 1:\n                memo[i] = a[0]', "substitution.unary-minus-dropped",
   "the substitution stage reads a unary minus as its argument (the sign lost)", KINDS)
_E("symbolic.solve.backends.substitution:_read", "if op in _RELATIONS and len(a) == 2 and all(isinstance(t, dict) for t in a):\n                memo[i] = (\"atom\", op, _add(a[0], a[1], Fraction(-1)))",
   "if op in _RELATIONS and len(a) == 2 and all(isinstance(t, dict) for t in a):\n                memo[i] = (\"atom\", op, _add(a[1], a[0], Fraction(-1)))",
   "substitution.relation-reversed", "the substitution stage reads x ≤ y as y ≤ x", KINDS)

CONSTANTS = T + "tests/solve/backends/test_constants.py::"
_E("symbolic.solve.backends.constants:enclose_constant", "lo, hi = ball.lower(), ball.upper()",
   "lo, hi = ball.lower(), ball.lower()", "constants.enclosure-misses-value",
   "a constant's rational enclosure is cut at its lower end and may miss the true value",
   CONSTANTS + "test_an_enclosure_contains_the_true_value_and_is_narrow")
_E("symbolic.solve.backends.constants:_failed_reverification", "return not verdict.verified_exactly", "return False",
   "constants.no-refinement", "a counterexample rejected at the true constants is not sought again with narrower enclosures",
   CONSTANTS + "test_refinement_narrows_the_enclosures_a_counted_number_of_times_then_says_unknown")
