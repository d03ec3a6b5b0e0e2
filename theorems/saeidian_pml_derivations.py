"""Saeidian et al. (2023)'s own derivations, checked in sympy: what Proposition 12 says about the
Laplace counting query beyond its supremum (λ = 1/2, the large-n bound), the Chernoff bound of
Example 3.3, the limit along two-point priors in the proof of Theorem 11 (3) ⇒ free-lunch privacy,
and Theorem 10's construction with its leakage.

The closed forms they start from are in :mod:`theorems.saeidian_pml_closed_forms` (PML of the Laplace
and truncated geometric counts and of randomized response); the general pieces (the Bernoulli MGF,
Taylor coefficients) are the engine's, in :mod:`symbolic.derive.closed_forms`.
Floats appear only in :func:`numeric_chernoff_bound` (for plots and cross-checks).
"""
from __future__ import annotations

import math

import sympy as sp

from symbolic.core.errors import InvalidSize
from symbolic.api import evaluate
from symbolic.core.prob import Dist, Kernel
from symbolic.core.tables import databases
from symbolic.core.verdicts import Derived
from symbolic.derive.closed_forms import (EPS, LAM, B, K, N, P, Derivation, bernoulli_mgf, finish, taylor,
                                          valid_prob, valid_size)
from symbolic.model.mechanism import Mechanism
from symbolic.notions.families.dp import PureDP
from symbolic.notions.leakage import likelihood_ratios

A = sp.Symbol("a", positive=True)          # k/n in Example 3.3
_T = sp.Symbol("t", real=True)


# --- Proposition 12: the Laplace counting query ------------------------------------------------------

def prop12_extras(formula, values=None):
    """Proposition 12's statements about sup_{p∈[λ,1-λ]} ℓ (``formula``, a function of ε and λ): its
    value at λ = 1/2 and series there ("almost halved"), and the large-n bound (1-λ)ε, also in b = 1/(nε).
    ``large_n_gap_slope`` is d/dε of (1-λ)ε minus the formula: it is ≥ 0 and the gap is 0 at ε = 0, so
    (1-λ)ε bounds the exact supremum for every ε ≥ 0 (checked in the tests). ``values`` (exact, e.g.
    {EPS: 1}) are substituted afterwards, as the engine's derivations do with their keyword arguments."""
    at_half = sp.log(sp.simplify(sp.exp(formula).subs(LAM, sp.Rational(1, 2))))
    large_n = sp.collect(taylor(formula, EPS, 2), EPS)
    gap = sp.factor(sp.simplify(sp.diff(large_n - formula, EPS)))
    out = {
        "at_half": at_half,
        "series_at_half": taylor(at_half, EPS, 6),
        "large_n": large_n,
        "large_n_in_b": large_n.subs(EPS, 1 / (N * B)),
        "large_n_gap_slope": gap,
    }
    return {k: e.subs(values) for k, e in out.items()} if values else out


# --- Example 3.3: the deterministic threshold query ------------------------------------------------

