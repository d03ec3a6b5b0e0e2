"""Saeidian et al. (2023), §4.1: the pointwise maximal leakage about one entry X_i of three ε-DP counting
mechanisms under i.i.d. Bernoulli(p) entries, per output and as the supremum over p ∈ [λ, 1-λ]
(Proposition 12 for the Laplace count; the same question for the truncated geometric count and for
randomized response; definitions in notes/pml-formulas.md).

- Randomized response and the truncated geometric count are finite tables, so their leakage is the
  engine's general :func:`symbolic.derive.level.derive_level` ("pml" under the prior {0: 1-p, 1: p},
  entries in E = e^ε), run three times by :func:`sided_pml`: with E fixed it finds the p where the
  maximising (input, output) changes; on each side of that p, with E symbolic, it proves one candidate
  the largest for every E > 1. What this module adds is the source's question: the supremum over p, its
  limits and, for the truncated geometric count, the independence of n (a table has a fixed n: the
  instances n = 2, 3 go through derive_level, and the argument for every n is checked against them).
- The Laplace count has a density, not a table: its supremum is derived here from the engine's Laplace
  shift loss and binomial MGF (:mod:`symbolic.derive.closed_forms`).

Floats appear only in the ``numeric_*`` cross-checks.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import sympy as sp
import sympy.stats as st

from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import exact
from symbolic.core.prob import Dist, Kernel
from symbolic.core.tables import databases
from symbolic.derive.closed_forms import (ALPHA, B, EPS, LAM, N, P, Derivation, binomial_mgf_check, finish,
                                          laplace_shift_loss, taylor, valid_eps, valid_prob, valid_size)
from symbolic.derive.level import LevelDerivation, derive_level
from symbolic.model.mechanism import Mechanism, randomized_response, truncated_geometric
from symbolic.model.param_space import sign_on
from symbolic.notions.leakage import max_pml_ratio

_R = sp.Symbol("r", positive=True)          # a likelihood ratio f(y|1)/f(y|0)
_E = sp.Symbol("E", positive=True)          # E = e^ε in the tables given to derive_level
GEOMETRIC_SIZES = (2, 3)                    # the n of the truncated geometric tables
PROBE_E = 2                                 # the E at which derive_level locates the crossing in p


def valid_lam(v):
    """λ in (0, 1/2]: the priors are Bernoulli(p) with p in [λ, 1-λ]."""
    v = exact(v, what="lam")
    if v.is_number and not (0 < v <= sp.Rational(1, 2)):
        raise InvalidParameter(f"lam={v} is outside (0, 1/2]; λ bounds p in [λ, 1-λ]")
    return v


# ---------------------------------------------------------------- the supremum over p, its limits
def _entry_sup(ratio_high, name_high):
    """From the tail ratio e^ε/(pe^ε+1-p) of x_i=1: max over x_i, then sup over p ∈ [λ,1-λ]."""
    ratio_low = ratio_high.subs(P, 1 - P)           # x_i = 0 at the other tail (symmetry p ↔ 1-p)
    gap = sp.factor(sp.simplify(ratio_high - ratio_low))
    slope = sp.simplify(sp.diff(sp.log(ratio_high), P))
    sup = sp.simplify(ratio_high.subs(P, LAM))
    per_p = sp.Piecewise((sp.log(ratio_high), P <= sp.Rational(1, 2)), (sp.log(ratio_low), True))
    steps = [(f"ratio for x_i=0 (at the other tail) = {name_high} with p -> 1-p", ratio_low),
             ("ratio(x_i=1) - ratio(x_i=0): its sign is that of 1-2p, so x_i=1 wins for p <= 1/2", gap),
             ("d/dp log ratio(x_i=1) < 0: the sup over p in [λ, 1/2] is at p = λ (and at 1-λ by symmetry)",
              slope),
             ("sup over p in [λ, 1-λ] of exp ℓ", sup)]
    return per_p, sup, steps


def _entry_limits(formula):
    """The limits of sup_{p∈[λ,1-λ]} ℓ: λ → 0 (the DP level), ε → ∞, and its series in ε."""
    return {
        "lambda_to_0": sp.limit(formula, LAM, 0, "+"),
        "eps_to_infinity": sp.simplify(sp.limit(formula, EPS, sp.oo)),
        "series": taylor(formula, EPS, 4),
    }


# ---------------------------------------------------------------- (a) Laplace counting query (a density)
def laplace_count_pml(*, eps=None, lam=None) -> Derivation:
    """sup_{p∈[λ,1-λ]} sup_y ℓ(X_i→y) for the counting query Y = K/n + Lap(b), ε = 1/(nb).

    X_1..X_n i.i.d. with Pr[predicate] = p, K the count, K_{-i} ~ Bin(n-1, p);
    f(y|x_i) = E[Lap(y; (x_i+K_{-i})/n, b)], f(y) = p f(y|1) + (1-p) f(y|0).

    >>> d = laplace_count_pml(); d.formula
    log(exp(epsilon)/(lambda*exp(epsilon) - lambda + 1))
    >>> d.extras["lambda_to_0"], d.extras["eps_to_infinity"]
    (epsilon, -log(lambda))
    """
    subs = {EPS: None if eps is None else valid_eps(eps), LAM: None if lam is None else valid_lam(lam)}
    steps = []
    loss, s = laplace_shift_loss(1 / N, B)
    steps += s
    steps.append(("so f(y|1) <= e^ε f(y|0) and f(y|0) <= e^ε f(y|1) for all y (mix over K_{-i}); "
                  "ε = 1/(nb)", sp.Eq(EPS, loss)))
    y, kk, s_ = sp.Symbol("y", real=True), sp.Symbol("K", nonnegative=True), sp.Symbol("s", positive=True)
    lap = st.density(st.Laplace("L", kk / N, B))
    above = lap(kk / N + s_).subs(s_, y - kk / N)      # y >= K/n (all K <= n when y >= 1)
    below = lap(kk / N - s_).subs(s_, kk / N - y)      # y <= K/n (all K when y <= 0)
    w_above = sp.simplify(above / (sp.exp(-y / B) / (2 * B))).subs(B, 1 / (N * EPS))
    w_below = sp.simplify(below / (sp.exp(y / B) / (2 * B))).subs(B, 1 / (N * EPS))
    steps.append(("y >= 1: Lap(y; K/n, b) = e^{-y/b}/(2b) times (with b = 1/(nε))", w_above))
    steps.append(("y <= 0: Lap(y; K/n, b) = e^{y/b}/(2b) times", w_below))
    M, M_low = binomial_mgf_check(P, EPS), binomial_mgf_check(P, -EPS)
    k_rest = sp.Symbol("K_rest", nonnegative=True)       # K = x_i + K_{-i}, K_{-i} ~ Bin(n-1, p)

    def mixed(w, x, t, mgf):                             # E over K_{-i} of w(x_i + K_{-i})
        return sp.expand(w.subs(kk, x + k_rest), power_exp=True).subs(sp.exp(t * k_rest), mgf ** (N - 1))
    f1, f0 = mixed(w_above, 1, EPS, M), mixed(w_above, 0, EPS, M)
    if f1.has(k_rest) or f0.has(k_rest):
        raise AssertionError(f"could not take the expectation over K_-i in {f1}, {f0}")
    tail1 = sp.simplify(f1 / (P * f1 + (1 - P) * f0))
    steps.append(("y >= 1: f(y|1)/f(y) = E[e^{εK}|x_i=1]/E[e^{εK}], binomial MGFs", tail1))
    mono = sp.simplify(sp.diff(_R / (P * _R + 1 - P), _R))
    steps.append(("f(y|1)/f(y) = r/(pr+1-p) with r = f(y|1)/f(y|0) <= e^ε; d/dr > 0, so the sup "
                  "over y is at r = e^ε, i.e. on the whole tail y >= 1", mono))
    check = sp.simplify((_R / (P * _R + 1 - P)).subs(_R, sp.exp(EPS)) - tail1)
    steps.append(("the two routes agree (difference)", check))
    g1, g0 = mixed(w_below, 1, -EPS, M_low), mixed(w_below, 0, -EPS, M_low)
    tail0 = sp.simplify(g0 / (P * g1 + (1 - P) * g0))
    steps.append(("y <= 0: f(y|0)/f(y) = E[e^{-εK}|x_i=0]/E[e^{-εK}] (the sup over y for x_i=0, "
                  "since f(y|0)/f(y) = 1/(pr+1-p) is largest at r = e^{-ε})", tail0))
    per_p, sup, s = _entry_sup(tail1, "ratio(x_i=1)")
    steps.append(("symmetry check: ratio(x_i=0) from M(-ε) minus ratio(x_i=1) with p -> 1-p",
                  sp.simplify(tail0 - tail1.subs(P, 1 - P))))
    steps += s
    formula = sp.log(sup)
    extras = {"tail_ratio_x1": tail1, "tail_ratio_x0": tail0, "sup_y_given_p": per_p, **_entry_limits(formula)}
    assumptions = ("X_i i.i.d. Bernoulli(p), p in [λ, 1-λ], 0 < λ <= 1/2; Y = K/n + Lap(b); "
                   "ε = 1/(nb); the sup over y is attained on y >= 1 (x_i = 1) and y <= 0 (x_i = 0); "
                   "it does not depend on n once ε is fixed")
    return finish("laplace_count_pml", formula, assumptions, steps, extras, subs)


@functools.lru_cache(maxsize=None)
def general_route_pml(n: int, p) -> dict:
    """The PML of one record of the Laplace count at n records and Pr[predicate] = p, ε a symbol, by the
    engine's general route for densities (the mechanism :func:`symbolic.laplace_count_given_record`, the
    prior (1 − p, p) on the record), beside this module's tail ratio: {"formula": in ε, "difference": the
    general route's value minus log(ratio) at that p, simplified (0 when they agree)}."""
    from symbolic import derive_curve_level, laplace_count_given_record
    d = derive_curve_level("pml", laplace_count_given_record(n, p), prior={"0": str(1 - p), "1": str(p)})
    if d.formula is None:
        return {"formula": None, "difference": sp.nan}
    eps = next(s for s in d.formula.free_symbols if s.name == "eps")
    ours = sp.log(_R / (P * _R + 1 - P)).subs({_R: sp.exp(EPS), P: p})
    return {"formula": d.formula.xreplace({eps: EPS}),
            "difference": sp.simplify(sp.expand_log(d.formula.xreplace({eps: EPS}) - ours, force=True))}


