"""Rényi divergences bounded by the curvature of the cumulant function, for every order at once.

For two laws P, Q on the same finite support let L = log(P/Q) (the log-likelihood ratio) and
c(α) = log Σ_o p_o^α q_o^(1−α) = log E_Q[e^(αL)], so that D_α(P‖Q) = c(α)/(α − 1) (Rényi 1961; Mironov 2017,
Def. 3). c is the cumulant function of L under Q: c(0) = 0 (the same support), c(1) = 0 (Σ p = 1),
c′(1) = E_P[L] = KL(P‖Q), and c″(α) is the variance of L under the tilted law π_α ∝ p^α q^(1−α).

**Width lemma.** If L takes values in an interval of width w, every variance of L is at most w²/4
(Popoviciu's inequality), so g(α) = (w²/8)·α(α − 1) − c(α) is convex with g(0) = g(1) = 0, hence g ≥ 0 for
α ≥ 1: **D_α ≤ α·w²/8 for every α > 1.** So any ρ(E) ≥ w(E)²/8 is a zCDP level of every such pair.

**Two-point lemma.** For a pair on two outputs with L₁ > L₂ (w = L₁ − L₂), π_α puts weight π(α) on output 1
with π/(1 − π) = (q₁/q₂)·e^(αw), increasing in α, and π(1) = p₁. So c″(α) = w²·π(α)(1 − π(α)) is at most
V = w²·p₁p₂ for α ≥ 1 when p₁ ≥ 1/2 (x(1 − x) falls beyond 1/2), and V = w²/4 otherwise. With
h(α) = ρ·α(α − 1) − c(α): h(1) = 0, h′(1) = ρ − KL and h″ ≥ 2ρ − V; so **ρ ≥ KL and 2ρ ≥ V give
D_α ≤ ρ·α for every α > 1**, and when ρ = KL no smaller ρ holds (D_α/α → KL as α → 1): the level is tight.

Each condition is an inequality in one variable E over a range whose left end may be E = 1 (ε = 0), where
both sides vanish: it is decided by sympy, or by the certified Taylor step of
:func:`symbolic.core.intervals.nonnegative_from_zero`, never by sampling.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.intervals import nonnegative_from_zero
from symbolic.model.param_space import ParamRange, sign_on


@dataclass(frozen=True)
class CumulantProof:
    """A proof that D_α ≤ ρ·α for every α > 1 and every E in the range: ``reason`` says which lemma and which
    inequalities; ``cells``: the coverings' work; ``tight``: ρ is the pair's KL divergence (no smaller level)."""

    reason: str
    cells: int = 0
    tight: bool = False


def nonnegative(g, E: sp.Symbol, lo, hi):
    """(True, cells) when g(E) ≥ 0 for every E in [lo, hi] (``hi`` None: no upper end) is shown by the certified
    Taylor step at ``lo`` or by sympy; (False, cells) when it certainly fails somewhere; (None, cells) otherwise."""
    cells = 0
    if hi is not None:      # the certified Taylor step first (it settles g = 0 too): cheaper than sympy's sign here
        ok, cells, _ = nonnegative_from_zero(g, E, lo, hi)
        if ok is not None:
            return ok, cells
    elif sp.simplify(g) == 0:   # the simplified form only decides this: its logs of powers evaluate slowly
        return True, 0
    rng = ParamRange(E.name, sp.Rational(lo), False, None if hi is None else sp.Rational(hi), False)
    if sign_on(g.xreplace({E: rng.symbol}), (rng,)) in (1, 0, "≥"):
        return True, cells
    return None, cells


def _log(x):
    return sp.expand_log(sp.log(x), force=True)


def width_lemma(rho, width, E: sp.Symbol, lo, hi) -> CumulantProof | None:
    """D_α ≤ ρ·α for every α > 1 on every pair whose log-likelihood ratio spans at most ``width`` (a formula
    in E), when ρ(E) ≥ width²/8 on the range; None when that inequality is not shown."""
    ok, cells = nonnegative(rho - width ** 2 / 8, E, lo, hi)
    if ok is not True:
        return None
    return CumulantProof(f"the log-likelihood ratio spans at most w = {width}, so every variance of it is at most "
                         f"w²/4 (Popoviciu) and D_α ≤ α·w²/8 = α·{sp.simplify(width ** 2 / 8)} ≤ α·ρ for every α > 1 "
                         f"(the cumulant c(α) = log Σ p^α q^(1−α) has c(0) = c(1) = 0 and c″ ≤ w²/4); "
                         f"ρ ≥ w²/8 on the range" + (f" ({cells} cells)" if cells else " (sympy)"), cells)


def two_point_lemma(rho, p, q, E: sp.Symbol, lo, hi) -> CumulantProof | None:
    """D_α(p‖q) ≤ ρ·α and D_α(q‖p) ≤ ρ·α for every α > 1 and E in the range, for a pair of laws on two outputs
    (formulas in E, positive on the range), by the two-point lemma; None when a condition is not shown."""
    if len(p) != 2 or len(q) != 2:
        return None
    symmetric = sp.simplify(p[0] - q[1]) == 0 and sp.simplify(p[1] - q[0]) == 0   # q is p with outputs swapped
    directions = [(p, q)] if symmetric else [(p, q), (q, p)]
    cells, tight, texts = 0, True, []
    for a, b in directions:
        logs = [_log(a[i]) - _log(b[i]) for i in range(2)]
        ok, spent = nonnegative(logs[0] - logs[1], E, lo, hi)
        cells += spent
        first = 0 if ok is True else 1
        if first == 1:
            ok, spent = nonnegative(logs[1] - logs[0], E, lo, hi)
            cells += spent
            if ok is not True:
                return None
        w, top = logs[first] - logs[1 - first], a[first]
        ok, spent = nonnegative(top - sp.Rational(1, 2), E, lo, hi)
        cells += spent
        variance = w ** 2 * top * (1 - top) if ok is True else w ** 2 / 4
        kl = sp.Add(*[ai * (_log(ai) - _log(bi)) for ai, bi in zip(a, b)])   # logs apart: narrow balls
        for need in (rho - kl, 2 * rho - variance):
            ok, spent = nonnegative(need, E, lo, hi)
            cells += spent
            if ok is not True:
                return None
        exact = sp.simplify(rho - kl) == 0
        tight = tight and exact
        texts.append(f"KL = {sp.simplify(kl)}" + (" = ρ" if exact else " ≤ ρ") + f" and c″ ≤ {sp.simplify(variance)} ≤ 2ρ")
    lead = "tight: ρ is the KL divergence, the limit of D_α/α as α → 1, so no smaller ρ holds; " if tight else ""
    return CumulantProof(lead + "on two outputs the tilted law's weight on the larger ratio grows with α from its "
                         "value at α = 1, so c″(α) (the variance of the log-likelihood ratio under it) stays at or "
                         "below its bound for α ≥ 1; h(α) = ρ·α(α−1) − c(α) has h(1) = 0, h′(1) = ρ − KL ≥ 0 and "
                         "h″ ≥ 0, so D_α ≤ ρ·α for every α > 1: " + "; ".join(texts)
                         + (f" on the range ({cells} cells)" if cells else " on the range (sympy)"), cells, tight)
