"""Proof options beyond chain/first: facts kept out of the parts (``Fact(listed=False)``) and claims
whose verdict is a derivation with engine checks among its checks (``Proof(verdict="derived")``)."""
from __future__ import annotations

import pytest
import sympy as sp

from symbolic.core.verdicts import Derived, Proved, Refuted, Sizes, Unknown
from symbolic.notions.claims import Check, Claim, E, Fact, Implies, NotImplies, Proof
from symbolic.notions.families.dp import PureDP
from symbolic.solve.proof import run_proof
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings

Es = E.symbol
FAST = Settings(second_solver=False)
ONE = Sizes(1, 2, 2)
TRUE_STEP = Check(Implies(PureDP(Es), PureDP(Es ** 2)), (E,), ONE)       # ε-DP ⇒ 2ε-DP: proved
FALSE_STEP = Check(Implies(PureDP(Es ** 2), PureDP(Es)), (E,), ONE)      # 2ε-DP ⇒ ε-DP: refuted
TRUE_FACT = Fact("tightness", lambda: (("2 = 2", sp.Integer(2) == 2),), listed=False)
FALSE_FACT = Fact("identity", lambda: (("1 = 2", sp.Integer(1) == 2),), listed=False)


def test_an_unlisted_fact_is_certified_but_not_a_part():
    v, parts = run_proof(Proof((TRUE_STEP, TRUE_FACT), "with a fact", lemmas=0), (E,), FAST)
    assert isinstance(v, Proved) and v.certificate["tightness"] == "2 = 2"
    assert len(parts) == 1 and parts[0].implication == str(TRUE_STEP.implication)


def test_an_unlisted_fact_that_fails_still_makes_a_chain_unknown():
    v, parts = run_proof(Proof((TRUE_STEP, FALSE_FACT), "with a false identity", lemmas=0), (E,), FAST)
    assert isinstance(v, Unknown) and "1 = 2" in v.reason and len(parts) == 1


def test_an_unlisted_fact_is_reported_beside_a_first_verdict():
    v, parts = run_proof(Proof((FALSE_STEP, TRUE_FACT), verdict="first"), (E,), FAST)
    assert isinstance(v, Refuted) and "tightness: 2 = 2" in v.note and len(parts) == 1


def test_lemmas_zero_combines_without_requiring_lemmas():
    v, _ = run_proof(Proof((FALSE_STEP, TRUE_STEP), "no lemmas", lemmas=0), (E,), FAST)
    assert isinstance(v, Refuted) and v.note.endswith("no lemmas")


def _derivation():
    x = sp.Symbol("x")
    return Derived(sp.Eq(sp.Symbol("f"), x ** 2), "a test formula", (("f(2) = 4", (x ** 2).subs(x, 2) == 4),),
                   {"degree": 2})


def test_a_derived_proof_adds_fact_and_engine_checks_to_the_derivation():
    proof = Proof((Check(NotImplies(PureDP(Es ** 2), PureDP(Es)), (E,), ONE), TRUE_FACT),
                  verdict="derived", derive=_derivation)
    v, parts = run_proof(proof, (E,), FAST)
    assert isinstance(v, Derived) and v.extras == {"degree": 2} and str(v.formula) == "Eq(f, x**2)"
    assert [ok for _, ok in v.checks] == [True, True, True]
    assert v.checks[1][0] == "2 = 2" and v.checks[2][0].startswith("engine: ") and "refuted" in v.checks[2][0]
    assert len(parts) == 1


def test_a_derived_proof_whose_engine_step_disagrees_is_no_result():
    claim = Claim("X-D", "example", "T", "a derivation with a failing engine step", "as stated",
                  proof=Proof((FALSE_STEP,), verdict="derived", derive=_derivation))
    assert claim.expect == "derived"
    res = check_claim(claim, FAST)
    assert isinstance(res.verdict, Unknown) and "engine:" in res.verdict.reason and not res.agrees


def test_a_derived_proof_needs_its_derive_function_and_only_it_has_one():
    with pytest.raises(ValueError):
        Proof((TRUE_STEP,), verdict="derived")
    with pytest.raises(ValueError):
        Proof((TRUE_STEP,), "chain", derive=_derivation)


def test_a_proving_fact_is_a_proved_part_that_joins_the_verdict():
    good = Fact("2 = 2 by sympy", lambda: (("2 = 2", sp.Integer(2) == 2),), proves=Sizes(2, 2, 2), how="identity")
    v, parts = run_proof(Proof((TRUE_STEP, good), lemmas=0), (E,), FAST)
    assert isinstance(v, Proved) and len(parts) == 2
    assert isinstance(parts[1].verdict, Proved) and parts[1].verdict.bounds == Sizes(2, 2, 2)
    assert parts[1].verdict.sizes_proved[0][2] == "identity"
    bad = Fact("2 = 3 by sympy", lambda: (("2 = 3", sp.Integer(2) == 3),), proves=Sizes(2, 2, 2))
    v, parts = run_proof(Proof((TRUE_STEP, bad), lemmas=0), (E,), FAST)
    assert isinstance(v, Unknown) and "2 = 3 by sympy" in v.reason and isinstance(parts[1].verdict, Unknown)
    v, _ = run_proof(Proof((FALSE_STEP, good), verdict="first"), (E,), FAST)
    assert isinstance(v, Refuted)