def _binom_pmf(m, p, j):
    return math.comb(m, j) * p ** j * (1 - p) ** (m - j)


def numeric_laplace_count_density(n, b, p, y, x_i=None) -> float:
    """f(y|x_i) (or f(y) when x_i is None) as a direct finite mixture of Laplace densities."""
    def cond(x):
        return sum(_binom_pmf(n - 1, p, j) * math.exp(-abs(y - (j + x) / n) / b) / (2 * b)
                   for j in range(n))
    return cond(x_i) if x_i is not None else p * cond(1) + (1 - p) * cond(0)


def numeric_laplace_count_pml(n, b, p, ys) -> tuple:
    """(max over the grid ``ys`` and x_i of log f(y|x_i)/f(y), the maximising y)."""
    best = (-math.inf, None)
    for y in ys:
        fy = numeric_laplace_count_density(n, b, p, y)
        v = max(math.log(numeric_laplace_count_density(n, b, p, y, x) / fy) for x in (0, 1))
        best = max(best, (v, y))
    return best


def numeric_laplace_tail_ratio(n, b, p, x_i=1, cut=None) -> float:
    """Pr[Y in tail | x_i]/Pr[Y in tail] by scipy quad: tail [1, ∞) for x_i=1, (-∞, 0] for 0."""
    from scipy.integrate import quad
    lo, hi = ((1.0 if cut is None else cut), math.inf) if x_i == 1 else (-math.inf, (0.0 if cut is None else cut))
    num = quad(lambda y: numeric_laplace_count_density(n, b, p, y, x_i), lo, hi)[0]
    den = quad(lambda y: numeric_laplace_count_density(n, b, p, y), lo, hi)[0]
    return num / den