def chernoff_threshold_leakage(*, n=None, k=None, p=None) -> Derivation:
    """Example 3.3: Y = 1{K >= k}, K ~ Bin(n, p), answered deterministically. ℓ(X→y) = -log P_Y(y);
    for the likely answer (y=0 when k/n >= p, y=1 when k/n <= p) Chernoff gives
    ℓ <= -log(1 - e^{-n KL(k/n ‖ p)}), KL the Bernoulli divergence. Derived: min over t of
    e^{-tk} M(t)^n with M the Bernoulli MGF.

    >>> chernoff_threshold_leakage().extras["t_star"]
    log(a*(1 - p)/(p*(1 - a)))
    """
    subs = {N: None if n is None else valid_size(n, "n"), K: None if k is None else valid_size(k, "k", lo=0),
            P: None if p is None else valid_prob(p)}
    if n is not None and k is not None:
        if k > n:
            raise InvalidSize(f"k={k} exceeds n={n}")
        subs[A] = sp.Rational(k, n)
    q, c = sp.symbols("q c", positive=True)            # q = 1-p, c = 1-a during the algebra
    back = {q: 1 - P, c: 1 - A}
    M = bernoulli_mgf(P, _T).subs(1 - P, q)
    expo = -_T * A + sp.log(M)                          # (1/n) log(e^{-tk} M(t)^n), a = k/n
    t_star = sp.solve(sp.diff(expo, _T), _T)
    if len(t_star) != 1:
        raise AssertionError(f"expected one stationary point, got {t_star}")
    t_star = t_star[0].subs(A - 1, -c)
    m_star = sp.factor(sp.together(M.subs(_T, t_star))).subs(A + c, 1)
    val = -A * t_star + sp.log(m_star)
    kl = A * sp.log(A / P) + c * sp.log(c / q)
    diff = sp.simplify(sp.expand_log(val + kl, force=True).subs(A, 1 - c))
    steps = [("Bernoulli MGF (q = 1-p)", M),
             ("(1/n) log of e^{-tk} M(t)^n, a = k/n", expo),
             ("stationary point t* (>= 0 iff a >= p: upper tail; <= 0: lower tail)", t_star.subs(back)),
             ("M(t*) using a + c = 1", m_star.subs(back)),
             ("exponent at t* plus KL(a‖p): zero means the bound is e^{-n KL(a‖p)}", diff)]
    kl = kl.subs(back)
    bound = -sp.log(1 - sp.exp(-N * kl))
    steps.append(("deterministic Y: max_x P(y|x) = 1, so ℓ(X→y) = -log P_Y(y) <= this", bound))
    j = sp.Symbol("j", integer=True, nonnegative=True)
    pmf = sp.binomial(N, j) * P ** j * (1 - P) ** (N - j)
    extras = {"kl": kl, "t_star": t_star.subs(back), "chernoff_tail": sp.exp(-N * kl),
              "exact_y0": -sp.log(sp.Sum(pmf, (j, 0, K - 1))),
              "exact_y1": -sp.log(sp.Sum(pmf, (j, K, N)))}
    formula = bound
    return finish("chernoff_threshold_leakage", formula,
                   "X_1..X_n i.i.d. Bernoulli(p), Y = 1{K >= k}, a = k/n in (0, 1); bounds the likely "
                   "answer (y=0 if a >= p, y=1 if a <= p)",
                   steps, extras, subs)


def threshold_check(n: int, k: int, p) -> dict:
    """Exact ℓ of the likely answer and the Chernoff bound at integer n, k and rational p.

    Both are -log of rationals: e^{-n KL(k/n‖p)} = (p/a)^k ((1-p)/(1-a))^{n-k}, a = k/n.
    ``holds`` compares the rationals exactly.

    >>> r = threshold_check(20, 10, sp.Rational(1, 5)); r["y"], r["holds"]
    (0, True)
    """
    valid_size(n, "n"), valid_size(k, "k")
    if k > n:
        raise InvalidSize(f"k={k} exceeds n={n}")
    p = valid_prob(p)
    a = sp.Rational(k, n)
    upper = sum(sp.binomial(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))
    y = 0 if a >= p else 1
    prob = 1 - upper if y == 0 else upper
    tail = (p / a) ** k * (((1 - p) / (1 - a)) ** (n - k) if k < n else 1)
    return {"y": y, "P_Y": prob, "exact": sp.log(1 / prob), "bound": -sp.log(1 - tail),
            "chernoff_tail": tail, "holds": bool(1 - prob <= tail)}


def numeric_chernoff_bound(n, a, p) -> float:
    """-log(1 - e^{-n KL(a‖p)}) in floats (for plots)."""
    kl = (a * math.log(a / p) if a > 0 else 0.0) + ((1 - a) * math.log((1 - a) / (1 - p)) if a < 1 else 0.0)
    return -math.log1p(-math.exp(-n * kl))


# --- Theorem 11 (3) ⇒ free-lunch privacy: the limit along two-point priors ---------------------------

