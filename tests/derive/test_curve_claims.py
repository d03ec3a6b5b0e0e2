"""ε-DP ⇒ zCDP / GDP decided over a range of E through the dominating pair (symbolic.derive.continuous.claims):
the published conversion is proved, the tight one proved tight, a too-small constant refuted by an exact
randomized-response table whose failure the test re-checks by 30-digit arithmetic."""
import json
import subprocess
import sys

import mpmath
import pytest
import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.derive.continuous.claims import decide_dominated, rr_table

E = sp.Symbol("E", real=True)


def test_bun_steinke_eps_squared_over_two_is_proved_down_to_eps_zero_and_without_an_upper_end():
    # the width lemma: RR_E's log-likelihood ratio spans 2·log E, and ε²/2 − (2 log E)²/8 is 0 (sympy)
    for lo, hi in ((3, 148), (1, 148), (1, None)):
        v = decide_dominated("ZeroConcentratedDP", sp.log(E) ** 2 / 2, E, lo, hi)
        assert v.verdict == "proved" and "Popoviciu" in v.reason and "every size" in v.scope and not v.tight


def test_eps_tanh_half_eps_is_proved_and_tight_down_to_eps_zero():
    # the two-point lemma: KL = ρ, and 2ρ ≥ w²·p₁p₂ vanishes to fourth order at E = 1 (the Taylor step)
    for lo in (3, 1):
        v = decide_dominated("ZeroConcentratedDP", sp.log(E) * (E - 1) / (E + 1), E, lo, 148)
        assert v.verdict == "proved" and v.reason.startswith("tight:") and v.tight
    # the same inequality re-checked by 30-digit arithmetic near ε = 0, where both sides are about ε⁴/6·…
    mpmath.mp.dps = 30
    for e in (mpmath.mpf("1.001"), mpmath.mpf("1.1"), mpmath.mpf(148)):
        t = mpmath.log(e)
        assert 2 * t * (e - 1) / (e + 1) - 4 * t ** 2 * e / (e + 1) ** 2 > 0


def test_eps_squared_over_eight_is_refuted_by_randomized_response():
    v = decide_dominated("ZeroConcentratedDP", sp.log(E) ** 2 / 8, E, 3, 148)
    assert v.verdict == "refuted" and v.counterexample["E"] == "3"
    assert v.counterexample["table"] == rr_table(3)
    # re-check independently: at the order named in the reason, D_α(RR_3) > ρ·α (30 digits)
    alpha = sp.Rational(v.counterexample["why"].split("α = ")[1].split(":")[0])
    mpmath.mp.dps = 30
    e, a = mpmath.mpf(3), mpmath.mpf(alpha.p) / alpha.q
    p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
    d = mpmath.log(sum(pi ** a * qi ** (1 - a) for pi, qi in zip(p, q))) / (a - 1)
    assert d > mpmath.log(3) ** 2 / 8 * a


def test_a_tight_bound_without_an_upper_end_is_unknown_and_gdp_is_decided():
    # the two-point lemma's inequality is not shown on [1, ∞) (no covering of an unbounded range)
    open_top = decide_dominated("ZeroConcentratedDP", sp.log(E) * (E - 1) / (E + 1), E, 1, None)
    assert open_top.verdict == "unknown" and "no upper end" in open_top.reason
    gdp = decide_dominated("GaussianDP", 2 * sp.log(E), E, 3, 20)
    bad = decide_dominated("GaussianDP", sp.log(E) / 2, E, 3, 20)
    assert gdp.verdict == "proved" and bad.verdict == "refuted"


