"""Levels of densities and mass functions (symbolic.derive.continuous.level): the values the issue asks for, each
compared with an independent 30-digit value (mpmath, computed here from the definitions or the published
closed forms), the formulas compared symbolically with the published ones, and the command line."""
import json
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symbolic.derive.continuous.level import derive_curve_level
from symbolic.derive.continuous.values import CurveLevel, fixed_decimal
from symbolic.derive.level import derive_level
from symbolic.derive.level_render import level_json, level_text
from symbolic.model.continuous import discrete_gaussian, discrete_laplace, gaussian, laplace

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
mpmath.mp.dps = 30


def inside(d: CurveLevel, ref, tol=sp.Rational(1, 10 ** 9)):
    """The certified enclosure contains a number within ``tol`` of the reference value."""
    lo, hi = d.enclosure
    ref = sp.Rational(mpmath.nstr(ref, 28)) if not isinstance(ref, sp.Basic) else ref
    return lo - tol <= ref <= hi + tol and hi - lo < tol


def laplace_renyi(alpha, b=1):
    """Mironov (2017), the Laplace row: D_α = log(α/(2α−1)·e^((α−1)/b) + (α−1)/(2α−1)·e^(−α/b))/(α−1)."""
    a = mpmath.mpf(alpha)
    return mpmath.log(a / (2 * a - 1) * mpmath.e ** ((a - 1) / b) + (a - 1) / (2 * a - 1) * mpmath.e ** (-a / b)) / (a - 1)


def test_laplace_pure_dp_is_one_over_b_reached_on_a_half_line():
    d = derive_curve_level("pure-dp", laplace(), params={"b": 1})
    assert d.value == 1 and sp.simplify(d.formula - 1 / sp.Symbol("b", positive=True)) == 0 and d.ok
    assert "(-oo, 0)" in d.where


@pytest.mark.parametrize("alpha, expected", [(2, "0.619123629998593"), ("3/2", "0.512883511294509")])
def test_laplace_renyi_at_real_orders(alpha, expected):
    d = derive_curve_level("renyi-dp", laplace(), params={"b": 1, "alpha": alpha})
    assert inside(d, laplace_renyi(sp.Rational(alpha))) and d.ok
    assert d.value_text().startswith(expected)


def test_laplace_renyi_in_a_symbolic_order_is_mironovs_formula():
    d = derive_curve_level("renyi-dp", laplace())
    a, b = sp.Symbol("alpha", positive=True), sp.Symbol("b", positive=True)
    mironov = sp.log(a / (2 * a - 1) * sp.exp((a - 1) / b) + (a - 1) / (2 * a - 1) * sp.exp(-a / b)) / (a - 1)
    got = d.formula.xreplace({s: {"alpha": a, "b": b}[s.name] for s in d.formula.free_symbols})
    for av, bv in [(2, 1), (sp.Rational(7, 3), sp.Rational(1, 2)), (5, 3)]:
        assert abs(sp.N(got.subs({a: av, b: bv}) - mironov.subs({a: av, b: bv}), 40)) < 1e-35


def test_laplace_privacy_profile_formula_and_value():
    d = derive_curve_level("approx-dp", laplace(), params={"b": 1, "eps": "1/2"})
    assert inside(d, 1 - mpmath.e ** ((mpmath.mpf(1) / 2 - 1) / 2)) and d.ok
    assert d.value_text().startswith("0.221199216928595")
    profile = derive_curve_level("approx-dp", laplace())   # δ(ε) in ε and b: 1 − e^((ε − 1/b)/2) for ε < 1/b, else 0
    eps, b = sp.Symbol("eps", nonnegative=True), sp.Symbol("b", positive=True)
    f = profile.formula.xreplace({s: {"eps": eps, "b": b}[s.name] for s in profile.formula.free_symbols})
    assert isinstance(f, sp.Piecewise)
    assert sp.simplify(f.subs({b: 1, eps: sp.Rational(1, 3)}) - (1 - sp.exp((sp.Rational(1, 3) - 1) / 2))) == 0
    assert f.subs({b: 1, eps: 2}) == 0


