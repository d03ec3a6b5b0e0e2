"""Seeded faults of closed forms (suprema, the sources' derivations): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import T, TRUST, _E



# -- closed forms ------------------------------------------------------------------------------------------
_E("theorems.saeidian_pml_closed_forms:per_p_leakage", "P <= s.cut", "P <= sp.Rational(1, 3)",
   "closed.rr-pml-branch-point", "rr_pml's branch point moved from derive_level's p ≤ 1/2 to p ≤ 1/3",
   TRUST + "test_rr_pml_between_the_branch_points")


_E("symbolic.derive.closed_forms:laplace_shift_loss", "sup = sp.simplify(sp.Max(*sups))", "sup = sp.simplify(2 * sp.Max(*sups))",
   "closed.laplace-loss-constant", "the Laplace shift loss is derived as 2Δ/b (a wrong constant)",
   T + "symbolic/derive/closed_forms.py::symbolic.derive.closed_forms.laplace_shift_loss")


_E("theorems.lecture_derivations:laplace_k_releases_scale", "b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]",
   "b_k = sp.solve(sp.Eq(loss, EPS / (K + 1)), B)[0]",
   "closed.k-releases-constant", "L-1.4: k releases derived with ε/(k+1) each", T + "tests/derive/test_closed_forms.py::test_k_releases_scale")


_E("theorems.lecture_derivations:histogram_laplace_scales", "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])",
   "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1 - 1)])",
   "closed.histogram-l1-off-by-one", "L-1.5: the joint release counts one coordinate too few",
   T + "tests/derive/test_closed_forms.py::test_histogram_scales_by_enumeration")


_E("theorems.saeidian_pml_closed_forms:_entry_sup", "P <= sp.Rational(1, 2)", "P <= sp.Rational(1, 3)",
   "closed.entry-sup-branch-point", "the per-p supremum of S-PROP12 switches branch at p = 1/3",
   TRUST + "test_prop12_per_p_between_the_branch_points")


_E("theorems.saeidian_pml_derivations:chernoff_threshold_leakage", "bound = -sp.log(1 - sp.exp(-N * kl))",
   "bound = -sp.log(1 - sp.exp(-2 * N * kl))",
   "closed.chernoff-constant", "S-EX33's Chernoff bound derived with e^{-2n KL} (a wrong constant)",
   T + "tests/theorems/test_theorems_s.py::test_chernoff_bound_dominates")


# -- densities, mass functions and privacy curves ----------------------------------------------------------
_E("symbolic.derive.continuous.pair:hockey", "out += total(p - E * q, y, sub, signs)", "out += total(p - q, y, sub, signs)",
   "curve.hockey-drops-E", "the privacy profile integrates p − q instead of p − e^ε·q on the worst event",
   T + "tests/derive/test_curve_level.py::test_laplace_privacy_profile_formula_and_value")


_E("symbolic.derive.continuous.level:_pair_level", 'sp.log(mass) / (own["alpha"] - 1)', 'sp.log(mass) / own["alpha"]',
   "curve.renyi-scale", "Rényi divergence divided by α instead of α − 1",
   T + "tests/derive/test_curve_level.py::test_laplace_renyi_at_real_orders")


_E("symbolic.derive.continuous.claims:_covering", "d = _holds(test, b, fa)", "d = _holds(test, a, fa)",
   "curve.covering-tests-left-end", "a cell of E is proved by randomized response at its left end (unsound: the "
   "level grows with E)", T + "tests/derive/test_curve_claims.py::test_a_bound_that_fails_inside_the_range_is_refuted_there")


_E("symbolic.derive.continuous.cumulant:width_lemma", "ok, cells = nonnegative(rho - width ** 2 / 8, E, lo, hi)",
   "ok, cells = nonnegative(rho - width ** 2 / 16, E, lo, hi)",
   "curve.width-lemma-constant", "the width lemma claims D_α ≤ α·w²/16 (Popoviciu's bound halved)",
   T + "tests/derive/test_curve_claims.py::test_bounded_range_to_zcdp_cesar_rogers")


_E("symbolic.core.intervals:nonnegative_from_zero", "if sp.simplify(value) != 0:",
   "if len(derivatives) > 1 and sp.simplify(value) != 0:",
   "curve.taylor-step-skips-value", "the Taylor step at a touching end takes the value there as 0 without looking",
   T + "tests/derive/test_curve_claims.py::test_interval_tools")


_E("symbolic.model.continuous:validated", "s = signs.sign(sp.simplify(mass - 1))", "s = signs.sign(sp.simplify(mass - mass))",
   "curve.mass-not-checked", "a density's total mass is taken as 1 without computing it",
   T + "tests/model/test_continuous.py::test_a_law_that_is_not_a_probability_law_is_refused_with_one_line")


_E("symbolic.derive.continuous.conversions:_chernoff", 'if above != 1 or sign not in (0, 1, "≥"):',
   'if above != 1 and sign not in (0, 1, "≥"):',
   "curve.chernoff-one-sign", "the zCDP ⇒ DP proof accepts ε > ρ alone, without (ε − ρ)²/(4ρ) ≥ log(1/δ)",
   T + "tests/derive/test_conversions.py::test_a_constant_below_two_is_never_proved")


_E("symbolic.derive.continuous.conversions:_threshold_table", "if hypothesis(*rows) and hypothesis(*rows[::-1]):",
   "if hypothesis(*rows):",
   "curve.table-one-direction", "a refuting table is checked for zCDP/GDP in one direction only",
   T + "tests/derive/test_conversions.py::test_a_refuting_table_must_satisfy_the_hypothesis_in_both_directions")


_E("symbolic.derive.continuous.leakage:_parts", "return [] if whole is None else [(whole, i) for i in range(len(pc.exprs))]",
   "return [] if whole is None else [(whole, 0)]",
   "curve.pml-mixture-one-law", "the PML of mixture laws looks at the first law only",
   T + "tests/derive/test_pml.py::test_the_laplace_count_pml_agrees_with_the_general_route_for_densities")


_E("symbolic.model.line_cuts:cell_pieces", "return cells + _singles(piece, y, points, signs)", "return cells",
   "curve.cells-drop-partial", "a step density's partial cells at the kinks are left out of the pieces",
   T + "tests/derive/test_staircase.py::test_the_staircase_is_a_valid_density_and_its_pure_dp_level_is_eps0_on_cells")


_E("symbolic.derive.continuous.level:mirrored", "cp, cq = _centre(p, y), _centre(q, y)", "return True",
   "curve-level.every-pair-mirrored", "a density level reads one direction of a neighbouring pair and takes the "
   "reversed pair for its mirror image", T + "tests/derive/test_asymmetric_pairs.py::"
   "test_the_level_of_an_asymmetric_pair_is_the_larger_direction[approx-dp-params0-0.5-laplace scales]")


# -- operations on mechanisms: the k-fold composition of a table ---------------------------------------------
COMPOSITION = T + "tests/derive/operations/test_composition_level.py::"

_E("symbolic.derive.composition:_pair_level", "parts.append(k * sp.log(mass) / (alpha - 1))",
   "parts.append(sp.log(mass) / (alpha - 1))", "composition.renyi-not-times-k",
   "the Rényi level of a k-fold composition is one run's (orders add over the k runs)",
   COMPOSITION + "test_pure_and_renyi_levels_of_the_five_fold_composition_are_five_times_one_run")

_E("symbolic.derive.loss_counts:hockey_blocks", "mult = prod(multinomial(k, cv) for (_, k), cv in zip(parts, combo))",
   "mult = 1", "composition.no-multinomial",
   "each count vector weighed once, not by the number of output tuples with those counts",
   COMPOSITION + "test_five_fold_randomized_response_at_half_gives_the_published_delta")

_E("symbolic.derive.composition:_level_at",
   "results = [(d, e, _pair_level(notion, own, blocks_of(d, e))) for d, e in pairs]",
   "results = [(d, e, _pair_level(notion, own, blocks_of(d, e))) for d, e in pairs[:1]]",
   "composition.one-direction", "only the first ordered pair of neighbouring rows is taken (the loss of one direction)",
   COMPOSITION + "test_k_fold_equals_the_explicit_product_table_on_random_rational_tables")


# -- operations on mechanisms: subsampling a table -----------------------------------------------------------
SUBSAMPLED = T + "tests/derive/operations/test_subsampled_level.py::"

_E("symbolic.derive.operation_level:_subsampled_level",
   "derived = [(label, derive_level(notion_id, sm, params=params, budget=budget)) for label, sm in tables]",
   "derived = [(label, derive_level(notion_id, sm, params=params, budget=budget)) for label, sm in tables[:1]]",
   "subsampling.first-value-only", "the level of a Poisson-subsampled table reads the first present value x only",
   SUBSAMPLED + "test_poisson_levels_equal_a_brute_force_over_the_add_remove_pairs[1]")


# -- operations on mechanisms: the k-fold composition of a density ---------------------------------------------
DENSITY_COMPOSITION = T + "tests/derive/operations/test_density_composition.py::"

_E("symbolic.derive.operations.density_composition:_shifted", "laws = {d: _gauss(A, sp.sqrt(k) * means[d], m.y)",
   "laws = {d: _gauss(A, k * means[d], m.y)", "composition.gaussian-means-times-k",
   "the k-fold Gaussian's means are multiplied by k instead of √k (μ·k-GDP where μ·√k belongs)",
   DENSITY_COMPOSITION + "test_sixteen_fold_gaussian_at_sigma_two_has_the_published_delta")

_E("symbolic.derive.operations.density_composition:density_composition_level",
   "times = lambda v: None if v is None else sp.simplify(k * v)", "times = lambda v: None if v is None else sp.simplify(v)",
   "composition.density-level-not-times-k", "a level that adds (pure, Rényi, zCDP) of a k-fold density is one run's",
   DENSITY_COMPOSITION + "test_laplace_levels_that_add_are_k_times_one_run_and_delta_is_unknown")

_E("symbolic.core.terms:PoissonSubsample.eval", "tuple((1 - q) * a.p(absent, o) + q * a.p(present, o)",
   "tuple((1 - q * q) * a.p(absent, o) + q * q * a.p(present, o)", "subsampling.term-rate-squared",
   "Poisson sampling mixes with weight q² where q belongs, in the term that claims and derive level both use",
   SUBSAMPLED + "test_poisson_subsampling_of_one_dp_at_a_tenth_gives_the_published_epsilon",
   T + "tests/theorems/test_toolbox.py::test_the_q_squared_witness_breaks_the_stated_bound_when_recomputed_by_hand")


# -- operations on mechanisms: the subsampled Gaussian -------------------------------------------------------
_E("symbolic.derive.composition_gdp:composed_pair", "multinomial(k, c) * sp.Mul(*(b ** n",
   "sp.Mul(*(b ** n", "composition-gdp.second-law-unweighted",
   "the composed pair's second law leaves out the multinomial weights of its count vectors",
   T + "tests/derive/operations/test_composition_gdp.py::"
       "test_five_runs_of_randomized_response_are_enclosed_where_a_scan_puts_the_least_mu")
_E("symbolic.derive.operations.subsampled_limits:subsampled_gaussian_limit", "return k * mu ** 2 / 2, (",
   "return k * q * mu ** 2 / 2, (", "subsampled-limits.zcdp-amplified",
   "the subsampled Gaussian's zCDP is taken as amplified by the rate (q·μ²/2), below its supremum over the orders",
   T + "tests/derive/operations/test_subsampled_limits.py::test_the_three_levels_of_one_subsampled_step")
_E("symbolic.derive.composition_sums:two_ratio_sum", "sp.Sum(sp.binomial(k, I) * sp.Max(", "sp.Sum(1 * sp.Max(",
   "composition-sums.no-binomial", "the binomial sum of k runs leaves out the number of tuples of each count vector",
   T + "tests/derive/operations/test_composition_sums.py::"
       "test_the_sum_is_checked_against_the_listed_tuples_and_a_three_ratio_table_is_left_to_numbers")
_E("symbolic.core.terms:SampleWithoutReplacement.eval",
   "arrange = (lambda xs: tuple(sorted(xs))) if self.as_set else tuple", "arrange = tuple",
   "sampling.set-read-in-order", "records sampled as a set are passed in their order",
   T + "tests/theorems/test_toolbox.py::"
       "test_passed_as_a_set_the_two_of_three_constant_holds_and_the_order_witness_is_within_it")
DENSITY_LIST = T + "tests/derive/operations/test_density_list.py::"
_E("symbolic.derive.operations.density_list:_gaussian_route", "    for d, e in pairs:\n", "    for d, e in pairs[:1]:\n",
   "density-list.first-pair-only", "a composition of Gaussian runs is taken at the first pair of databases only",
   DENSITY_LIST + "test_the_worst_pair_is_taken_over_the_sums_not_run_by_run")
_E("symbolic.derive.operations.density_list:_adding_route", "sp.simplify(k * sp.Add(*parts))",
   "sp.simplify(k * sp.Max(*parts))", "density-list.largest-not-sum",
   "the runs' ε of a pair are not added: the largest run's is taken",
   DENSITY_LIST + "test_laplace_runs_add_their_epsilons_and_renyi_divergences_pair_by_pair")
SUBSAMPLED_GAUSSIAN = T + "tests/derive/operations/test_subsampled_gaussian.py::"
SUBSAMPLED_DENSITY = T + "tests/derive/operations/test_subsampled_density.py::"

_E("symbolic.derive.operations.mixture_moments:moment_enclosure",
   "total = inner.real / (2 * fl.arb.pi()).sqrt() + tails", "total = inner.real / (2 * fl.arb.pi()).sqrt()",
   "subsampled-gaussian.tails-left-out", "the certified moment leaves out the two tails beyond the quadrature's ends",
   SUBSAMPLED_GAUSSIAN + "test_with_its_tails_a_short_interval_stays_right_and_the_direction_is_left_undecided")

_E("symbolic.derive.operations.subsampled_gaussian:subsampled_gaussian_renyi", "larger = _compare(fwd, bwd)",
   'larger = "backward"', "subsampled-gaussian.one-direction",
   "the subsampled Gaussian's level reads one direction only, D_α(P‖M), never comparing it with D_α(M‖P)",
   SUBSAMPLED_GAUSSIAN + "test_the_published_numbers_at_q_one_hundredth_and_sigma_one[2]")

_E("symbolic.derive.operations.subsampled_density:subsampled_density_level",
   "mu = sp.simplify(sp.Abs(means[d] - means[absent]) * sp.sqrt(2 * A))",
   "mu = sp.simplify(sp.Abs(means[d] - means[absent]) * 2 * A)", "subsampled-gaussian.variance-for-deviation",
   "μ of a subsampled Gaussian divides the shift by the variance instead of the standard deviation",
   SUBSAMPLED_DENSITY + "test_the_scale_is_read_from_the_laws")

_E("symbolic.derive.operations.subsampled_density:composed_subsampled_level",
   "scaled = None if one.value is None else k * one.value", "scaled = None if one.value is None else one.value",
   "subsampled-gaussian.composed-not-times-k", "k runs of the subsampled Gaussian keep one run's Rényi level",
   SUBSAMPLED_DENSITY + "test_subsample_then_compose_adds_the_renyi_levels")

_E("symbolic.core.terms:SampleWithoutReplacement.eval", "subsets = list(combinations(range(self.size), a.n))",
   "subsets = list(combinations(range(self.size), a.n))[:1]", "subsampling.term-one-subset",
   "the without-replacement term reads one subset of records instead of averaging over all of them",
   SUBSAMPLED + "test_sampling_without_replacement_averages_over_the_subsets",
   T + "tests/theorems/test_toolbox.py::test_the_order_witness_of_sampling_without_replacement_is_rechecked_by_hand")


# -- operations on mechanisms: maps through an operation ------------------------------------------------------
OPERATION_MAPS = T + "tests/derive/operations/test_operation_maps.py::"

_E("symbolic.derive.operations.map_checks:_target_values", 'return {"E": sp.exp(formula)}', 'return {"E": formula}',
   "operation-map.engine-asks-epsilon-for-E", "the engine's check of a pure-dp map asks ε′ where e^ε′ belongs",
   OPERATION_MAPS + "test_amplification_by_poisson_sampling_is_log_1_plus_q_times_e_minus_1")

_E("symbolic.derive.operations.additive_maps:tensorized",
   'if operation["kind"] != "composition" or level_name not in ADDING:', 'if operation["kind"] != "composition":',
   "operation-map.tensorize-any-level", "k runs of any level are taken as k times one run's (δ does not add so)",
   OPERATION_MAPS + "test_k_runs_with_symbols_of_a_level_that_does_not_add_are_unknown")

_E("symbolic.derive.operations.additive_maps:tensorized", "formula = k * one.formula", "formula = (k + 1) * one.formula",
   "operation-map.tensorize-off-by-one", "k runs are written as k + 1 times one run's level",
   OPERATION_MAPS + "test_k_runs_of_pure_dp_are_k_times_epsilon_checked_against_the_composition_engine")

_E("symbolic.derive.operations.maps:_closed", "return st.post_processing if st is not None else None",
   'return "assumed"', "operation-map.every-target-closed",
   "every target is taken as closed under post-processing (probabilistic DP is not)",
   OPERATION_MAPS + "test_a_target_not_closed_under_post_processing_is_unknown")

_E("symbolic.derive.operations.map_checks:attains_source", "bool(d.ok) and same", "bool(d.ok)",
   "operation-map.attaining-pair-unchecked", "the attaining pair's own level is not compared with A's",
   OPERATION_MAPS + "test_a_pair_not_at_the_level_fails_the_attaining_check")

_E("theorems.cli.commands.operation_claims:operated_claim", "term = PoissonSubsample(a, rate)",
   "term = PoissonSubsample(a, rate * rate)", "operation-claim.rate-squared",
   "`implies --subsample` states the sampling at q² instead of q",
   T + "tests/derive/operations/test_operation_claims.py::test_the_rate_squared_is_refuted_with_an_exact_witness")


# -- certified accounting --------------------------------------------------------------------------------------
ACCOUNTING = T + "tests/derive/accounting/"

_E("symbolic.derive.accounting.grid_loss:discretise", "key = b if up else a", "key = b",
   "accounting.lower-rounds-up", "the lower bound rounds each loss up, into the unsafe direction",
   ACCOUNTING + "test_run_enclosure.py::test_the_enclosure_of_delta_contains_the_independently_computed_value[1-_gaussian_delta_one]")

_E("symbolic.derive.accounting.symmetric:SymmetricStep.tails",
   "got = [s.tails(l) for s in (self.remove, self.add)]", "got = [s.tails(l) for s in (self.remove,)]",
   "accounting.without-replacement-one-order", "sampling without replacement is bounded by the order with the record "
   "first only, not by the larger of the two at every loss",
   ACCOUNTING + "test_without_replacement.py::test_below_the_zero_loss_the_order_without_the_record_first_is_the_larger")

_E("symbolic.derive.accounting.conversions:_balle",
   "(delta.log() + alpha.log()) / (alpha - 1)", "(delta.log() + alpha.log()) / alpha",
   "accounting.cks-order", "the RDP and zCDP conversion divides its log(1/δ) term by α instead of α − 1 (too small "
   "an ε)",
   ACCOUNTING + "test_conversions.py::test_a_run_without_sampling_converts_its_exact_zcdp_and_each_bound_is_valid")

_E("symbolic.derive.accounting.grid_loss:multiply", "prod = -((-prod) // unit) if up else prod // unit",
   "prod = prod // unit", "accounting.upper-masses-rounded-down",
   "the upper bound's masses are rounded down after a product",
   ACCOUNTING + "test_grid_loss.py::test_products_keep_the_mass_on_their_side")

_E("symbolic.derive.accounting.grid_loss:_windowed", "infinite += tail", "infinite += 0",
   "accounting.tail-dropped", "the upper bound drops the tail above its window instead of putting it at +∞",
   ACCOUNTING + "test_grid_loss.py::test_a_window_moves_its_tails_to_the_safe_side_and_keeps_their_mass")

_E("symbolic.derive.accounting.dots:connect_the_dots", "m = _units(x * (s_out - s_in), True)",
   "m = _units(s_out - s_in, True)", "accounting.dots-second-law-mass",
   "connect the dots takes the second law's mass at a loss for the first law's",
   ACCOUNTING + "test_grid_loss.py::test_the_upper_and_lower_bounds_of_five_steps_bracket_each_other")

_E("symbolic.derive.accounting.run:chains", "_sampling(stages) != \"poisson\" else ORDERS",
   "_sampling(stages) != \"poisson\" else ORDERS[1:]",
   "accounting.one-order-only", "the run is accounted in one order of the neighbour relation only",
   ACCOUNTING + "test_run_enclosure.py::test_the_enclosure_of_delta_contains_the_independently_computed_value[1-_gaussian_delta_one]")
