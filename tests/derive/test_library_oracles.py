"""The DP libraries as oracles: autodp and dp-accounting answer the same questions numerically (floats,
no proof); dpcheck's certified values must agree with them wherever the libraries are exact, and the
enclosures must contain the libraries' numbers up to the libraries' own discretisation error."""
import pytest
import sympy as sp

from symbolic.derive.continuous.level import derive_curve_level
from symbolic.derive.continuous.finite_pairs import dp_dominating_pair, renyi_expr
from symbolic.model.continuous import gaussian, laplace

autodp = pytest.importorskip("autodp")
dp_accounting = pytest.importorskip("dp_accounting")
from autodp import rdp_bank  # noqa: E402
from dp_accounting import pld, rdp  # noqa: E402


def close(d, number, tol):
    lo, hi = d.enclosure
    return lo - sp.Rational(tol) <= sp.Rational(repr(float(number))) <= hi + sp.Rational(tol)


@pytest.mark.parametrize("alpha", ["3/2", "2", "5/2", "4"])
def test_laplace_renyi_agrees_with_both_libraries(alpha):
    d = derive_curve_level("renyi-dp", laplace(), params={"b": 1, "alpha": alpha})
    a = float(sp.Rational(alpha))
    acc = rdp.RdpAccountant(orders=[a])
    acc.compose(dp_accounting.LaplaceDpEvent(1.0))
    assert close(d, rdp_bank.RDP_laplace({"b": 1}, a), "1e-12") and close(d, float(acc._rdp[0]), "1e-12")


@pytest.mark.slow   # the PLD accountant takes 3 s; the Rényi oracles below stay in the default run
def test_privacy_profiles_agree_with_dp_accountings_pld():
    lap = derive_curve_level("approx-dp", laplace(), params={"b": 1, "eps": "1/2"})
    gau = derive_curve_level("approx-dp", gaussian(), params={"sigma": 1, "eps": 1})
    a = pld.PLDAccountant()
    a.compose(dp_accounting.LaplaceDpEvent(1.0))
    g = pld.PLDAccountant()
    g.compose(dp_accounting.GaussianDpEvent(1.0))
    # the PLD accountant discretises pessimistically: its δ is at or just above the exact value
    assert close(lap, a.get_delta(0.5), "1e-10") and close(gau, g.get_delta(1.0), "1e-10")
    assert sp.Rational(repr(float(a.get_delta(0.5)))) >= lap.enclosure[0] - sp.Rational("1e-15")


def test_the_renyi_level_of_pure_dp_is_autodps_randomized_response():
    for eps, alpha in [(1, 2), (sp.Rational(1, 2), 3), (2, sp.Rational(3, 2))]:
        p, q = dp_dominating_pair(sp.exp(eps))
        ours = sp.N(renyi_expr(p, q, sp.sympify(alpha)), 20)
        assert abs(float(ours) - rdp_bank.RDP_pureDP({"eps": float(eps)}, float(alpha))) < 1e-12