def entry_pml_limit_checks(n=2, k=2, m=2):
    """For a kernel with symbolic entries on 𝒟^n (|𝒟| = k, m outputs) and every index i, output
    y and ordered pair a ≠ b with a_i ≠ b_i: under the full-support prior
    P = (1-η)(tδ_a + (1-t)δ_b) + η·uniform, exp ℓ(X_i→y) at u = a_i tends to A(a)(y)/A(b)(y) as
    η → 0 and then t → 0 (A(b)(y) > 0), and to ∞ when A(b)(y) = 0 < A(a)(y). Computed with
    :mod:`symbolic.notions.leakage` and sympy limits. Since every pair x ≠ x' differs at some i, the
    supremum of max_i ℓ(X_i→y) over full-support priors is at least the free-lunch level, which
    is the direction "Theorem 11 (3) ⇒ FLP". Returns a list of (text, ok)."""
    dom = tuple(range(k))
    dbs = databases(n, dom)
    t, eta = sp.Symbol("t", positive=True), sp.Symbol("eta", positive=True)
    checks = []
    for y in range(1):   # the column A(·)(y) is symbolic, so one output stands for every output
        for a in dbs:
            for b in dbs:
                diff = [i for i in range(n) if a[i] != b[i]]
                if not diff:
                    continue
                i = diff[0]
                for zero in (False, True):
                    ka, kb, kr = sp.Symbol("alpha", positive=True), sp.Symbol("beta", positive=True), sp.Symbol("gamma", positive=True)
                    col = {d: (ka if d == a else (0 if zero else kb) if d == b else kr) for d in dbs}
                    # the other outputs take the rest of each row's mass (one extra output suffices)
                    rows = {d: {"y": col[d], "other": 1 - col[d]} for d in dbs}
                    kern = Kernel(rows, outputs=("y", "other"))
                    w = {d: (1 - eta) * ((t if d == a else (1 - t) if d == b else 0)) + eta / len(dbs) for d in dbs}
                    prior = Dist(w)
                    r = likelihood_ratios(kern, prior, "y", attribute=lambda x, i=i: x[i])
                    val = r[a[i]]
                    lim = sp.limit(sp.limit(val, eta, 0, "+"), t, 0, "+")
                    ok = (lim == sp.oo) if zero else sp.simplify(lim - ka / kb) == 0
                    checks.append((f"i={i+1}, a={a}, b={b}{', A(b)(y)=0' if zero else ''}: limit = {lim}", ok))
    return checks


# --- Proposition 5: the witness U' of the proof (A.3) ---------------------------------------------------

def prop5_witness_checks():
    """The witness of Proposition 5's proof (A.3): U' = 1{U=u1} ∨ (U≠u1 and a θ-coin). Returns (text, ok)
    for each identity: P(U'=1|y) = 1 when P(u1|y) = 1; P_U'(1) = p_max at θ = (p_max-p1)/(1-p1); P_U'(1)
    grows with θ at rate 1-p1; and the interval of θ above that point has length (1-p_max)/(1-p1)."""
    p1, pmax, th, post = sp.symbols("p1 p_max theta q", positive=True)
    new_post = post + th * (1 - post)            # P(U'=1|y) = P(u1|y) + θ(1 - P(u1|y))
    new_prior = p1 + th * (1 - p1)               # P_{U'}(1)
    lo = (pmax - p1) / (1 - p1)
    return (("P(U'=1|y) = 1 when P(u1|y) = 1", sp.simplify(new_post.subs(post, 1) - 1) == 0),
            ("P_U'(1) = p_max at θ = (p_max-p1)/(1-p1)", sp.simplify(new_prior.subs(th, lo) - pmax) == 0),
            ("d P_U'(1)/dθ = 1-p1 > 0", sp.simplify(sp.diff(new_prior, th) - (1 - p1)) == 0),
            ("1 - (p_max-p1)/(1-p1) = (1-p_max)/(1-p1)", sp.simplify((1 - lo) - (1 - pmax) / (1 - p1)) == 0))


# --- Theorem 10: an ε-DP mechanism leaking about X_i towards log 1/P(x_i) -----------------------------

def th10_output_one(zeros, E_):
    """K(1|x) = c·E^{-z(x)} of Theorem 10's construction, z(x) the number of zeros of x, c = E/(E+1) (the
    S-spec's reconstruction); ``zeros`` may be a symbol (z = n for x = 0^n)."""
    return E_ / (E_ + 1) * E_ ** (-zeros)


def th10_mechanism(n, E_):
    """All entries copies of one bit would be the population; the mechanism: K(1|x) = c·E^{-z(x)}
    (:func:`th10_output_one`)."""
    return Mechanism.from_table({x: [1 - th10_output_one(n - sum(x), E_), th10_output_one(n - sum(x), E_)]
                                 for x in databases(n, (0, 1))}, n=n, domain=(0, 1), outputs=(0, 1),
                                name="S-TH10 construction")


