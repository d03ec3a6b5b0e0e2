"""Combining parts, proofs through steps, derivations and agreement: an undecided or unverified part
is never hidden, a chain needs its lemmas, a fact that fails is not a proof, a recheck that fails
makes a refutation unverified. (Split from test_trust.py; the runner is symbolic/solve/proof.py.)"""
from __future__ import annotations

import sympy as sp

from symbolic.core.verdicts import Counterexample, Derived, Proved, Refuted, Sizes, Unknown
from symbolic.notions.claims import Check, Claim, E, Fact, Implies, NotImplies, Proof
from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
from symbolic.solve.proof import PartResult, chain, combine, run_proof
from symbolic.solve.run import ClaimResult, _checked, check_claim
from symbolic.solve.search import Settings, check_implication

Es = E.symbol
FAST = Settings(second_solver=False)
ONE = Sizes(1, 2, 2)


# --- combining parts, chains, derivations, reporting --------------------------------------------------

def _proved():
    return Proved(Sizes(1, 2, 2), ((Sizes(1, 2, 2), 0.0, "test"),), {"solver": "test"})


def _refuted(verified):
    cx = Counterexample(Sizes(1, 2, 2), {}, {}, {}, "test")
    return Refuted(cx, verified, True)


def test_combine_unknown_part_is_never_proved():
    for parts in ([_proved(), Unknown("timeout")], [Unknown("timeout"), _proved()], [Unknown("x")]):
        assert isinstance(combine(parts), Unknown), parts
    assert isinstance(combine([_proved(), _proved()]), Proved)


def test_combine_surfaces_an_unverified_refutation():
    for parts in ([_refuted(True), _refuted(False)], [_refuted(False), _refuted(True)]):
        v = combine(parts)
        assert isinstance(v, Refuted) and not v.verified_exactly
    v = combine([_proved(), _refuted(True)])
    assert isinstance(v, Refuted) and v.verified_exactly


def test_failed_derivation_checks_are_not_a_result():
    bad = Derived(sp.Integer(1), "none", (("sample check", True), ("another", False)))
    assert isinstance(_checked(bad), Unknown)
    good = Derived(sp.Integer(1), "none", (("sample check", True),))
    assert _checked(good) is good


def test_chain_requires_its_lemmas():
    lemma = PartResult("lemma", True, Unknown("timeout"), 0.0)
    main = PartResult("main", True, _proved(), 0.0)
    v, _ = chain([lemma, main], 1, "by the lemma")
    assert isinstance(v, Unknown)
    # a refuted lemma means the route fails, not that the claim is false
    v, _ = chain([PartResult("lemma", True, _refuted(True), 0.0), main], 1, "by the lemma")
    assert isinstance(v, Unknown) and "lemma" in v.reason, v
    v, _ = chain([PartResult("lemma", True, _proved(), 0.0), main], 1, "by the lemma")
    assert isinstance(v, Proved) and v.certificate["method"] == "by the lemma"


def test_agreement_and_definiteness():
    claim = Claim("X-1", "⇒", "T", "test", "holds", (Implies(PureDP(Es), PureDP(Es)),))
    assert claim.expect == "proved"
    part = lambda v: (PartResult("p", True, v, 0.0),)
    assert ClaimResult(claim, _proved(), part(_proved()), 0.0).agrees
    assert not ClaimResult(claim, _refuted(True), part(_refuted(True)), 0.0).agrees
    res = ClaimResult(claim, Unknown("timeout"), part(Unknown("timeout")), 0.0)
    assert not res.agrees and not res.definite
    res = ClaimResult(claim, _refuted(False), part(_refuted(False)), 0.0)
    assert not res.agrees and not res.definite


def test_explore_reports_only_sizes_it_proved():
    """ε-DP ⇒ free-lunch privacy at E² holds up to n = 2 and fails at n = 3 (⟨0,0,0⟩ and ⟨1,1,1⟩ are
    three replacements apart). Exploring above the default sizes must not list n = 3 as proved, and
    every size it lists must be one the solver proves."""
    imp = Implies(PureDP(Es), FreeLunchPrivacy(Es ** 2))
    claim = Claim("X-EXPLORE", "prop", "T", "ε-DP ⇒ free lunch at 2ε", "holds", (imp,))
    res = check_claim(claim, FAST, explore=8.0)
    sizes = [s.as_tuple() if hasattr(s, "as_tuple") else tuple(s) for s, *_ in res.explored]
    assert (3, 2, 2) not in sizes
    for s in sizes[:3]:
        v = check_implication(imp, claim.params, Sizes(*s), Sizes(*s), FAST)
        assert isinstance(v, Proved), (s, v)


