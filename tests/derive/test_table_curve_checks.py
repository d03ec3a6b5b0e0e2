"""The cross-checks of a finite table's ρ-zCDP and μ-GDP enclosures (symbolic.derive.continuous.table_curves)
can fail for a tiny level: they compare relatively, with the working digits raised for it. Rows (1/2 ± t),
t = 10⁻¹¹, have ρ = KL = 2t·log((1+2t)/(1−2t)) ≈ 8t² = 8·10⁻²² (D_α/α decreases in α) and μ ≈ 2t·√(2π)
(δ_μ(0) = 2Φ(μ/2) − 1 ≈ μ/√(2π) must reach the total variation 2t); the absolute 10⁻²⁰ let an upper end of
half of ρ pass."""
from __future__ import annotations

import sympy as sp

from symbolic.derive.continuous.table_curves import _checks
from symbolic.model.symbolic_table import symbolic_mechanism_from_json

T = sp.Rational(1, 10 ** 11)
HALF = sp.Rational(1, 2)


def near_uniform():
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1],
           "rows": {"0": [str(HALF + T), str(HALF - T)], "1": [str(HALF - T), str(HALF + T)]}}
    m = symbolic_mechanism_from_json(doc).mechanism
    return {d: [dist[o] for o in m.outputs] for d, dist in m.rows}, m


def kl():
    return 2 * T * sp.log((1 + 2 * T) / (1 - 2 * T))


def test_a_zcdp_upper_end_below_a_tiny_rho_fails_and_one_just_above_passes():
    rows, m = near_uniform()
    (text, ok), = _checks("zcdp", rows, m, kl() / 4, kl() / 2)
    assert not ok, text
    (text, ok), = _checks("zcdp", rows, m, kl(), kl() * (1 + sp.Rational(1, 10 ** 6)))
    assert ok, text


def test_a_gdp_upper_end_is_checked_against_the_profile():
    rows, m = near_uniform()
    mu = 2 * T * sp.sqrt(2 * sp.pi)
    (text, ok), = _checks("gaussian-dp", rows, m, mu / 2, mu * sp.Rational(9, 10))
    assert not ok, text
    (text, ok), = _checks("gaussian-dp", rows, m, mu, mu * sp.Rational(11, 10))
    assert ok, text
