"""Seeded faults of the routes that decide one part at one size (vertices, beliefs, edges, atoms, quotient, locality): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import T, TRUST, _E

QUOTIENT = "test:tests/solve/routes/test_quotient.py::"
BELIEFS = "test:tests/solve/routes/test_beliefs.py::"
SIGNS = BELIEFS + "test_signs_lemma_refuses_what_it_cannot_prove"
SUMS = "test:tests/solve/routes/test_conditional_sums.py::"
# the edges route: a hypothesis over every population on the simplex's edges
EDGES = "test:tests/solve/routes/test_edges.py::"
LEMMA = EDGES + "test_a_quadratic_is_nonnegative_on_the_unit_interval_exactly_when_the_lemma_says"
GERM = EDGES + "test_the_germ_of_a_polynomial_is_its_sign_next_to_each_end"
VERTICES = "test:tests/solve/routes/test_vertices.py::"


_E("symbolic.solve.routes.quotient:_rewritten", "    if r.lower is not None:\n        hyps.append",
   "    if False:\n        hyps.append", "quotient.lower-end-dropped",
   "R = q·δ without R's lower end as a condition on q·δ", QUOTIENT + "test_the_numerators_range_is_kept_as_a_hypothesis")


_E("symbolic.solve.routes.quotient:_rewritten", "    if r.upper is not None:\n        hyps.append",
   "    if False:\n        hyps.append", "quotient.upper-end-dropped",
   "R = q·δ without R's upper end as a condition on q·δ", QUOTIENT + "test_the_numerators_range_is_kept_as_a_hypothesis")


_E("symbolic.solve.routes.quotient:QuotientChange.original_parameters",
   "sp.expand(sp.sympify(values[self.fresh.name]) * values[self.divisor.name])", "values[self.fresh.name]",
   "quotient.mapped-back-as-q", "a counterexample's R is read as the quotient q instead of q·δ",
   QUOTIENT + "test_a_counterexample_comes_back_in_the_original_parameters_and_holds_exactly")


_E("symbolic.solve.routes.quotient:_substitute", "expr.subs(r, q * d)", "expr.subs(r, q)", "quotient.substituted-as-q",
   "R is replaced by q instead of q·δ", QUOTIENT + "test_rewritten_arguments_equal_the_originals_and_lose_their_divisions")


_E("symbolic.solve.routes.beliefs:_Refuter._signs_refute", "    if len(pure) < len(self.b):\n        return False\n", "",
   "beliefs.pure-power-missing", "f ≥ 0 is refuted although some pure power b_x^k has no (negative) coefficient",
   SIGNS)


_E("symbolic.solve.routes.beliefs:_Refuter._signs_refute", "self.never(c, m not in pure, conds)", "self.never(c, True, conds)",
   "beliefs.pure-power-weak", "f ≥ 0 is refuted with the pure powers' coefficients only ≤ 0 (f may be 0)", SIGNS)


_E("symbolic.solve.routes.beliefs:_Refuter.__init__", "p.lower is not None and sp.Rational(p.lower) >= 0", "True",
   "beliefs.any-parameter-nonnegative", "every parameter is taken to be ≥ 0 when a coefficient's terms are read",
   SIGNS)


_E("symbolic.solve.routes.beliefs:_Refuter.support_refutes", "r = min(len(forms), len(self.b))",
   "r = min(len(forms), len(self.b)) - 1", "beliefs.support-too-small",
   "a conjunction of r linear forms is tried on beliefs of r - 1 points only",
   BELIEFS + "test_pair_and_support_lemmas_refuse_satisfiable_conjunctions")


_E("symbolic.solve.routes.route:sign_oracle", "                if check_within(s, effort) == z3.unsat:",
   "                if True:", "beliefs.sign-unchecked", "a coefficient of a maximum is taken to be ≥ 0 unasked",
   BELIEFS + "test_the_sign_of_a_coefficient_is_proved_not_assumed")


_E("symbolic.solve.routes.atoms:dnf", "            out = [x + y for x in out for y in sub]", "            out = out + sub",
   "atoms.dnf-and-as-or", "a conjunction is read as a disjunction in the normal form",
   BELIEFS + "test_the_normal_form_of_a_negated_conclusion_is_exact")


_E("symbolic.solve.routes.beliefs:_Refuter.choices_refute", "for k in range(len(present) + 1):",
   "for k in range(len(present)):", "beliefs.choices-without-all-parts",
   "every choice of the maxima is tested except the one that takes every part of a monomial",
   BELIEFS + "test_every_choice_of_the_maxima_at_once_is_the_lemma_on_each_choice")


_E("symbolic.solve.routes.beliefs:_Refuter.choices_refute", "    if ch.op == \">=\":\n        monomials |= pure\n", "",
   "beliefs.choices-pure-powers-skipped", "f ≥ 0 over every choice is refuted without the pure powers that no part has",
   BELIEFS + "test_every_choice_of_the_maxima_at_once_is_the_lemma_on_each_choice")


_E("symbolic.solve.routes.atoms:_sum_at_least", "head = Atom(sp.expand(m + r / k), op)", "head = Atom(sp.expand(m + r), op)",
   "atoms.pigeonhole-without-division", "one term alone is asked to exceed the whole bound (not its K-th part)",
   SUMS + "test_the_pigeonhole_reading_holds_whenever_the_sum_does")


_E("symbolic.solve.routes.atoms:_per_choice",
   "    for chosen in itertools.product(*[[None] + x for x in subs]):\n",
   "    for chosen in itertools.product(*[[None] + x for x in subs]):\n"
   "        if all(c is None for c in chosen):\n            continue\n",
   "atoms.subsets-without-empty", "the subset with no condition true (the rest alone above the bound) is left out",
   SUMS + "test_a_sum_of_conditional_terms_is_read_exactly_over_subsets")


_E("symbolic.solve.routes.atoms:_conditional_sum",
   "    if sign is None or any(not (m.is_Rational and m >= 0) and sign(m) != 1 for m in masses):",
   "    if sign is None:", "atoms.masses-sign-unchecked", "conditional terms are read as if each were ≥ 0, unasked",
   SUMS + "test_terms_of_unknown_sign_are_not_read")


_E("symbolic.solve.routes.belief_conjunctions:_split_refutes",
   "cases = [Atom(c, a.op) for c in coeffs if not ref.never(c, a.op == \">\", conds)]",
   "cases = [Atom(c, a.op) for c in coeffs if not ref.never(c, a.op == \">\", conds)][:1]",
   "beliefs.split-first-case-only", "a linear atom's split keeps only its first coefficient's case",
   SUMS + "test_a_linear_atom_splits_the_tables_only_into_all_its_cases")


_E("symbolic.solve.routes.belief_conjunctions:_zeros", "if a.op == \"==\" and", "if a.op in (\"==\", \">=\") and",
   "beliefs.zero-from-nonnegative", "an atom b_x ≥ 0 is read as b_x = 0",
   SUMS + "test_only_an_atom_b_equal_zero_puts_b_to_zero")


_E("symbolic.solve.routes.belief_conjunctions:_cone_refutes", "corners = vertices(Polytope(len(ref.b), (), tuple(rows)))",
   "corners = vertices(Polytope(len(ref.b), (), tuple(rows)))[:1]", "beliefs.cone-one-ray",
   "the cone of the numeric atoms is replaced by its first ray", SUMS + "test_the_rays_of_a_numeric_cone_outweigh_a_positive_coefficient")


_E("symbolic.solve.routes.edges:all_of_unit_interval", "c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))",
   "c1 + 2 * c2 <= 0))", "edges.interior-minimum-missed",
   "a quadratic with its minimum inside (0, 1) is never nonnegative there", LEMMA)


_E("symbolic.solve.routes.edges:all_of_unit_interval", "c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))",
   "c1 + c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))", "edges.critical-point-misplaced",
   "the critical point −c₁/(2c₂) is taken to leave [0, 1] at −c₁/c₂", LEMMA)


_E("symbolic.solve.routes.edges:_edge_instances", "for a, b in itertools.combinations(range(len(enc.dbs)), 2):",
   "for a, b in [(0, 1)]:", "edges.one-edge", "a hypothesis over every population is kept on one edge only "
   "(weaker, so the limit claim is no longer proved)", EDGES + "test_entry_leakage_over_every_prior_gives_free_lunch_privacy_at_two_records")


_E("symbolic.solve.routes.edges:_edge_instances", "    product = ni.notion.population == \"product\"\n",
   "    product = False\n", "edges.product-as-every", "a hypothesis over product populations is kept on every edge",
   EDGES + "test_a_hypothesis_over_product_populations_keeps_only_product_edges")


_E("symbolic.solve.routes.edges:germ", "z3.And([d == 0 for d in cs[:k]] + [c > 0])", "z3.And([d == 0 for d in cs[k + 1:]] + [c > 0])",
   "edges.germ-last-coefficient", "a polynomial's sign next to 0 is read from its last nonzero coefficient", GERM)


_E("symbolic.solve.routes.edges:germ", "cs = _coefficients(f.subs(T, 1 - T) if at_one else f, env)", "cs = _coefficients(f, env)",
   "edges.germ-at-one-unshifted", "the germ next to t = 1 is read as the one next to t = 0", GERM)


_E("symbolic.solve.routes.edges:decide", "            if r != z3.sat or kept is not near:\n                break",
   "            break", "edges.near-model-final",
   "a model of the edges among a disjunct's databases is taken as final (not asked again with every edge)",
   EDGES + "test_edges_among_the_disjuncts_databases_first_then_every_edge")


_E("symbolic.solve.routes.edges:_database", "    if isinstance(where, tuple) and len(where) == 2 and where[1] in dbs:\n        return where[1]\n",
   "", "edges.adaptive-rows-unplaced", "an adaptive stage's row is placed in no database",
   EDGES + "test_the_database_of_an_adaptive_row_is_its_own")


_E("symbolic.solve.routes.polytope:covering", "        if check_within(s, FEASIBILITY_EFFORT, meter=meter) == z3.unsat:\n            kept.remove(c)",
   "        if True:\n            kept.remove(c)", "vertices.covered-unchecked",
   "a candidate vertex is dropped as covered by the others without asking the solver",
   VERTICES + "test_a_false_composition_is_refuted_with_exact_tables",
   VERTICES + "test_candidates_cover_every_vertex_and_only_feasible_points")


_E("symbolic.solve.routes.polytope:candidates", "            for a, c in cons:\n", "            for a, c in cons[1:]:\n",
   "vertices.condition-dropped", "a candidate's conditions leave out the first constraint of its block",
   VERTICES + "test_candidates_cover_every_vertex_and_only_feasible_points")


_E("symbolic.solve.routes.atoms:_atoms_of", "    if signs != ({-1} if every else {1}):\n        return None\n",
   "", "atoms.hockey-any-polarity", "a hockey-stick sum is expanded with whichever quantifier, whatever its sign",
   VERTICES + "test_shapes_the_atoms_cannot_state_are_refused")


_E("symbolic.solve.routes.symmetry:symmetries", "        if {_atom_key(op, _rename(f, ren)) for op, f in hyps} == hyps:",
   "        if True:", "symmetry.unchecked", "a renaming is used as a symmetry without checking the hypotheses",
   VERTICES + "test_a_renaming_that_moves_a_hypothesis_is_not_a_symmetry")


_E("symbolic.solve.routes.vertices:decide", "    for atoms in case_atoms:\n", "    for atoms in case_atoms[:1]:\n",
   "vertices.first-case-only", "a hypothesis that is a disjunction is decided on its first disjunct alone",
   VERTICES + "test_a_hypothesis_bounding_a_sum_of_conditional_terms_is_split_into_cases")


_E("symbolic.solve.routes.atoms:_per_choice", "            out.append(head + [a for c in chosen if c is not None for a in c])",
   "            out.append(head)", "atoms.at-most-conditions-dropped",
   "a sum bounded from above forgets that the terms left out must have false conditions (and a sum "
   "bounded from below that the terms counted must have true ones)",
   SUMS + "test_a_sum_bounded_from_above_is_read_exactly_over_subsets")


_E("symbolic.solve.routes.atoms:_sum_at_most", "lambda c: -1 if c is None else 0", "lambda c: -1 if c is not None else 0",
   "atoms.at-most-complement",
   "the terms whose conditions are false are counted instead of those that may be true",
   SUMS + "test_a_sum_bounded_from_above_is_read_exactly_over_subsets")


_E("symbolic.solve.routes.locality:decide", "if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) != z3.unsat:",
   "if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) == z3.sat:",
   "search.locality-unknown-as-unsat", "locality step: a disjunct z3 could not decide counted as refuted",
   TRUST + "test_locality_step_never_proves_a_false_claim_under_time_pressure")


# -- proofs by locality with ∀𝒫 notions -------------------------------------------------------------
_E("symbolic.solve.routes.locality:decide", "for q in structured_populations(sizes, product=True)",
   "for q in structured_populations(sizes, product=False)",
   "local.non-product-instance", "a hypothesis over product populations is instantiated at two-point populations that "
   "are not products", T + "tests/solve/test_local_proofs.py::test_false_claims_are_never_proved_locally")


_E("symbolic.solve.routes.locality:copy_key", "        return dag_key(lower(terms, memo))",
   "        return dag_key(lower(terms[:1], memo))", "locality.copies-by-first-term",
   "two disjuncts whose queries share their first term are taken for copies: one refutation stands for a "
   "query never asked", T + "symbolic/solve/routes/locality.py::symbolic.solve.routes.locality.copy_key")
