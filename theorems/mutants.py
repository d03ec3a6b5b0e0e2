"""The seeded faults of the self-test (:mod:`theorems.selftest`): one engine edit each, with the
detectors expected to catch it. How they are put in: :mod:`theorems.mutation`. The graph's faults
are in :mod:`theorems.mutants_graph`, those of fixed parameter values in :mod:`theorems.mutants_params`.
"""
from __future__ import annotations

from theorems.mutation import (C, EDITS, MUTANTS, PROOFS, T, TRUST, MissingTarget, Mutant, _E, _resolve,  # noqa: F401
                               edit, install, mutant, wrap)


# -- search: solver answers, CEGIS, the size grid, minimisation ---------------------------------------
_E("symbolic.solve.solver:Solver.solve", 'return "unknown", unknown_reason(self.s)', 'return "unsat", None',
   "search.unknown-as-unsat", "z3 'unknown' read as unsat (Solver.solve)",
   TRUST + "test_solver_never_reads_unknown_as_unsat")
_E("symbolic.solve.solver:Solver.solve", 'return "sat", model', 'return "unsat", None',
   "search.sat-read-as-unsat", "a satisfiable query (a counterexample) read as unsat (Solver.solve)",
   C + "T-APPB")


@mutant("search.nlsat-sat-as-unsat", "the nonlinear procedure's (nlsat) sat answers read as unsat: a stand-in for "
        "a wrong answer from one solver on the split queries", C + "S-COR8")
def _nlsat_wrong():
    edit("symbolic.solve.solver:Solver.__init__", "self.enc, self.settings, self.meter = enc, settings, meter",
         "self.enc, self.settings, self.meter = enc, settings, meter; self._nlsat = nlsat")
    edit("symbolic.solve.solver:Solver.solve", 'return "sat", model',
         'return ("unsat", None) if getattr(self, "_nlsat", False) else ("sat", model)')


_E("symbolic.solve.solver:Solver._counter_population", "if not self.enc.universal:", "if True:",
   "search.cegis-never-refines", "the CEGIS oracle never refines: every candidate is accepted for the ∀𝒫 hypotheses",
   C + "T-P5")
_E("symbolic.solve.search:_run_local", "if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) != z3.unsat:",
   "if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) == z3.sat:",
   "search.locality-unknown-as-unsat", "locality step: a disjunct z3 could not decide counted as refuted",
   TRUST + "test_locality_step_never_proves_a_false_claim_under_time_pressure")
_E("symbolic.solve.search:grid", "for n in range(lo.n, hi.n + 1)", "for n in range(lo.n + 1, hi.n + 1)",
   "search.grid-skips-smallest-n", "size grid off by one: the smallest n is never searched",
   T + "tests/test_search.py::test_p1_proved_with_symbolic_E")
_E("symbolic.solve.search:grid", "for m in range(lo.outputs, hi.outputs + 1)", "for m in range(lo.outputs, hi.outputs)",
   "search.grid-drops-largest-outputs", "size grid off by one: the largest |O| is never searched",
   T + "tests/test_search.py::test_p1_proved_with_symbolic_E")
_E("symbolic.solve.search:_check_grid", "unknown.append((sizes, res.reason))", "pass",
   "search.undecided-size-ignored", "check_implication: a size the solver could not decide is dropped from the sweep",
   TRUST + "test_an_undecided_size_makes_the_verdict_unknown")
_E("symbolic.solve.search:_check_grid", "return Refuted(cx, ok, minimal,", "return Refuted(cx, True, minimal,",
   "search.refuted-always-verified", "a counterexample is reported as re-verified whatever the exact check said",
   T + "tests/test_search.py::test_reverification_rejects_corrupted_models")
_E("symbolic.solve.search:_check_grid", "minimal = not unknown", "minimal = True",
   "search.minimal-always", "a counterexample is called minimal although a smaller size was undecided",
   TRUST + "test_refutation_after_an_undecided_size_is_not_called_minimal")
