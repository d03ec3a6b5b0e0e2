"""The tight ρ-zCDP and μ-GDP levels implied by ε-DP, through ε-DP's dominating pair.

Every ε-DP pair of output laws is a post-processing of binary randomized response with ratio E = e^ε
(Kairouz, Oh, Viswanath 2015), and Rényi divergences (hence zCDP) and trade-off functions (hence GDP)
obey the data-processing inequality. So the tight level of B implied by ε-DP, on any output space and
at every size, is B's level at that pair, which randomized response attains
(:mod:`symbolic.derive.continuous.finite_pairs`). At each ε asked the answer is a certified enclosure; the limit of
D_α/α as α → 1 (the pair's KL divergence, derived here by sympy as a formula in E) is printed as the
candidate closed form with whether it lies in every enclosure, and for zCDP proved tight on ``PROOF_RANGE``
(ε from 0 to log 148 ≈ 5) by the two-point lemma of :mod:`symbolic.derive.continuous.cumulant`: the supremum
over α sits at α → 1 there. Beyond the range it is the candidate only.
The ε values asked by default are ``CURVE_MAP_EPS``.

>>> [str(e) for e in CURVE_MAP_EPS]
['1/10', '1/2', '1', '2', '5']
"""
from __future__ import annotations

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.errors import InvalidParameter, OutOfRange
from symbolic.core.exact import expr_text, parse_expr
from symbolic.derive.continuous.claims import decide_dominated, rr_table
from symbolic.derive.continuous.conversions import dp_to_gdp_level
from symbolic.derive.continuous.finite_pairs import dp_dominating_pair, gdp_of_pair, kl_expr, renyi_expr, zcdp_of_pair
from symbolic.derive.continuous.gdp_profile import gdp_to_dp_map
from symbolic.derive.continuous.values import E, CurveMap
from symbolic.model.magnitude import within_order

CURVE_TARGETS = {"zcdp": "rho", "gaussian-dp": "mu"}
CURVE_MAP_EPS = (sp.Rational(1, 10), sp.Rational(1, 2), sp.Integer(1), sp.Integer(2), sp.Integer(5))
PROOF_RANGE = (1, 148)   # the range of E on which a candidate formula is proved (ε from 0 to about 5)


SIMPLIFIED_ORDERS = 64   # a numeric order up to this gets sympy's simplified form of the moment
MAX_EPS = 90_000   # e^ε below 2^131072 (certified.MAX_EXPONENT_BITS), the magnitudes enclosed exactly


def _within_range(eps) -> None:
    """Refuse an ε whose E = e^ε is beyond the magnitudes dpcheck computes with (one line, naming ε)."""
    if C.lt(MAX_EPS, eps) is not False:
        raise OutOfRange(f"eps={expr_text(eps)}: E = e^ε would be beyond the magnitudes dpcheck computes with "
                         f"exactly (about 10^±39456); give ε ≤ {MAX_EPS}")


def curve_map(source: str, target: str, eps_values=CURVE_MAP_EPS, alpha=None) -> CurveMap:
    """The tight level of ``target`` (zcdp or gaussian-dp; renyi-dp at order ``alpha``, a number > 1 or the
    symbol α) implied by ``source`` at each ε.

    >>> m = curve_map("pure-dp", "zcdp", (sp.Integer(1),))
    >>> m.candidate, m.candidate_inside, m.rows[0][1] < sp.Rational(4621171572601, 10 ** 13) < m.rows[0][2] + 1
    ((E - 1)*log(E)/(E + 1), True, True)
    """
    param = CURVE_TARGETS.get(target, "level")
    for eps in eps_values:
        _within_range(eps)
    if source == "gaussian-dp" and target == "approx-dp":
        return gdp_to_dp_map(eps_values)
    if source == "pure-dp" and target == "renyi-dp" and alpha is not None:
        return _renyi_map(eps_values, _order(alpha))
    if source != "pure-dp" or target not in CURVE_TARGETS:
        return CurveMap(source, target, param, unknown=(
            f"{source} ⇒ {target} involves a transcendental notion; derive map computes it from ε-DP's dominating "
            f"pair (pure-dp ⇒ zcdp, pure-dp ⇒ gaussian-dp) and GDP's (gaussian-dp ⇒ approx-dp) so far; for finite "
            f"tables use `implies` or `eval`"))
    rows, inside = [], True
    p_sym, q_sym = dp_dominating_pair(E)
    candidate = sp.simplify(kl_expr(p_sym, q_sym)) if target == "zcdp" else dp_to_gdp_level()
    for eps in eps_values:
        p, q = dp_dominating_pair(sp.exp(eps))
        if target == "zcdp":
            try:
                got = zcdp_of_pair(p, q)
            except C.NotEnclosable as e:   # the orders' balls lost every digit (ε of several hundred)
                return CurveMap(source, target, param, unknown=f"at ε = {expr_text(eps)} the Rényi levels could not "
                                                               f"be enclosed at the working precision ({e})")
            lo, hi = got.sup.lower, got.sup.upper
            b = C.enclose(candidate.subs(E, sp.exp(eps)), 256)
            inside = inside and b.lower() >= lo and b.upper() <= hi
        else:
            lo, hi, _ = gdp_of_pair(p, q)
            if hi is None:
                return CurveMap(source, target, param, unknown=f"at ε = {eps} no upper end of μ was certified (the "
                                                               f"GDP check was undecided while μ doubled)")
            if candidate is not None:   # the closed form, checked against the independent covering's enclosure
                b = C.enclose(candidate.subs(E, sp.exp(eps)), 256)
                inside = inside and b.lower() >= lo and b.upper() <= hi
        rows.append((eps, lo, hi))
    argument = ("every ε-DP pair of output laws is a post-processing of randomized response with ratio E "
                "(Kairouz, Oh, Viswanath 2015) and " + ("Rényi divergences satisfy the data-processing inequality, "
                                                        "so ρ = sup_α D_α(RR_E)/α" if target == "zcdp" else
                                                        "trade-off functions satisfy the data-processing "
                                                        "inequality, so μ is randomized response's")
                + "; each enclosure is certified (ball arithmetic)")
    proved_on, proof_text, proved = "", "", False
    if candidate is not None and inside and target == "zcdp":
        lo, hi = PROOF_RANGE
        verdict = decide_dominated("ZeroConcentratedDP", candidate, E, lo, hi)
        if verdict.verdict == "proved":
            eps_lo = "0" if lo == 1 else f"log {lo}"
            proved_on, proof_text = f"{lo} ≤ E ≤ {hi} (ε from {eps_lo} to log {hi})", verdict.reason
    elif candidate is not None and inside:
        proved = True
        argument += ("; randomized response's trade-off is the two segments through its kink (1/(1+E), 1/(1+E)), "
                     "and G_μ is convex with G_μ(0) = 1, G_μ(1) = 0, so G_μ ≤ T(RR_E) exactly when G_μ(1/(1+E)) ≤ "
                     "1/(1+E): the least μ solves G_μ(1/(1+E)) = 1/(1+E) (sympy), for every E ≥ 1")
    return CurveMap(source, target, param, tuple(rows), candidate, inside and candidate is not None, argument,
                    attained_by={"table": rr_table(E)}, proved=proved, proved_on=proved_on, proof_text=proof_text)