def test_interval_tools():
    x = sp.Symbol("x", positive=True)
    assert I.nonnegative_on(x ** 2 - 2 * x + 2, x, 0, 3)[0] is True      # (x − 1)² + 1 > 0
    assert I.nonnegative_on(x ** 2 - 2 * x + 1, x, 0, 3, max_cells=50)[0] is None   # touches 0: undecided
    assert I.nonnegative_on(x - 2, x, 0, 3)[0] is False
    # the Taylor step at a touching end: x⁴ − x⁵ vanishes to fourth order at 0 and is ≥ 0 on [0, 1/2] …
    assert I.nonnegative_from_zero(x ** 4 - x ** 5, x, 0, sp.Rational(1, 2))[::2] == (True, 4)
    # … but x⁴ − 10x⁵ is negative beyond 1/10 though its fourth derivative at 0 is positive: not proved
    assert I.nonnegative_from_zero(x ** 4 - 10 * x ** 5, x, 0, 1)[0] is False
    assert I.nonnegative_from_zero(-x ** 3 + x ** 4, x, 0, 1)[0] is False       # first nonzero derivative < 0
    assert I.nonnegative_from_zero(x - sp.Rational(1, 100), x, 0, 1)[0] is False   # negative at the end itself
    # a dip below 0 on (0.29, 0.31), between the 16 sample points: never proved
    dip = x ** 4 * ((x - sp.Rational(3, 10)) ** 2 - sp.Rational(1, 10000))
    assert I.nonnegative_from_zero(dip, x, 0, 1)[0] is not True
    assert I.nonnegative_from_zero(sp.sin(x) ** 2 - x ** 2 + x ** 2, x, 0, 1)[0] is True
    b = I.interval(3, 4)
    assert b.lower() <= 3 and b.upper() >= 4 and b.upper() - b.lower() < sp.Rational(11, 10)


def run(*args):
    p = subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.slow   # the command line of curve claims: tests/derive/test_conversions.py runs it too
