"""Seeded faults of the belief route (signs of coefficients, a pair, few points of support) and of the
normal form it reads: one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

BELIEFS = "test:tests/test_beliefs.py::"
SIGNS = BELIEFS + "test_signs_lemma_refuses_what_it_cannot_prove"

_E("symbolic.solve.beliefs:_Refuter._signs_refute", "    if len(pure) < len(self.b):\n        return False\n", "",
   "beliefs.pure-power-missing", "f ≥ 0 is refuted although some pure power b_x^k has no (negative) coefficient",
   SIGNS)
_E("symbolic.solve.beliefs:_Refuter._signs_refute", "self.never(c, m not in pure, conds)", "self.never(c, True, conds)",
   "beliefs.pure-power-weak", "f ≥ 0 is refuted with the pure powers' coefficients only ≤ 0 (f may be 0)", SIGNS)
_E("symbolic.solve.beliefs:_Refuter.__init__", "p.lower is not None and sp.Rational(p.lower) >= 0", "True",
   "beliefs.any-parameter-nonnegative", "every parameter is taken to be ≥ 0 when a coefficient's terms are read",
   SIGNS)
_E("symbolic.solve.beliefs:_Refuter.support_refutes", "r = min(len(forms), len(self.b))",
   "r = min(len(forms), len(self.b)) - 1", "beliefs.support-too-small",
   "a conjunction of r linear forms is tried on beliefs of r - 1 points only",
   BELIEFS + "test_pair_and_support_lemmas_refuse_satisfiable_conjunctions")
_E("symbolic.solve.route:sign_oracle", "                if check_within(s, effort) == z3.unsat:",
   "                if True:", "beliefs.sign-unchecked", "a coefficient of a maximum is taken to be ≥ 0 unasked",
   BELIEFS + "test_the_sign_of_a_coefficient_is_proved_not_assumed")
_E("symbolic.solve.atoms:dnf", "            out = [x + y for x in out for y in sub]", "            out = out + sub",
   "atoms.dnf-and-as-or", "a conjunction is read as a disjunction in the normal form",
   BELIEFS + "test_the_normal_form_of_a_negated_conclusion_is_exact")
_E("symbolic.solve.beliefs:_Refuter.choices_refute", "for k in range(len(present) + 1):",
   "for k in range(len(present)):", "beliefs.choices-without-all-parts",
   "every choice of the maxima is tested except the one that takes every part of a monomial",
   BELIEFS + "test_every_choice_of_the_maxima_at_once_is_the_lemma_on_each_choice")
_E("symbolic.solve.beliefs:_Refuter.choices_refute", "    if ch.op == \">=\":\n        monomials |= pure\n", "",
   "beliefs.choices-pure-powers-skipped", "f ≥ 0 over every choice is refuted without the pure powers that no part has",
   BELIEFS + "test_every_choice_of_the_maxima_at_once_is_the_lemma_on_each_choice")
_E("symbolic.solve.search:search_size", "                if found.status == \"sat\":\n",
   "                if found.status != \"unknown\":\n", "search.fixed-value-proof",
   "a claim over all beliefs that holds at the fixed parameter values is taken as proved for every value",
   BELIEFS + "test_holding_at_the_fixed_values_proves_nothing_for_every_value")

# the exact decision over every belief at a fixed table, and the exact maximum it rests on
EVERY = "test:tests/test_every_belief.py::"
_E("symbolic.core.quadratic:stationary_points", "for size in range(1, k + 1)", "for size in range(1, k)",
   "quadratic.full-support-missed", "the stationary point with every b_x > 0 (an interior maximum) is never tried",
   EVERY + "test_the_maximum_of_a_quadratic_over_a_polytope_is_exact")
_E("symbolic.core.quadratic:simplex_bound", "c * math.prod(math.factorial(a) for a in alpha) / total",
   "c / total", "quadratic.bound-without-multinomials",
   "the bound divides every coefficient by D! instead of its multinomial coefficient (too small a bound)",
   EVERY + "test_the_bound_without_solving_is_never_below_the_maximum_and_tightens")
_E("symbolic.solve.every_belief:Decider.atom_top", "(c.op != \">\" and top_value < 0)", "(c.op != \">\" and top_value <= 0)",
   "every-belief.weak-atom-at-zero", "q ≥ 0 is taken to have no point where the maximum of q is exactly 0",
   EVERY + "test_a_conjunction_is_empty_only_when_it_is")
_E("symbolic.solve.every_belief:_by_subsets", "return ops.Or(parts) if signs == {True} else ops.And(parts)",
   "return ops.And(parts) if signs == {True} else ops.Or(parts)", "every-belief.subsets-swapped",
   "a sum of maxima above a bound is read as above it for every choice of the maxima",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")
_E("symbolic.solve.every_belief:_monotone", "        return 1 if k > 0 else -1", "        return -1 if k > 0 else 1",
   "every-belief.monotone-backwards", "the condition of an If is dropped on the branch where it matters",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")
_E("symbolic.solve.every_belief:Decider.polytope", "range(k)), c) > 0 for", "range(k)), c) >= 0 for",
   "every-belief.strict-unchecked", "a strict atom that vanishes on the whole polytope does not empty it",
   EVERY + "test_a_conjunction_is_empty_only_when_it_is")
_E("symbolic.solve.every_belief:_negated", "        return ops.atom(-c.f, \">=\")", "        return ops.atom(-c.f, \">\")",
   "every-belief.negation-strict", "not (f > 0) is read as -f > 0, losing the beliefs where f = 0",
   EVERY + "test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros")
_E("symbolic.solve.verify:argument_problems", "            out += [", "            out += [] and [",
   "verify.arguments-unchecked", "a counterexample at which a notion's argument leaves its range is accepted",
   EVERY + "test_a_notion_argument_outside_its_range_is_no_counterexample")

# sums of conditional terms (subsets or pigeonhole) and Lemma 4
SUMS = "test:tests/test_conditional_sums.py::"
_E("symbolic.solve.atoms:_sum_at_least", "head = Atom(sp.expand(m + r / k), op)", "head = Atom(sp.expand(m + r), op)",
   "atoms.pigeonhole-without-division", "one term alone is asked to exceed the whole bound (not its K-th part)",
   SUMS + "test_the_pigeonhole_reading_holds_whenever_the_sum_does")
_E("symbolic.solve.atoms:_per_choice",
   "    for chosen in itertools.product(*[[None] + x for x in subs]):\n",
   "    for chosen in itertools.product(*[[None] + x for x in subs]):\n"
   "        if all(c is None for c in chosen):\n            continue\n",
   "atoms.subsets-without-empty", "the subset with no condition true (the rest alone above the bound) is left out",
   SUMS + "test_a_sum_of_conditional_terms_is_read_exactly_over_subsets")
_E("symbolic.solve.atoms:_conditional_sum",
   "    if sign is None or any(not (m.is_Rational and m >= 0) and sign(m) != 1 for m in masses):",
   "    if sign is None:", "atoms.masses-sign-unchecked", "conditional terms are read as if each were ≥ 0, unasked",
   SUMS + "test_terms_of_unknown_sign_are_not_read")
_E("symbolic.solve.belief_conjunctions:_split_refutes",
   "cases = [Atom(c, a.op) for c in coeffs if not ref.never(c, a.op == \">\", conds)]",
   "cases = [Atom(c, a.op) for c in coeffs if not ref.never(c, a.op == \">\", conds)][:1]",
   "beliefs.split-first-case-only", "a linear atom's split keeps only its first coefficient's case",
   SUMS + "test_a_linear_atom_splits_the_tables_only_into_all_its_cases")
_E("symbolic.solve.belief_conjunctions:_zeros", "if a.op == \"==\" and", "if a.op in (\"==\", \">=\") and",
   "beliefs.zero-from-nonnegative", "an atom b_x ≥ 0 is read as b_x = 0",
   SUMS + "test_only_an_atom_b_equal_zero_puts_b_to_zero")
_E("symbolic.solve.belief_conjunctions:_cone_refutes", "corners = vertices(Polytope(len(ref.b), (), tuple(rows)))",
   "corners = vertices(Polytope(len(ref.b), (), tuple(rows)))[:1]", "beliefs.cone-one-ray",
   "the cone of the numeric atoms is replaced by its first ray", SUMS + "test_the_rays_of_a_numeric_cone_outweigh_a_positive_coefficient")

# the edges route: a hypothesis over every population on the simplex's edges
EDGES = "test:tests/test_edges.py::"
LEMMA = EDGES + "test_a_quadratic_is_nonnegative_on_the_unit_interval_exactly_when_the_lemma_says"
_E("symbolic.solve.edges:all_of_unit_interval", "c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))",
   "c1 + 2 * c2 <= 0))", "edges.interior-minimum-missed",
   "a quadratic with its minimum inside (0, 1) is never nonnegative there", LEMMA)
_E("symbolic.solve.edges:all_of_unit_interval", "c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))",
   "c1 + c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))", "edges.critical-point-misplaced",
   "the critical point −c₁/(2c₂) is taken to leave [0, 1] at −c₁/c₂", LEMMA)
_E("symbolic.solve.edges:_edge_instances", "for a, b in itertools.combinations(range(len(enc.dbs)), 2):",
   "for a, b in [(0, 1)]:", "edges.one-edge", "a hypothesis over every population is kept on one edge only "
   "(weaker, so the limit claim is no longer proved)", EDGES + "test_entry_leakage_over_every_prior_gives_free_lunch_privacy_at_two_records")
_E("symbolic.solve.edges:_edge_instances", "    product = ni.notion.population == \"product\"\n",
   "    product = False\n", "edges.product-as-every", "a hypothesis over product populations is kept on every edge",
   EDGES + "test_a_hypothesis_over_product_populations_keeps_only_product_edges")
GERM = EDGES + "test_the_germ_of_a_polynomial_is_its_sign_next_to_each_end"
_E("symbolic.solve.edges:germ", "z3.And([d == 0 for d in cs[:k]] + [c > 0])", "z3.And([d == 0 for d in cs[k + 1:]] + [c > 0])",
   "edges.germ-last-coefficient", "a polynomial's sign next to 0 is read from its last nonzero coefficient", GERM)
_E("symbolic.solve.edges:germ", "cs = _coefficients(f.subs(T, 1 - T) if at_one else f, env)", "cs = _coefficients(f, env)",
   "edges.germ-at-one-unshifted", "the germ next to t = 1 is read as the one next to t = 0", GERM)
_E("symbolic.solve.edges:decide", "            if r != z3.sat or kept is not near:\n                break",
   "            break", "edges.near-model-final",
   "a model of the edges among a disjunct's databases is taken as final (not asked again with every edge)",
   EDGES + "test_edges_among_the_disjuncts_databases_first_then_every_edge")
_E("symbolic.solve.edges:_database", "    if isinstance(where, tuple) and len(where) == 2 and where[1] in dbs:\n        return where[1]\n",
   "", "edges.adaptive-rows-unplaced", "an adaptive stage's row is placed in no database",
   EDGES + "test_the_database_of_an_adaptive_row_is_its_own")
