"""Every S claim at its default sizes against its recorded verdict; counterexamples re-checked
independently with symbolic.notions.leakage; the CLI's derive()."""
from __future__ import annotations

import pytest
import sympy as sp

from symbolic.notions.leakage import posterior, pml_ratio
from symbolic.core.prob import Dist, Kernel
from dataclasses import replace

from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Refuted
from theorems import saeidian_pml as S

Z3_ONLY = replace(Settings(), second_solver=False)  # the second solver has its own tests

BY_ID = {c.id: c for c in S.CLAIMS}
RECORDED = {
    "S-CAP": "proved", "S-PRE": "refuted", "S-TH3": "proved", "S-TH4": "refuted", "S-PROP7": "refuted",
    "S-COR8": "refuted", "S-FLP-DP": "refuted", "S-TH9": "proved", "S-TH11": "proved", "S-R13": "proved",
    "S-TH10": "derived", "S-PROP12": "derived", "S-PROP12.geometric": "derived", "S-PROP12.rr": "derived",
    "S-EX33": "derived", "S-PROP5": "refuted", "S-TH6": "refuted", "S-EX31": "derived",
}
FINDINGS = {"S-PROP7", "S-COR8", "S-PROP5", "S-TH6"}   # verdicts that disagree (S-EX31: derived, with a finding)
SLOW = {"S-TH11", "S-TH9", "S-TH10", "S-PROP12", "S-PROP12.geometric", "S-R13", "S-EX33", "S-CAP", "S-TH6"}

_cache = {}


def result(cid):
    if cid not in _cache:
        _cache[cid] = check_claim(BY_ID[cid], Z3_ONLY)
    return _cache[cid]


def test_every_catalogue_id_is_stated():
    ids = set(BY_ID) | {d.id for d in S.DEFINITIONS}
    for cid in ("S-PML", "S-CPML", "S-EPML", "S-CAP", "S-PRE", "S-TH3", "S-TH4", "S-PROP5", "S-TH6", "S-PROP7",
                "S-COR8", "S-EX33", "S-EX31", "S-TH9", "S-R13", "S-TH10", "S-FLP", "S-TH11", "S-FLP-DP", "S-PROP12"):
        assert cid in ids
    assert set(RECORDED) == set(BY_ID)


@pytest.mark.parametrize("cid", [c for c in RECORDED if c not in SLOW])
def test_claim_verdict_fast(cid):
    res = result(cid)
    assert res.verdict.name == RECORDED[cid]
    assert res.definite
    assert res.agrees == (cid not in FINDINGS)


@pytest.mark.slow
@pytest.mark.parametrize("cid", sorted(SLOW))
def test_claim_verdict_slow(cid):
    res = result(cid)
    assert res.verdict.name == RECORDED[cid]
    assert res.definite and res.agrees == (cid not in FINDINGS)


def _kernel(tab):
    return Kernel({d: {o: tab.p(d, o) for o in tab.outputs} for d in tab.rows}, outputs=tab.outputs)


def _prior(pop):
    return Dist({d: pop.p(d) for d in pop.probs})


def test_cor8_catalogue_counterexample_by_hand():
    v = result("S-COR8").verdict
    assert isinstance(v, Refuted) and v.verified_exactly
    cx = v.counterexample
    K, P, E = _kernel(cx.mechanisms["A"]), _prior(cx.populations["P"]), cx.parameters["E"]
    assert E * min(P.probs) < 1                                      # ε < log 1/p_min
    assert all(pml_ratio(K, P, y) <= E for y in K.outputs)           # ε-PML
    assert any(max(posterior(None, P, K, y).probs) == 1 for y in K.outputs
               if sum(P[x] * K.prob(x, y) for x in K.inputs) > 0)    # singles out


def test_prop7_catalogue_counterexample_by_hand():
    v = result("S-PROP7").verdict
    cx = v.counterexample
    K, Ut, P, E = _kernel(cx.mechanisms["A"]), _kernel(cx.mechanisms["U"]), _prior(cx.populations["P"]), cx.parameters["E"]
    assert E * min(P.probs) < 1 and all(pml_ratio(K, P, y) <= E for y in K.outputs)
    pu = [sum(P[x] * Ut.prob(x, u) for x in Ut.inputs) for u in Ut.outputs]
    assert max(pu) < 1
    assert any(max(posterior(Ut, P, K, y).probs) == 1 for y in K.outputs
               if sum(P[x] * K.prob(x, y) for x in K.inputs) > 0)


def test_naive_composition_counterexample_by_hand():
    res = result("S-PRE")
    v = [p.verdict for p in res.parts if not p.expect_holds][0]
    assert isinstance(v, Refuted) and v.verified_exactly


def test_th10_mechanism_is_dp_and_leaks_towards_the_cap():
    from symbolic.notions.dp import PureDP
    from symbolic.core.ops import ExactOps
    for n in (1, 2, 3):
        assert PureDP.body(ExactOps(), S.th10_mechanism(n, sp.Integer(2)).table(), E=2)
        assert not PureDP.body(ExactOps(), S.th10_mechanism(n, sp.Integer(2)).table(), E=sp.Rational(19, 10))


def test_derive_randomized_response():
    d = S.derive("epsilon", "randomized-response")
    assert sp.simplify(d.formula - sp.Symbol("epsilon", positive=True)) == 0
    assert all(ok for _, ok in d.checks)


def test_derive_laplace_count(tmp_path):
    d = S.derive("pml", "laplace-count", plot=tmp_path / "p.png")
    eps = sp.Symbol("epsilon", positive=True)
    assert d.extras["λ → 0"] == eps
    assert sp.simplify(d.extras["λ = 1/2"] - sp.log(2 * sp.exp(eps) / (sp.exp(eps) + 1))) == 0
    assert (tmp_path / "p.png").stat().st_size > 0


def test_derive_unknown_name():
    from symbolic.core.errors import UnknownName
    with pytest.raises(UnknownName):
        S.derive("nothing")