ALPHA = sp.Symbol("alpha", positive=True)


def _order(alpha):
    """The order α of Rényi DP: a number above 1 (text or sympy) or the symbol α (the text ``alpha``)."""
    a = parse_expr(alpha, {"alpha": ALPHA}, what="alpha") if isinstance(alpha, str) else sp.sympify(alpha)
    if a.free_symbols - {ALPHA} or (a.is_number and not a > 1) or (not a.is_number and a != ALPHA):
        raise InvalidParameter(f"the Rényi order alpha={expr_text(a)} must be a number above 1, or alpha (the order "
                               f"kept a symbol)")
    within_order(a)
    return a


def _renyi_map(eps_values, alpha) -> CurveMap:
    """ε-DP ⇒ Rényi DP at order α: the tight level is D_α(RR_E) = log((E^α + E^(1−α))/(E + 1))/(α − 1), derived
    by sympy from randomized response (α a number > 1 or a symbol), so the level E_R = e^(D_α) is a closed
    form proved tight for every E ≥ 1 and every order by the reduction alone (data processing, attained by
    RR_E). Rows: certified values of E_R at each ε (at α = 2 when α is a symbol).

    >>> m = _renyi_map((sp.Integer(1),), ALPHA)
    >>> m.proved, sp.simplify(m.candidate.subs(ALPHA, 2) - (E**2 - E + 1)/E)
    (True, 0)
    """
    p, q = dp_dominating_pair(E)
    # Σ_o p_o^α q_o^(1−α), each term with its powers of E collected (E > 0), over one denominator
    moment = sp.together(sp.Add(*[sp.powsimp(sp.expand_power_base(po ** alpha * qo ** (1 - alpha), force=True),
                                              force=True) for po, qo in zip(p, q)]))
    if alpha.is_number and not C.lt(SIMPLIFIED_ORDERS, alpha):   # beyond, simplify expands E^α term by term
        moment = sp.simplify(moment)
    # the collected form against the divergence as written, at sample points (certified, 10^-40)
    for e_pt, a_pt in ((2, sp.Rational(3, 2)), (sp.Rational(7, 2), 3), (10, sp.Rational(11, 4))):
        a_pt = alpha if alpha.is_number else a_pt
        gap = C.enclose((sp.log(moment) / (alpha - 1) - renyi_expr(p, q, alpha)).subs({E: e_pt, ALPHA: a_pt}), 256)
        if not (gap.is_finite() and gap.upper() < sp.Rational(1, 10 ** 40) and gap.lower() > -sp.Rational(1, 10 ** 40)):
            return CurveMap("pure-dp", "renyi-dp", "E", unknown="the collected form of D_α(RR_E) does not match the "
                                                                 f"divergence at E = {e_pt}, α = {a_pt}")
    d_alpha = sp.log(moment) / (alpha - 1)
    level = moment ** (1 / (alpha - 1))
    at = alpha if alpha.is_number else sp.Integer(2)
    rows = []
    for eps in eps_values:
        b = C.enclose(level.subs({E: sp.exp(eps), ALPHA: at}), 256)
        rows.append((eps, b.lower(), b.upper()))
    argument = ("every ε-DP pair of output laws is a post-processing of randomized response with ratio E (Kairouz, "
                "Oh, Viswanath 2015) and Rényi divergences obey the data-processing inequality, so the tight order-α "
                f"level is randomized response's own: D_α = {expr_text(d_alpha)}, derived by sympy; the level is "
                "E_R = e^(D_α)")
    return CurveMap("pure-dp", "renyi-dp", "E", tuple(rows), level, True, argument,
                    attained_by={"table": rr_table(E)}, proved=True,
                    symbol_text="" if alpha.is_number else "values at α = 2; the formula keeps α")
