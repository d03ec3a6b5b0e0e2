"""ρ-zCDP ⇒ (ε, δ)-DP and μ-GDP ⇒ (ε, δ)-DP decided for every parameter value in a range
(symbolic.derive.continuous.conversions): the published conversions proved, wrong ones refuted by exact
two-output tables that these tests re-check with 40-digit arithmetic, independently of the code."""
import json
import subprocess
import sys

import pytest

import mpmath
import sympy as sp

from symbolic.derive.continuous.conversions import decide_curve_claim, decide_gdp_to_dp, decide_zcdp_to_dp
from symbolic.derive.continuous.gdp_profile import published_profile
from symbolic.notions.claims import Param

RHO = Param("rho", lower=0, lower_strict=True)
DELTA = Param("delta", lower=0, lower_strict=True, upper=1)
MU = Param("mu", lower=0, lower_strict=True)
E = Param("E", lower=1)
R, D = RHO.symbol, DELTA.symbol
L = sp.log(1 / D)


def _rows(table):
    return [[mpmath.mpf(sp.Rational(x).p) / sp.Rational(x).q for x in table["rows"][k]] for k in ("0", "1")]


def _renyi(a, p, q):
    return mpmath.log(sum(x ** a * y ** (1 - a) for x, y in zip(p, q))) / (a - 1)


def test_bun_steinke_conversion_is_proved_by_the_chernoff_bound():
    v = decide_zcdp_to_dp(R, sp.exp(R + 2 * sp.sqrt(R * L)), D, (RHO, DELTA))
    assert v.verdict == "proved" and "every size" in v.scope
    assert "= 0" in v.reason   # the Chernoff bound is met with equality at the best order
    # how loose: the Gaussian mechanism with ρ = 1/2 needs ε ≈ 4.377178 at δ = 10⁻⁵ (mpmath: 4.3771780957)
    assert "needs ε > 4.37718" in v.reason and "loose by at most 0.9213" in v.reason


def test_a_looser_conversion_is_proved_and_a_tighter_false_one_refuted_by_an_exact_table():
    assert decide_zcdp_to_dp(R, sp.exp(R + 3 * sp.sqrt(R * L)), D, (RHO, DELTA)).verdict == "proved"
    v = decide_zcdp_to_dp(R, sp.exp(2 * sp.sqrt(R * L)), D, (RHO, DELTA))
    assert v.verdict == "refuted" and v.to_json("s", "r")["verified_exactly"] is True
    at = {k: sp.Rational(x) for k, x in v.counterexample["at"].items()}
    mpmath.mp.dps = 40
    p, q = _rows(v.counterexample["table"])
    rho = mpmath.mpf(at["rho"].p) / at["rho"].q
    delta = mpmath.mpf(at["delta"].p) / at["delta"].q
    # ρ-zCDP in both directions on a grid of orders (the engine's certificate covers every order)
    for k in range(1, 400):
        a = 1 + mpmath.mpf(k) / 20
        assert _renyi(a, p, q) <= rho * a and _renyi(a, q, p) <= rho * a
    eps = 2 * mpmath.sqrt(rho * mpmath.log(1 / delta))
    hockey = sum(max(0, x - mpmath.e ** eps * y) for x, y in zip(p, q))
    assert hockey > delta


def test_a_constant_below_two_is_never_proved():
    """ε = ρ + √(ρ log 1/δ): ε > ρ holds, but (ε − ρ)²/(4ρ) − log(1/δ) = −3L/4 < 0, so the Chernoff bound
    does not give it (and the Gaussian mechanism refutes it)."""
    v = decide_zcdp_to_dp(R, sp.exp(R + sp.sqrt(R * L)), D, (RHO, DELTA))
    assert v.verdict == "refuted"


