"""Transcendental levels of one pair of finite output laws: ρ-zCDP, μ-GDP and Rényi DP at real orders.

For two exact rows p, q of a table (or the dominating pair of a notion) these are the tight levels:

- Rényi divergence of a real order α > 1 (Mironov 2017, Def. 3):
  D_α(p‖q) = log(Σ_o p_o^α q_o^(1−α))/(α − 1), ∞ when some p_o > 0 = q_o; exact, as a formula in α;
- ρ-zCDP (Bun, Steinke 2016): sup_{α>1} D_α/α, enclosed by :func:`symbolic.derive.continuous.orders.sup_over_orders`;
  its limit as α → 1 is the KL divergence Σ_o p_o log(p_o/q_o), derived here by sympy and stated beside the
  enclosure (it is the supremum when D_α/α decreases in α, as for randomized response);
- μ-GDP (Dong, Roth, Su 2022): the smallest μ with H_{e^ε}(p‖q) ≤ δ_μ(ε) for every ε ≥ 0, enclosed by
  bisection on μ, each step decided by the certified covering of
  :func:`symbolic.notions.continuum.gaussian_profile_bounded` (a step it cannot decide stops the
  bisection and the enclosure keeps its width).

Randomized response with ratio E, p = (E/(1+E), 1/(1+E)) and q = (1/(1+E), E/(1+E)), is the dominating
pair of ε-DP (Kairouz, Oh, Viswanath 2015): every ε-DP pair of laws is a post-processing of it, and each
divergence above satisfies the data-processing inequality, so its level at that pair is the tight level
implied by ε-DP, on any output space (:func:`dp_dominating_pair`).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.core.ops import exact_sign
from symbolic.derive.continuous.orders import OrderSup, sup_over_orders
from symbolic.notions.continuum import gaussian_profile_bounded

ALPHA = sp.Symbol("alpha", positive=True)
MU_STEPS = 60          # bisection steps on μ (each halves the enclosure)
MU_TOLERANCE = sp.Rational(1, 10 ** 12)
MU_CELLS = 400         # cells of ε per bisection step (near the tight μ a step is undecided and stops it)


def _zero(x) -> bool:
    x = sp.sympify(x)
    if x.free_symbols:
        return sp.simplify(x) == 0
    return exact_sign(x) == 0


def _support(p, q):
    """The pairs (p_o, q_o) of the outputs with p_o > 0, or None when one of them has q_o = 0 (then
    every divergence below is ∞)."""
    kept = []
    for po, qo in zip(p, q):
        if _zero(po):
            continue
        if _zero(qo):
            return None
        kept.append((po, qo))
    return kept


def renyi_expr(p, q, alpha=ALPHA):
    """D_α(p‖q) in α (or at a number α > 1); ∞ when some output has p > 0 = q."""
    kept = _support(p, q)
    return sp.oo if kept is None else sp.log(sp.Add(*[po ** alpha * qo ** (1 - alpha) for po, qo in kept])) / (alpha - 1)


def kl_expr(p, q):
    """KL(p‖q) = Σ_o p_o log(p_o/q_o) (∞ when some p_o > 0 = q_o), simplified when the entries are rational
    or symbolic; with irrational numbers (exp(-1)) the sum as it is: sympy's simplification of their logs
    can pass through powers of negative bases, which are not real numbers to enclose."""
    kept = _support(p, q)
    if kept is None:
        return sp.oo
    plain = sp.Add(*[po * sp.log(po / qo) for po, qo in kept])
    irrational = any(not x.is_Rational and not x.free_symbols for pair in kept for x in map(sp.sympify, pair))
    return plain if irrational else sp.simplify(plain)


def pure_level(p, q):
    """sup_o log(p_o/q_o) over outputs with p_o > 0 (∞ when one has q_o = 0)."""
    kept = _support(p, q)
    if kept is None:
        return sp.oo
    best = None
    for po, qo in kept:
        if best is None or exact_sign(po / qo - best) > 0:
            best = po / qo
    return sp.log(best) if best is not None else sp.Integer(0)


@dataclass(frozen=True)
class PairSup:
    """ρ for one pair: the enclosure, the KL limit (exact) and whether the enclosure contains it."""

    sup: OrderSup
    kl: sp.Expr
    kl_inside: bool


def zcdp_of_pair(p, q) -> PairSup | None:
    """sup_{α>1} D_α(p‖q)/α for numeric rows; None when D_α is infinite (no ρ)."""
    D = renyi_expr(p, q)
    if D == sp.oo:
        return None
    if all(_zero(a - b) for a, b in zip(p, q)):
        zero = OrderSup(sp.Integer(0), sp.Integer(0), "the laws are equal", 0, True)
        return PairSup(zero, sp.Integer(0), True)
    run = I.compile_enclosure(D, ALPHA)
    sup = sup_over_orders(lambda a: run(a, 256), pure_level(p, q))
    kl = kl_expr(p, q)
    b = C.enclose(kl, 256)
    return PairSup(sup, kl, b.lower() >= sup.lower and b.upper() <= sup.upper)


def gdp_of_pair(p, q, *, steps: int = MU_STEPS) -> tuple:
    """(lower, upper, work) enclosing the smallest μ ≥ 0 with the pair μ-GDP (both orders must be asked by
    the caller: GDP of a neighbour relation is the larger of the two). (∞, ∞) when no μ works (an output
    with p > 0 = q); upper None when no upper end was certified (a check undecided while μ doubled)."""
    if any(not _zero(po) and _zero(qo) for po, qo in zip(p, q)):
        return sp.oo, sp.oo, 0
    if all(_zero(a - b) for a, b in zip(p, q)):
        return sp.Integer(0), sp.Integer(0), 0
    lo, hi, work = sp.Integer(0), sp.Integer(1), 0
    while True:   # an upper end: double μ until the pair is μ-GDP
        d = gaussian_profile_bounded(p, q, hi)
        work += d.work
        if d.holds is True:
            break
        if d.holds is None or hi > 2 ** 20:
            return lo, None, work
        lo, hi = hi, 2 * hi
    for _ in range(steps):
        if hi - lo <= MU_TOLERANCE:
            break
        mid = (lo + hi) / 2
        d = gaussian_profile_bounded(p, q, mid, budget=MU_CELLS)
        work += d.work
        if d.holds is True:
            hi = mid
        elif d.holds is False:
            lo = mid
        else:
            break
    return lo, hi, work


def dp_dominating_pair(E):
    """Randomized response with ratio E: the dominating pair of ε-DP (E = e^ε)."""
    E = sp.sympify(E)
    return (E / (1 + E), 1 / (1 + E)), (1 / (1 + E), E / (1 + E))
