"""Every L-* and K-* catalogue claim at its default sizes: a definite verdict, the recorded one."""
import pytest
import sympy as sp

from dataclasses import replace

from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Refuted, Sizes
from theorems.registry import claims, definitions

Z3_ONLY = replace(Settings(), second_solver=False)  # the second solver has its own tests


def check_claim_z3(claim):
    return check_claim(claim, Z3_ONLY)

EXPECTED = {
    "L-1.1": "proved", "L-1.2": "proved", "L-1.4": "derived", "L-1.5": "derived", "L-1.6": "proved",
    "L-1.7": "proved", "L-1.7b": "proved", "L-EQ6": "proved", "L-2.1": "proved", "L-ADD.props": "proved",
    "L-2.3": "derived",
    "K-D1.1": "proved", "K-2.2a": "proved", "K-2.2b": "refuted", "K-2.2.step": "refuted", "K-2.2.step2": "refuted",
    "K-2.4": "refuted", "K-3.3.1": "proved", "K-3.3.2": "refuted", "K-3.3.3": "proved", "K-3.3.4": "proved",
    "K-3.3.5": "proved", "K-3.3.6": "proved", "K-4.1": "refuted", "K-A.2": "refuted", "K-A.3": "proved",
    "K-5.1": "proved", "K-5.TV": "refuted",
}
FINDINGS = {"K-A.2", "K-2.2b", "K-2.2.step", "K-2.2.step2", "K-2.4", "K-3.3.2", "K-4.1"}
# tests/theorems/test_catalogue.py checks each of these verdicts by default; run here again only with `pytest -m slow`


def test_every_lk_id_is_registered():
    cs, ds = claims(), definitions()
    ids = {c for c, v in cs.items() if v.source in "LK"}
    assert ids == set(EXPECTED)
    for d in ("L-EQ6", "L-ADD", "K-D1.1", "K-D1.2", "K-SD", "K-D2.1", "K-D2.3", "K-D3.1", "K-D3.2"):
        assert d in ds and ds[d].notions


@pytest.mark.slow
@pytest.mark.parametrize("cid", list(EXPECTED))
def test_claim_verdict(cid):
    c = claims()[cid]
    r = check_claim(c, Z3_ONLY)
    assert r.definite, getattr(r.verdict, "reason", "")
    assert r.verdict.name == EXPECTED[cid]
    assert r.agrees == (cid not in FINDINGS)
    assert (c.finding is not None) >= (cid in FINDINGS)
    if isinstance(r.verdict, Refuted):
        assert r.verdict.verified_exactly


def test_k22b_counterexample_is_semantically_private_and_not_2eps_dp():
    r = check_claim_z3(claims()["K-2.2b"])
    cx = r.verdict.counterexample
    A, E = cx.mechanisms["A"], cx.parameters["E"]
    ratio = max(A.rows[(0,)][j] / A.rows[(1,)][j] for j in range(2) if A.rows[(1,)][j] != 0)
    assert ratio > E ** 2
    assert "exact sup over beliefs" in r.verdict.note and r.verdict.note.endswith("True")


def test_k22_step2_second_inequality_is_false_exactly():
    E = sp.Symbol("E", positive=True)
    eb = E - 1
    assert sp.simplify((1 + eb) / (1 - eb) - E / (2 - E)) == 0
    assert sp.factor(E / (2 - E) - E ** 2) == sp.factor(E * (E - 1) ** 2 / (2 - E))
    assert ((1 + eb) / (1 - eb)).subs(E, sp.Rational(3, 2)) == 3 > sp.Rational(9, 4)


def test_k41_bound_uses_a_valid_log_lower_bound():
    # 2(E-1)/(E+1) ≤ ln E at E = 2, so refuting with it refutes the source's bound
    assert sp.Rational(2, 3) < sp.log(2)
    assert sp.Rational(493, 35000) > sp.Rational(1, 100) + sp.Rational(1, 10000) / sp.log(2)


def test_group_tightness_recorded():
    r = check_claim_z3(claims()["L-1.7"])
    assert "E**2" in r.verdict.certificate["tightness"] and "E**3" in r.verdict.certificate["tightness"]


@pytest.mark.slow   # over 7 s on 2 cores; `pytest -m slow` and the self-test run it
def test_ka3_decided_at_n2():
    r = check_claim_z3(claims()["K-A.3"])
    assert r.verdict.name == "proved"
    assert any(p.verdict.sizes_proved and any(s[0].n == 2 for s in p.verdict.sizes_proved) for p in r.parts)


@pytest.mark.slow   # 4 s; K-2.4 is decided by the audit
def test_k24_part1_is_decided_at_n2_through_ratio_safety():
    r = check_claim_z3(claims()["K-2.4"])
    texts = {p.implication: p for p in r.parts}
    spread = [p for t, p in texts.items() if t.startswith("True ⇒ PosteriorSpreadWhereSafe")]
    assert len(spread) == 4 and all(p.verdict.name == "proved" and [s[0] for s in p.verdict.sizes_proved] == [Sizes(2, 2, 2)]
                                    for p in spread)
    mass = next(p for t, p in texts.items() if "RatioSafeMass" in t)
    assert mass.verdict.name == "proved" and Sizes(2, 2, 2) in [s[0] for s in mass.verdict.sizes_proved]


@pytest.mark.slow
def test_k51_reaches_n2():
    """K-5.1 is established at n=2 (|𝒪| ≤ 3) through the slice lemmas, not only at n=1."""
    r = check_claim_z3(claims()["K-5.1"])
    assert r.verdict.name == "proved"
    assert r.verdict.bounds.as_tuple() == (2, 2, 3)
    assert all(p.verdict.name == "proved" for p in r.parts)
