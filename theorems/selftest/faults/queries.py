"""Seeded faults of the encoding of a claim part as a query, the one-query solver and exact re-verification: one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import C, MUTANTS, Mutant, T, TRUST, _E, _resolve, edit, mutant, wrap

VALUES = "test:tests/solve/test_param_values.py::"
# the exact decision over every belief at a fixed table, and the exact maximum it rests on
EVERY = "test:tests/solve/test_every_belief.py::"
# -- verify: exact re-verification ---------------------------------------------------------------------
wrap_verify = lambda real: lambda imp, params, asg: (True, real(imp, params, asg)[1], [])


_E("symbolic.solve.queries.solver:assignment",
   'params = {p.name: (p.value if getattr(p, "value", None) is not None else ev(enc.penv[p.name])) for p in enc.params}',
   "params = {p.name: ev(enc.penv[p.name]) for p in enc.params}",
   "values.enclosure-value-kept", "a counterexample keeps the solver's value from the enclosure, not the fixed value",
   VALUES + "test_refuted_at_an_irrational_value_with_the_exact_value_in_the_counterexample")


_E("symbolic.solve.queries.every_belief:Decider.atom_top", "(c.op != \">\" and top_value < 0)", "(c.op != \">\" and top_value <= 0)",
   "every-belief.weak-atom-at-zero", "q ≥ 0 is taken to have no point where the maximum of q is exactly 0",
   EVERY + "test_a_conjunction_is_empty_only_when_it_is")


_E("symbolic.solve.queries.every_belief:_by_subsets", "return ops.Or(parts) if signs == {True} else ops.And(parts)",
   "return ops.And(parts) if signs == {True} else ops.Or(parts)", "every-belief.subsets-swapped",
   "a sum of maxima above a bound is read as above it for every choice of the maxima",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")


_E("symbolic.solve.queries.every_belief:_monotone", "        return 1 if k > 0 else -1", "        return -1 if k > 0 else 1",
   "every-belief.monotone-backwards", "the condition of an If is dropped on the branch where it matters",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")


_E("symbolic.solve.queries.every_belief:Decider.polytope", "range(k)), c) > 0 for", "range(k)), c) >= 0 for",
   "every-belief.strict-unchecked", "a strict atom that vanishes on the whole polytope does not empty it",
   EVERY + "test_a_conjunction_is_empty_only_when_it_is")


_E("symbolic.solve.queries.every_belief:_negated", "        return ops.atom(-c.f, \">=\")", "        return ops.atom(-c.f, \">\")",
   "every-belief.negation-strict", "not (f > 0) is read as -f > 0, losing the beliefs where f = 0",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")


_E("symbolic.solve.queries.verify:argument_problems", "            out += [", "            out += [] and [",
   "verify.arguments-unchecked", "a counterexample at which a notion's argument leaves its range is accepted",
   EVERY + "test_a_notion_argument_outside_its_range_is_no_counterexample")


# -- search: solver answers, CEGIS, the size grid, minimisation ---------------------------------------
_E("symbolic.solve.queries.solver:Solver.solve", 'return "unknown", unknown_reason(self.s)', 'return "unsat", None',
   "search.unknown-as-unsat", "z3 'unknown' read as unsat (Solver.solve)",
   TRUST + "test_solver_never_reads_unknown_as_unsat")


_E("symbolic.solve.queries.solver:Solver.solve", 'return "sat", model', 'return "unsat", None',
   "search.sat-read-as-unsat", "a satisfiable query (a counterexample) read as unsat (Solver.solve)",
   C + "T-APPB")


@mutant("search.nlsat-sat-as-unsat", "the nonlinear procedure's (nlsat) sat answers read as unsat: a stand-in for "
        "a wrong answer from one solver on the split queries", C + "S-COR8")
def _nlsat_wrong():
    edit("symbolic.solve.queries.solver:Solver.__init__", "self.enc, self.settings, self.meter = enc, settings, meter",
         "self.enc, self.settings, self.meter = enc, settings, meter; self._nlsat = nlsat")
    edit("symbolic.solve.queries.solver:Solver.solve", 'return "sat", model',
         'return ("unsat", None) if getattr(self, "_nlsat", False) else ("sat", model)')


_E("symbolic.solve.queries.solver:Solver._counter_population", "if not self.enc.universal:", "if True:",
   "search.cegis-never-refines", "the CEGIS oracle never refines: every candidate is accepted for the ∀𝒫 hypotheses",
   C + "S-TH9")   # T-P5's sizes above 4 cells are now proved by locality first, without CEGIS


_E("symbolic.solve.queries.solver:_value", "sp.Rational(x.numerator_as_long(), x.denominator_as_long())",
   "sp.Rational(x.numerator_as_long(), x.denominator_as_long() + 1)",
   "search.model-values-misread", "a z3 model's rational values are read with the denominator off by one",
   T + "tests/solve/test_search.py::test_quality_minimal_counterexample_appb")


@mutant("search.structured-ignores-product", "structured witnesses for a product-population notion include "
        "non-product populations", TRUST + "test_structured_product_populations_are_products")
def _structured_product():
    _resolve("symbolic.solve.queries.solver:_STRUCTURED")[2].clear()  # nothing cached before the patch is served
    wrap("symbolic.solve.queries.solver:structured_populations", lambda real: lambda sizes, product=False: real(sizes, False))


# -- encode: the solver's view of a claim -----------------------------------------------------------
_E("symbolic.solve.queries.encode:Encoding.new_population", "for j in range(1, n):", "for j in range(1, n - 1):",
   "encode.product-drops-last-marginal", "the last marginal is dropped from the encoded product population",
   TRUST + "test_product_population_encoding_is_the_product_of_all_marginals")


_E("symbolic.solve.queries.encode:Encoding._row", "self.base.append(z3.Sum(row) == 1)", "pass",
   "encode.row-sum-to-one-dropped", "sum-to-one dropped from every unknown distribution (Encoding._row)",
   T + "tests/solve/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")


_E("symbolic.solve.queries.encode:Encoding.real", "self.base.append(v >= 0) if group != \"param\" else None", "None",
   "encode.nonnegativity-dropped", "non-negativity dropped from every unknown probability (Encoding.real)",
   T + "tests/solve/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")


_E("symbolic.solve.queries.encode:within_range", "if r.lower is not None:", "if False:",
   "encode.param-lower-bound-dropped", "parameter lower bounds (E ≥ 1, δ ≥ 0) dropped from the query",
   TRUST + "test_encoding_keeps_parameters_in_range")


_E("symbolic.solve.queries.encode:Encoding._guard_divisors", "self.base.append(to_z3(sub.base, self.penv, self.ops) != 0)", "pass",
   "encode.divisor-guard-dropped", "divisor guard dropped: the search may put a parameter where an expression divides by 0",
   T + "tests/solve/test_search.py::test_parameter_expressions_are_only_searched_where_defined")


_E("symbolic.solve.queries.encode:Encoding.negated_conclusion_parts", "for x in conjuncts([c])]", "for x in conjuncts([c])[:-1]]",
   "encode.conclusion-drops-last-conjunct", "the negated conclusion loses its last conjunct (one instance never checked)",
   C + "S-TH4")


_E("symbolic.solve.queries.encode:eval_notion", "for member in tabs[i].values())", "for member in list(tabs[i].values())[:1])",
   "encode.family-first-member-only", "a notion on an adaptive family is checked on its first member only "
   "(a dropped quantifier)", T + "tests/solve/test_search.py::test_locality_proves_only_what_holds")


_E("symbolic.solve.queries.encode:eval_notion", "zip(ni.notion.params, ni.args)", "zip(ni.notion.params, tuple(reversed(ni.args)))",
   "encode.parameters-swapped", "a notion's parameters are bound in reverse order (ε and δ swapped)",
   C + "K-D1.1")


MUTANTS.append(Mutant("verify.always-accepts", "exact re-verification accepts every candidate",
                      lambda: wrap("symbolic.solve.queries.verify:verify", wrap_verify),
                      (T + "tests/solve/test_search.py::test_reverification_rejects_corrupted_models",)))


_E(("symbolic.solve.queries.verify:_hypothesis_problems", "symbolic.solve.queries.verify:_verify"), "for q in ni.notion.sufficient(n, dom):",
   "for q in ni.notion.sufficient(n, dom)[:1]:",
   "verify.first-population-only", "a ∀𝒫 hypothesis is re-verified on the first population of its family only",
   TRUST + "test_verify_checks_every_population_of_a_hypothesis_family")


_E("symbolic.solve.queries.verify:_check_row", "if exact_sign(x) < 0:", "if False:",
   "verify.negative-entries-accepted", "re-verification accepts negative probabilities",
   TRUST + "test_verify_rejects_negative_entries")


_E("symbolic.solve.queries.verify:_check_row", "    if off != 0:", "    if False:",
   "verify.row-sums-unchecked", "re-verification does not check that rows sum to 1",
   T + "tests/solve/test_search.py::test_reverification_rejects_corrupted_models")


_E(("symbolic.solve.queries.verify:_verify",), "if eval_notion(ops2, c, env, witness,", "if False and eval_notion(ops2, c, env, witness,",
   "verify.conclusion-unchecked", "re-verification never checks that the conclusion fails",
   T + "tests/solve/test_search.py::test_verify_rejects_a_non_counterexample", TRUST + "test_verify_rejects_a_non_counterexample")


_E(("symbolic.solve.queries.verify:_hypothesis_problems", "symbolic.solve.queries.verify:_verify"), "elif not eval_notion(ops, ni, env, pop,",
   "elif False and eval_notion(ops, ni, env, pop,",
   "verify.given-hypotheses-unchecked", "re-verification skips hypotheses relative to the shared population",
   TRUST + "test_verify_checks_hypotheses_on_the_shared_population")


_E("symbolic.solve.queries.encode:Encoding._divisor_signs", "if check_within(s, units(2)) == z3.unsat:", "if True:",
   "encode.sign-assumed", "every divisor is taken as positive and multiplied out, unproved",
   T + "tests/solve/test_rational_maps.py::test_divisor_that_may_vanish_in_range_stays_guarded")


_E("symbolic.solve.queries.hockey:HockeyRewriter._compare", "return lhs < big if strict else lhs <= big", "return lhs <= big",
   "hockey.strict-lost", "the hockey-stick rewrite turns a strict comparison into ≤",
   T + "tests/solve/test_hockey_composition.py::test_event_form_is_equivalent_at_any_polarity")


_E("symbolic.solve.vacuity:find_witness",
   "enc = Encoding(imp, params, sizes, {**rational_values(params), **imp.parameters}, argument_ranges=True)",
   "enc = Encoding(imp, params, sizes, {**rational_values(params), **imp.parameters}, argument_ranges=False)",
   "vacuity.witness-outside-arguments", "the vacuity witness may put a notion's argument outside its range, where the "
   "proof says nothing", TRUST + "test_a_conclusion_whose_argument_leaves_its_range_is_vacuous_there_and_scoped_elsewhere")


_E("symbolic.solve.queries.solver:Solver.assertions", "return tuple(self.asserted)", "return tuple(self.s.assertions())",
   "search.obligations-from-private-context",
   "a query asked alone hands over its assertions as terms of its private z3 context, not the encoding's",
   TRUST + "test_a_query_alone_in_its_own_context_answers_in_the_encodings_terms")