_E("symbolic.solve.solver:_value", "sp.Rational(x.numerator_as_long(), x.denominator_as_long())",
   "sp.Rational(x.numerator_as_long(), x.denominator_as_long() + 1)",
   "search.model-values-misread", "a z3 model's rational values are read with the denominator off by one",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb")


@mutant("search.minimise-accepts-unverified",
        "minimisation accepts candidates without exact re-verification (and its queries lose the negated "
        "conclusion, so such candidates need not be counterexamples)",
        T + "tests/test_search.py::test_quality_minimal_counterexample_appb")
def _minimise_unverified():
    edit("symbolic.solve.search:minimise", "if new is None or not verify(imp2, params, new)[0]:", "if new is None:",
         ("status, m = solver.solve(tuple(fixes + [c, neg]))", "status, m = solver.solve(tuple(fixes + [c]))"))


@mutant("search.structured-ignores-product", "structured witnesses for a product-population notion include "
        "non-product populations", TRUST + "test_structured_product_populations_are_products")
def _structured_product():
    _resolve("symbolic.solve.solver:_STRUCTURED")[2].clear()  # nothing cached before the patch is served
    wrap("symbolic.solve.solver:structured_populations", lambda real: lambda sizes, product=False: real(sizes, False))


_E("symbolic.solve.search:_in_range", "return", "return True or",
   "search.cheap-values-out-of-range", "parameter range ignored when choosing the fixed values of the cheap phase",
   TRUST + "test_claims_are_searched_only_inside_parameter_ranges")

# -- encode: the solver's view of a claim -----------------------------------------------------------
_E("symbolic.solve.encode:Encoding.new_population", "for j in range(1, n):", "for j in range(1, n - 1):",
   "encode.product-drops-last-marginal", "the last marginal is dropped from the encoded product population",
   TRUST + "test_product_population_encoding_is_the_product_of_all_marginals")
_E("symbolic.solve.encode:Encoding._row", "self.base.append(z3.Sum(row) == 1)", "pass",
   "encode.row-sum-to-one-dropped", "sum-to-one dropped from every unknown distribution (Encoding._row)",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")
_E("symbolic.solve.encode:Encoding.real", "self.base.append(v >= 0) if group != \"param\" else None", "None",
   "encode.nonnegativity-dropped", "non-negativity dropped from every unknown probability (Encoding.real)",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")
_E("symbolic.solve.encode:within_range", "if r.lower is not None:", "if False:",
   "encode.param-lower-bound-dropped", "parameter lower bounds (E ≥ 1, δ ≥ 0) dropped from the query",
   TRUST + "test_encoding_keeps_parameters_in_range")
_E("symbolic.solve.encode:Encoding._guard_divisors", "self.base.append(to_z3(sub.base, self.penv, self.ops) != 0)", "pass",
   "encode.divisor-guard-dropped", "divisor guard dropped: the search may put a parameter where an expression divides by 0",
   T + "tests/test_search.py::test_parameter_expressions_are_only_searched_where_defined")
_E("symbolic.solve.encode:Encoding.negated_conclusion_parts", "for x in conjuncts([c])]", "for x in conjuncts([c])[:-1]]",
   "encode.conclusion-drops-last-conjunct", "the negated conclusion loses its last conjunct (one instance never checked)",
   C + "S-TH4")
_E("symbolic.solve.encode:eval_notion", "for member in tabs[i].values())", "for member in list(tabs[i].values())[:1])",
   "encode.family-first-member-only", "a notion on an adaptive family is checked on its first member only "
   "(a dropped quantifier)", T + "tests/test_search.py::test_locality_proves_only_what_holds")
_E("symbolic.solve.encode:eval_notion", "zip(ni.notion.params, ni.args)", "zip(ni.notion.params, tuple(reversed(ni.args)))",
   "encode.parameters-swapped", "a notion's parameters are bound in reverse order (ε and δ swapped)",
   C + "K-D1.1")

# -- verify: exact re-verification ---------------------------------------------------------------------
wrap_verify = lambda real: lambda imp, params, asg: (True, real(imp, params, asg)[1], [])
MUTANTS.append(Mutant("verify.always-accepts", "exact re-verification accepts every candidate",
                      lambda: wrap("symbolic.solve.verify:verify", wrap_verify),
                      (T + "tests/test_search.py::test_reverification_rejects_corrupted_models",)))
_E(("symbolic.solve.verify:_hypothesis_problems", "symbolic.solve.verify:_verify"), "for q in ni.notion.sufficient(n, dom):",
   "for q in ni.notion.sufficient(n, dom)[:1]:",
   "verify.first-population-only", "a ∀𝒫 hypothesis is re-verified on the first population of its family only",
   TRUST + "test_verify_checks_every_population_of_a_hypothesis_family")
_E("symbolic.solve.verify:_check_row", "if exact_sign(x) < 0:", "if False:",
   "verify.negative-entries-accepted", "re-verification accepts negative probabilities",
   TRUST + "test_verify_rejects_negative_entries")
_E("symbolic.solve.verify:_check_row", "    if off != 0:", "    if False:",
   "verify.row-sums-unchecked", "re-verification does not check that rows sum to 1",
   T + "tests/test_search.py::test_reverification_rejects_corrupted_models")
_E(("symbolic.solve.verify:_verify",), "if eval_notion(ops2, c, env, witness,", "if False and eval_notion(ops2, c, env, witness,",
   "verify.conclusion-unchecked", "re-verification never checks that the conclusion fails",
   T + "tests/test_search.py::test_verify_rejects_a_non_counterexample", TRUST + "test_verify_rejects_a_non_counterexample")
_E(("symbolic.solve.verify:_hypothesis_problems", "symbolic.solve.verify:_verify"), "elif not eval_notion(ops, ni, env, pop,",
   "elif False and eval_notion(ops, ni, env, pop,",
   "verify.given-hypotheses-unchecked", "re-verification skips hypotheses relative to the shared population",
   TRUST + "test_verify_checks_hypotheses_on_the_shared_population")

# -- run: combining parts, derivations, chains, reporting -----------------------------------------------
_E("symbolic.solve.proof:combine", "    if unknown:\n", "    if unknown and not any(isinstance(v, Proved) for v in verdicts):\n",
   "run.combine-ignores-unknown", "combine() ignores an Unknown part once another part is proved",
   PROOFS + "test_combine_unknown_part_is_never_proved")
_E("symbolic.solve.proof:combine", "return bad[0] if bad else refuted[0]", "return refuted[0]",
   "run.combine-hides-unverified", "combine() reports a verified refutation and hides an unverified one",
   PROOFS + "test_combine_surfaces_an_unverified_refutation")
_E("symbolic.solve.proof:combine", "    if refuted:\n", "    if refuted and not any(isinstance(v, Proved) for v in verdicts):\n",
   "run.combine-proved-beats-refuted", "combine() reports proved when one part is proved and another refuted",
   C + "T-RR", C + "T-ASSOC")
_E("symbolic.solve.run:_checked", "if isinstance(v, Derived) and not all(ok for _, ok in v.checks):", "if False:",
   "run.derived-checks-ignored", "a derivation whose own checks fail is still reported as derived",
   PROOFS + "test_failed_derivation_checks_are_not_a_result")
_E("symbolic.solve.proof:chain", "for p in parts[:lemmas]:", "for p in parts[:0]:",
   "run.chain-skips-lemmas", "a chained proof does not require its lemmas to be proved",
   PROOFS + "test_chain_requires_its_lemmas")
_E("symbolic.solve.run:ClaimResult.agrees", "v = self.verdict", "return True",
   "run.agrees-always", "every result is reported as agreeing with its source",
   PROOFS + "test_agreement_and_definiteness")


@mutant("run.explore-unchecked", "explore lists larger sizes as proved without checking them",
        PROOFS + "test_explore_reports_only_sizes_it_proved")
def _explore_unchecked():
    from symbolic.core.verdicts import Sizes

    def fake(claim, settings, seconds):
        s = claim.sizes
        return tuple((Sizes(s.n + a, s.domain + b, s.outputs + c), 0.0)
                     for a, b, c in ((1, 0, 0), (0, 1, 0), (0, 0, 1))), None
    install("symbolic.solve.run:_explore", fake)


# -- ops: the two number types ---------------------------------------------------------------------------
_E("symbolic.core.ops:ExactOps.le", "lambda s: s >= 0", "lambda s: s > 0",
   "ops.exact-le-strict", "exact ≤ evaluated as <", T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.core.ops:ExactOps.lt", "lambda s: s > 0", "lambda s: s >= 0",
   "ops.exact-lt-nonstrict", "exact < evaluated as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.core.ops:ExactOps.eq", "lambda s: s == 0", "lambda s: s >= 0",
   "ops.exact-eq-as-ge", "exact = evaluated as ≥", TRUST + "test_exact_and_solver_evaluation_agree")


@mutant("ops.exact-sign-float-tolerance", "exact_sign compares in floats with a 1e-9 tolerance",
        TRUST + "test_exact_sign_near_misses")
def _float_sign():
    def exact_sign(x):
        import sympy as sp
        from symbolic.core.ops import UndecidedComparison
        x = sp.sympify(x)
        if x.free_symbols:
            raise UndecidedComparison(f"cannot decide the sign of {x}")
        v = float(sp.N(x, 30))
        return 0 if abs(v) <= 1e-9 else (1 if v > 0 else -1)
    install("symbolic.core.ops:exact_sign", exact_sign)


_E("symbolic.core.ops:ExactOps.max0", "return x if exact_sign(x) > 0 else sp.Integer(0)", "return x",
   "ops.exact-max0-identity", "exact max(0, x) returns x", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.le", "return a <= b", "return a < b",
   "ops.z3-le-strict", "solver ≤ encoded as <", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.lt", "return a < b", "return a <= b",
   "ops.z3-lt-nonstrict", "solver < encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.ge", "return a >= b", "return a > b",
   "ops.z3-ge-strict", "solver ≥ encoded as >", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.eq", "return a == b", "return a <= b",
   "ops.z3-eq-as-le", "solver = encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.max0", "return self.z3.If(self.gt(x, 0), x, self.z3.RealVal(0))", "return x",
   "ops.z3-max0-identity", "solver max(0, x) encoded as x", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.Implies", "return self.Or([self.Not(a), b])", "return self.And([a, b])",
   "ops.z3-implies-as-and", "solver implication encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:Z3Ops.Or", "return self.z3.Or(xs) if xs else self.z3.BoolVal(False)",
   "return self.z3.And(xs) if xs else self.z3.BoolVal(False)",
   "ops.z3-or-as-and", "solver disjunction encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.solve.z3_ops:to_z3", "return out if k > 0 else 1 / out", "return out",
   "ops.to-z3-negative-power", "a negative power x^-k is given to the solver as x^k",
   T + "tests/test_search.py::test_parameter_expressions_are_only_searched_where_defined")
_E("symbolic.solve.z3_ops:Z3Ops.sqrt", "self.z3.And(s >= 0, s * s == self._t(x))", "s * s == self._t(x)",
   "ops.z3-sqrt-sign-dropped", "the solver's square root may be the negative root", TRUST + "test_solver_square_root_is_the_nonnegative_root")

# -- tables and populations: neighbours, marginals ---------------------------------------------------------
_E("symbolic.core.tables:MechTable.neighbours", "for i in range(self.n):", "for i in range(self.n - 1):",
   "tables.neighbours-skip-last-index", "off-by-one neighbour relation: the last data point is never replaced",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")
_E("symbolic.core.tables:MechTable.neighbours", "if v != d[i]:", "if v > d[i]:",
   "tables.neighbours-one-direction", "neighbours only in one direction (d_i replaced by larger values only)",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")
_E("symbolic.core.tables:PopTable.marginal", "if d[i] == v", "if d[i] != v",
   "tables.marginal-complement", "Pr[D_i = v] computed as Pr[D_i ≠ v]", TRUST + "test_population_marginals")
_E("symbolic.model.population:product", "for m, v in zip(marginals, d)", "for m, v in zip(marginals, reversed(d))",
   "population.product-misaligned", "product population pairs the marginals with the data points in reverse",
   TRUST + "test_population_marginals")

# -- notions: weakened / strengthened, one per family ------------------------------------------------------
_E("symbolic.notions.dp:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), E * E * A.p(replace(d, i, v), o),",
   "notion.pure-dp-weakened", "ε-DP weakened to 2ε (E² in place of E)", T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.notions.dp:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), A.p(replace(d, i, v), o),",
   "notion.pure-dp-strengthened", "ε-DP strengthened to 0-DP (the factor e^ε dropped)",
   T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.notions.dp:_approx_dp", "for o in A.outputs), delta,", "for o in A.outputs), 2 * delta,",
   "notion.approx-dp-weakened", "(ε,δ)-DP weakened to (ε,2δ)", T + "tests/test_notions.py::test_approx_dp_event_encoding_matches_enumeration")
_E("symbolic.notions.dp:_approx_dp", "for o in A.outputs), delta,", "for o in A.outputs), delta / 2,",
   "notion.approx-dp-strengthened", "(ε,δ)-DP strengthened to (ε,δ/2)",
   T + "tests/test_notions.py::test_approx_dp_event_encoding_matches_enumeration")
_E("symbolic.notions.dp:_strong_adversary", "ops.le(n1 * m2, E * n2 * m1,", "ops.le(n1 * m1, E * n2 * m2,",
   "notion.strong-adversary-swapped", "strong-adversary DP with the two conditionals' denominators swapped",
   T + "tests/test_notions.py::test_sufficient_family_agrees_with_solver", C + "T-P1")
_E("symbolic.notions.dp:_strong_adversary", "if d not in mass or d2 not in mass:",
   "if d not in mass or d2 not in mass or d2 < d:",
   "notion.strong-adversary-one-way", "strong-adversary DP checks each neighbour pair in one direction only",
   T + "tests/test_notions.py::test_sufficient_family_agrees_with_solver", C + "T-P1")
_E("symbolic.notions.dp:_bayesian0", "for u, v in itertools.permutations(A.domain, 2):",
   "for u, v in itertools.combinations(A.domain, 2):",
   "notion.bayesian0-one-direction", "Bayesian₀ DP checks each pair of values in one direction only",
   TRUST + "test_notions_on_hand_tables", C + "T-F2c")
_E("symbolic.notions.dp:_bayesian0", "nu, nv = joint.get((u, o), 0), joint.get((v, o), 0)",
   "nu, nv = joint.get((v, o), 0), joint.get((v, o), 0)",
   "notion.bayesian0-swapped-conditional", "Bayesian₀ DP takes Pr[O=o, D_i=u] from the other value v (swapped)",
   TRUST + "test_notions_on_hand_tables")
_E("symbolic.notions.dp:_whole_db", "E * pr(o, replace(d, i, v))", "E * pr(o, d)",
   "notion.whole-db-intervention-self", "whole-database intervention DP compares a database with itself",
   C + "T-P2")
_E("symbolic.notions.dp:_data_point", "ops.le(pr[u][j], E * pr[v][j],", "ops.le(pr[u][j], E * E * pr[v][j],",
   "notion.data-point-intervention-weakened", "data-point intervention DP weakened to 2ε", C + "T-P5", C + "T-P4.converse")


@mutant("notion.data-point-family-truncated", "T-D8's sufficient family of populations cut to its first member",
        TRUST + "test_verify_checks_every_population_of_a_hypothesis_family")
def _dp_family():
    wrap("symbolic.notions.dp:DataPointInterventionDP.sufficient", lambda real: lambda n, dom: real(n, dom)[:1])


_E("symbolic.notions.semantic:_semantic", "ok = posterior_sd_ok(ops, A, P, i, t, eps)", "ok = posterior_sd_ok(ops, A, P, i, t, 2 * eps)",
   "notion.semantic-privacy-weakened", "ε-semantic privacy weakened to 2ε", T + "tests/test_semantic.py")
_E("symbolic.notions.semantic:_semantic", "ok = posterior_sd_ok(ops, A, P, i, t, eps)", "ok = posterior_sd_ok(ops, A, P, i, t, eps / 2)",
   "notion.semantic-privacy-strengthened", "ε-semantic privacy strengthened to ε/2", T + "tests/test_semantic.py")
_E("symbolic.notions.semantic:hockey", "ops.max0(a - E * b)", "ops.max0(a - b)",
   "notion.hockey-stick-strengthened", "the hockey-stick divergence ignores e^ε (indistinguishability strengthened)",
   T + "tests/test_semantic.py")
_E("symbolic.notions.pml:_pml_under", "ops.le(A.p(d, o), E * output_prob(ops, A, P, o),",
   "ops.le(A.p(d, o), E * E * output_prob(ops, A, P, o),",
   "notion.pml-weakened", "ε-PML weakened to 2ε", T + "tests/test_pml_notions.py")
_E("symbolic.notions.pml:_pml_under", "ops.Implies(ops.gt(P.p(d), 0),", "ops.Implies(ops.ge(P.p(d), 0),",
   "notion.pml-support-guard", "PML also counts inputs outside the prior's support (strengthened)",
   T + "tests/test_pml_notions.py")
_E("symbolic.model.causal:SEM.do", "done.update(assignment)", "pass",
   "causal.do-ignored", "do(...) ignores the intervention", T + "tests/test_causal.py")
_E("symbolic.notions.causal:brp_holds", "for x1, x2 in itertools.permutations(tab, 2)", "for x1, x2 in itertools.combinations(tab, 2)",
   "notion.brp-one-direction", "BRP bounds relative probabilities in one direction only", C + "T-BRP-DP")

# -- mechanisms and constructions ------------------------------------------------------------------------
_E("symbolic.model.mechanism:truncated_geometric", "a = 1 / E", "a = 1 / E ** 2",
   "mechanism.geometric-constant", "truncated geometric mechanism built with α = e^{-2ε} (a wrong constant)",
   T + "tests/test_notions.py::test_truncated_geometric_epsilon")
_E("symbolic.core.terms:Compose.eval", "a1.p(d, o1) * fam[o1].p(d, o2)", "a1.p(d, o1) * fam[a1.outputs[0]].p(d, o2)",
   "terms.compose-not-adaptive", "adaptive composition ignores the first stage's output",
   TRUST + "test_adaptive_composition_uses_the_first_output")

# -- closed forms ------------------------------------------------------------------------------------------
_E("theorems.saeidian_pml_closed_forms:per_p_leakage", "P <= s.cut", "P <= sp.Rational(1, 3)",
   "closed.rr-pml-branch-point", "rr_pml's branch point moved from derive_level's p ≤ 1/2 to p ≤ 1/3",
   TRUST + "test_rr_pml_between_the_branch_points")
_E("symbolic.derive.closed_forms:laplace_shift_loss", "sup = sp.simplify(sp.Max(*sups))", "sup = sp.simplify(2 * sp.Max(*sups))",
   "closed.laplace-loss-constant", "the Laplace shift loss is derived as 2Δ/b (a wrong constant)",
   T + "symbolic/derive/closed_forms.py::symbolic.derive.closed_forms.laplace_shift_loss")
_E("theorems.lecture_derivations:laplace_k_releases_scale", "b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]",
   "b_k = sp.solve(sp.Eq(loss, EPS / (K + 1)), B)[0]",
   "closed.k-releases-constant", "L-1.4: k releases derived with ε/(k+1) each", T + "tests/test_closed_forms.py::test_k_releases_scale")
_E("theorems.lecture_derivations:histogram_laplace_scales", "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])",
   "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1 - 1)])",
   "closed.histogram-l1-off-by-one", "L-1.5: the joint release counts one coordinate too few",
   T + "tests/test_closed_forms.py::test_histogram_scales_by_enumeration")
_E("theorems.saeidian_pml_closed_forms:_entry_sup", "P <= sp.Rational(1, 2)", "P <= sp.Rational(1, 3)",
   "closed.entry-sup-branch-point", "the per-p supremum of S-PROP12 switches branch at p = 1/3",
   TRUST + "test_prop12_per_p_between_the_branch_points")
_E("symbolic.notions.leakage:pml_ratio", "return sp.Max(*ratios.values()) if ratios else sp.Integer(1)",
   "return sp.Min(*ratios.values()) if ratios else sp.Integer(1)",
   "pml.ratio-min", "PML takes the smallest likelihood ratio instead of the largest", T + "tests/test_pml.py")
_E("theorems.saeidian_pml_derivations:chernoff_threshold_leakage", "bound = -sp.log(1 - sp.exp(-N * kl))",
   "bound = -sp.log(1 - sp.exp(-2 * N * kl))",
   "closed.chernoff-constant", "S-EX33's Chernoff bound derived with e^{-2n KL} (a wrong constant)",
   T + "tests/test_theorems_s.py::test_chernoff_bound_dominates")

# --- one-pass exact evaluation and rational parameter maps -------------------------------------------

FAST = "test:tests/test_fast_exact.py::"
_E("symbolic.core.fast_exact:pure_dp_checks", "map(gt, qa[sx], pb[sy])", "map(operator.ge, qa[sx], pb[sy])",
   "fast.pure-dp-tie", "the one-pass ε-DP reading flags a ratio equal to E (≥ for >)",
   FAST + "test_counting_table_ties")
_E("symbolic.core.fast_exact:first_bad_pair", "for i in range(view.n):", "for i in range(view.n - 1):",
   "fast.last-index-skipped", "the one-pass reading never replaces the last record",
   FAST + "test_fast_agrees_with_sympy_body")
_E("symbolic.solve.encode:Encoding._divisor_signs", "if check_within(s, units(2)) == z3.unsat:", "if True:",
   "encode.sign-assumed", "every divisor is taken as positive and multiplied out, unproved",
   T + "tests/test_rational_maps.py::test_divisor_that_may_vanish_in_range_stays_guarded")
_E("symbolic.solve.hockey:HockeyRewriter._compare", "return lhs < big if strict else lhs <= big", "return lhs <= big",
   "hockey.strict-lost", "the hockey-stick rewrite turns a strict comparison into ≤",
   T + "tests/test_hockey_composition.py::test_event_form_is_equivalent_at_any_polarity")

# --- tight constants between notions (derive map) -------------------------------------------------------

MAP = "test:tests/test_derive_map.py::"
_E("symbolic.graph.conversion_attain:level_is_exactly", "test = (r + f0) / 2", "test = f0",
   "map.level-tested-at-f", "the exact-level check tests B at f itself (where it holds), not just below",
   MAP + "test_exact_level_of_a_table")
_E("symbolic.graph.conversion_fit:fit_rational", "spare: int = 2", "spare: int = 0",
   "map.fit-without-spare", "a closed form is fitted through as many points as unknowns, none left to check it",
   MAP + "test_fit_and_rounding_are_exact")

# -- proofs by locality with ∀𝒫 notions -------------------------------------------------------------
_E("symbolic.solve.search:_run_local", "for q in structured_populations(sizes, product=True)",
   "for q in structured_populations(sizes, product=False)",
   "local.non-product-instance", "a hypothesis over product populations is instantiated at two-point populations that "
   "are not products", T + "tests/test_local_proofs.py::test_false_claims_are_never_proved_locally")

# the faults listed in their own modules (they register themselves on import)
from theorems import (mutants_beliefs, mutants_derive, mutants_graph, mutants_params, mutants_solvers,  # noqa: E402,F401
                      mutants_vertices)
