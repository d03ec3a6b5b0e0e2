"""The 30-digit cross-checks of a density's level (symbolic.derive.continuous.checks) can fail: they compare
relatively, above a floor at the recomputation's rounding, with more digits for a tiny value, and the
quadrature finds a sign change of p − e^ε·q far in a tail. The Gaussian pair at σ = 10 (μ = 1/10) has
δ(ε = 1) ≈ 1.23·10⁻²⁵, reached where y < 1/2 − σ²ε = −99.5: the quadrature split only on [−40, 40] gave
1.3·10⁻⁶¹, and the absolute tolerance 10⁻⁸ called that "ok", as it would any value below 10⁻⁸."""
from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from symbolic.derive.continuous.checks import run_checks
from symbolic.model.continuous import gaussian

PAIRS = [((0,), (1,)), ((1,), (0,))]


def profile(mu, eps):
    """Dong, Roth, Su (2022), Cor. 2.13: δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), at 60 digits."""
    mpmath.mp.dps = 60
    mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e ** eps * mpmath.ncdf(-eps / mu - mu / 2)


def delta_of_gaussian(sigma, eps):
    """The derived closed form of the Gaussian pair's privacy profile, at σ and ε (exact)."""
    s, e = sp.Integer(sigma), sp.Integer(eps)
    return (1 + sp.erf(sp.sqrt(2) * (sp.Rational(1, 2) - s ** 2 * e) / (2 * s))) / 2 - sp.exp(e) * (
        1 + sp.erf(sp.sqrt(2) * (-s ** 2 * e - sp.Rational(1, 2)) / (2 * s))) / 2


def test_the_closed_form_is_the_published_profile():
    ref = profile("0.1", 1)
    assert abs(mpmath.mpf(sp.N(delta_of_gaussian(10, 1), 60)) / ref - 1) < mpmath.mpf("1e-40")


def test_the_quadrature_reaches_the_far_sign_change_and_agrees_relatively():
    m = gaussian(10)
    value = delta_of_gaussian(10, 1)
    (text, ok), = run_checks("approx-dp", {"eps": sp.Integer(1)}, m, PAIRS, None, value, {}, ())
    assert ok, text
    got = mpmath.mpf(text.split("quadrature gives ")[1].split(" ")[0])
    assert abs(got / profile("0.1", 1) - 1) < mpmath.mpf("1e-10"), text


def test_a_tiny_value_that_is_wrong_fails_the_check():
    m = gaussian(10)
    for wrong in (delta_of_gaussian(10, 1) * (1 + sp.Rational(1, 10 ** 6)), sp.Rational(1, 10 ** 61)):
        (text, ok), = run_checks("approx-dp", {"eps": sp.Integer(1)}, m, PAIRS, None, wrong, {}, ())
        assert not ok, text


@pytest.mark.slow   # 70 s: δ_μ(3) ≈ 10⁻¹⁹⁷ is recomputed at 212 digits
def test_the_gdp_check_of_a_small_mu_compares_each_delta_relatively():
    m = gaussian(10)
    (text, ok), = run_checks("gaussian-dp", {}, m, PAIRS, None, sp.Rational(1, 10), {}, ())
    assert ok, text
    (text, ok), = run_checks("gaussian-dp", {}, m, PAIRS, None, sp.Rational(1001, 10000), {}, ())
    assert not ok, text    # μ one part in 1000 too large: δ_μ(3) is then larger by about 3 %
