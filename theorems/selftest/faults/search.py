"""Seeded faults of the search over sizes, CEGIS, minimisation, proofs step by step, narrowed parameters: one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import C, PROOFS, T, TRUST, _E, edit, install, mutant

VALUES = "test:tests/solve/test_param_values.py::"
BELIEFS = "test:tests/solve/routes/test_beliefs.py::"


_E("symbolic.solve.search:_check_grid", "if not ok and irrational_values(params):", "if False:",
   "values.unverified-enclosure-refutation", "a counterexample that holds only inside the enclosure is reported "
   "(unverified) instead of unknown", VALUES + "test_a_counterexample_only_inside_the_enclosure_is_unknown_never_refuted")


_E("symbolic.solve.narrowing:within_narrowed_ranges", "        if wrong:\n", "        if False:\n",
   "values.chain-out-of-range", "a proof chain's counterexample outside the fixed value refutes the narrowed claim",
   VALUES + "test_a_chain_counterexample_outside_the_fixed_value_is_unknown")


_E("symbolic.solve.one_size:_fixed_belief_free", "        if found.status == \"sat\":\n",
   "        if found.status != \"unknown\":\n", "search.fixed-value-proof",
   "a claim over all beliefs that holds at the fixed parameter values is taken as proved for every value",
   BELIEFS + "test_holding_at_the_fixed_values_proves_nothing_for_every_value")


_E("symbolic.solve.search:grid", "for n in range(lo.n, hi.n + 1)", "for n in range(lo.n + 1, hi.n + 1)",
   "search.grid-skips-smallest-n", "size grid off by one: the smallest n is never searched",
   T + "tests/solve/test_search.py::test_p1_proved_with_symbolic_E")


_E("symbolic.solve.search:grid", "for m in range(lo.outputs, hi.outputs + 1)", "for m in range(lo.outputs, hi.outputs)",
   "search.grid-drops-largest-outputs", "size grid off by one: the largest |O| is never searched",
   T + "tests/solve/test_search.py::test_p1_proved_with_symbolic_E")


_E("symbolic.solve.search:_check_grid", "unknown.append((sizes, res.reason))", "pass",
   "search.undecided-size-ignored", "check_implication: a size the solver could not decide is dropped from the sweep",
   TRUST + "test_an_undecided_size_makes_the_verdict_unknown")


_E("symbolic.solve.search:_check_grid", "return Refuted(cx, ok, minimal,", "return Refuted(cx, True, minimal,",
   "search.refuted-always-verified", "a counterexample is reported as re-verified whatever the exact check said",
   T + "tests/solve/test_search.py::test_reverification_rejects_corrupted_models")


_E("symbolic.solve.search:_check_grid", "minimal = not unknown", "minimal = True",
   "search.minimal-always", "a counterexample is called minimal although a smaller size was undecided",
   TRUST + "test_refutation_after_an_undecided_size_is_not_called_minimal")


@mutant("search.minimise-accepts-unverified",
        "minimisation accepts candidates without exact re-verification (and its queries lose the negated "
        "conclusion, so such candidates need not be counterexamples)",
        T + "tests/solve/test_search.py::test_quality_minimal_counterexample_appb")
def _minimise_unverified():
    edit("symbolic.solve.search:minimise", "if new is None or not verify(imp2, params, new)[0]:", "if new is None:",
         ("extra=fixes + [c, neg], learned=", "extra=fixes + [c], learned="))


_E("symbolic.solve.search:_in_range", "return", "return True or",
   "search.cheap-values-out-of-range", "parameter range ignored when choosing the fixed values of the cheap phase",
   TRUST + "test_claims_are_searched_only_inside_parameter_ranges")


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




INDUCTION = "test:tests/solve/test_induction.py::"


_E("symbolic.solve.induction:prove_induction", "    step_query = ranges + now + [z3.Not(z3.And(then))]\n",
   "    step_query = ranges + [z3.Not(z3.And(then))]\n", "induction.step-without-premises",
   "the induction step is asked without S(k) and S(1), so it cannot be proved (an induction that proves nothing)",
   INDUCTION + "test_every_listed_induction_is_proved_by_both_solvers")


_E("symbolic.solve.induction:_closed_checks", "        ok = sp.simplify(sp.expand(gap)) == 0\n", "        ok = True\n",
   "induction.recurrence-unchecked", "a closed form is accepted without checking that it satisfies the recurrence",
   INDUCTION + "test_a_closed_form_that_misses_the_recurrence_is_refuted")


_E("symbolic.solve.induction:_closed_checks",
   "        first = sp.simplify(ind.closed[n].subs(K_SYMBOL, 1).doit() - ind.at_one[n]) == 0\n",
   "        first = True\n", "induction.base-value-unchecked",
   "a closed form is accepted without checking its value at k = 1 against the notion's",
   INDUCTION + "test_a_closed_form_off_by_one_is_refuted")


_E("symbolic.solve.proof:_by_induction", 'all(res.status == "proved" for _, res in inductions)', "True",
   "induction.lifts-unproved", "a proof is lifted to every size by an induction that was not proved",
   INDUCTION + "test_an_undecided_induction_keeps_the_verdict_and_the_bounds")


_E("symbolic.solve.induction:_refutes", "    return not all(bool(c.subs(subs)) for c in ind.invariant(nxt) + "
   "ind.conclusion(nxt))\n", "    return True\n", "induction.model-unchecked",
   "a solver's model of a failing step is reported as a refutation without exact re-evaluation",
   INDUCTION + "test_values_are_a_refutation_only_when_the_step_fails_on_them_exactly")


@mutant("inductions.approx-step-without-the-factor", "group privacy of (ε, δ)-DP declared with D(k+1) = D(k) + δ "
        "and D(k) = kδ (the additive-secrecy recursion)", INDUCTION + "test_every_listed_induction_is_proved_by_both_solvers")
def _approx_without_factor():
    import dataclasses

    import sympy as sp
    from symbolic.notions.listed import inductions as listed
    wrong = dataclasses.replace(listed.GROUP_APPROX, closed={"F": listed.E ** listed.k, "D": listed.k * listed.delta},
                                recurrence={"F": listed.GROUP_APPROX.recurrence["F"],
                                            "D": sp.Symbol("D", real=True) + listed.delta})
    listed.INDUCTIONS["group-approx"] = wrong
