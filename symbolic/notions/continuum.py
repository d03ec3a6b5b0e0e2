"""Certified decisions of conditions quantified over a continuum, on exact output laws.

Three conditions of the transcendental notions (:mod:`symbolic.notions.zoo.divergence`), each decided
for two (or k) exact rows of a mechanism table by certified interval arithmetic
(:mod:`symbolic.core.certified`). Each returns a :class:`Decision`: ``holds`` True or False with a
certificate in words, or None (undecided within the cell or iteration budget: a tie or tangency the
intervals cannot separate). Floats never decide: in :func:`capacity_at_most` they only propose a
prior, whose bounds are then certified.

- :func:`renyi_bounded` — ∀ α > 1: D_α(p‖q) ≤ ρ·α (ρ-zCDP for one ordered pair);
- :func:`gaussian_profile_bounded` — ∀ ε ≥ 0: H_{e^ε}(p‖q) ≤ δ_μ(ε) (μ-GDP for one ordered pair);
- :func:`capacity_at_most` — the capacity of a channel (rows W_u) is ≤ a bound (nats).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.ops import exact_sign

CELL_BUDGET = 4000       # cells examined per ordered pair before answering "undecided"
BASE_BITS = 96           # working precision of a cell, raised by the bits its width and distance to α=1 need
BA_ITERATIONS = 3000     # Blahut–Arimoto steps before a capacity comparison is "undecided"
FINEST_CELL_BITS = 80    # a cell narrower than 2^-80 that is neither proved nor refuted: a tangency, undecided


@dataclass(frozen=True)
class Decision:
    """``holds``: True, False or None (undecided); ``reason``: why it fails or is undecided;
    ``work``: cells or iterations used."""

    holds: bool | None
    reason: str | None = None
    work: int = 0


def _zero(x) -> bool:
    return exact_sign(x) == 0


def _neglog2(w) -> int:
    """About −log2(w) for a positive rational w, at least 0 (the bits a width w costs)."""
    w = sp.Rational(w)
    return max(0, int(w.q).bit_length() - int(w.p).bit_length())


def _approx(x) -> str:
    """A short decimal for a message (never used to decide anything)."""
    return str(sp.N(x, 8))


def _max_exact(values):
    best = values[0]
    for v in values[1:]:
        if exact_sign(v - best) > 0:
            best = v
    return best


def _rational_above(x) -> sp.Rational:
    """A rational ≥ the exact number x (x itself when rational, else a multiple of 1/1024)."""
    x = sp.sympify(x)
    if x.is_Rational:
        return x
    with C.precision(64):
        return sp.ceiling(C.enclose(x, 64).upper() * 1024) / 1024


# --- Rényi divergence and zCDP -------------------------------------------------------------------

def renyi_ball(support, alpha) -> C.Ball:
    """D_α(p‖q) = log(Σ_o p_o·(p_o/q_o)^(α−1)) / (α − 1) at the working precision, for a rational
    α > 1; ``support`` lists (p_o, p_o/q_o) over the outputs with p_o > 0 (all with q_o > 0)."""
    a1 = alpha - 1
    s = C.ball(0)
    for po, ratio in support:
        s = s + C.ball(po) * C.exp(C.log(ratio) * a1)
    return s.log() / a1


def renyi_bounded(p, q, rho, *, budget: int = CELL_BUDGET) -> Decision:
    """Is D_α(p‖q) ≤ ρ·α for every order α > 1? (Bun & Steinke 2016, Def. 1.1, one ordered pair.)

    The method, and why it is sound:

    1. An output with p_o > 0 = q_o makes Σ_o p_o^α q_o^(1−α) infinite for every α > 1: fails.
    2. p = q: every D_α is 0: holds. ρ = 0 and p ≠ q: D_α > 0 = ρα (Rényi divergences of distinct
       laws are positive): fails.
    3. D_α = log M_{α−1} where M_s = (E_p[L^s])^(1/s) is the power mean of order s of the likelihood
       ratio L = p/q under p; power means are nondecreasing in s, so **D_α is nondecreasing in α**
       (also van Erven & Harremoës 2014, Thm. 3). And E_p[L^s] ≤ r^s for r = max_o p_o/q_o, so
       **D_α ≤ log r** for every α. Hence every α ≥ log(r)/ρ passes (D_α ≤ log r ≤ ρα), and only
       (1, A] needs checking, A a rational ≥ log(r)/ρ.
    4. (1, A] is covered by cells [a, b]: on a cell, D_α − ρα ≤ D_b − ρa (monotone D), so a
       certified D_b ≤ ρa proves the cell; a certified D_b > ρb refutes at α = b; otherwise the
       cell is halved. More than ``budget`` cells: undecided (a tangency the intervals cannot see).
    """
    for j, (po, qo) in enumerate(zip(p, q)):
        if not _zero(po) and _zero(qo):
            return Decision(False, f"output #{j + 1} has probability {po} > 0 under the first law and 0 under the "
                                   f"second, so D_α = ∞ > ρα for every α > 1")
    if all(_zero(a - b) for a, b in zip(p, q)):
        return Decision(True)
    if _zero(rho):
        return Decision(False, "the two laws differ, so D_α > 0 = ρα for every α > 1")
    support = [(po, po / qo) for po, qo in zip(p, q) if not _zero(po)]
    r = _max_exact([ratio for _, ratio in support])
    with C.precision(64):
        top = C.log(r) / C.ball(rho)
        if not top.is_finite():
            return Decision(None, f"log(max p/q)/ρ = log({r})/{rho} is too large to bound")
        A = sp.ceiling(top.upper())     # a whole number ≥ log(r)/ρ: the cells then have short dyadic ends
    if A <= 1:
        return Decision(True)
    cells, stack = 0, [(sp.Integer(1), A)]
    while stack:
        a, b = stack.pop()
        cells += 1
        if cells > budget or _neglog2(b - a) > FINEST_CELL_BITS:
            return Decision(None, f"D_α meets ρα too closely near α ≈ {_approx(a)} for certified intervals to "
                                  f"separate them (checked {cells} cells of α in (1, {A}])", cells)
        with C.precision(BASE_BITS + _neglog2(b - 1) + _neglog2(b - a)):
            d, rb = renyi_ball(support, b), C.ball(rho)
            if C.lt(rb * b, d) is True:
                return Decision(False, f"at α = {b}: D_α ∈ {d.text()} > ρα = {(rb * b).text(10)}", cells)
            if C.le(d, rb * a) is True:
                continue
        m = (a + b) / 2
        stack += [(m, b), (a, m)]
    return Decision(True, None, cells)


# --- hockey-stick divergence and Gaussian DP -------------------------------------------------------

def hockey(p, q, t):
    """H_t(p‖q) = Σ_o max(0, p_o − t·q_o), exact."""
    total = sp.Integer(0)
    for po, qo in zip(p, q):
        x = po - t * qo
        if exact_sign(x) > 0:
            total += x
    return total


def gaussian_delta(mu, eps) -> C.Ball:
    """δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) at the working precision (μ > 0): the smallest δ
    with N(μ,1) and N(0,1) (ε, δ)-indistinguishable (Dong, Roth, Su 2022, Cor. 2.13)."""
    m, e = C.ball(mu), C.ball(eps)
    return C.normal_cdf(-e / m + m / 2) - e.exp() * C.normal_cdf(-e / m - m / 2)


def gaussian_profile_bounded(p, q, mu, *, budget: int = CELL_BUDGET) -> Decision:
    """Is H_{e^ε}(p‖q) ≤ δ_μ(ε) for every ε ≥ 0? With both orders of each neighbour pair this is
    μ-GDP (Dong, Roth, Su 2022, Cor. 2.13: μ-GDP ⇔ (ε, δ_μ(ε))-DP for all ε ≥ 0).

    Why the covering is sound: in t = e^ε ∈ [1, ∞), H_t = Σ_o max(0, p_o − t·q_o) is nonincreasing
    (each term is), and δ_μ is strictly decreasing in ε: its derivative is −e^ε·Φ(−ε/μ − μ/2) < 0,
    because e^ε·φ(ε/μ + μ/2) = φ(ε/μ − μ/2). So on a cell t ∈ [t_a, t_b], H_t − δ_μ(log t) ≤
    H_{t_a} − δ_μ(log t_b): a certified H_{t_a} ≤ δ_μ(log t_b) proves the cell, a certified
    H_{t_b} > δ_μ(log t_b) refutes. For t ≥ T = max(1, max_{q_o>0} p_o/q_o), H_t = m₀ = Σ_{q_o=0} p_o:
    if m₀ = 0 those t pass (δ_μ > 0), if m₀ > 0 the condition fails because δ_μ(ε) ≤ Φ(μ/2 − ε/μ) → 0,
    and a certified δ_μ(ε) < m₀ at ε = 1, 2, 4, ... shows where. μ = 0: G_0(α) = 1 − α, which
    holds exactly when p = q.
    """
    equal = all(_zero(a - b) for a, b in zip(p, q))
    if equal:
        return Decision(True)
    if _zero(mu):
        return Decision(False, "0-GDP needs equal output laws (trade-off 1 − α), and these differ")
    m0 = sum((po for po, qo in zip(p, q) if _zero(qo)), sp.Integer(0))
    if exact_sign(m0) > 0:
        for k in range(64):
            eps = sp.Integer(2) ** k
            with C.precision(BASE_BITS + 2 * k):
                d = gaussian_delta(mu, eps)
                if C.lt(d, m0) is True:
                    return Decision(False, f"the outputs the second law never gives carry probability {m0} under "
                                           f"the first, so at ε = {eps}: H_(e^ε) ≥ {m0} > δ_μ(ε) ∈ {d.text()}", k + 1)
        return Decision(None, f"δ_μ(ε) did not fall below {m0} by ε = 2^63", 64)
    ratios = [po / qo for po, qo in zip(p, q) if not _zero(qo) and not _zero(po)]
    T = _rational_above(_max_exact(ratios)) if ratios else sp.Integer(1)
    if T <= 1:
        return Decision(True)
    cells, stack = 0, [(sp.Integer(1), T)]
    while stack:
        ta, tb = stack.pop()
        cells += 1
        if cells > budget or _neglog2(tb - ta) > FINEST_CELL_BITS:
            return Decision(None, f"the hockey-stick divergence meets δ_μ too closely near e^ε ≈ {_approx(ta)} for "
                                  f"certified intervals to separate them (checked {cells} cells of e^ε in [1, {_approx(T)}])",
                            cells)
        h_b = hockey(p, q, tb)
        with C.precision(BASE_BITS + _neglog2(tb - ta)):
            d = gaussian_delta(mu, C.log(tb))
            if C.lt(d, h_b) is True:
                return Decision(False, f"at ε = log({_approx(tb)}): Σ_o max(0, p − e^ε·q) = {_approx(h_b)} > δ_μ(ε) ∈ {d.text()}",
                                cells)
            if C.le(hockey(p, q, ta), d) is True:
                continue
        m = (ta + tb) / 2
        stack += [(m, tb), (ta, m)]
    return Decision(True, None, cells)


# --- channel capacity and mutual-information DP ---------------------------------------------------

def _output_law(W, prior):
    return [sum((pi * row[y] for pi, row in zip(prior, W)), sp.Integer(0)) for y in range(len(W[0]))]


def _divergence_ball(row, q) -> C.Ball:
    """D(row‖q) = Σ_y row_y·log(row_y/q_y) in nats (q_y > 0 wherever row_y > 0)."""
    s = C.ball(0)
    for w, qy in zip(row, q):
        if not _zero(w):
            s = s + C.ball(w) * C.log(w / qy)
    return s


def _divergence_expr(row, q):
    return sp.Add(*[w * sp.log(w / qy) for w, qy in zip(row, q) if not _zero(w)])


def _rational_prior(weights) -> list:
    """A prior with positive rational entries near the float ``weights``, summing to exactly 1."""
    scale = 1 << 48
    ints = [max(1, round(w * scale)) if math.isfinite(w) else 1 for w in weights]
    total = sum(ints)
    return [sp.Rational(i, total) for i in ints]


def _certify(W, prior, bound):
    """Bounds from one prior π with output law q = πW: I(π; W) = Σ_u π_u·D(W_u‖q) ≤ capacity ≤
    max_u D(W_u‖q). The upper bound holds for any law q: for every prior π', I(π'; W) =
    Σ_u π'_u·D(W_u‖q) − D(π'W‖q) ≤ Σ_u π'_u·D(W_u‖q) ≤ max_u D(W_u‖q).
    True: every D(W_u‖q) ≤ bound; False: I(π; W) > bound; None: neither certified."""
    q = _output_law(W, prior)
    bits = BASE_BITS
    while bits <= 4 * BASE_BITS:
        with C.precision(bits):
            divs = [_divergence_ball(row, q) for row in W]
            info = C.ball(0)
            for pi, dv in zip(prior, divs):
                info = info + C.ball(pi) * dv
            b = C.ball(bound)
            if all(C.le(dv, b) is True for dv in divs):
                return True, info
            if C.lt(b, info) is True:
                return False, info
        bits *= 2
    return None, info


def _exact_tie(W, prior, bound):
    """At a tie (capacity equal to the bound) intervals never separate; try sympy's exact zero proof
    (for instance a noiseless channel: D(W_u‖uniform) = log k exactly)."""
    from symbolic.core.ops import UndecidedComparison
    q = _output_law(W, prior)
    try:
        if all(exact_sign(_divergence_expr(row, q) - bound) <= 0 for row in W):
            return True
        info = sp.Add(*[pi * _divergence_expr(row, q) for pi, row in zip(prior, W)])
        if exact_sign(info - bound) > 0:
            return False
    except UndecidedComparison:
        return None
    return None


def capacity_at_most(W, bound, *, iterations: int = BA_ITERATIONS) -> Decision:
    """Is the capacity max_π I(π; W) of the channel with rows ``W`` (exact laws, one per input) at
    most ``bound`` nats?

    Blahut–Arimoto (floats) proposes priors; each is made an exact rational prior π and certified:
    I(π; W) ≤ capacity ≤ max_u D(W_u‖πW), so a certified max_u D(W_u‖πW) ≤ bound proves it and a
    certified I(π; W) > bound refutes it (with π as the witness prior). The two bounds meet as the
    iteration converges; a channel whose capacity equals the bound is tried with sympy's exact
    arithmetic, else undecided."""
    k = len(W)
    if all(all(_zero(a - b) for a, b in zip(W[0], row)) for row in W[1:]):
        return Decision(True, None, 0)
    if exact_sign(bound) <= 0:
        return Decision(False, f"the rows differ, so the uniform prior gives I > 0 ≥ {bound}", 0)
    Wf = [[float(sp.N(x, 20)) for x in row] for row in W]
    weights = [1.0 / k] * k
    info = None
    for it in range(iterations + 1):
        if it < 32 or it % 16 == 0 or it == iterations:
            prior = _rational_prior(weights) if it else [sp.Rational(1, k)] * k
            verdict, info = _certify(W, prior, bound)
            if verdict is True:
                return Decision(True, None, it)
            if verdict is False:
                shown = ", ".join(f"{float(x):.4g}" for x in prior)
                return Decision(False, f"the prior ({shown}) on the record gives I ∈ {info.text()} nats > {bound}",
                                it)
        qf = [sum(w * row[y] for w, row in zip(weights, Wf)) for y in range(len(Wf[0]))]
        dv = [sum(r * math.log(r / qy) for r, qy in zip(row, qf) if r > 0 and qy > 0) for row in Wf]
        top = max(dv)
        weights = [w * math.exp(d - top) for w, d in zip(weights, dv)]
        s = sum(weights)
        weights = [w / s for w in weights]
    for prior in ([sp.Rational(1, k)] * k, _rational_prior(weights)):
        tie = _exact_tie(W, prior, bound)
        if tie is not None:
            return Decision(tie, None if tie else f"I(π; W) > {bound} for the prior {prior}", iterations)
    return Decision(None, f"capacity within {info.text() if info is not None else '?'} of {bound} nats after "
                          f"{iterations} Blahut–Arimoto steps: too close for certified intervals", iterations)
