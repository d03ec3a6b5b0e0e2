"""μ-GDP of a composition of finite tables: the least μ whose Gaussian trade-off lies below the composed pair's.

A k-fold composition's pair (p^⊗k, q^⊗k) is, for every divergence and trade-off function, the pair of its
count vectors (:mod:`symbolic.derive.loss_counts`): a vector c over the likelihood-ratio classes has
P(c) = multinomial(k; c)·Π p_i^{c_i} and Q(c) likewise, and a product of blocks is the product of their vectors.
That finite pair, exact, is handed to the certified GDP bisection of one pair of rows
(:func:`~symbolic.derive.continuous.finite_pairs.gdp_of_pair`, Dong, Roth, Su 2022, Cor. 2.13); the level is the
largest over the ordered neighbouring pairs. Checked beside it: the upper end is at most the GDP composition
bound √(Σ_j k_j·μ_j²) of the runs' own μ (Dong, Roth, Su 2022, Cor. 3.3), and the composed δ(ε), summed in 40
digits, is below δ_μ(ε) at the upper end for several ε.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import product as cartesian

import mpmath as mp
import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.tables import database_key
from symbolic.derive.composition import composed_pairs
from symbolic.derive.continuous.finite_pairs import gdp_of_pair
from symbolic.derive.continuous.values import CurveLevel
from symbolic.derive.loss_counts import count_vectors, multinomial, ratio_classes
from symbolic.model.operations import composition_from_json

MAX_VECTORS = 4096        # the composed pair's outputs handed to the GDP bisection
CHECKED_EPS = (0, sp.Rational(1, 2), 1, 2)


def composed_pair(blocks) -> tuple:
    """(P, Q): the exact laws of a product of blocks over its count vectors (None when an output of p has q = 0,
    so no μ works; ValueError past :data:`MAX_VECTORS`).

    >>> composed_pair([([sp.Rational(3, 4), sp.Rational(1, 4)], [sp.Rational(1, 4), sp.Rational(3, 4)], 2)])
    ([9/16, 3/8, 1/16], [1/16, 3/8, 9/16])
    """
    parts = []
    for p, q, k in blocks:
        classes = ratio_classes(p, q)
        if any(kind == "inf" for _, _, kind in classes):
            return None
        finite = [(a, b) for a, b, kind in classes if kind == "finite"]
        vectors = list(count_vectors(k, len(finite)))
        parts.append([(multinomial(k, c) * sp.Mul(*(a ** n for (a, _), n in zip(finite, c))),
                       multinomial(k, c) * sp.Mul(*(b ** n for (_, b), n in zip(finite, c)))) for c in vectors])
    size = 1
    for part in parts:
        size *= len(part)
    if size > MAX_VECTORS:
        raise ValueError(size)
    P, Q = [], []
    for combo in cartesian(*parts):
        P.append(sp.Mul(*(a for a, _ in combo)))
        Q.append(sp.Mul(*(b for _, b in combo)))
    return P, Q


def composition_gdp_level(doc, *, params=None, assumptions=()) -> CurveLevel:
    """μ of a composition of finite tables (``{"kind": "composition", "of": TABLE, "times": K}`` or a list),
    enclosed.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> d = composition_gdp_level({"kind": "composition", "of": rr, "times": 4})
    >>> d.ok, float(d.enclosure[0]) > 1.5
    (True, True)
    """
    comp = composition_from_json(doc)
    k, params = comp.times_at(dict(params or {}))
    if not isinstance(k, int):
        raise InvalidParameter(f"gaussian-dp of a composition is enclosed at a number of runs: give {k} a value "
                               f"with --param {k}=…")
    blocks_of, pairs, sm, intro = composed_pairs(replace(comp, times=k), params, assumptions)
    lo, hi, where, steps, checks, best = sp.Integer(0), sp.Integer(0), "", [intro], [], None
    for d, e in pairs:
        try:
            pair = composed_pair(blocks_of(d, e))
        except ValueError as size:
            raise InvalidParameter(f"the composed pair has {size} count vectors; gaussian-dp of a composition takes "
                                   f"at most {MAX_VECTORS}: give fewer runs") from None
        label = f"{database_key(d)} ~ {database_key(e)}"
        if pair is None:
            return CurveLevel("gaussian-dp", "mu", sp.oo, sp.oo, None, True, label,
                              (*steps, f"{label}: an output has probability 0 under one row only: no finite μ"),
                              (("an output of the first row has probability 0 under the second", True),),
                              dict(params), sm.assumptions(), None)
        p_lo, p_hi, _ = gdp_of_pair(*pair)
        if p_hi is None:
            return CurveLevel("gaussian-dp", "mu", None, None, None, False, "", tuple(steps), (), dict(params),
                              sm.assumptions(), None, unknown=f"{label}: no upper end of μ was certified")
        steps.append(f"{label}: {len(pair[0])} count vectors; μ in [{sp.Float(p_lo, 12)}, {sp.Float(p_hi, 12)}]")
        if best is None or p_hi > hi:
            where, best = label, pair
        lo, hi = max(lo, p_lo), max(hi, p_hi)
    steps.append("the largest over the ordered neighbouring pairs; each pair's μ enclosed by bisection with the "
                 "certified GDP covering of its count-vector laws")
    checks.append(_composition_bound_check(blocks_of, pairs, hi))
    checks.append(_profile_check(best, hi))
    return CurveLevel("gaussian-dp", "mu", None, None, (lo, hi), False, where, tuple(steps), tuple(checks),
                      dict(params), sm.assumptions(), None)


def _composition_bound_check(blocks_of, pairs, hi):
    """The upper end is at most √(Σ_j k_j·μ_j²), the GDP composition of the runs' own upper μ's."""
    worst = [sp.Integer(0)] * len(blocks_of(*pairs[0]))
    for d, e in pairs:
        for j, (p, q, _) in enumerate(blocks_of(d, e)):
            worst[j] = max(worst[j], gdp_of_pair(p, q)[1])
    bound = sp.sqrt(sum(k * m ** 2 for (_, _, k), m in zip(blocks_of(*pairs[0]), worst)))
    return (f"the upper end {sp.Float(hi, 12)} is at most √(Σ k_j·μ_j²) = {sp.N(bound, 12)}, the GDP composition "
            f"of the runs' own μ", bool(hi <= bound))


def _profile_check(pair, hi):
    """At the upper end μ, the composed pair's δ(ε), summed in 40 digits, is below δ_μ(ε) at several ε."""
    P, Q = pair
    with mp.workdps(40):
        mu = mp.mpf(sp.Rational(hi).p) / sp.Rational(hi).q
        ok = True
        for eps in CHECKED_EPS:
            e = mp.mpf(sp.Rational(eps).p) / sp.Rational(eps).q
            x = mp.e ** e
            got = sum(max(mp.mpf(0), mp.mpf(sp.N(a, 50)) - x * mp.mpf(sp.N(b, 50))) for a, b in zip(P, Q))
            want = mp.ncdf(-e / mu + mu / 2) - x * mp.ncdf(-e / mu - mu / 2)
            ok = ok and got <= want + mp.mpf(10) ** -30
    return (f"the composed δ(ε) at ε = {', '.join(map(str, CHECKED_EPS))} is at most δ_μ(ε) at μ = {sp.Float(hi, 12)} "
            f"(40-digit sums)", bool(ok))


__all__ = ["composed_pair", "composition_gdp_level"]