# ---------------------------------------------------------------- finite tables through derive_level
@dataclass(frozen=True)
class SidedPML:
    """The PML of a two-input table (entries in E and p) under the prior Bernoulli(p), from runs of
    :func:`derive_level`: ``located`` at E = ``PROBE_E`` (a Piecewise in p whose one crossing is ``cut``;
    None when the cut was given), ``low`` on 0 < p ≤ cut and ``high`` on cut ≤ p < 1 with E > 1 symbolic,
    each with one maximiser decided exactly (``proved``) and its sample checks passed."""

    cut: sp.Expr
    located: LevelDerivation | None
    low: LevelDerivation
    high: LevelDerivation


def bernoulli_prior() -> dict:
    """The prior {0: 1-p, 1: p} of one entry, keyed by one-record databases."""
    return {(0,): 1 - P, (1,): P}


def sided_pml(mech: Mechanism, cut=None) -> SidedPML:
    """``derive_level("pml", mech, prior=Bernoulli(p))`` on the whole range 1 < E, 0 < p < 1, in the runs of
    :class:`SidedPML` (the locating run skipped when ``cut`` is given: a wrong cut leaves a side undecided).
    Raises AssertionError when derive_level does not give one crossing in p or cannot decide the maximiser
    on a side, so a formula is never pieced together from guesses.

    >>> s = sided_pml(randomized_response(_E)); s.cut, s.low.level_ratio, maximiser(s.low)["output"]
    (1/2, E/(E*p - p + 1), 1)
    """
    prior, located = bernoulli_prior(), None
    if cut is None:
        located = derive_level("pml", mech, assumptions=("1<E", "0<p<1"), prior=prior, params={"E": PROBE_E})
        f = located.formula
        if not (located.proved and located.ok and isinstance(f, sp.Piecewise) and len(f.args) == 2):
            raise AssertionError(f"derive_level at E={PROBE_E} gave no single crossing in p: {f}")
        cond = f.args[0][1]
        if not (isinstance(cond, sp.LessThan) and getattr(cond.lhs, "name", None) == "p" and cond.rhs.is_Rational):
            raise AssertionError(f"derive_level at E={PROBE_E}: the crossing {cond} is not p <= a rational")
        cut = cond.rhs
    sides = [derive_level("pml", mech, assumptions=("1<E", rng), prior=prior)
             for rng in (f"0<p<={cut}", f"{cut}<=p<1")]
    for side in sides:
        if not (side.proved and side.ok and len(side.pieces) == 1):
            raise AssertionError(f"derive_level on {side.assumptions} did not decide one maximiser: {side.formula}")
    return SidedPML(cut, located, *sides)


