"""Every S claim at its default sizes against its recorded verdict; counterexamples re-checked
independently with symbolic.notions.leakage; the CLI's derive(); the source's own derivations
(theorems/saeidian_pml_derivations.py) and figures (theorems/saeidian_pml_plots.py)."""
from __future__ import annotations

import itertools

import pytest
import sympy as sp

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.derive import closed_forms as cf
from theorems.saeidian_pml_closed_forms import laplace_count_pml
from symbolic.notions.leakage import pml, posterior, pml_ratio
from symbolic.core.prob import Dist, Kernel
from dataclasses import replace

from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Refuted
from theorems import saeidian_pml as S
from theorems import saeidian_pml_derivations as sd
from theorems.saeidian_pml_derivations import A

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


@pytest.mark.slow   # tests/theorems/test_catalogue.py checks these verdicts by default
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


@pytest.mark.slow   # 3.4 s
def test_naive_composition_counterexample_by_hand():
    res = result("S-PRE")
    v = [p.verdict for p in res.parts if not p.expect_holds][0]
    assert isinstance(v, Refuted) and v.verified_exactly


def test_th10_mechanism_is_dp_and_leaks_towards_the_cap():
    from symbolic.notions.families.dp import PureDP
    from symbolic.core.ops import ExactOps
    for n in (1, 2, 3):
        assert PureDP.body(ExactOps(), sd.th10_mechanism(n, sp.Integer(2)).table(), E=2)
        assert not PureDP.body(ExactOps(), sd.th10_mechanism(n, sp.Integer(2)).table(), E=sp.Rational(19, 10))


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


# --- the source's own derivations -------------------------------------------------------------------

def _f(expr, subs):
    return float(sp.N(expr.subs(subs), 30))


@pytest.fixture(scope="module")
def chern():
    return sd.chernoff_threshold_leakage()


def test_prop12_half_and_large_n():
    """Proposition 12 on the Laplace count: at λ = 1/2 the level is almost halved, and (1-λ)ε bounds it."""
    EPS, LAM = cf.EPS, cf.LAM
    lap = laplace_count_pml()
    ex = sd.prop12_extras(lap.formula)
    assert sp.simplify(ex["at_half"] - sp.log(2 * sp.exp(EPS) / (1 + sp.exp(EPS)))) == 0
    assert sp.expand(ex["series_at_half"] - (EPS / 2 - EPS ** 2 / 8 + EPS ** 4 / 192)) == 0
    assert sp.expand(ex["large_n"] - (1 - LAM) * EPS) == 0
    assert ex["large_n_in_b"] == (1 - LAM) / (cf.N * cf.B)
    for e, l in [(0.1, 0.5), (1, 0.3), (3, 0.05), (0.01, 0.49)]:        # "almost halved", upper bound
        val = _f(lap.formula, {EPS: e, LAM: sp.nsimplify(l)})
        assert 0 < val <= (1 - l) * e
        assert _f(ex["large_n_gap_slope"], {EPS: e, LAM: sp.nsimplify(l)}) >= 0
    half = [_f(ex["at_half"], {EPS: e}) / e for e in (0.01, 0.1, 1)]
    assert all(0.35 < h < 0.5 for h in half) and half[0] > half[1] > half[2]
    at = sd.prop12_extras(lap.formula, {EPS: sp.Integer(1), LAM: sp.Rational(1, 4)})
    assert sp.simplify(at["at_half"] - sp.log(2 * sp.E / (sp.E + 1))) == 0 and at["large_n"] == sp.Rational(3, 4)


def _brute_threshold(n, k, p, y):
    """ℓ(X→y) for the deterministic query over {0,1}^n, via pml.py on the full kernel."""
    xs = list(itertools.product((0, 1), repeat=n))
    kern = Kernel({x: {int(sum(x) >= k): 1} for x in xs}, outputs=(0, 1))
    prior = Dist(outcomes=xs, probs=[p ** sum(x) * (1 - p) ** (n - sum(x)) for x in xs])
    return pml(kern, prior, y), pml(kern, prior, y, attribute=lambda x: x[0])


@pytest.mark.parametrize("n,k,p", [(6, 4, "1/5"), (6, 2, "1/2"), (5, 3, "1/3")])
def test_threshold_exact_vs_enumeration(n, k, p):
    p = sp.Rational(p)
    r = sd.threshold_check(n, k, p)
    whole, entry = _brute_threshold(n, k, p, r["y"])
    assert sp.simplify(whole - r["exact"]) == 0
    assert float(entry) <= float(whole) + 1e-15                       # pre-processing
    assert r["holds"] and float(r["exact"]) <= float(r["bound"])


@pytest.mark.parametrize("n,k,p", [(20, 10, "1/5"), (50, 25, "1/10"), (100, 60, "1/2"), (40, 10, "2/5"),
                                   (30, 3, "1/2"), (200, 100, "3/10")])
def test_chernoff_bound_dominates(chern, n, k, p):
    vals = {cf.N: n, A: sp.Rational(k, n), cf.K: k, cf.P: sp.Rational(p)}
    r = sd.threshold_check(n, k, sp.Rational(p))
    assert r["holds"]
    assert _f(chern.formula, vals) == pytest.approx(float(r["bound"]), rel=1e-12)
    assert float(r["exact"]) <= float(r["bound"])
    assert _f(chern.extras["kl"], vals) > 0
    assert _f(chern.extras["t_star"], vals) * (k / n - float(sp.Rational(p))) >= 0


def test_chernoff_derivation_steps(chern):
    d = chern
    at = sd.chernoff_threshold_leakage(n=20, k=10, p=sp.Rational(1, 5))
    assert float(at.formula) == pytest.approx(float(sd.threshold_check(20, 10, sp.Rational(1, 5))["bound"]))
    assert [e for t, e in d.steps if "plus KL" in t] == [0]
    assert sp.simplify(d.extras["t_star"] - sp.log(A * (1 - cf.P) / (cf.P * (1 - A)))) == 0
    with pytest.raises(InvalidSize, match="k=9"):
        sd.chernoff_threshold_leakage(n=5, k=9)
    with pytest.raises(InvalidParameter, match="p="):
        sd.threshold_check(5, 2, sp.Rational(3, 2))


def test_chernoff_numeric_matches_exact_formula(chern):
    d = chern
    for n, a, p in [(10, 0.5, 0.1), (100, 0.5, 0.3), (40, 0.25, 0.4)]:
        want = _f(d.formula, {cf.N: n, A: sp.nsimplify(a), cf.P: sp.nsimplify(p)})
        assert sd.numeric_chernoff_bound(n, a, p) == pytest.approx(want, rel=1e-9)


def test_entry_limit_checks_small():
    checks = sd.entry_pml_limit_checks(n=1, k=2, m=2)
    assert checks and all(ok for _, ok in checks)


def test_prop5_witness_identities():
    checks = sd.prop5_witness_checks()
    assert len(checks) == 4 and all(ok for _, ok in checks)


def test_plots_write_png(tmp_path):
    from theorems import saeidian_pml_plots as plots
    for path in (plots.plot_prop12_bound(tmp_path / "prop12.png", points=20),
                 plots.plot_ex33_bound(tmp_path / "ex33.png", n_values=range(10, 101, 10))):
        assert path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InvalidParameter):
        plots.plot_prop12_bound(tmp_path / "x.png", eps_values=(-1,))
    with pytest.raises(InvalidParameter):
        plots.plot_ex33_bound(tmp_path / "x.png", p_values=(0.7,), fraction=0.5)
