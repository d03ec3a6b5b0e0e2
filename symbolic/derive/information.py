"""Maximal leakage ⇒ mutual-information DP, decided by the inequality between the two quantities.

Maximal leakage L(X→Y) = log Σ_y max_x P(y|x) (Issa, Wagner, Kamath, IEEE-IT 2020, Thm 1) is Sibson's mutual
information of order ∞, and Sibson's information grows with its order, so L(X→Y) ≥ I(X;Y) for every prior on X
(ibid., Lemma 1). ε-MI-DP (Cuff, Yu, CCS 2016) bounds I(D_i; O | D_−i) for every prior: given D_−i = d, the
channel from D_i to O is a part of the mechanism's rows, whose Σ_y max is at most the whole mechanism's, so the
conditional information is at most log Σ_y max_d P(y|d) at every d and on average. Hence a mechanism with maximal
leakage at most log E is E-MI-DP: "MaximalLeakage(E) ⇒ MutualInformationDP(f(E))" holds at every size whenever
f(E) ≥ E on the range, which sympy decides. The inequality is checked on tables apart from this module (certified
evaluation of both notions).
"""
from __future__ import annotations

import sympy as sp

from symbolic.derive.continuous.claims import CurveVerdict
from symbolic.model.param_space import ParamRange, symbolic_sign

SCOPE = "every size (maximal leakage bounds the conditional mutual information for every prior)"


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


__all__ = ["decide_leakage_to_information"]