def in_eps(expr):
    """A derive_level expression with its table symbols read as ours: E -> e^ε, p -> p."""
    names = {"E": sp.exp(EPS), "p": P}
    return expr.xreplace({s: names[s.name] for s in expr.free_symbols if s.name in names})


def maximiser(side: LevelDerivation) -> dict:
    """The (input, output) of the one piece of a side, as a dict {"input": x, "output": o}."""
    (label,) = side.pieces[0][2]
    return dict(label)


def per_p_leakage(s: SidedPML):
    """max_y ℓ(X→y) as a Piecewise in p, each piece derive_level's on its side (with E = e^ε)."""
    low, high = sp.log(in_eps(s.low.level_ratio)), sp.log(in_eps(s.high.level_ratio))
    return sp.Piecewise((low, P <= s.cut), (high, True))


def sided_steps(s: SidedPML, what: str = "") -> list:
    """The derive_level runs of ``s`` as derivation steps (text, expr)."""
    out = [] if s.located is None else [(f"{what}derive_level pml at E={PROBE_E}: the maximiser changes at p = "
                                          f"{s.cut}", s.located.formula)]
    for side in (s.low, s.high):
        m = maximiser(side)
        out.append((f"{what}derive_level pml on {' and '.join(side.assumptions)}: maximiser x={m['input'][0]}, "
                    f"y={m['output']}, decided exactly; {len(side.checks)} checks passed", side.level_ratio))
    return out


