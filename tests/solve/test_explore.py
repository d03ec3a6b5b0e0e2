"""Exploring larger sizes reports only sizes the solver proved, in a bounded summary."""
from dataclasses import replace

import pytest

from symbolic.notions.claims import Claim, E, Implies
from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
from symbolic.report.results import result_text
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Proved, Sizes

FAST = replace(Settings(), second_solver=False)
Es = E.symbol


def test_pinned_parts_are_not_explored():
    """ε-DP ⇒ free-lunch at E^3 holds at n ≤ 3 and is false at n = 4 (two databases four replacements
    apart need E^4): a part pinned at n = 3 must never be reported proved at larger sizes."""
    claim = Claim("t", "prop", "-", "pinned", "holds",
                  (Implies(PureDP(Es), FreeLunchPrivacy(Es ** 3), sizes=Sizes(3, 2, 2)),), sizes=Sizes(3, 2, 2))
    res = check_claim(claim, FAST, explore=5.0)
    assert isinstance(res.verdict, Proved) and res.explored == ()
    assert len(result_text(res).splitlines()) < 50


def test_explore_refutes_beyond_the_grid_and_does_not_claim_minimality():
    # the same implication unpinned: proved at n ≤ 3, refuted when exploring n = 4
    claim = Claim("t", "⇒", "-", "unpinned", "holds", (Implies(PureDP(Es), FreeLunchPrivacy(Es ** 3)),),
                  sizes=Sizes(3, 2, 2), min_sizes=Sizes(3, 2, 2))
    res = check_claim(claim, FAST, explore=30.0)
    v = res.verdict
    assert v.name == "refuted" and v.verified_exactly and v.counterexample.sizes.n == 4
    assert v.minimal is False and "not minimised" in v.note
    assert "minimal among sizes searched: not known" in result_text(res)


@pytest.mark.slow   # over 5 s on 2 cores; `pytest -m slow` and the self-test run it
def test_explored_sizes_are_summarised_in_one_line():
    claim = Claim("t", "⇒", "-", "true", "holds", (Implies(FreeLunchPrivacy(Es), PureDP(Es)),),
                  sizes=Sizes(1, 2, 2), min_sizes=Sizes(1, 2, 2))
    res = check_claim(claim, FAST, explore=3.0)
    assert res.explored, "some larger size should be proved within 3 s"
    text = result_text(res)
    assert sum("explored" in l for l in text.splitlines()) == 1 and len(text.splitlines()) < 50