@pytest.mark.slow
def test_gaussian_levels():
    g = gaussian()
    rho = derive_curve_level("zcdp", g, params={"sigma": 1})
    mu = derive_curve_level("gaussian-dp", g, params={"sigma": 1})
    pure = derive_curve_level("pure-dp", g, params={"sigma": 1})
    delta = derive_curve_level("approx-dp", g, params={"sigma": 1, "eps": 1})
    s = sp.Symbol("sigma", positive=True)
    assert rho.value == sp.Rational(1, 2) and sp.simplify(rho.formula - 1 / (2 * s ** 2)) == 0 and rho.exact
    assert mu.value == 1 and sp.simplify(mu.formula - 1 / s) == 0 and mu.ok
    assert pure.infinite and pure.value_text() == "∞" and pure.ok
    # Balle & Wang (2018): δ(ε) = Φ(1/(2σ) − εσ) − e^ε·Φ(−1/(2σ) − εσ)
    assert inside(delta, mpmath.ncdf(0.5 - 1) - mpmath.e * mpmath.ncdf(-0.5 - 1)) and delta.ok
    assert delta.value_text().startswith("0.126936737506644")


def test_zcdp_of_laplace_is_enclosed_and_contains_the_kl_limit():
    d = derive_curve_level("zcdp", laplace(), params={"b": 1})
    assert not d.exact and d.formula is None and d.ok
    # the supremum of D_α/α is approached as α → 1: KL(Lap(0,1) ‖ Lap(1,1)) = 1/b + e^(−1/b) − 1 = e^(−1)
    assert inside(d, mpmath.e ** -1)


def test_discrete_mechanisms():
    dl = derive_curve_level("pure-dp", discrete_laplace(), params={"b": 1})
    tv = derive_curve_level("total-variation", discrete_laplace())
    assert dl.value == 1 and dl.ok
    b = sp.Symbol("b", positive=True)
    assert sp.simplify(tv.formula.xreplace({s: b for s in tv.formula.free_symbols}) - sp.tanh(1 / (2 * b))) == 0
    dg = derive_curve_level("renyi-dp", discrete_gaussian(), params={"sigma": 1, "alpha": 2})
    # Canonne, Kamath, Steinke (2020): at integer orders and integer shifts D_α equals the continuous α/(2σ²)
    assert inside(dg, mpmath.mpf(1)) and dg.ok


def test_an_unsupported_question_is_unknown_with_its_reason_not_an_error():
    d = derive_curve_level("gaussian-dp", laplace(), params={"b": 1})
    assert d.unknown and "Gaussian-shift" in d.unknown and not d.ok and d.value is None
    assert level_json(d)["unknown"] == d.unknown and "unknown:" in level_text(d)


def test_derive_level_dispatches_a_density_document():
    doc = json.loads((EXAMPLES / "laplace.json").read_text())
    d = derive_level("pure-dp", doc, params={"b": "1/2"})
    assert isinstance(d, CurveLevel) and d.value == 2
    j = level_json(d)
    assert {"notion", "formula", "value", "enclosure", "exact", "checks", "ok"} <= set(j) and j["value"] == "2"


def test_fixed_decimal_rounds_exactly():
    assert fixed_decimal(sp.Rational(2, 3), 4) == "0.6667" and fixed_decimal(sp.Rational(1, 2), 0) == "1"


def run(*args):
    p = subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.slow   # the API reads every example file in test_every_example_file_is_accepted