def sup_over_p(s: SidedPML):
    """sup over p in [λ, 1-λ] (0 < λ ≤ cut) of the per-p leakage: the high side is the low side with
    p -> 1-p, and the low side decreases in p (its derivative's sign decided over derive_level's range),
    so the sup is the low side at p = λ. Returns (exp of the sup, steps)."""
    low, high = s.low.level_ratio, s.high.level_ratio
    p = next(r.symbol for r in s.low.mechanism.params if r.name == "p")
    mirror = sp.simplify(high - low.subs(p, 1 - p))
    slope = sp.simplify(sp.diff(low, p))
    sign = sign_on(slope, s.low.mechanism.params)
    if mirror != 0 or sign != -1 or s.cut != sp.Rational(1, 2):
        raise AssertionError(f"sup over p: symmetry {mirror}, slope sign {sign}, crossing {s.cut}")
    sup = sp.simplify(in_eps(low).subs(P, LAM))
    return sup, [("high side minus the low side with p -> 1-p (symmetry p <-> 1-p)", mirror),
                 (f"d/dp of the low side, negative on {' and '.join(s.low.assumptions)}: the sup over "
                  "p in [λ, 1/2] is at p = λ (and at 1-λ by symmetry)", slope),
                 ("sup over p in [λ, 1-λ] of exp ℓ", sup)]


def entry_table(mech: Mechanism, name: str) -> Mechanism:
    """The channel X_1 -> output of an n-record mechanism on {0,1}^n whose other entries are i.i.d.
    Bernoulli(p): P(o | x_1) = Σ_{x_-1} Π_j p^{x_j}(1-p)^{1-x_j} P(o | x)."""
    rows = {}
    for x in (0, 1):
        rows[(x,)] = [sp.factor(sp.Add(*[sp.Mul(*[P if v else 1 - P for v in d[1:]]) * mech.prob(d, o)
                                         for d in databases(mech.n, (0, 1)) if d[0] == x]))
                      for o in mech.outputs]
    return Mechanism.from_table(rows, n=1, domain=(0, 1), outputs=mech.outputs, name=name)


# ---------------------------------------------------------------- (b) truncated geometric count
def truncated_geometric_kernel(n: int, alpha) -> Kernel:
    """Counts c ∈ {0..n} ↦ outputs o ∈ {0..n}: Pr[o|c] = (1-α)/(1+α)·α^{|o-c|} for 0<o<n and
    α^{|o-c|}/(1+α) at o ∈ {0, n} (the two-sided geometric folded onto [0, n]); α = e^{-ε}.

    >>> truncated_geometric_kernel(1, sp.Rational(1, 2))[0]
    Dist({0: 2/3, 1: 1/3})
    """
    valid_size(n, "n")
    alpha = exact(alpha, what="alpha")
    if alpha.is_number and not (0 < alpha <= 1):
        raise InvalidParameter(f"alpha={alpha} is outside (0, 1]; α = e^(-ε)")
    def pr(o, c):
        w = 1 if o in (0, n) else 1 - alpha
        return w * alpha ** abs(o - c) / (1 + alpha)
    return Kernel({c: {o: pr(o, c) for o in range(n + 1)} for c in range(n + 1)},
                  what="truncated geometric")


def truncated_geometric_entry_kernel(n: int, alpha, p) -> Kernel:
    """The kernel X_i ↦ O, mixing the counts over K_{-i} ~ Bin(n-1, p)."""
    p = valid_prob(p)
    g = truncated_geometric_kernel(n, alpha)
    rows = {x: {o: sp.Add(*[sp.binomial(n - 1, j) * p ** j * (1 - p) ** (n - 1 - j) * g.prob(j + x, o)
                            for j in range(n)]) for o in range(n + 1)} for x in (0, 1)}
    return Kernel(rows, what="truncated geometric entry kernel")


def truncated_geometric_pml_exact(n: int, alpha, p) -> sp.Expr:
    """max_o ℓ(X_i→o) by exact enumeration (pml.max_pml_ratio), prior Bernoulli(p)."""
    p = valid_prob(p)
    return sp.log(sp.nsimplify(max_pml_ratio(truncated_geometric_entry_kernel(n, alpha, p),
                                             Dist({0: 1 - p, 1: p}))))