# --- proofs stated as data ---------------------------------------------------------------------------

TRUE_STEP = Check(Implies(PureDP(Es), PureDP(Es ** 2)), (E,), ONE)       # ε-DP ⇒ 2ε-DP: proved
FALSE_STEP = Check(Implies(PureDP(Es ** 2), PureDP(Es)), (E,), ONE)      # 2ε-DP ⇒ ε-DP: refuted


def test_a_chain_of_proved_checks_is_proved_at_the_claim_sizes():
    proof = Proof((TRUE_STEP, TRUE_STEP), "twice", claim_sizes=(Sizes(2, 2, 2),))
    v, parts = run_proof(proof, (E,), FAST)
    assert isinstance(v, Proved) and v.bounds == Sizes(2, 2, 2) and v.certificate["method"] == "twice"
    assert len(parts) == 2 and all(isinstance(p.verdict, Proved) for p in parts)


def test_a_chain_whose_lemma_is_refuted_is_unknown():
    v, _ = run_proof(Proof((FALSE_STEP, TRUE_STEP), "via a false lemma", lemmas=1), (E,), FAST)
    assert isinstance(v, Unknown) and "lemma not proved" in v.reason


def test_a_failed_fact_makes_a_chain_unknown_and_a_true_one_is_certified():
    bad = Fact("identity", lambda: (("1 = 1", True), ("1 = 2", sp.Integer(1) == 2)))
    v, parts = run_proof(Proof((TRUE_STEP, bad), "with a false identity"), (E,), FAST)
    assert isinstance(v, Unknown) and "1 = 2" in v.reason
    assert not ClaimResult(Claim("X-F", "⇒", "T", "t", "holds", proof=Proof((TRUE_STEP,))), v, tuple(parts), 0).agrees
    good = Fact("identity", lambda: (("1 + 1 = 2", sp.Integer(1) + 1 == 2),))
    v, _ = run_proof(Proof((TRUE_STEP, good), "with a true identity"), (E,), FAST)
    assert isinstance(v, Proved) and v.certificate["identity"] == "1 + 1 = 2"


def test_first_mode_takes_the_first_checks_verdict_and_reports_the_rest():
    proof = Proof((FALSE_STEP, TRUE_STEP), verdict="first")
    v, parts = run_proof(proof, (E,), FAST)
    assert isinstance(v, Refuted) and v.verified_exactly and "proved" in v.note and len(parts) == 2


def test_a_failed_recheck_makes_the_refutation_unverified():
    seen = []

    def recheck(cx):
        seen.append(cx)
        return False, "the source's own bound is not exceeded"
    v, _ = run_proof(Proof((FALSE_STEP,), verdict="first", recheck=recheck), (E,), FAST)
    assert seen and isinstance(v, Refuted) and not v.verified_exactly and "not exceeded" in v.note
    v, _ = run_proof(Proof((FALSE_STEP,), verdict="first", recheck=lambda cx: (True, "exceeded")), (E,), FAST)
    assert v.verified_exactly


def test_a_claim_with_a_proof_is_run_by_the_engine():
    claim = Claim("X-P", "⇒", "T", "ε-DP ⇒ 2ε-DP by a one-step proof", "holds", proof=Proof((TRUE_STEP,), "direct"))
    assert claim.expect == "proved"
    res = check_claim(claim, FAST)
    assert isinstance(res.verdict, Proved) and res.agrees and len(res.parts) == 1


def test_a_proof_must_start_with_a_check():
    import pytest
    with pytest.raises(ValueError):
        Proof((Fact("f", lambda: ()),))
    with pytest.raises(ValueError):
        Proof((TRUE_STEP,), verdict="whatever")


def test_an_expected_failure_step_agrees_when_refuted():
    v, parts = run_proof(Proof((Check(NotImplies(PureDP(Es ** 2), PureDP(Es)), (E,), ONE),), verdict="first"), (E,), FAST)
    assert isinstance(v, Refuted) and parts[0].expect_holds is False
