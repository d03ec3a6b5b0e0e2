"""The tight δ(ε) implied by μ-GDP, derived from GDP's dominating pair and compared with the published form.

A pair of laws is μ-GDP when its trade-off function is at least G_μ, the trade-off of N(0,1) against
N(μ,1) (Dong, Roth, Su 2022, Def. 2.5); by Blackwell's theorem that holds exactly when the pair is a
post-processing of the Gaussian pair, and (ε, δ)-DP is closed under post-processing. So the tight δ(ε)
implied by μ-GDP, on every output space and at every size, is the Gaussian pair's privacy profile,
attained by it (and by its two-output threshold test at the worst event {y > t}). Here that profile is
derived by :mod:`symbolic.derive.continuous.pair` from the two densities (μ and ε symbols), and set beside
the closed form the paper states (Dong, Roth, Su 2022, Cor. 2.13):
Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2); equality is proved by sympy's simplification of the difference.
"""
from __future__ import annotations

import functools

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.certified import normal_cdf_expr
from symbolic.derive.continuous.pair import LawPair, by_cases, hockey
from symbolic.derive.continuous.values import CurveMap
from symbolic.model.continuous import output_symbol, validated
from symbolic.model.param_space import ParamRange
from symbolic.model.real_line import Signs

MU = ParamRange("mu", sp.Integer(0), True)
EPS = ParamRange("eps", sp.Integer(0), False)


def published_profile(mu, eps):
    """Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), Φ(x) = erfc(−x/√2)/2."""
    return normal_cdf_expr(-eps / mu + mu / 2) - sp.exp(eps) * normal_cdf_expr(-eps / mu - mu / 2)


@functools.lru_cache(maxsize=None)
def gaussian_pair_profile():
    """(δ(ε, μ) derived from the densities of N(0,1) and N(μ,1), the published form, proved equal?)."""
    y = output_symbol("reals")
    mu, eps = MU.symbol, EPS.symbol
    laws = {(0,): sp.exp(-y ** 2 / 2) / sp.sqrt(2 * sp.pi), (1,): sp.exp(-(y - mu) ** 2 / 2) / sp.sqrt(2 * sp.pi)}
    m = validated("gaussian-pair", "reals", 1, (0, 1), (MU,), laws)
    signs = Signs((MU, EPS))
    pair = LawPair(m.law((0,)), m.law((1,)), m.y, False, ((0,), (1,)))
    cases = by_cases(lambda s: hockey(pair, sp.exp(eps), s), signs)
    if len(cases) != 1:
        return None, published_profile(mu, eps), False
    derived = cases[0][1]
    published = published_profile(mu, eps)
    same = sp.simplify(sp.expand(derived - published).rewrite(sp.erfc)) == 0
    return derived, published, same


def gdp_to_dp_map(eps_values, mu_value=1):
    """The CurveMap of μ-GDP ⇒ (ε, δ(ε))-DP at μ = ``mu_value`` and the ε asked (see the module text)."""
    derived, published, same = gaussian_pair_profile()
    if derived is None:
        return CurveMap("gaussian-dp", "approx-dp", "delta", unknown="the Gaussian pair's profile needs a case split "
                                                                      "this derivation does not make")
    mu, eps = MU.symbol, EPS.symbol
    rows = []
    for e in eps_values:
        b = C.enclose(derived.xreplace({mu: sp.sympify(mu_value), eps: sp.sympify(e)}), 256)
        rows.append((e, b.lower(), b.upper()))
    argument = ("μ-GDP pairs are exactly the post-processings of (N(0,1), N(μ,1)) (Blackwell; Dong, Roth, Su 2022) "
                "and (ε, δ)-DP is closed under post-processing, so δ(ε) is the Gaussian pair's profile, derived "
                "from its densities; " + ("it equals the published Φ(−ε/μ+μ/2) − e^ε·Φ(−ε/μ−μ/2) exactly (sympy)"
                                          if same else "its equality with the published form is not shown"))
    return CurveMap("gaussian-dp", "approx-dp", "delta", tuple(rows), derived, same, argument,
                    attained_by={"table": "N(0,1) against N(μ,1), or its threshold test {y > t}"},
                    proved=same, symbol_text=f"values at μ = {mu_value}")