def _top_ratio_all_n():
    """For every n: P(o|1)/P_O(o) is largest at o = n, where it is E[α^{-K}|x_i=1]/E[α^{-K}] (binomial
    MGF over K_{-i} ~ Bin(n-1, p)); with α = e^{-ε}. Returns (ratio, steps)."""
    c, j = sp.Symbol("c", integer=True, nonnegative=True), sp.Symbol("j", integer=True, nonnegative=True)
    term = lambda o: ALPHA ** sp.Abs(o - c - 1) / ALPHA ** sp.Abs(o - c)
    up, down = sp.simplify(term(c + 1 + j)), sp.simplify(term(c - j))
    steps = [("Pr[o|c+1]/Pr[o|c] for o >= c+1 (interior or o = n)", up),
             ("Pr[o|c+1]/Pr[o|c] for o <= c (interior or o = 0)", down),
             ("so the entry ratio r(o) = P(o|1)/P(o|0) lies in [α, 1/α]; r(n) = 1/α exactly", up)]
    M = binomial_mgf_check(P, -sp.log(ALPHA))           # E[α^{-K_{-i}}] = M^{n-1}
    k_rest, gap_ = sp.Symbol("K_rest", nonnegative=True), sp.Symbol("g", nonnegative=True)
    p_top = (ALPHA ** sp.Abs(N - c) / (1 + ALPHA)).subs(c, N - gap_).subs(gap_, N - c)  # c <= n

    def mixed(x):                                       # E over K_{-i} of P(n | x_i + K_{-i})
        e = sp.expand(sp.powsimp(p_top.subs(c, x + k_rest)), power_base=True, power_exp=True)
        e = e.subs(ALPHA ** (-k_rest), M ** (N - 1))
        if e.has(k_rest):
            raise AssertionError(f"could not take the expectation over K_-i in {e}")
        return e
    top = sp.simplify(mixed(1) / (P * mixed(1) + (1 - P) * mixed(0)))
    steps.append(("o = n: P(n|x_i) = α^{n-x_i} E[α^{-K_{-i}}]/(1+α), so P(n|1)/P_O(n)", top))
    mono = sp.simplify(sp.diff(_R / (P * _R + 1 - P), _R))
    steps.append(("P(o|1)/P_O(o) = r/(pr+1-p) is increasing in r: the max over o is at o = n", mono))
    return sp.simplify(top.subs(ALPHA, sp.exp(-EPS))), steps


def truncated_geometric_entry_table(n: int) -> Mechanism:
    """The engine's truncated geometric count on {0,1}^n (entries in E) seen from X_1, the other entries
    i.i.d. Bernoulli(p) (:func:`entry_table`)."""
    return entry_table(truncated_geometric(_E, n=valid_size(n, "n")), f"truncated geometric count, n={n}, from X_1")


@functools.lru_cache(maxsize=None)
def _geometric_run(n: int, cut) -> SidedPML:
    return sided_pml(truncated_geometric_entry_table(n), cut)


@functools.lru_cache(maxsize=None)
def _geometric(sizes: tuple) -> Derivation:
    runs = {sizes[0]: _geometric_run(sizes[0], None)}     # the first n locates the crossing, the others use it
    runs.update({n: _geometric_run(n, runs[sizes[0]].cut) for n in sizes[1:]})
    first = runs[sizes[0]]
    steps = []
    for n, s in runs.items():
        steps += sided_steps(s, f"n={n}: ")
        same = (s.cut == first.cut and sp.simplify(s.low.level_ratio - first.low.level_ratio) == 0
                and sp.simplify(s.high.level_ratio - first.high.level_ratio) == 0)
        if not same:
            raise AssertionError(f"the truncated geometric leakage at n={n} differs from n={sizes[0]}")
        if (maximiser(s.low)["output"], maximiser(s.high)["output"]) != (n, 0):
            raise AssertionError(f"n={n}: the maximisers are {maximiser(s.low)}, {maximiser(s.high)}, not o = n, o = 0")
    steps.append((f"n={', '.join(map(str, sizes))}: the same pieces and crossing (sympy simplify)", first.low.level_ratio))
    tail1 = in_eps(first.low.level_ratio)
    general, s = _top_ratio_all_n()
    steps += s
    lift = sp.simplify(general - tail1)
    steps.append(("every n: the ratio at o = n minus derive_level's (so the pieces do not depend on n)", lift))
    if lift != 0:
        raise AssertionError(f"the all-n ratio {general} differs from derive_level's {tail1}")
    sup, s = sup_over_p(first)
    steps += s
    n0, a0, p0 = 3, sp.Rational(1, 2), sp.Rational(1, 3)
    enum = truncated_geometric_pml_exact(n0, a0, p0)
    steps.append((f"exact enumeration at n={n0}, α={a0}, p={p0} minus the formula at ε = log 2",
                  sp.simplify(enum - sp.log(tail1.subs({EPS: sp.log(2), P: p0})))))
    formula = sp.log(sup)
    extras = {"top_ratio_x1": tail1, "sup_o_given_p": per_p_leakage(first), **_entry_limits(formula)}
    assumptions = ("X_i i.i.d. Bernoulli(p), p in [λ, 1-λ]; O = truncated geometric count on {0..n}, "
                   "α = e^{-ε}; the max over outputs is attained at o = n (x_i = 1) and o = 0 (x_i = 0)")
    return finish("truncated_geometric_pml", formula, assumptions, steps, extras, {})


