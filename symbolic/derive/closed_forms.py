"""Closed forms derived by sympy from a mechanism's density or probabilities.

Each ``derive``-kind function returns a :class:`Derivation`: the formula is *computed*
(no final answer is typed in), ``steps`` record the intermediate results, ``extras`` hold
named by-products (limits, series, the source's display for comparison). Optional keyword
arguments substitute exact values after validation. Floats appear only in the
``numeric_*`` cross-check functions, which tests compare against the formulas.

General machinery only: the PML of the Laplace and truncated geometric counting queries and of
randomized response under Bernoulli priors (Saeidian et al. (2023), §4.1, asks these questions;
definitions in notes/pml-formulas.md), the scale of Laplace noise under composition (lecture notes
ch. 5, exercises 1.4 and 1.5), and the Gaussian density ratio read off Kasiviswanathan and Smith
(2008), Appendix A.2 (to move to the theorems side). What one source's proposition or example adds
(its particular limits, bounds and figures) lives with its claims in ``theorems/``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp
import sympy.stats as st

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.core.exact import exact
from symbolic.notions.leakage import max_pml_ratio
from symbolic.core.prob import Dist, Kernel

EPS = sp.Symbol("epsilon", positive=True)
LAM = sp.Symbol("lambda", positive=True)
P = sp.Symbol("p", positive=True)
N = sp.Symbol("n", positive=True, integer=True)
B = sp.Symbol("b", positive=True)
K = sp.Symbol("k", positive=True, integer=True)
D = sp.Symbol("d", positive=True, integer=True)
SIGMA = sp.Symbol("sigma", positive=True)
DELTA = sp.Symbol("Delta", positive=True)
ALPHA = sp.Symbol("alpha", positive=True)
_R = sp.Symbol("r", positive=True)          # a likelihood ratio f(y|1)/f(y|0)


@dataclass(frozen=True)
class Derivation:
    """A derived closed form: ``formula`` with its ``assumptions`` (text), the ``steps``
    (a tuple of (text, sympy expr)) and named ``extras``.

    >>> x = sp.Symbol("x")
    >>> d = Derivation("square", x ** 2, "x real")
    >>> d.at({x: 3})
    9
    """

    name: str
    formula: sp.Expr
    assumptions: str
    steps: tuple = ()
    extras: Mapping[str, sp.Expr] = field(default_factory=dict)

    def at(self, values: Mapping, expr=None) -> sp.Expr:
        """``formula`` (or ``expr``) with exact ``values`` substituted, e.g. {EPS: 1, LAM: sp.Rational(1, 4)}."""
        vals = {s: exact(v, what=str(s)) for s, v in values.items()}
        return sp.simplify((self.formula if expr is None else expr).subs(vals))


# ---------------------------------------------------------------- validation helpers
def _eps(v):
    v = exact(v, what="eps")
    if v.is_number and v < 0:
        raise InvalidParameter(f"eps={v} is negative; ε must be >= 0")
    return v


def _lam(v):
    v = exact(v, what="lam")
    if v.is_number and not (0 < v <= sp.Rational(1, 2)):
        raise InvalidParameter(f"lam={v} is outside (0, 1/2]; λ bounds p in [λ, 1-λ]")
    return v


def valid_prob(v, what="p", open_=True):
    v = exact(v, what=what)
    if v.is_number and not ((0 < v < 1) if open_ else (0 <= v <= 1)):
        raise InvalidParameter(f"{what}={v} is outside {'(0, 1)' if open_ else '[0, 1]'}")
    return v


def valid_size(v, what, lo=1):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise InvalidSize(f"{what}={v!r} must be an integer >= {lo}")
    return v


def finish(name, formula, assumptions, steps, extras, subs):
    subs = {s: v for s, v in subs.items() if v is not None}
    if subs:                                            # plain substitution: no simplify on
        formula = formula.subs(subs)                    # large exact values (n = 200, ...)
        extras = {k: (e.subs(subs) if isinstance(e, sp.Basic) else e) for k, e in extras.items()}
    return Derivation(name, formula, assumptions, tuple(steps), dict(extras))


def _sup_positive(expr, var):
    """sup over var in (0, ∞) of an expression monotone in var (checked by sympy)."""
    der = sp.simplify(sp.diff(expr, var))
    if der.is_nonnegative:
        return sp.limit(expr, var, sp.oo)
    if der.is_nonpositive:
        return sp.limit(expr, var, 0, "+")
    raise InvalidParameter(f"cannot decide the monotonicity of {expr} in {var}")


def laplace_shift_loss(delta=DELTA, b=B):
    """sup_y log Lap(y; μ+Δ, b)/Lap(y; μ, b) for Δ > 0, computed on the three regions
    y ≤ μ, μ ≤ y ≤ μ+Δ, y ≥ μ+Δ from sympy.stats' Laplace density. Returns (sup, steps).

    >>> laplace_shift_loss()[0]
    Delta/b
    """
    mu, y = sp.Symbol("mu", real=True), sp.Symbol("y", real=True)
    s, w = sp.symbols("s w", positive=True)
    dens = lambda m: st.density(st.Laplace("L", m, b))(y)
    g = sp.expand_log(sp.log(dens(mu + delta) / dens(mu)), force=True)
    regions = [sp.simplify(g.subs(y, mu - s)), sp.simplify(g.subs(y, mu + delta * w / (1 + w))),
               sp.simplify(g.subs(y, mu + delta + s))]
    sups = [_sup_positive(r, v) for r, v in zip(regions, (s, w, s))]
    sup = sp.simplify(sp.Max(*sups))
    return sup, [("log density ratio of Lap(μ+Δ,b) to Lap(μ,b)", g),
                 ("on y = μ - s, y = μ + Δw/(1+w), y = μ + Δ + s", sp.Tuple(*regions)),
                 ("supremum over y (attained for every y ≥ μ+Δ)", sup)]


def bernoulli_mgf(p, t):
    return sp.simplify(st.E(sp.exp(t * st.Bernoulli("X", p))))


def _binomial_mgf_check(p, t, sizes=range(0, 5)):
    """The step E[e^{tK}] = M(t)^m for K ~ Bin(m, p), checked by expanding the sum."""
    M = bernoulli_mgf(p, t)
    for m in sizes:
        s = sum(sp.binomial(m, j) * p ** j * (1 - p) ** (m - j) * sp.exp(t * j) for j in range(m + 1))
        if sp.expand(s - M ** m) != 0:
            raise AssertionError(f"binomial MGF identity fails at m={m}")
    return M


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


def taylor(expr, var, order):
    """Σ_{j<order} f^{(j)}(0) var^j / j! (derivatives at 0; cheaper than sympy's series here)."""
    out, d = sp.Integer(0), expr
    for j in range(order):
        out += sp.simplify(d.subs(var, 0)) * var ** j / sp.factorial(j)
        d = sp.diff(d, var)
    return sp.expand(out)


def _entry_limits(formula):
    """The limits of sup_{p∈[λ,1-λ]} ℓ: λ → 0 (the DP level), ε → ∞, and its series in ε."""
    return {
        "lambda_to_0": sp.limit(formula, LAM, 0, "+"),
        "eps_to_infinity": sp.simplify(sp.limit(formula, EPS, sp.oo)),
        "series": taylor(formula, EPS, 4),
    }


# ---------------------------------------------------------------- (a) Laplace counting query
def laplace_count_pml(*, eps=None, lam=None) -> Derivation:
    """sup_{p∈[λ,1-λ]} sup_y ℓ(X_i→y) for the counting query Y = K/n + Lap(b), ε = 1/(nb).

    X_1..X_n i.i.d. with Pr[predicate] = p, K the count, K_{-i} ~ Bin(n-1, p);
    f(y|x_i) = E[Lap(y; (x_i+K_{-i})/n, b)], f(y) = p f(y|1) + (1-p) f(y|0).

    >>> d = laplace_count_pml(); d.formula
    log(exp(epsilon)/(lambda*exp(epsilon) - lambda + 1))
    >>> d.extras["lambda_to_0"], d.extras["eps_to_infinity"]
    (epsilon, -log(lambda))
    """
    subs = {EPS: None if eps is None else _eps(eps), LAM: None if lam is None else _lam(lam)}
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
    M, M_low = _binomial_mgf_check(P, EPS), _binomial_mgf_check(P, -EPS)
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


# ---------------------------------------------------------------- (b) truncated geometric
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


def truncated_geometric_pml(*, eps=None, lam=None) -> Derivation:
    """sup_{p∈[λ,1-λ]} max_o ℓ(X_i→o) for the truncated geometric count (ε-DP with α = e^{-ε}).

    >>> truncated_geometric_pml().formula == laplace_count_pml().formula
    True
    """
    subs = {EPS: None if eps is None else _eps(eps), LAM: None if lam is None else _lam(lam)}
    c, j = sp.Symbol("c", integer=True, nonnegative=True), sp.Symbol("j", integer=True, nonnegative=True)
    term = lambda o: ALPHA ** sp.Abs(o - c - 1) / ALPHA ** sp.Abs(o - c)
    up, down = sp.simplify(term(c + 1 + j)), sp.simplify(term(c - j))
    steps = [("Pr[o|c+1]/Pr[o|c] for o >= c+1 (interior or o = n)", up),
             ("Pr[o|c+1]/Pr[o|c] for o <= c (interior or o = 0)", down),
             ("so the entry ratio r(o) = P(o|1)/P(o|0) lies in [α, 1/α]; r(n) = 1/α exactly", up)]
    M = _binomial_mgf_check(P, -sp.log(ALPHA))          # E[α^{-K_{-i}}] = M^{n-1}
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
    tail1 = sp.simplify(top.subs(ALPHA, sp.exp(-EPS)))
    steps.append(("with α = e^{-ε}", tail1))
    per_p, sup, s = _entry_sup(tail1, "ratio(x_i=1)")
    steps += s
    n0, a0, p0 = 3, sp.Rational(1, 2), sp.Rational(1, 3)
    enum = truncated_geometric_pml_exact(n0, a0, p0)
    steps.append((f"exact enumeration at n={n0}, α={a0}, p={p0} minus the formula at ε = log 2",
                  sp.simplify(enum - sp.log(tail1.subs({EPS: sp.log(2), P: p0})))))
    formula = sp.log(sup)
    extras = {"top_ratio_x1": tail1, "sup_o_given_p": per_p, **_entry_limits(formula)}
    assumptions = ("X_i i.i.d. Bernoulli(p), p in [λ, 1-λ]; O = truncated geometric count on {0..n}, "
                   "α = e^{-ε}; the max over outputs is attained at o = n (x_i = 1) and o = 0 (x_i = 0)")
    return finish("truncated_geometric_pml", formula, assumptions, steps, extras, subs)


# ---------------------------------------------------------------- (c) randomized response
def rr_kernel(E) -> Kernel:
    """Binary randomized response: keep the bit with probability E/(1+E), E = e^ε."""
    return Kernel({0: {0: E / (1 + E), 1: 1 / (1 + E)}, 1: {0: 1 / (1 + E), 1: E / (1 + E)}},
                  what="randomized response")


def rr_pml(*, eps=None, p=None) -> Derivation:
    """PML of binary randomized response under a Bernoulli(p) prior, per output and max;
    the sup over p ∈ (0, 1) is ε, approached as p → 0 or 1 and not attained.

    >>> d = rr_pml(); d.extras["y1"], d.extras["sup_over_p"]
    (log(exp(epsilon)/(p*exp(epsilon) - p + 1)), epsilon)
    """
    subs = {EPS: None if eps is None else _eps(eps), P: None if p is None else valid_prob(p)}
    from symbolic.notions.leakage import likelihood_ratios
    E, t, u = sp.exp(EPS), sp.Symbol("t", positive=True), sp.Symbol("u", positive=True)
    signs = {E: 1 + t, P: u / (1 + u)}                  # ε > 0 and 0 < p < 1, for sign decisions
    kern, prior = rr_kernel(E), Dist({0: 1 - P, 1: P})
    steps, per_y = [], {}
    for y in (0, 1):
        r = likelihood_ratios(kern, prior, y)
        win = y if sp.simplify((r[y] - r[1 - y]).subs(signs)).is_positive else None
        if win is None:
            raise AssertionError("could not decide which input maximises the RR likelihood ratio")
        per_y[y] = sp.simplify(r[win])
        steps.append((f"y={y}: ratios P(y|x)/P_Y(y) for x=0,1; x={win} is larger for ε > 0",
                      sp.Tuple(r[0], r[1])))
    gap = sp.factor(sp.simplify(per_y[1] - per_y[0]))
    steps.append(("exp ℓ(X→1) - exp ℓ(X→0): sign of 1-2p, so y=1 leaks more iff p <= 1/2", gap))
    formula = sp.Piecewise((sp.log(per_y[1]), P <= sp.Rational(1, 2)), (sp.log(per_y[0]), True))
    slope = sp.simplify(sp.diff(sp.log(per_y[1]), P))
    steps.append(("d/dp ℓ(X→1) < 0: the sup over p is the limit p → 0 (not attained)", slope))
    extras = {"y1": sp.log(per_y[1]), "y0": sp.log(per_y[0]),
              "sup_over_p": sp.limit(sp.log(per_y[1]), P, 0, "+"),
              "limit_p_to_1": sp.limit(sp.log(per_y[0]), P, 1, "-"),
              "sup_over_lambda": sp.log(sp.simplify(per_y[1].subs(P, LAM)))}
    return finish("rr_pml", formula, "binary randomized response, X ~ Bernoulli(p), 0 < p < 1, ε > 0",
                   steps, extras, subs)


# ---------------------------------------------------------------- (e) Laplace noise under composition
def laplace_k_releases_scale(*, k=None, eps=None) -> Derivation:
    """Lecture notes ch. 5, exercise 1.4: k Laplace releases with ε/k each (sensitivity Δ): the scale that makes one
    release (ε/k)-DP, and the growth factor against one ε release.

    >>> d = laplace_k_releases_scale(); d.formula, d.extras["factor"]
    (Delta*k/epsilon, k)
    """
    subs = {K: None if k is None else valid_size(k, "k"), EPS: None if eps is None else _eps(eps)}
    loss, steps = laplace_shift_loss(DELTA, B)
    b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]
    b_1 = sp.solve(sp.Eq(loss, EPS), B)[0]
    lap = st.Laplace("L", 0, B)
    mag = sp.simplify(st.E(sp.Abs(lap)))
    steps += [("scale with loss ε/k", b_k), ("scale with loss ε", b_1),
              ("E|Lap(b)| (noise magnitude)", mag)]
    extras = {"single_scale": b_1, "factor": sp.simplify(b_k / b_1),
              "magnitude_factor": sp.simplify(mag.subs(B, b_k) / mag.subs(B, b_1)),
              "std_factor": sp.simplify(sp.sqrt(st.variance(lap)).subs(B, b_k) / sp.sqrt(st.variance(lap)).subs(B, b_1))}
    return finish("laplace_k_releases_scale", b_k, "pure ε-DP Laplace mechanism, sensitivity Δ, "
                   "basic composition splitting ε equally", steps, extras, subs)


