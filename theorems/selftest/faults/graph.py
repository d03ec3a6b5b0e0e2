"""Seeded faults of the implication graph and derive map (inference, pair decisions, cache, literature, fitting, attainment): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

import dataclasses

from theorems.selftest.mutation import T, _E, mutant

GRAPH = "test:tests/graph/test_graph.py::"
CHECKS = "test:tests/graph/test_graph_checks.py::"
MAP = "test:tests/graph/test_derive_map.py::"
GROWTH = "test:tests/graph/test_derive_map_growth.py::"


_E("symbolic.graph.separations.one_table:_level_free", 'if isinstance(v, Vacuous):\n        return "no level"',
   'if isinstance(v, Refuted):\n        return "no level"',
   "graph.no-level-inverted", "a table on which the target holds at some level is called a qualitative separation",
   GRAPH + "test_a_qualitative_separation_rechecked_by_hand")


FAMILIES = "test:tests/graph/separations/test_families.py::"
_E("symbolic.graph.separations.families:_bound", "top = max(ends, key=lambda e: sp.N(e, 30))",
   "top = min(ends, key=lambda e: sp.N(e, 30))", "family.source-level-below-its-supremum",
   "a family's source level is taken below its supremum, so the source condition fails at some t",
   FAMILIES + "test_renyi_dp_is_separated_from_three_notions_by_one_family_at_two_levels")
_E("symbolic.graph.separations.families:_limit", 'return sp.limit(ratio, t, family.end, "+")',
   'return sp.limit(ratio, t, family.end, "-")', "family.limit-wrong-side",
   "the target's limit is taken on the side of the end outside the family's range",
   FAMILIES + "test_renyi_dp_is_separated_from_three_notions_by_one_family_at_two_levels")
_E("symbolic.graph.separations.families:recheck_record",
   "holds_exactly(source_notion, table, None, {\"E\": source_E}) is not True", "False",
   "family.record-source-unchecked", "a family record's tables are re-verified for the target only",
   FAMILIES + "test_a_tampered_record_is_refused")


_E("symbolic.graph.maps:_two_parameter_forms", 'values = {"E": 2 * e_img, "delta": 3 * d_img}',
   'values = {"E": 3 * d_img, "delta": 2 * e_img}', "graph.two-parameter-map-swapped",
   "a two-parameter map's images are given to each other's parameters",
   "test:tests/graph/test_shaped_maps.py::test_the_two_parameter_forms_are_proved_where_the_identity_fails")


_E("symbolic.graph.pair:_prove_map", "if not isinstance(result.verdict, Proved):", "if False:",
   "graph.coarser-map-unproved", "a coarser parameter map is accepted without its proof",
   GRAPH + "test_a_false_coarser_map_is_not_accepted")


_E("symbolic.graph.pair:with_literature", "agrees = True if proved else (False if (refuted or separated) else None)",
   "agrees = True if (refuted or separated) else (False if proved else None)",
   "graph.literature-inverted", "a proved recorded implication is reported as contradicting the literature",
   GRAPH + "test_a_proved_map")


_E("symbolic.graph.hasse:diagram", "reduced = nx.transitive_reduction(dag)", "reduced = dag",
   "graph.no-reduction", "the Hasse diagram keeps edges implied by paths", GRAPH + "test_transitive_reduction_on_a_chain")


_E("symbolic.graph.infer:separation_upward", "if holds_exactly(b_info.notion, tab, pop, bvals):", "if True:",
   "graph.witness-not-rechecked", "a separation is carried along an implication without evaluating the witness",
   GRAPH + "test_a_travelling_separation_is_rechecked_not_trusted")


_E("symbolic.graph.infer:compose", "            v = f[v]\n", "",
   "graph.compose-skips-first-map", "transitivity composes the maps without the first one",
   GRAPH + "test_composition_of_level_keeping_maps")


# -- pair decision: a refuted map is no separation; verified_exactly is computed
_E("symbolic.graph.pair:_after_refutation",
   'return PairResult(a.id, b.id, "unknown", map=pmap.text, counterexample=cx_doc,',
   'return PairResult(a.id, b.id, "not-implies", map=pmap.text, counterexample=cx_doc,',
   "graph.refuted-map-as-separation", "a pair whose only refuted map leaves B at some level is drawn as a separation",
   CHECKS + "test_only_a_separation_is_not_implies_and_every_counterexample_is_rechecked",
   GRAPH + "test_an_unshared_parameter_goes_to_its_least_level")


_E("symbolic.graph.pair:confirm", 'if recheck(a_notion, b_notion, res.counterexample, extra.get("fails_at")) is True:',
   "if True:", "graph.verified-constant", "verified_exactly set without re-verifying the counterexample",
   CHECKS + "test_verified_exactly_is_computed_from_the_record")


# -- exact re-verification of a record
_E("symbolic.graph.recheck:recheck", "    if hb is True:\n        return False\n"
   "    return True if (ha is True and hb is False) else None", "    return True if ha is True else None",
   "graph.recheck-ignores-target", "a counterexample is confirmed without checking that B fails on it",
   CHECKS + "test_verified_exactly_is_computed_from_the_record")


_E("symbolic.graph.recheck:is_distribution", "if sp.simplify(sp.Add(*row) - 1) != 0:", "if False:",
   "graph.recheck-any-row-sum", "a table whose rows do not sum to 1 passes the exact re-check",
   CHECKS + "test_verified_exactly_is_computed_from_the_record",
   "test:tests/graph/test_derive_map.py::test_tight_needs_an_exact_attaining_table_read_back_from_its_text")


# -- inference
_E("symbolic.graph.infer:separation_upward", 'ac.relation != "not-implies" or not ac.qualitative:',
   'ac.relation != "not-implies":', "graph.map-refutation-travels",
   "a counterexample to one map is carried along an implication as a separation (B at no level)",
   CHECKS + "test_a_map_refutation_never_travels_as_a_separation")


_E("symbolic.graph.infer:compose_general", "if not stays_in_range(fm[p.name], p, a_notion.params):", "if False:",
   "graph.compose-out-of-range", "maps are composed although the first leaves the middle notion's range",
   CHECKS + "test_a_composed_map_must_stay_in_the_middle_notions_range")


# -- literature comparison
_E("symbolic.graph.pair:with_literature", "agrees = True if proved else (False if (refuted or separated) else None)",
   "agrees = True if proved else (False if refuted else None)", "graph.literature-separation-blank",
   "a separation against a recorded implication is left not compared instead of disagreeing",
   CHECKS + "test_literature_disagreement_states_both_sides")


_E("symbolic.graph.pair:with_literature", '                                 or m in (res.extra.get("refuted_maps") or ()))',
   "                                 )", "graph.literature-refuted-maps-ignored",
   "a recorded map that the engine refuted (the pair left undecided) is not reported as a disagreement",
   CHECKS + "test_literature_disagreement_states_both_sides")


# -- the cache: keys and records read back
_E("symbolic.graph.cache:pair_key", "repr(sizes.as_tuple()), effort_text(settings),", "repr(sizes.as_tuple()),",
   "cache.key-without-effort", "the cache key ignores the effort settings",
   CHECKS + "test_the_key_covers_helpers_in_the_users_file_and_every_effort_setting")


_E(("symbolic.graph.cache:_fingerprint", "symbolic.graph.cache:notion_fingerprint"), 'text = "".join(f"\\0{os.path.basename(f)}\\0{_file_text(f)}" for f in files) '
   'or body', "text = repr(notion.name)", "cache.key-without-sources",
   "a notion's key ignores the source its body reaches (a user's helper edited, same key)",
   CHECKS + "test_the_key_covers_helpers_in_the_users_file_and_every_effort_setting")


_E("symbolic.graph.cache:PairCache.get", 'if rec.get("digest") != digest(str(key), rec["pair"]):', "if False:",
   "cache.digest-unchecked", "a cache record edited by hand is reported as it reads",
   CHECKS + "test_a_cache_record_edited_by_hand_is_not_reported")


_E("symbolic.graph.cache:PairCache.get", "again = reconfirm(a, b, res, settings, literature, n)", "again = res",
   "cache.record-trusted", "a cache record's separation is not re-verified when read back",
   CHECKS + "test_a_cache_record_edited_by_hand_is_not_reported")


_E("symbolic.graph.pair:reconfirm", "if contradiction(a, b, res) is not None:", "if False:",
   "cache.contradiction-trusted", "a cache record that proves a map its own counterexample refutes is read back",
   CHECKS + "test_a_forged_record_with_its_digest_recomputed_is_refused_when_it_contradicts_itself")


_E("symbolic.graph.pair:reconfirm", "return with_literature(fresh, literature, n)", "return again",
   "cache.literature-trusted", "a cache record's literature columns are read from the record, not recomputed",
   CHECKS + "test_a_forged_record_with_its_digest_recomputed_is_refused_when_it_contradicts_itself")


# -- fitting a closed form to the estimates
_E("symbolic.graph.constants.fit:as_rational",
   "if err <= ROUND_TOL * max(1.0, abs(x)) and err <= 1 / (1000 * r.denominator ** 2):",
   "if err <= ROUND_TOL * max(1.0, abs(x)):", "map.rational-too-loose",
   "a float is read as a rational of large denominator that merely lies near it (π as 355/113)",
   MAP + "test_fit_and_rounding_are_exact")


_E("symbolic.graph.constants.fit:recognise", "return (f if k == 1 else sp.root(f, k)), pts", "return f, pts",
   "map.root-dropped", "a formula fitted to squared estimates is reported without its square root",
   MAP + "test_fit_and_rounding_are_exact")


# -- attainment: exact tables only, re-verified from their text
_E("symbolic.graph.constants.attain:reverify",
   "            and level_is_exactly(b_notion, name, spec, t, fixed, f0) == \"exact\")", "            )",
   "map.reverify-skips-level", "the attaining table read back is not checked to attain the value",
   MAP + "test_tight_needs_an_exact_attaining_table_read_back_from_its_text")


_E("symbolic.graph.constants.attain:level_bracket", "lo, hi = (mid, hi) if got is False else (lo, mid)",
   "lo, hi = (lo, mid) if got is False else (mid, hi)", "map.bracket-inverted",
   "the near-attaining gap is bisected the wrong way (the reported gap is not where B fails)",
   MAP + "test_a_table_only_within_one_percent_is_near_attaining_not_tight")


_E("symbolic.graph.constants.derivation:MapDerivation.tight",
   'self.formula == sp.oo or (att.get("level") == "exact" and att.get("reverified") is True))',
   'self.formula == sp.oo or att.get("level") is not None)', "map.tight-without-exact-table",
   "a formula is called tight on a table that is only near-attaining or not re-verified",
   MAP + "test_tight_needs_an_exact_attaining_table_read_back_from_its_text")


_E("symbolic.graph.constants.attain:level_is_exactly", "test = (r + f0) / 2", "test = f0",
   "map.level-tested-at-f", "the exact-level check tests B at f itself (where it holds), not just below",
   MAP + "test_exact_level_of_a_table")


_E("symbolic.graph.constants.fit:fit_rational", "spare: int = 2", "spare: int = 0",
   "map.fit-without-spare", "a closed form is fitted through as many points as unknowns, none left to check it",
   MAP + "test_fit_and_rounding_are_exact")


_E("symbolic.graph.constants.tightness:tighten", "    if same:\n", "    if True:\n",
   "graph.tight-without-comparing", "an edge is called tight whenever the derived map is, without comparing the two",
   "test:tests/graph/tightness/test_tightness.py::test_edges_are_called_tight_only_when_the_derived_map_is_theirs")


_E("symbolic.graph.constants.samples:in_square_root", "return sp.simplify(f.xreplace({u: sp.sqrt(x)})), estimates, None",
   "return sp.simplify(f.xreplace({u: x})), estimates, None",
   "graph.square-root-not-substituted", "a map fitted in u = √E is reported with E in place of u",
   MAP + "test_a_map_in_the_square_root_of_E")


# -- derive map on prior notions, certified brackets, exact table levels --------------------------------------
_E("symbolic.notions.listed.readings:on_family", "for pop in notion.sufficient(A.n, A.domain)])",
   "for pop in notion.sufficient(A.n, A.domain)[:1]])",
   "readings.family-cut-short", "a notion over all priors is read on the first population of its family only",
   "test:tests/notions/test_readings.py::test_a_notion_read_on_its_family_agrees_with_exact_evaluation")


_E("symbolic.notions.zoo.bayes:_lip_every_prior", "ops.le(A.p(x, o), E * A.p(y, o),",
   "ops.le(A.p(x, o), E * E * A.p(y, o),",
   "readings.lip-closed-form-squared", "LIP's every-prior closed form allows the squared ratio",
   "test:tests/notions/test_readings.py::test_lip_closed_form_gives_lip_under_every_prior_by_the_solver")


_E("symbolic.graph.constants.fit:_root", "        if below <= lo or g(below) < 0:\n            return r",
   "        return r", "fit.root-on-a-plateau",
   "the float level is any root on a stretch of zero margin, not the least one",
   MAP + "test_the_float_level_is_the_least_root_on_a_plateau")


_E("symbolic.graph.constants.bracket:bracket_at",
   "return Bracket(est.point, lower, upper if proof is not None else None, table, why)",
   "return Bracket(est.point, lower, upper, table, why)",
   "bracket.upper-without-proof", "the upper end of a certified interval is kept when its proof failed",
   MAP + "test_an_estimate_below_the_constant_gets_no_upper_end")


_E("symbolic.graph.constants.table_level:table_level", "        if got:\n            if below is None:",
   "        if False:\n            if below is None:", "table-level.gap-not-tested",
   "the level is taken at the first root where the notion holds, without testing the gap below it",
   "test:tests/graph/test_table_level.py::test_an_infimum_and_no_level_are_said_plainly")


_E("symbolic.graph.constants.attain:_leaves", "            yield from _leaves(expr.xreplace({inner: x}), b, budget)\n",
   "            yield from _leaves(expr.xreplace({inner: x}), b, budget)\n            break\n",
   "attain.hockey-stick-one-piece", "a sum of Max terms is cut into its first piece only, so a root where the "
   "level lies is never a candidate", "test:tests/graph/test_table_level.py::test_hockey_stick_sums_are_cut_into_their_pieces")


_E("symbolic.graph.structure_checks:post_processing_map",
   "    ok = all(x >= 0 for row in kernel for x in row) and all(sp.simplify(e.subs(value)) == 0 for e in eqs)\n",
   "    ok = True\n", "structure.kernel-unchecked",
   "a stochastic map proposed by the float LP is returned without the exact check of its constraints",
   "test:tests/graph/test_structure_checks.py::test_a_map_proposed_by_the_float_lp_is_checked_exactly")




_E("symbolic.graph.all_sizes:_routes", "if sa.dominating is not None and sb.closed:", "if sa.dominating is not None:",
   "all-sizes.closure-not-required", "a proof is lifted through a dominating pair to a conclusion not closed under "
   "post-processing (pointwise indistinguishability)",
   "test:tests/graph/test_all_sizes.py::test_which_proved_pairs_hold_at_every_size")


_E("symbolic.graph.all_sizes:_routes", "if sb.coarsening is not None and sa.closed:", "if sb.coarsening is not None:",
   "all-sizes.merge-from-an-unclosed-hypothesis", "a proof is lifted through merges of outputs from a hypothesis not "
   "closed under post-processing", "test:tests/graph/test_all_sizes.py::test_which_proved_pairs_hold_at_every_size")


_E("symbolic.graph.all_sizes:all_sizes_argument", "if min_sizes.outputs <= k <= sizes.outputs:",
   "if min_sizes.outputs <= k:", "all-sizes.dominating-pair-not-covered",
   "a proof at two outputs is lifted through a dominating pair with four",
   "test:tests/graph/test_all_sizes.py::test_the_argument_needs_the_table_of_its_reduction_in_the_bounds")


_E("symbolic.notions.structure:covers", 'if relation_a == "all pairs" and relation_b != "one record":',
   'if relation_b == "all pairs" and relation_a != "one record":', "all-sizes.relation-reversed",
   "a hypothesis over replace-one pairs is taken to cover a conclusion over all pairs",
   "test:tests/graph/test_all_sizes.py::test_which_proved_pairs_hold_at_every_size")


_E("symbolic.notions.listed.structures:_kov", "    return (delta, a, b, sp.Integer(0)), (sp.Integer(0), b, a, delta)\n",
   "    return (sp.Integer(0), E / (E + 1), 1 / (E + 1), sp.Integer(0)), (sp.Integer(0), 1 / (E + 1), E / (E + 1), "
   "sp.Integer(0))\n", "structures.dominating-pair-without-delta",
   "the dominating pair of (ε, δ)-DP declared without its δ outputs (randomized response)",
   "test:tests/graph/test_structure_checks.py::test_every_private_pair_is_a_post_processing_of_the_dominating_pair")


@mutant("structures.renyi-decided-on-events", "Rényi DP declared decided on merges to two outputs, as if it were "
        "bounded by an event", "test:tests/graph/test_structure_checks.py::"
        "test_a_notion_declared_decided_on_merges_keeps_its_level_on_one")
def _renyi_on_events():
    from symbolic.notions.listed.structures import STRUCTURES
    STRUCTURES["renyi-dp"] = dataclasses.replace(STRUCTURES["renyi-dp"], coarsening=2, coarsening_reason="an event")


@mutant("structures.closure-claimed-without-it", "pointwise indistinguishability declared closed under "
        "post-processing", "test:tests/graph/test_structure_checks.py::"
        "test_a_notion_declared_closed_stays_at_its_level_after_post_processing")
def _closed_without_it():
    from symbolic.notions.listed.structures import STRUCTURES
    STRUCTURES["PointwiseIndistinguishable"] = dataclasses.replace(STRUCTURES["PointwiseIndistinguishable"],
                                                                  post_processing="claimed")


SEARCH_AGREES = "test:tests/graph/test_all_sizes_check.py::"


_E("symbolic.graph.all_sizes_check:pair_reduces", 'if res.extra.get("assuming"):', "if True:",
   "all-sizes-check.refutation-not-held", "the graph's refutations are no longer held against the all-size argument",
   SEARCH_AGREES + "test_a_dominating_pair_without_its_delta_stops_the_graph")


_E("symbolic.graph.pair:decide_pair", "    except EngineContradiction:\n        raise\n", "",
   "all-sizes-check.contradiction-swallowed", "a disagreement between the all-size argument and the search makes "
   "one pair unknown instead of stopping the run", SEARCH_AGREES + "test_a_dominating_pair_without_its_delta_stops_the_graph")


_E("symbolic.graph.all_sizes_check:refutation_reduces", "if merge is None and decided:",
   "if False:",
   "all-sizes-check.merge-step-skipped", "a failing pair with no failing merge to k outputs is not reported",
   SEARCH_AGREES + "test_a_notion_not_decided_on_merges_stops_the_run")


_E("symbolic.graph.all_sizes_check:proof_holds_on_dominating_pair", "        if ha is False:\n", "        if False:\n",
   "all-sizes-check.dominating-pair-outside-its-notion", "a declared dominating pair that fails its own notion is "
   "not reported when a proof is lifted through it",
   SEARCH_AGREES + "test_a_dominating_pair_outside_its_notion_stops_the_graph")


_E("symbolic.notions.listed.structures:_rr", "    return (E / (E + 1), 1 / (E + 1)), (1 / (E + 1), E / (E + 1))\n",
   "    return (E * E / (E * E + 1), 1 / (E * E + 1)), (1 / (E * E + 1), E * E / (E * E + 1))\n",
   "structures.dominating-pair-squared", "ε-DP's dominating pair declared at ratio E² (outside ε-DP): a proof "
   "lifted through it disagrees with the search", SEARCH_AGREES + "test_lifted_proofs_hold_on_the_dominating_pair")


_E("symbolic.graph.constants.derivation:_carried", "    if proof is None:\n        return None",
   "    if False:\n        return None", "derive.carry-without-proof",
   "derive map carries the formula at n over to n + 1 without proving it there",
   GROWTH + "test_a_map_that_grows_is_not_carried_over")


_E("symbolic.graph.constants.carry:lifted_attainment", "        if not reverify(", "        if False and not reverify(",
   "derive.carry-unchecked-lift",
   "derive map takes the table attaining the formula at n, lifted to n + 1, as attaining it there unchecked",
   GROWTH + "test_a_lifted_table_that_does_not_attain_the_formula_is_refused")


_E("symbolic.graph.infer:_plain", 'return r.relation == "implies" and not r.extra.get("assuming")',
   'return r.relation == "implies"', "infer.side-condition-chained",
   "an implication proved under a side condition feeds transitivity and composition (lip ⇒ tv-privacy printed)",
   T + "tests/graph/test_inference_conditions.py::test_no_inference_passes_through_an_edge_under_a_side_condition")


TIGHT = T + "tests/graph/tightness/test_tight_label.py::"
_E("symbolic.graph.constants.tightness:attains_edge",
   'if attained is None or attained.get("level") != "exact" or attained.get("reverified") is not True:',
   "if attained is None:", "tight.unverified-attainment",
   "an edge is called tight on an attaining table that was not re-verified exactly",
   TIGHT + "test_an_attaining_record_not_re_verified_makes_no_edge_tight")

_E("symbolic.graph.constants.tightness:tighten",
   "same = d.formula == sp.oo and edge == sp.oo or sp.simplify(_real(d.formula) - _real(edge)) == 0",
   "same = True", "tight.loose-map-tight", "a proved map that is not the least is called tight",
   TIGHT + "test_a_map_proved_at_every_size_keeps_its_place_when_the_tight_one_is_proved_at_the_sizes_only")

_E("symbolic.graph.constants.tightness:_adopt", "        if argument is None:\n            return None",
   "        if argument is None:\n            argument = {'reduction': 'none'}", "tight.adopt-across-scope",
   "a map proved at every size gives way to a tight map proved at the sizes only, keeping the all-sizes scope",
   TIGHT + "test_a_map_proved_at_every_size_keeps_its_place_when_the_tight_one_is_proved_at_the_sizes_only")

_E("symbolic.graph.constants.supremum:supremum_family",
   "if sp.simplify(value - f.xreplace({s: E for s in f.free_symbols if s.name == \"E\"})) != 0:",
   "if False:", "tight.supremum-limit-unchecked",
   "a family is taken to approach a map without comparing its limit with the map",
   TIGHT + "test_a_family_approaching_another_value_shows_no_supremum")


_E("symbolic.graph.structure_checks:closure_holds", "return lv.value, all(answers)",
   "return lv.value, answers[-1] if answers else True", "closure.last-map-only",
   "the closure-under-post-processing check looks at the last map it is given only",
   T + "tests/graph/test_closure_check.py::test_one_breaking_map_among_any_others_fails_the_check")


_E("symbolic.graph.constants.carry:lifted_attainment", "for p in points:", "for p in points[:1]:",
   "carry.first-point-only", "a lifted attaining table is re-verified at the first of its points only",
   T + "tests/graph/test_carry_points.py::test_a_table_that_fails_at_a_later_point_is_not_carried")


OPEN = T + "tests/graph/open_pairs/"
_E("symbolic.graph.separations.candidates:source_level",
   "        if holds_exactly(notion, table, None, point) is True and \\\n                holds_exactly(notion, REVEALING, None, point) is False:",
   "        if holds_exactly(notion, table, None, point) is True:", "open.trivial-source-level",
   "a listed table separates at a level of the source that every table meets (ε ≥ 1 of semantic privacy)",
   OPEN + "test_candidate_tables.py::test_a_level_every_table_meets_separates_nothing")
_E("symbolic.graph.pair:no_level_on",
   "        if source is None or holds_exactly(source, REVEALING, None, source_values) is not False:",
   "        if source is None:", "open.trivial-target-any-source",
   "the target at its trivial level separates even where the source's level is met by every table",
   OPEN + "test_candidate_tables.py::test_the_trivial_level_of_the_target_counts_only_at_a_level_of_the_source_that_says"
          "_something")
_E("symbolic.graph.separations.families:family_through",
   'b_level = g["E"].xreplace({s: level for s in g["E"].free_symbols})', "b_level = level",
   "open.family-through-map-ignored", "a family carried to C ⇒ B looks for B's level L instead of g(L)",
   OPEN + "test_through_links.py::test_a_family_separation_is_carried_through_a_proved_map_of_the_target")
_E("symbolic.graph.maps:_stays_by_sign",
   'return all(symbolic_sign(sp.simplify(g), ranges) in ((1,) if strict else (1, 0, "≥")) for g, strict in gaps)',
   "return True", "open.range-by-sign-unchecked", "a map in several parameters is taken to stay in the target's range",
   OPEN + "test_through_links.py::test_a_map_in_two_parameters_stays_in_range_only_when_both_ends_are_kept")
_E("symbolic.derive.notion_bounds:decide_leakage_to_information",
   'if sp.simplify(diff) == 0 or symbolic_sign(sp.simplify(diff), (rng,)) in (1, "≥", 0):', "if True:",
   "open.leakage-any-map", "maximal leakage is taken to give MI-DP at any level",
   OPEN + "test_through_links.py::test_maximal_leakage_bounds_mutual_information_on_tables")
_E("symbolic.derive.continuous.conversions:_total_variation", "bound = sp.sqrt(1 - sp.exp(-r.symbol))",
   "bound = sp.sqrt(1 - sp.exp(-r.symbol)) / 4", "open.zcdp-tv-quartered",
   "zCDP's total-variation bound is taken a quarter of Bretagnolle–Huber's",
   OPEN + "test_through_links.py::test_zcdp_and_gdp_bound_the_total_variation_and_a_smaller_bound_is_not_proved")
_E("symbolic.graph.constants.proposal:derived_map",
   "(spec.upper is not None and sp.simplify(f - sp.sympify(spec.upper)) == 0)", "False",
   "open.trivial-map-proposed", "derive map's fit to the level every table meets is proposed as a map",
   OPEN + "test_derived_proposals.py::test_a_map_to_the_level_every_table_meets_is_not_proposed")
_E("symbolic.derive.notion_bounds:decide_by_bounds", '("GaussianDP", "ZeroConcentratedDP"): lambda x: x ** 2 / 2',
   '("GaussianDP", "ZeroConcentratedDP"): lambda x: x ** 2 / 4', "open.gdp-zcdp-halved",
   "μ-GDP is taken to give μ²/4-zCDP, half the Gaussian pair's level",
   OPEN + "test_through_links.py::test_zcdp_gives_renyi_and_gdp_gives_zcdp_by_their_divergences_and_no_less")

