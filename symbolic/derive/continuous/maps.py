"""The tight ρ-zCDP and μ-GDP levels implied by ε-DP, through ε-DP's dominating pair.

Every ε-DP pair of output laws is a post-processing of binary randomized response with ratio E = e^ε
(Kairouz, Oh, Viswanath 2015), and Rényi divergences (hence zCDP) and trade-off functions (hence GDP)
obey the data-processing inequality. So the tight level of B implied by ε-DP, on any output space and
at every size, is B's level at that pair, which randomized response attains
(:mod:`symbolic.derive.continuous.finite_pairs`). At each ε asked the answer is a certified enclosure; the limit of
D_α/α as α → 1 (the pair's KL divergence, derived here by sympy as a formula in E) is printed as the
candidate closed form with whether it lies in every enclosure. It is not claimed proved for every ε:
that needs the supremum over α to sit at α → 1 for all ε, which this module does not prove.
The ε values asked by default are ``CURVE_MAP_EPS``.

>>> [str(e) for e in CURVE_MAP_EPS]
['1/10', '1/2', '1', '2', '5']
"""
from __future__ import annotations

import sympy as sp

from symbolic.core import certified as C
from symbolic.derive.continuous.claims import decide_dominated, rr_table
from symbolic.derive.continuous.finite_pairs import dp_dominating_pair, gdp_of_pair, kl_expr, zcdp_of_pair
from symbolic.derive.continuous.gdp_profile import gdp_to_dp_map
from symbolic.derive.continuous.values import E, CurveMap

CURVE_TARGETS = {"zcdp": "rho", "gaussian-dp": "mu"}
CURVE_MAP_EPS = (sp.Rational(1, 10), sp.Rational(1, 2), sp.Integer(1), sp.Integer(2), sp.Integer(5))
PROOF_RANGE = (2, 148)   # the range of E on which a candidate formula is proved (ε from about 0.69 to 5)


def curve_map(source: str, target: str, eps_values=CURVE_MAP_EPS) -> CurveMap:
    """The tight level of ``target`` (zcdp or gaussian-dp) implied by ``source`` at each ε.

    >>> m = curve_map("pure-dp", "zcdp", (sp.Integer(1),))
    >>> m.candidate, m.candidate_inside, m.rows[0][1] < sp.Rational(4621171572601, 10 ** 13) < m.rows[0][2] + 1
    ((E - 1)*log(E)/(E + 1), True, True)
    """
    param = CURVE_TARGETS.get(target, "level")
    if source == "gaussian-dp" and target == "approx-dp":
        return gdp_to_dp_map(eps_values)
    if source != "pure-dp" or target not in CURVE_TARGETS:
        return CurveMap(source, target, param, unknown=(
            f"{source} ⇒ {target} involves a transcendental notion; derive map computes it from ε-DP's dominating "
            f"pair (pure-dp ⇒ zcdp, pure-dp ⇒ gaussian-dp) and GDP's (gaussian-dp ⇒ approx-dp) so far; for finite "
            f"tables use `implies` or `eval`"))
    rows, inside = [], True
    p_sym, q_sym = dp_dominating_pair(E)
    candidate = sp.simplify(kl_expr(p_sym, q_sym)) if target == "zcdp" else None
    for eps in eps_values:
        p, q = dp_dominating_pair(sp.exp(eps))
        if target == "zcdp":
            got = zcdp_of_pair(p, q)
            lo, hi = got.sup.lower, got.sup.upper
            b = C.enclose(candidate.subs(E, sp.exp(eps)), 256)
            inside = inside and b.lower() >= lo and b.upper() <= hi
        else:
            lo, hi, _ = gdp_of_pair(p, q)
            if hi is None:
                return CurveMap(source, target, param, unknown=f"at ε = {eps} no upper end of μ was certified (the "
                                                               f"GDP check was undecided while μ doubled)")
        rows.append((eps, lo, hi))
    argument = ("every ε-DP pair of output laws is a post-processing of randomized response with ratio E "
                "(Kairouz, Oh, Viswanath 2015) and " + ("Rényi divergences satisfy the data-processing inequality, "
                                                        "so ρ = sup_α D_α(RR_E)/α" if target == "zcdp" else
                                                        "trade-off functions satisfy the data-processing "
                                                        "inequality, so μ is randomized response's")
                + "; each enclosure is certified (ball arithmetic)")
    proved_on, proof_text = "", ""
    if candidate is not None and inside:
        lo, hi = PROOF_RANGE
        verdict = decide_dominated("ZeroConcentratedDP", candidate, E, lo, hi)
        if verdict.verdict == "proved":
            proved_on, proof_text = f"{lo} ≤ E ≤ {hi} (ε from log {lo} to log {hi})", verdict.reason
    return CurveMap(source, target, param, tuple(rows), candidate, inside and candidate is not None, argument,
                    attained_by={"table": rr_table(E)}, proved_on=proved_on, proof_text=proof_text)