def test_the_command_line_reads_the_example_files():
    code, out, err = run("derive", "level", "renyi-dp", "--mechanism", str(EXAMPLES / "laplace.json"),
                         "--param", "b=1", "--param", "alpha=2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["value_decimal"].startswith("0.619123629998593") and doc["ok"]
    code, out, err = run("derive", "level", "gaussian-dp", "--mechanism", str(EXAMPLES / "laplace.json"),
                         "--param", "b=1")
    assert code == 1 and "unknown:" in out and "Traceback" not in err
    code, out, err = run("derive", "level", "pure-dp", "--mechanism", str(EXAMPLES / "laplace.json"),
                         "--param", "b=-1")
    assert code == 2 and "outside its range" in err and len(err.strip().splitlines()) == 1


def test_sup_over_orders_encloses_randomized_responses_kl():
    """Binary randomized response with ratio e: D_α = log((e^α + e^(1−α))/(1+e))/(α−1) (p = (e/(1+e), 1/(1+e)),
    q reversed); sup_α D_α/α is its KL divergence ε·tanh(ε/2) at ε = 1 (approached as α → 1)."""
    from symbolic.core import intervals as I
    from symbolic.derive.continuous.orders import constant_ratio, sup_over_orders
    a = sp.Symbol("alpha", positive=True)
    D = sp.log((sp.E ** a + sp.E ** (1 - a)) / (1 + sp.E)) / (a - 1)
    run_d = I.compile_enclosure(D, a)
    got = sup_over_orders(lambda v: run_d(v, 256), sp.Integer(1))
    ref = sp.Rational(mpmath.nstr(mpmath.tanh(mpmath.mpf(1) / 2), 28))
    assert got.lower - sp.Rational(1, 10 ** 12) <= ref <= got.upper + sp.Rational(1, 10 ** 12)
    assert got.upper - got.lower < sp.Rational(1, 10 ** 12) and got.closed
    assert constant_ratio(a / 2, a) == sp.Rational(1, 2) and constant_ratio(D, a) is None


def test_the_pair_quantities_directly():
    from symbolic.derive.continuous.pair import LawPair, by_cases, hockey, sup_loss
    m = laplace(1)
    pair = LawPair(m.law((0,)), m.law((1,)), m.y, False, ((0,), (1,)))
    assert sup_loss(pair, m.signs())[0] == 1
    # δ(E = 1) is the total variation 1 − e^(−1/2)
    assert sp.simplify(hockey(pair, 1, m.signs()) - (1 - sp.exp(-sp.Rational(1, 2)))) == 0
    assert len(by_cases(lambda s: sup_loss(pair, s), m.signs())) == 1


def test_a_check_fails_when_the_value_is_wrong():
    from symbolic.derive.continuous.checks import run_checks
    m = laplace(1)
    pairs = [((0,), (1,)), ((1,), (0,))]
    good = run_checks("renyi-dp", {"alpha": 2}, m, pairs, None, sp.log(2 * sp.E ** 3 + 1) - sp.log(3) - 2, {}, ())
    bad = run_checks("renyi-dp", {"alpha": 2}, m, pairs, None, sp.Rational(62, 100), {}, ())
    assert all(ok for _, ok in good) and not any(ok for _, ok in bad)


def test_the_text_report_says_what_was_derived():
    from symbolic.derive.continuous.render import curve_json, curve_text
    d = derive_curve_level("total-variation", laplace(), params={"b": 1})
    assert curve_text(d).startswith("total-variation: tv = 0.393469340287367") and curve_json(d)["exact"]


def test_epsilon_dp_to_zcdp_and_gdp_through_the_dominating_pair():
    from symbolic.derive.continuous.maps import curve_map
    from symbolic.derive.continuous.finite_pairs import dp_dominating_pair, gdp_of_pair, renyi_expr, zcdp_of_pair
    m = curve_map("pure-dp", "zcdp", (sp.Integer(1),))
    (eps, lo, hi), = m.rows
    # the number: ε = 1 gives ρ = ε·tanh(ε/2) = 0.462117157260010
    assert lo - sp.Rational(1, 10 ** 9) <= sp.Rational("0.462117157260010") <= hi + sp.Rational(1, 10 ** 9)
    assert hi - lo < sp.Rational(1, 10 ** 9) and m.candidate_inside and m.ok
    E = sp.Symbol("E", positive=True)
    assert sp.simplify(m.candidate - sp.log(E) * (E - 1) / (E + 1)) == 0
    p, q = dp_dominating_pair(sp.exp(1))
    mu_lo, mu_hi, _ = gdp_of_pair(p, q)
    # RR at ε = 1 is μ-GDP exactly when δ_RR(ε') ≤ δ_μ(ε') for all ε'; the enclosure must hold that μ
    assert 0 < mu_lo < mu_hi < mu_lo + sp.Rational(1, 100)
    assert renyi_expr(p, (1, 0)) == sp.oo and zcdp_of_pair((1, 0), (0, 1)) is None
    assert curve_map("approx-dp", "zcdp").unknown is not None


@pytest.mark.slow
def test_derive_map_with_a_transcendental_notion_is_never_an_internal_error():
    code, out, err = run("derive", "map", "pure-dp", "zcdp", "--param", "eps=1")
    assert code == 0 and "ε*tanh(ε/2)" in out and "0.46211715726" in out, err
    for a, b in (("zcdp", "pure-dp"), ("gaussian-dp", "approx-dp")):   # pure-dp ⇒ gaussian-dp: test_curve_claims
        code, out, err = run("derive", "map", a, b, "--param", "eps=2")
        assert code in (0, 1) and "internal error" not in err and "Traceback" not in err, (a, b, err)


def test_leakage_of_densities():
    """Maximal leakage is log(1 + TV) for two laws; PML under a prior π is reached in a tail, where the
    ratio max_x p_x/p_Y tends to its supremum: for Laplace 1/(π_0 + π_1·e^(−1/b)), for the Gaussian 1/π_0."""
    from symbolic.derive.continuous.leakage import maximal_leakage
    ml = derive_curve_level("maximal-leakage", laplace(), params={"b": 1})
    assert sp.simplify(ml.value - sp.log(2 - sp.exp(-sp.Rational(1, 2)))) == 0 and ml.ok
    prior = {"0": "1/4", "1": "3/4"}
    lap = derive_curve_level("pml", laplace(), params={"b": 1}, prior=prior)
    assert sp.simplify(lap.value + sp.log(sp.Rational(1, 4) + 3 * sp.exp(-1) / 4)) == 0 and lap.ok
    gau = derive_curve_level("pml", gaussian(), params={"sigma": 1}, prior=prior)
    assert sp.simplify(gau.value - sp.log(4)) == 0 and gau.ok and "x = 0" in gau.where
    m = laplace(1)
    assert maximal_leakage([m.law((0,)), m.law((1,))], m.y, m.signs(), False)[0] == ml.value
    with pytest.raises(Exception) as e:
        derive_curve_level("pml", laplace(), params={"b": 1})
    assert "relative to a prior" in str(e.value)


def test_the_zcdp_level_takes_its_level_functions_from_the_caller():
    """curve_zcdp sits below curve_level: it is handed the level and pair functions, so a stand-in for
    them (D_α = α/2 on one pair, pure level ∞) gives ρ = 1/2 exactly."""
    from symbolic.derive.continuous.zcdp import zcdp_level
    m = gaussian(1)
    alpha = sp.Symbol("alpha", positive=True)
    d = zcdp_level(m, {"alpha": alpha}, [((0,), (1,))], m.signs(), {}, [], {}, lambda *a, **k: [],
                   lambda notion, own, mm, pairs, signs: (own["alpha"] / 2, "stand-in"), lambda n, mm: [])
    assert d.value == sp.Rational(1, 2) and d.exact


@pytest.mark.slow
def test_every_example_file_is_accepted():
    """docs/examples: the densities and mass functions, the tables of randomized response, and the exponential
    mechanism on a finite range (a table): its ε at ε_param = 1 is the ratio at output 0, (e² + 2e^{3/2})/(e^{1/2} + e + e^{3/2})."""
    values = {"laplace.json": {"b": 1}, "gaussian.json": {"sigma": 1}, "discrete-laplace.json": {"b": 1},
              "discrete-gaussian.json": {"sigma": 1}, "exponential.json": {"eps": 1},
              "staircase.json": {"eps0": 1}, "rr.json": {}, "rr3.json": {}, "rr-half.json": {},
              "rr-half-5fold.json": {}}
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == sorted(values)
    for name, params in values.items():
        doc = json.loads((EXAMPLES / name).read_text())
        if isinstance(doc.get("of"), str):   # a composition names its table relative to its own file
            doc["of"] = json.loads((EXAMPLES / doc["of"]).read_text())
        d = derive_level("pure-dp", doc, params=params)
        assert d.ok, name
    expo = derive_level("pure-dp", json.loads((EXAMPLES / "exponential.json").read_text()), params={"eps": 1})
    e = sp.E
    assert sp.simplify(expo.level_ratio - (e ** 2 + 2 * e ** sp.Rational(3, 2)) /
                       (e ** sp.Rational(1, 2) + e + e ** sp.Rational(3, 2))) == 0


def test_zcdp_and_gdp_of_a_finite_table():
    """Randomized response with p = 3/4 (E = 3): ρ = ε·tanh(ε/2) = log(3)/2; μ is enclosed; symbolic
    entries need values."""
    from symbolic.derive.continuous.table_curves import table_curve_level
    rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
          "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    rho = derive_level("zcdp", rr, params={"p": "3/4"})
    lo, hi = rho.enclosure
    assert lo - sp.Rational(1, 10 ** 12) <= sp.log(3) / 2 <= hi + sp.Rational(1, 10 ** 12) and rho.ok
    mu = table_curve_level("gaussian-dp", rr, params={"p": "3/4"})
    assert 0 < mu.enclosure[0] < mu.enclosure[1] < mu.enclosure[0] + sp.Rational(1, 100) and mu.ok
    with pytest.raises(Exception) as e:
        derive_level("zcdp", rr)
    assert "give every parameter a value" in str(e.value)
    leaky = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["1", "0"], "1": ["1/2", "1/2"]}}
    assert derive_level("zcdp", leaky).infinite