def truncated_geometric_pml(*, eps=None, lam=None, sizes=GEOMETRIC_SIZES) -> Derivation:
    """sup_{p∈[λ,1-λ]} max_o ℓ(X_i→o) for the truncated geometric count (ε-DP with α = e^{-ε}): the
    pieces per p are :func:`derive_level`'s on the tables of ``sizes`` (:func:`sided_pml`), the same for
    each n and equal to the ratio at o = n derived for every n; then the sup over p (:func:`sup_over_p`).

    >>> d = truncated_geometric_pml(sizes=(2,)); d.formula
    log(exp(epsilon)/(lambda*exp(epsilon) - lambda + 1))
    """
    subs = {EPS: None if eps is None else valid_eps(eps), LAM: None if lam is None else valid_lam(lam)}
    sizes = tuple(dict.fromkeys(valid_size(n, "n") for n in sizes))
    if not sizes:
        raise InvalidParameter("sizes=() must give at least one n >= 1")
    d = _geometric(sizes)
    return finish(d.name, d.formula, d.assumptions, d.steps, d.extras, subs)


# ---------------------------------------------------------------- (c) randomized response
def rr_kernel(E) -> Kernel:
    """Binary randomized response: keep the bit with probability E/(1+E), E = e^ε."""
    return Kernel({0: {0: E / (1 + E), 1: 1 / (1 + E)}, 1: {0: 1 / (1 + E), 1: E / (1 + E)}},
                  what="randomized response")



@functools.lru_cache(maxsize=None)
def _rr() -> tuple:
    s = sided_pml(randomized_response(_E))
    per_y = {}
    for side in (s.low, s.high):
        per_y[maximiser(side)["output"]] = in_eps(side.level_ratio)
    if set(per_y) != {0, 1}:
        raise AssertionError(f"randomized response: the two sides are maximised at outputs {sorted(per_y)}")
    return s, per_y


def rr_pml(*, eps=None, p=None) -> Derivation:
    """PML of binary randomized response under a Bernoulli(p) prior, per output and max: the pieces and
    where they change are :func:`derive_level`'s (:func:`sided_pml` on the engine's
    :func:`randomized_response` with E symbolic); the sup over p ∈ (0, 1) is ε, approached as p → 0 or 1
    and not attained.

    >>> d = rr_pml(); d.extras["y1"], d.extras["sup_over_p"]
    (log(exp(epsilon)/(p*exp(epsilon) - p + 1)), epsilon)
    """
    subs = {EPS: None if eps is None else valid_eps(eps), P: None if p is None else valid_prob(p)}
    s, per_y = _rr()
    steps = sided_steps(s)
    formula = per_p_leakage(s)
    slope = sp.simplify(sp.diff(sp.log(per_y[1]), P))
    steps.append(("d/dp ℓ(X→1) < 0: the sup over p is the limit p → 0 (not attained)", slope))
    extras = {"y1": sp.log(per_y[1]), "y0": sp.log(per_y[0]),
              "sup_over_p": sp.limit(sp.log(per_y[1]), P, 0, "+"),
              "limit_p_to_1": sp.limit(sp.log(per_y[0]), P, 1, "-"),
              "sup_over_lambda": sp.log(sp.simplify(per_y[1].subs(P, LAM)))}
    return finish("rr_pml", formula, "binary randomized response, X ~ Bernoulli(p), 0 < p < 1, ε > 0",
                  steps, extras, subs)