def test_a_refuting_table_must_satisfy_the_hypothesis_in_both_directions():
    """zCDP and GDP bound both orders of a neighbouring pair: a table that passes one direction only is no
    counterexample (here a test hypothesis that holds for (p, q) and never for (q, p))."""
    from symbolic.derive.continuous.conversions import _threshold_table
    one_way = lambda p, q: p[0] >= q[0]   # noqa: E731
    assert _threshold_table(sp.Integer(1), sp.Integer(0), sp.Rational(1, 100), one_way) is None
    assert _threshold_table(sp.Integer(1), sp.Integer(0), sp.Rational(1, 100), lambda p, q: True) is not None


def test_a_delta_range_reaching_zero_is_unknown_with_the_range_to_state():
    whole = Param("delta", lower=0, upper=1)
    v = decide_zcdp_to_dp(R, sp.exp(R + 2 * sp.sqrt(R * sp.log(1 / whole.symbol))), whole.symbol, (RHO, whole))
    assert v.verdict == "unknown" and "0<delta" in v.reason


def test_the_gdp_conversion_is_proved_tight_and_half_of_it_refuted():
    d = published_profile(MU.symbol, sp.log(E.symbol))
    v = decide_gdp_to_dp(MU.symbol, E.symbol, d, (MU, E))
    assert v.verdict == "proved" and "tight" in v.reason
    v = decide_gdp_to_dp(MU.symbol, E.symbol, d / 2, (MU, E))
    assert v.verdict == "refuted"
    at = {k: sp.Rational(x) for k, x in v.counterexample["at"].items()}
    mpmath.mp.dps = 40
    p, q = _rows(v.counterexample["table"])
    mu = mpmath.mpf(at["mu"].p) / at["mu"].q
    phi = lambda x: mpmath.ncdf(x)   # noqa: E731

    def profile(eps):
        return phi(-eps / mu + mu / 2) - mpmath.e ** eps * phi(-eps / mu - mu / 2)

    # μ-GDP ⇔ (ε, δ_μ(ε))-DP at every ε ≥ 0: checked on a grid, both directions
    for k in range(0, 200):
        eps = mpmath.mpf(k) / 20
        for x, y in ((p, q), (q, p)):
            assert sum(max(0, a - mpmath.e ** eps * b) for a, b in zip(x, y)) <= profile(eps)
    eps = mpmath.log(mpmath.mpf(at["E"].p) / at["E"].q)
    assert sum(max(0, a - mpmath.e ** eps * b) for a, b in zip(p, q)) > profile(eps) / 2


def _implies(*args):
    out = subprocess.run([sys.executable, "-m", "theorems.cli.main", "implies", *args, "--json"],
                         capture_output=True, text=True, timeout=600)
    return out.returncode, out.stdout, out.stderr


@pytest.mark.slow
def test_implies_names_the_conclusions_other_parameter_in_its_target():
    code, out, _ = _implies("zcdp", "approx-dp", "--target", "E=exp(rho+2*sqrt(rho*log(1/delta)))",
                            "--assume", "0<delta<=1")
    doc = json.loads(out)
    assert code == 0 and doc["verdict"] == "proved" and doc["range"] == "0 ≤ rho, 0 < delta ≤ 1"
    code, out, _ = _implies("gaussian-dp", "approx-dp", "--target",
                            "delta=Phi(-log(E)/mu+mu/2)-E*Phi(-log(E)/mu-mu/2)")
    doc = json.loads(out)
    assert code == 0 and doc["verdict"] == "proved" and doc["range"] == "0 < mu, 1 ≤ E"


def test_a_normal_cdf_in_a_target_the_general_check_cannot_read_is_an_input_error():
    code, _, err = _implies("pure-dp", "approx-dp", "--n", "1", "--target", "delta=Phi(-1)")
    assert code == 2 and "Phi" in err and "Traceback" not in err


def test_other_claims_are_left_to_the_general_check():
    from symbolic import PureDP, Sizes, implication_claim
    from symbolic.notions.families.dp import ApproxDP
    claim = implication_claim(PureDP(E.symbol), ApproxDP(E.symbol, 0), sizes=Sizes(1, 2, 2))
    assert decide_curve_claim(claim) is None
