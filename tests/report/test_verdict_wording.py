"""How a result reads against its source: per part and overall "as the source says" / "differs from
the source (finding)" / "undecided"; an ad hoc question shows its verdict alone; a finding is generated
from the run (the counterexample or derived value), never from a hand-written string alone."""
from __future__ import annotations

import sympy as sp
import pytest

from symbolic import ApproxDP, E, Param, PureDP, Settings, Sizes, check, claim_json, implication_claim, result_text
from symbolic.core.verdicts import Derived
from symbolic.notions.claims import Claim, Implies, NotImplies
from theorems.cli.audit_workers import summary_counts

FAST = Settings(second_solver=False)
ONE = Sizes(1, 2, 2)
DELTA = Param("delta", lower=0, upper=1)
Es, Ds = E.symbol, DELTA.symbol
HAND = "a hand-written explanation"


def _claim(cid, says, parts, **kw):
    return Claim(cid, "⇒, ⇏", "X", f"statement of {cid}", says, parts, params=(E, DELTA), sizes=ONE,
                 min_sizes=ONE, **kw)


@pytest.fixture(scope="module")
def compound():
    """ε-DP ⇒ (ε,δ)-DP and (ε,δ)-DP ⇏ ε-DP: one part proved, one refuted, both as the source says."""
    return check(_claim("X-1", "as stated", (Implies(PureDP(Es), ApproxDP(Es, Ds)),
                                             NotImplies(ApproxDP(Es, Ds), PureDP(Es)))), FAST)


@pytest.fixture(scope="module")
def differs():
    """The source says (ε,δ)-DP ⇒ ε-DP: the run refutes it, so there is a finding."""
    return check(_claim("X-2", "holds", (Implies(ApproxDP(Es, Ds), PureDP(Es)),), finding=HAND), FAST)


def test_compound_claim_with_a_non_implication_reads_as_the_source_says(compound):
    assert compound.verdict.name == "refuted"  # the ⇏ part's counterexample
    text = result_text(compound)
    assert "verdict: refuted — as the source says" in text
    part_lines = [ln for ln in text.splitlines() if ln.startswith("  - ")]
    assert len(part_lines) == 2 and all(ln.endswith("— as the source says") for ln in part_lines)
    assert "FINDING" not in text and "differs" not in text
    doc = claim_json(compound)
    assert doc["as_source_says"] is True and doc["outcome"] == "as the source says"
    assert [p["as_source_says"] for p in doc["parts"]] == [True, True]
    assert doc["finding"] is None and doc["finding_explanation"] is None
    assert doc["agrees_with_source"] is True and doc["verdict"] == "refuted"  # existing keys kept


def test_ad_hoc_question_has_no_source_column():
    res = check(implication_claim(ApproxDP(Es, Ds), PureDP(Es), params=(E, DELTA), sizes=ONE), FAST)
    text = result_text(res)
    assert text.splitlines()[1].strip().startswith("verdict: refuted")
    for word in ("source says", "agrees", "as the source", "differs", "FINDING"):
        assert word not in text
    doc = claim_json(res)
    assert doc["as_source_says"] is None and doc["outcome"] is None and doc["finding"] is None
    assert doc["parts"][0]["as_source_says"] is None


def test_finding_is_generated_from_the_counterexample(differs):
    cx = differs.verdict.counterexample
    text = result_text(differs)
    assert "verdict: refuted — differs from the source (finding)" in text
    finding = next(ln for ln in text.splitlines() if ln.startswith("  FINDING: "))
    assert f"violated: {cx.violated}" in finding          # the run's violated inequality
    assert cx.violated.split(": ")[-1] in finding          # e.g. Pr[A(d)=o]=1 > E·Pr[A(d')=o]=2·0
    assert f"E={cx.parameters['E']}" in finding and "A: " in finding  # parameters and table rows
    assert f"  explanation: {HAND}" in text
    doc = claim_json(differs)
    assert doc["as_source_says"] is False and doc["outcome"] == "differs from the source"
    assert doc["parts"][0]["as_source_says"] is False
    assert cx.violated in doc["finding"] and doc["finding"].endswith(HAND)
    assert doc["finding_explanation"] == HAND


def test_hand_finding_is_not_shown_as_a_finding_when_the_run_agrees(compound):
    from dataclasses import replace
    res = replace(compound, claim=replace(compound.claim, finding=HAND))
    text = result_text(res)
    assert "FINDING" not in text and "explanation:" not in text and f"  note: {HAND}" in text  # a note only
    doc = claim_json(res)
    assert doc["finding"] is None and doc["finding_explanation"] is None and doc["note"] == HAND


def test_a_non_implication_proved_is_a_finding_naming_the_sizes():
    res = check(_claim("X-3", "not implied", (NotImplies(PureDP(Es), ApproxDP(Es, Ds)),)), FAST)
    doc = claim_json(res)
    assert doc["verdict"] == "proved" and doc["outcome"] == "differs from the source"
    assert "is proved within bounds (n=1, |D|=2, |O|=2)" in doc["finding"]
    assert doc["finding_explanation"] is None


def test_a_derived_value_that_differs_is_the_finding():
    x = sp.Symbol("x", positive=True)
    claim = Claim("X-4", "derive", "X", "a closed form", "1/x", derive=lambda: Derived(2 / x, "x > 0", (("ok", True),)),
                  expect="proved")
    doc = claim_json(check(claim, FAST))
    assert doc["outcome"] == "differs from the source" and "derived 2/x under x > 0" in doc["finding"]


def test_audit_summary_counts_findings_from_the_run(compound, differs):
    from dataclasses import replace
    agreeing_with_hand_text = replace(compound, claim=replace(compound.claim, finding=HAND))
    docs = [claim_json(agreeing_with_hand_text), claim_json(differs)]
    counts = summary_counts(docs)
    assert counts == {"claims": 2, "as_source_says": 1, "findings": 1, "undecided": 0, "not_run": 0}