def test_implies_uses_the_dominating_pair():
    code, out, err = run("implies", "pure-dp", "zcdp", "--target", "rho=log(E)^2/8", "--assume", "3<=E<=148", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["verdict"] == "refuted" and doc["counterexample"]["table"]["rows"]["0"] == ["3/4", "1/4"]
    code, out, err = run("implies", "pure-dp", "zcdp", "--target", "rho=log(E)*(E-1)/(E+1)")
    assert code == 1 and "no upper end" in out
    code, out, err = run("implies", "pure-dp", "zcdp", "--target", "rho=log(E)^2/2", "--assume", "1<E")
    assert code == 0 and "proved" in out and "Popoviciu" in out


def test_a_bound_that_fails_inside_the_range_is_refuted_there():
    # ρ = 1/2 holds at E = 2 (ρ*(log 2) ≈ 0.12) but not at E = 20 (ρ* ≈ 2.7): refuted inside the range
    v = decide_dominated("ZeroConcentratedDP", sp.Rational(1, 2), E, 2, 20)
    assert v.verdict == "refuted" and sp.Rational(v.counterexample["E"]) > 2


def test_gdp_implies_the_gaussian_privacy_profile_and_it_is_the_published_one():
    """Dong, Roth, Su (2022): μ-GDP ⇒ (ε, Φ(−ε/μ+μ/2) − e^ε·Φ(−ε/μ−μ/2))-DP, tight; the engine derives the
    profile from the two Gaussian densities and proves it equal to the published form."""
    from symbolic.derive.continuous.gdp_profile import gaussian_pair_profile, published_profile
    from symbolic.derive.continuous.maps import curve_map
    derived, published, same = gaussian_pair_profile()
    assert same and derived is not None
    m = curve_map("gaussian-dp", "approx-dp", (sp.Integer(1), sp.Integer(3)))
    assert m.proved and m.ok
    mpmath.mp.dps = 30
    for (eps, lo, hi), e in zip(m.rows, (1, 3)):
        ref = mpmath.ncdf(-e + mpmath.mpf(1) / 2) - mpmath.e ** e * mpmath.ncdf(-e - mpmath.mpf(1) / 2)
        assert lo - sp.Rational(1, 10 ** 25) <= sp.Rational(mpmath.nstr(ref, 28)) <= hi + sp.Rational(1, 10 ** 25)
    mu, eps = sp.symbols("mu eps", positive=True)
    assert published_profile(mu, eps).has(sp.erfc)


def test_bounded_range_to_zcdp_cesar_rogers():
    """ε-bounded range ⇒ (ε²/8)-zCDP (Cesar, Rogers 2021) is proved by the width lemma (the log-likelihood
    ratio spans log E) on every range, ε = 0 and no upper end included; ε²/16 fails at the binary pair
    (1/2, 1/2) against (1/4, 3/4), whose log-ratio range is log 3."""
    from symbolic.derive.continuous.claims import bounded_range_pair, bounded_range_renyi, decide_bounded_range
    from symbolic.derive.continuous.finite_pairs import renyi_expr
    for lo, hi in ((8, 148), (1, 148), (1, None)):
        v = decide_bounded_range(sp.log(E) ** 2 / 8, E, lo, hi)
        assert v.verdict == "proved" and "Popoviciu" in v.reason and "spans at most log E" in v.scope
    bad = decide_bounded_range(sp.log(E) ** 2 / 16, E, 3, 148)
    assert bad.verdict == "refuted" and bad.counterexample["table"]["rows"] == {"0": ["1/2", "1/2"], "1": ["1/4", "3/4"]}
    assert decide_bounded_range(sp.log(E) ** 2 / 16, E, 1, 148).counterexample["E"] == "2"   # the smallest E tried
    p, q = bounded_range_pair(sp.Rational(1, 3), 5)
    gap = renyi_expr(p, q, sp.Rational(5, 2)) - bounded_range_renyi(sp.Rational(1, 3), sp.log(5), sp.Rational(5, 2))
    assert abs(sp.N(gap, 50)) < 1e-40


def test_bounded_range_below_hoeffding_is_proved_by_the_covering():
    """For large ε the bounded-range level is well below Hoeffding's ε²/8 (about 0.90·ε²/8 at E = 20): the
    covering of (α, λ, log E) proves 0.93·ε²/8 on 20 ≤ E ≤ 148, which the width lemma cannot."""
    from symbolic.derive.continuous.claims import decide_bounded_range
    v = decide_bounded_range(sp.Rational(93, 100) * sp.log(E) ** 2 / 8, E, 20, 148)
    assert v.verdict == "proved" and "Popoviciu" not in v.reason and v.cells > 100


@pytest.mark.slow
def test_bounded_range_below_hoeffding_where_the_margin_is_small():
    """At E = 8 the level is about 0.945·ε²/8: 0.96·ε²/8 on 8 ≤ E ≤ 20 leaves a margin of 1.6 % and the covering
    closes in about 5·10⁴ cells (its budget is 250,000)."""
    from symbolic.derive.continuous.claims import decide_bounded_range
    v = decide_bounded_range(sp.Rational(24, 25) * sp.log(E) ** 2 / 8, E, 8, 20)
    assert v.verdict == "proved" and 10000 < v.cells <= 250000


def test_derive_map_proves_its_zcdp_candidate_on_a_range():
    from symbolic.derive.continuous.maps import curve_map
    m = curve_map("pure-dp", "zcdp", (sp.Integer(1),))
    assert m.proved_on.startswith("1 ≤ E ≤ 148 (ε from 0 to") and m.proof_text.startswith("tight:")
    assert m.to_json()["formula_status"].startswith("proved tight for 1 ≤ E ≤ 148")


def test_derive_map_pure_dp_renyi_dp_at_a_symbolic_order():
    """The tight Rényi level of ε-DP at order α, from randomized response: at α = 2 it is the table path's
    (E² − E + 1)/E, and at α = 5/2, ε = 1 it matches D_α of randomized response computed with mpmath."""
    from symbolic.derive.continuous.maps import ALPHA, curve_map
    from symbolic.derive.continuous.values import E as EV
    m = curve_map("pure-dp", "renyi-dp", (sp.Integer(1),), alpha="alpha")
    assert m.proved and sp.simplify(m.candidate.subs(ALPHA, 2) - (EV ** 2 - EV + 1) / EV) == 0
    m = curve_map("pure-dp", "renyi-dp", (sp.Integer(1),), alpha="5/2")
    mpmath.mp.dps = 30
    e, a = mpmath.e, mpmath.mpf(5) / 2
    p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
    d = mpmath.log(sum(x ** a * y ** (1 - a) for x, y in zip(p, q))) / (a - 1)
    _, lo, hi = m.rows[0]
    assert sp.Rational(lo) - sp.Rational(1, 10 ** 25) <= sp.Rational(mpmath.nstr(mpmath.exp(d), 28)) <= sp.Rational(hi) + sp.Rational(1, 10 ** 25)
    out = subprocess.run([sys.executable, "-m", "theorems.cli.main", "derive", "map", "pure-dp", "renyi-dp",
                          "--param", "alpha=1/2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "above 1" in out.stderr


@pytest.mark.slow
def test_derive_map_pure_dp_gaussian_dp_is_the_kink_tangency():
    """ε-DP ⇒ μ-GDP with μ = 2Φ⁻¹(e^ε/(1 + e^ε)) (the least μ whose G_μ passes under randomized response's
    kink), proved for every E and inside each independent certified enclosure; mpmath re-computes it."""
    from symbolic.derive.continuous.maps import curve_map
    m = curve_map("pure-dp", "gaussian-dp", (sp.Integer(1), sp.Integer(2)))
    assert m.proved and m.candidate_inside
    mpmath.mp.dps = 30
    for eps, lo, hi in m.rows:
        e = mpmath.e ** int(eps)
        mu = 2 * mpmath.sqrt(2) * mpmath.erfinv((e - 1) / (e + 1))
        assert lo <= sp.Rational(mpmath.nstr(mu, 25)) <= hi
        a = 1 / (1 + e)   # G_μ(a) = Φ(Φ⁻¹(1 − a) − μ) = a at the kink
        assert abs(mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu) - a) < mpmath.mpf(10) ** -25


def test_pure_dp_to_gdp_is_decided_against_the_exact_level_down_to_eps_zero():
    """Against μ* = 2Φ⁻¹(E/(1+E)): the exact level is proved tight on the unbounded range, 2ε-GDP is proved on
    1 ≤ E ≤ 148 (ε = 0 included: both sides vanish there, the difference's slope is certified instead), and
    ε-GDP is refuted (μ* ≈ 1.2533ε for small ε) by randomized response at E = 2, its failure certified."""
    from symbolic.derive.continuous.conversions import decide_dp_to_gdp, dp_to_gdp_level
    Ep = sp.Symbol("E", positive=True)
    assert decide_dp_to_gdp(dp_to_gdp_level(), Ep, 1, None).tight
    assert decide_dp_to_gdp(2 * sp.log(E), E, 1, 148).verdict == "proved"
    v = decide_dp_to_gdp(sp.log(E), E, 1, None)
    assert v.verdict == "refuted" and v.counterexample["table"] == rr_table(2)
    mpmath.mp.dps = 30
    assert 2 * mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(1) / 3) > mpmath.log(2)   # μ*(2) > log 2


def test_the_two_point_lemma_on_a_pair_that_is_not_symmetric():
    """p = RR_E's first row against the uniform law: both directions are checked (the pair is not a relabelling
    of itself), ρ = ε²/8 is proved for 1 ≤ E ≤ 20, and mpmath confirms D_α ≤ ρα at sample orders; ρ = ε²/16 is
    not (KL(p‖q) > ε²/16 near E = 20)."""
    from symbolic.derive.continuous.cumulant import two_point_lemma
    Ep = sp.Symbol("E", positive=True)
    p, q = (Ep / (1 + Ep), 1 / (1 + Ep)), (sp.Rational(1, 2), sp.Rational(1, 2))
    proof = two_point_lemma(sp.log(Ep) ** 2 / 8, p, q, Ep, 1, 20)
    assert proof is not None and not proof.tight and proof.reason.count("KL =") == 2
    assert two_point_lemma(sp.log(Ep) ** 2 / 16, p, q, Ep, 1, 20) is None
    mpmath.mp.dps = 30
    for e in (mpmath.mpf("1.01"), mpmath.mpf(3), mpmath.mpf(20)):
        pp, qq = [e / (1 + e), 1 / (1 + e)], [mpmath.mpf(1) / 2] * 2
        for a in (mpmath.mpf("1.001"), mpmath.mpf(2), mpmath.mpf(50)):
            for x, y in ((pp, qq), (qq, pp)):
                d = mpmath.log(sum(u ** a * v ** (1 - a) for u, v in zip(x, y))) / (a - 1)
                assert d <= mpmath.log(e) ** 2 / 8 * a
