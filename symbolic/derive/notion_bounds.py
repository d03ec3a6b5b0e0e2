"""Implications decided by an inequality between the two notions' quantities, at every size.

**Maximal leakage ⇒ mutual-information DP.**

Maximal leakage L(X→Y) = log Σ_y max_x P(y|x) (Issa, Wagner, Kamath, IEEE-IT 2020, Thm 1) is Sibson's mutual
information of order ∞, and Sibson's information grows with its order, so L(X→Y) ≥ I(X;Y) for every prior on X
(ibid., Lemma 1). ε-MI-DP (Cuff, Yu, CCS 2016) bounds I(D_i; O | D_−i) for every prior: given D_−i = d, the
channel from D_i to O is a part of the mechanism's rows, whose Σ_y max is at most the whole mechanism's, so the
conditional information is at most log Σ_y max_d P(y|d) at every d and on average. Hence a mechanism with maximal
leakage at most log E is E-MI-DP: "MaximalLeakage(E) ⇒ MutualInformationDP(f(E))" holds at every size whenever
f(E) ≥ E on the range, which sympy decides. The inequality is checked on tables apart from this module (certified
evaluation of both notions).

**ρ-zCDP ⇒ Rényi DP of order 2.** ρ-zCDP bounds D_α by αρ for every α > 1 (Bun, Steinke, TCC 2016, Def. 1.1),
so at α = 2 it bounds Σ p²/q = e^{D_2} by e^{2ρ}: "zCDP(ρ) ⇒ RenyiDP[α=2](f(ρ))" holds when f(ρ) ≥ e^{2ρ}.

**μ-GDP ⇒ ρ-zCDP.** A μ-GDP pair of distributions is a post-processing of the Gaussian shift pair N(0, 1),
N(μ, 1) (Dong, Roth, Su, JRSS-B 2022, the trade-off function and Blackwell's theorem, §2), whose D_α is αμ²/2, and
Rényi divergences do not grow under post-processing: "GDP(μ) ⇒ zCDP(f(μ))" holds when f(μ) ≥ μ²/2.

Each is proved when sympy shows the inequality on the claim's range, and left undecided otherwise (not refuted
here: the bounds are attained only in the limit of continuous mechanisms).
"""
from __future__ import annotations

import sympy as sp

from symbolic.derive.continuous.claims import CurveVerdict
from symbolic.model.param_space import ParamRange, symbolic_sign

SCOPE = "every size (maximal leakage bounds the conditional mutual information for every prior)"
EVERY_SIZE = "every output space and every size (a bound on every pair of distributions)"


def decide_by_bounds(claim):
    """(CurveVerdict, statement, range text) for a one-part claim between notions this module relates (maximal
    leakage ⇒ MI-DP, zCDP ⇒ Rényi DP of order 2, μ-GDP ⇒ zCDP) with one parameter, when it is proved; None
    otherwise."""
    part = claim.parts[0] if len(claim.parts) == 1 else None
    if part is None or len(part.hypotheses) != 1 or len(claim.params) != 1:
        return None
    hyp, concl = part.hypotheses[0], part.conclusion
    pair = (hyp.notion.name, concl.notion.name)
    p = claim.params[0]
    if [str(v) for v in hyp.param_values().values()] != [p.name] or len(concl.param_values()) != 1:
        return None
    f = next(iter(concl.param_values().values()))
    lo, hi = (p.value, p.value) if p.value is not None else (p.lower, p.upper)
    bound = {("MaximalLeakage", "MutualInformationDP"): lambda x: x,
             ("ZeroConcentratedDP", "RenyiDP[alpha=2]"): lambda x: sp.exp(2 * x),
             ("GaussianDP", "ZeroConcentratedDP"): lambda x: x ** 2 / 2}.get(pair)
    if bound is None:
        return None
    if pair[0] == "MaximalLeakage":
        verdict = decide_leakage_to_information(f, p.symbol, 1 if lo is None else lo, hi)
    else:
        verdict = _at_least(f, bound, p.symbol, 0 if lo is None else lo, hi, pair)
    statement = f"{hyp} ⇒ {concl}"
    return None if verdict is None else (verdict, statement, ", ".join(q.range_text() for q in claim.params))


def _at_least(f, bound, x, lo, hi, pair) -> CurveVerdict | None:
    rng = ParamRange(x.name, sp.sympify(lo), False, None if hi is None else sp.sympify(hi), False)
    y = rng.symbol
    gap = sp.simplify(sp.sympify(f).xreplace({x: y}) - bound(y))
    if gap.free_symbols - {y} or not (gap == 0 or symbolic_sign(gap, (rng,)) in (1, "≥", 0)):
        return None
    why = {"ZeroConcentratedDP": "ρ-zCDP bounds D_2 by 2ρ, so Σ p²/q by e^(2ρ) (Bun, Steinke 2016, Def. 1.1)",
           "GaussianDP": "μ-GDP pairs are post-processings of the Gaussian shift pair, whose D_α is αμ²/2 (Dong, "
                         "Roth, Su 2022)"}[pair[0]]
    return CurveVerdict("proved", f"{f} ≥ {bound(x)} on the range (sympy): {why}", scope=EVERY_SIZE,
                        method="a bound between the two notions' divergences")


def decide_leakage_to_information(f, E: sp.Symbol, lo, hi) -> CurveVerdict | None:
    """MaximalLeakage(E) ⇒ MutualInformationDP(f(E)) for every E in [lo, hi] (hi None: unbounded): proved when
    sympy shows f − E ≥ 0 there; None otherwise (not refuted here: a smaller f may still hold).

    >>> E = sp.Symbol("E", positive=True)
    >>> decide_leakage_to_information(E, E, 1, None).verdict
    'proved'
    >>> decide_leakage_to_information(sp.sqrt(E), E, 1, None) is None
    True
    """
    e_pos = sp.Symbol(E.name, positive=True)
    diff = sp.sympify(f).xreplace({E: e_pos}) - e_pos
    rng = ParamRange(e_pos.name, sp.sympify(lo), False, None if hi is None else sp.sympify(hi), False)
    diff = diff.xreplace({e_pos: rng.symbol})
    if sp.simplify(diff) == 0 or symbolic_sign(sp.simplify(diff), (rng,)) in (1, "≥", 0):
        return CurveVerdict("proved", f"{f} ≥ E on the range (sympy), and mutual information is at most maximal "
                                      f"leakage for every prior (Issa, Wagner, Kamath 2020, Lemma 1)", scope=SCOPE,
                            method="the inequality I(X;Y) ≤ L(X→Y)")
    return None


__all__ = ["decide_by_bounds", "decide_leakage_to_information"]