def histogram_laplace_scales(*, d=None, eps=None) -> Derivation:
    """Lecture notes ch. 5, exercise 1.5: histogram with d >= 2 bins (replace-one neighbours). Per-bin releases with ε/d
    each vs one joint release with i.i.d. Laplace noise per coordinate (L1 sensitivity).

    >>> h = histogram_laplace_scales(); h.formula, h.extras["joint_scale"], h.extras["ratio"]
    (d/epsilon, 2/epsilon, d/2)
    """
    subs = {D: None if d is None else valid_size(d, "d", lo=2), EPS: None if eps is None else _eps(eps)}
    dd = 4                                              # a representative; the change is e_i - e_j
    changes = [sp.Matrix([(1 if t == j else 0) - (1 if t == i else 0) for t in range(dd)])
               for i in range(dd) for j in range(dd) if i != j]
    per_coord = max(max(abs(v) for v in ch) for ch in changes)
    l1 = max(sum(abs(v) for v in ch) for ch in changes)
    loss1, steps = laplace_shift_loss(DELTA, B)
    # the loss of i.i.d. per-coordinate noise is the sum of coordinate losses (Δ_j/b each)
    joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])
    b_bin = sp.solve(sp.Eq(loss1.subs(DELTA, per_coord), EPS / D), B)[0]
    b_joint = sp.solve(sp.Eq(joint_loss, EPS), B)[0]
    steps += [("moving one record between bins i, j changes the counts by e_j - e_i: "
               "per-count sensitivity", sp.Integer(per_coord)), ("L1 sensitivity", sp.Integer(l1)),
              ("per-bin scale with ε/d each", b_bin), ("joint scale (loss Σ_j |Δ_j|/b = ε)", b_joint)]
    extras = {"joint_scale": b_joint, "ratio": sp.simplify(b_bin / b_joint),
              "l1_sensitivity": sp.Integer(l1), "per_count_sensitivity": sp.Integer(per_coord)}
    return finish("histogram_laplace_scales", b_bin, "replace-one neighbours, d >= 2 bins", steps,
                   extras, subs)