def th10_derivation():
    """Theorem 10's construction in sympy: the leakage about X_1 for perfectly correlated entries, exactly
    for n = 1..4, its limit n → ∞ and its continuity in a full-support mixture (the matching upper bound
    for every ε-DP mechanism is an engine check of the claim)."""
    Ep, p, n = sp.Symbol("E", positive=True), sp.Symbol("p", positive=True), sp.Symbol("n", positive=True, integer=True)
    checks, extras = [], {}
    # every n: the prior's support is {1^n, 0^n}, so X_1 = 1 is x = 1^n (no zeros) and X_1 = 0 is x = 0^n;
    # K(1|1^n)/K(1|0^n) = E^n >= 1, so x_1 = 1 gives the largest ratio P(1|x_1)/P_Y(1)
    k_ones, k_zeros = th10_output_one(0, Ep), th10_output_one(n, Ep)
    ratio = sp.simplify(k_ones / (p * k_ones + (1 - p) * k_zeros))
    extras["K(1|1^n)/K(1|0^n)"] = sp.simplify(k_ones / k_zeros)
    formula = sp.log(ratio)
    for nn in (1, 2, 3, 4):
        mech = th10_mechanism(nn, Ep)
        kern = Kernel({x: {0: mech.table().p(x, 0), 1: mech.table().p(x, 1)} for x in databases(nn, (0, 1))})
        prior = Dist({x: (p if all(x) else (1 - p) if not any(x) else 0) for x in databases(nn, (0, 1))})
        r = likelihood_ratios(kern, prior, 1, attribute=lambda x: x[0])
        got = sp.simplify(r[1])
        checks.append((f"n={nn}: exp ℓ(X_1→1) for perfectly correlated Bernoulli(p) entries = 1/(p + (1-p)E^-n)",
                       sp.simplify(got - ratio.subs(n, nn)) == 0))
        for e_val in (2, sp.Rational(3, 2)):
            ok = evaluate(PureDP, th10_mechanism(nn, sp.Integer(e_val) if e_val == 2 else e_val), E=e_val)
            checks.append((f"n={nn}, E={e_val}: the mechanism is ε-DP (exact)", ok))
    h = sp.Symbol("h", positive=True)                     # E = 1 + h > 1
    lim = sp.simplify(sp.limit(sp.exp(formula).subs(Ep, 1 + h), n, sp.oo))
    extras["limit n→∞ of exp ℓ (E > 1)"] = lim
    checks.append(("as n → ∞ (E > 1) the leakage tends to log 1/p = log 1/P(X_i=1), the most any mechanism leaks",
                   sp.simplify(lim - 1 / p) == 0))
    vals = [ratio.subs({Ep: 2, p: sp.Rational(1, 10), n: k}) for k in (1, 2, 3, 5, 10, 20)]
    extras["E=2, p=1/10, n=1,2,3,5,10,20"] = sp.Tuple(*vals)
    checks.append(("E=2, p=1/10: the values increase towards the cap 10", all(a < b for a, b in zip(vals, vals[1:]))
                   and vals[-1] < 10))
    # full-support population: mix in η·uniform; the leakage is continuous in η at η = 0
    eta = sp.Symbol("eta", positive=True)
    nn = 2
    mech = th10_mechanism(nn, Ep)
    kern = Kernel({x: {0: mech.table().p(x, 0), 1: mech.table().p(x, 1)} for x in databases(nn, (0, 1))})
    prior = Dist({x: (1 - eta) * (p if all(x) else (1 - p) if not any(x) else 0) + eta / 4 for x in databases(nn, (0, 1))})
    r = likelihood_ratios(kern, prior, 1, attribute=lambda x: x[0])
    checks.append(("n=2: with η·uniform mixed in (full support) the leakage tends to the same value as η → 0",
                   sp.simplify(sp.limit(r[1], eta, 0) - ratio.subs(n, nn)) == 0))
    return Derived(formula, "X_1 = … = X_n ~ Bernoulli(p) (perfectly correlated), K(1|x) = E/(E+1)·E^(-#zeros(x)); "
                   "exp ℓ(X_i→1) = 1/(p + (1-p)e^(-nε)) → 1/p as nε → ∞", tuple(checks), extras)
