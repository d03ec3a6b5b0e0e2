"""Kasiviswanathan, Smith, "A Note on Differential Privacy: Defining Resistance to Arbitrary Side
Information" (2008).

Definitions 1.1, 1.2 (ε- and (ε,δ)-DP), 2.1, 2.3 (semantic privacy), 3.1, 3.2 (indistinguishability),
statistical difference (§1); Theorems 2.2 and 2.4 with their proof steps (§4); Claim 3.3 parts 1-6
(§3); Lemma 4.1; Appendix A (reality-oblivious semantic privacy: the Gaussian example A.2 and
informed beliefs A.3); Theorem 5.1 and the total-variation remark of §5.
Two random variables X, Y are the two rows of an n=1, |𝒟|=2 table (X = A(0), Y = A(1)); the
default value of x_{-i} is the first element of 𝒟. Claims decided through steps (``proof=``) say
how in the comment above their Proof; the notions those steps need are in
:mod:`theorems.kasiviswanathan_smith_lemmas`.

Extraction errors corrected (not findings): K:89 "2δ/e^{ε_ε}" is 2δ/(ε e^ε); K:93 "e^ε 1" is
e^ε - 1; K:157 "Pr[b̄_0[x|t] = x]/Pr[b̄_0[y|t] = x]" is b̄_0[x|t]/b̄_0[y|t]; K:173 Bad_0's ">…>"
should be "or"; K:19 "Q[S)" is Q(S).
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.ops import ExactOps, exact_sign
from symbolic.core.tables import databases
from symbolic.core.terms import AdaptiveVar, Compose, KernelVar, MechVar, PostProcess
from symbolic.core.verdicts import Sizes
from theorems.kasiviswanathan_smith_appendix import gaussian_ratio_ks
from symbolic.model.mechanism import Mechanism
from symbolic.model.population import Population
from symbolic.notions.claims import (Check, Claim, Definition, E, Equivalent, Fact, Implies, NotImplies, Param,
                                     Proof)
from symbolic.notions.families.dp import ApproxDP, PureDP
from symbolic.notions.families.semantic import (AdditiveSecrecy, ApproxSemanticPrivacy, CrossRatio, DeterministicMap,
                                       Indistinguishable, InformedSemanticPrivacy, LocallyDPSemanticPrivacy,
                                       MostlyIndistinguishable, PointwiseIndistinguishable, PosteriorApprox,
                                       RatioDP, RealityObliviousSemanticPrivacy, SemanticPrivacy,
                                       SemanticPrivacyFor, Spread, TwoPointSemanticPrivacy)
from theorems.kasiviswanathan_smith_lemmas import (LocalSliceGap, PosteriorIndistWhereHeavy, RatioSafeMass,
                                                   SliceEventBound, informed_good_where_safe_at, joint_bad_transcripts,
                                                   joint_posterior_indist, joint_slice_hypotheses,
                                                   posterior_spread_where_safe_at, slice_hypothesis, slice_merges)

SRC = "K"
Es = E.symbol
DELTA = Param("delta", lower=0, upper=1)
Ds = DELTA.symbol
A = MechVar("A")
X = MechVar("X")
AF = AdaptiveVar("AF", after=X)
G = KernelVar("G", source=A)
TWO = Sizes(1, 2, 2)

DEFINITIONS = [
    Definition("K-D1.1", SRC, "ε-DP over sets of outputs (Def 1.1); point-wise on finite 𝒪", (PureDP,)),
    Definition("K-D1.2", SRC, "(ε,δ)-DP (Def 1.2): Σ_o max(0, A(x)(o) - e^ε A(y)(o)) ≤ δ", (ApproxDP,)),
    Definition("K-SD", SRC, "statistical difference SD(P,Q) = max_S |P(S)-Q(S)| (§1)", (AdditiveSecrecy,)),
    Definition("K-D2.1", SRC, "ε-semantic privacy (Def 2.1)", (SemanticPrivacy, SemanticPrivacyFor)),
    Definition("K-D2.3", SRC, "(ε,δ)-semantic privacy (Def 2.3)", (ApproxSemanticPrivacy,)),
    Definition("K-D3.1", SRC, "(ε,δ)-indistinguishability (Def 3.1)", (Indistinguishable,)),
    Definition("K-D3.2", SRC, "point-wise (ε,δ)-indistinguishability (Def 3.2)", (PointwiseIndistinguishable,)),
]


# --- Theorem 2.2 ---------------------------------------------------------------------------------

def _merges_keep_spread(K2):
    """Spread(K2) on 4 points is kept by every deterministic merge 4 → 2 (the 14 non-constant maps)."""
    return tuple(Check(Implies(Spread(K2), Spread(K2).of(PostProcess(A, DeterministicMap(f)))), (E,), Sizes(1, 2, 4))
                 for f in itertools.product(range(2), repeat=4) if len(set(f)) == 2)


# ε-DP ⇒ (e^ε-1)-SP. The direct query (∀ beliefs, degree 4) times out at n=2, so, following the
# corrected proof (E symbolic throughout):
# (1) z3: ε-DP ⇒ CrossRatio(E²) at n=2: A(x)(t)A(y_{-i})(t) ≤ E²A(y)(t)A(x_{-i})(t). Multiplying by
#     b(x)b(y)/(Z0·Zi) ≥ 0, the posteriors π = b̄_0[·|t], ρ = b̄_i[·|t] on the 4 points of 𝒟² satisfy
#     Spread(E²): π(x)ρ(y) ≤ E²π(y)ρ(x) (and Z0 = 0 ⇔ Zi = 0 by ε-DP, x_{-i} being x or a neighbour).
# (2) z3: Spread(E²) on 4 points is kept by every deterministic merge 4 → 2 (14 non-constant maps).
# (3) SD(π, ρ) = SD of the merge by the indicator of S = {π > ρ} (the maximising event, K-SD).
# (4) z3: on 2 points Spread(E²) ⇒ SD ≤ E-1, and even ≤ (E-1)/(E+1) (the tight level).
# (5) z3 proves the direct statement at n=1.
K22A_PROOF = Proof(
    (Check(Implies(PureDP(Es), CrossRatio(Es ** 2)), (E,), Sizes(2, 2, 2)),
     *_merges_keep_spread(Es ** 2),
     Check(Implies(Spread(Es ** 2), Indistinguishable(1, Es - 1)), (E,), TWO),
     Check(Implies(Spread(Es ** 2), Indistinguishable(1, (Es - 1) / (Es + 1))), (E,), TWO),
     Check(Implies(PureDP(Es), SemanticPrivacy(Es - 1)), (E,), TWO)),
    "CrossRatio(E²) at n=2 + Spread kept by merges 4→2 + Spread(E²) ⇒ SD ≤ E-1 (tight (E-1)/(E+1)) on 2 points "
    "+ direct at n=1 (z3)", claim_sizes=(TWO, Sizes(2, 2, 2)))


def _sup_sd_n1(tab):
    """Exact sup over beliefs b = (β, 1-β) of max_t SD(b̄_0[·|t], b̄_1[·|t]) for an n=1, |𝒟|=2 table
    (b̄_1 = b since x_{-1} = 0 for every x): maximise r·β/(rβ+1-β) - β in closed form."""
    beta = sp.Symbol("beta", positive=True)
    best = sp.Integer(0)
    for j in range(len(tab.outputs)):
        a, c = tab.rows[(0,)][j], tab.rows[(1,)][j]
        if a == 0 or c == 0:
            continue
        f = a * beta / (a * beta + c * (1 - beta)) - beta
        for g in (f, -f):
            crit = [s for s in sp.solve(sp.diff(g, beta), beta) if s.is_real and 0 < s < 1]
            for s in crit:
                val = sp.nsimplify(sp.simplify(g.subs(beta, s)))
                if exact_sign(val - best) > 0:
                    best = val
    return best


def _k22b_recheck(cx):
    """The counterexample is (ε̄/2)-semantically private: its sup over beliefs of the SD, exactly."""
    sup, lvl = _sup_sd_n1(cx.mechanisms["A"]), (cx.parameters["E"] - 1) / 2
    ok = exact_sign(lvl - sup) >= 0
    return ok, f"exact sup over beliefs of SD = {sup} ≤ ε̄/2 = {lvl}: {ok}"


# (ε̄/2)-SP ⇒ 2ε-DP, ε̄ = e^ε - 1. SP quantifies over all beliefs and the worst belief can be
# irrational, so SP cannot be a hypothesis of a direct search. At n=1, |𝒟|=2 every belief is on two
# neighbours, so: (1) z3 proves TwoPointSemanticPrivacy(s) ⇒ SemanticPrivacy(s) there (E symbolic,
# s = (E-1)/2); (2) z3 refutes TwoPointSemanticPrivacy((E-1)/2) ⇒ PureDP(E²), re-verified exactly;
# by (1) the counterexample is (ε̄/2)-semantically private; (3) sympy recomputes its sup over beliefs
# of the SD exactly (the recheck).
S_BAR = (Es - 1) / 2
K22B_PROOF = Proof(
    (Check(Implies(TwoPointSemanticPrivacy(S_BAR), SemanticPrivacy(S_BAR)), (E,), TWO),
     Check(Implies(TwoPointSemanticPrivacy(S_BAR), PureDP(Es ** 2)), (E,), TWO)),
    "TwoPointSP ⇒ SP proved at n=1 (z3); TwoPointSP((E-1)/2) ⇏ PureDP(E²)", lemmas=1, recheck=_k22b_recheck)


# --- Theorem 2.4 and Appendix A.3: fixed E = 11/10, δ = r² = 1/100 (ε' < 1), K = 3 -----------------
# ln E ≤ (E²-1)/(2E), so the source's δ' = n(√δ + 2δ/(εe^ε)) ≥ n·δ'_lo ≥ δ'_lo := r + 4r²/(E²-1):
# proving with δ'_lo (or with n·r at n=1) proves the source's.

EV, R10, KS = sp.Rational(11, 10), sp.Rational(1, 10), 3
AT = {"E": EV}
EPS2, DLO = Es ** 3 - 1 + 2 * R10, R10 + 4 * R10 ** 2 / (Es ** 2 - 1)


def _safe_sd_lemmas(K, eps2, n):
    """Per-(i, t) lemmas at size n: for every belief b, a K-ratio-safe t gives SD(b̄_0[·|t], b̄_i[·|t])
    ≤ ε'. The direct query (degree 4 in b and A, under max) times out at n=2, so it goes through the
    Theorem 2.2 Spread machinery (K2 = K²):
    (a) z3, one query per (i, t): t K-ratio-safe ⇒ Z0(t) = 0 ⇔ Zi(t) = 0 and w0[x]·wi[y] ≤ K²·w0[y]·wi[x]
        (w0[x] = b(x)A(x)(t), wi[x] = b(x)A(x_{-i})(t)); dividing by Z0·Zi > 0, the posteriors
        π = b̄_0[·|t], ρ = b̄_i[·|t] on the |𝒟|^n = 4 points of 𝒟² satisfy Spread(K²) (both zero: vacuous);
    (b) z3: Spread(K²) on 4 points is kept by every deterministic merge 4 → 2 (14 non-constant maps);
    (c) SD(π, ρ) = SD of the merge by the indicator of S = {π > ρ} (the maximising event, K-SD);
    (d) z3: on 2 points Spread(K²) ⇒ SD ≤ ε'."""
    return (*(Check(Implies((), posterior_spread_where_safe_at(i, t)(K, K ** 2), parameters=AT), (E,), Sizes(n, 2, 2))
              for i in range(n) for t in range(2)),
            *_merges_keep_spread(K ** 2),
            Check(Implies(Spread(K ** 2), Indistinguishable(1, eps2), parameters=AT), (E,), TWO))


# Theorem 2.4. Part 1 ((ε,δ)-DP ⇒ (e^{3ε}-1+2√δ, O(n√δ))-SP) at E = 11/10, r = 1/10. At n=2, following
# the Appendix A.3 route with K = 3 (all beliefs, not only informed ones):
# (1) z3, n=1 and n=2: (ε,δ)-DP ⇒ RatioSafeMass(K, δ'_lo): ∀x, Pr_{t~A(x)}[t not K-ratio-safe] ≤ δ'_lo
#     (no belief involved);
# (2) per (i, t) at n=2, for every belief: t K-ratio-safe ⇒ SD(b̄_0[·|t], b̄_i[·|t]) ≤ ε' (see
#     _safe_sd_lemmas: z3 per (i, t) to Spread(K²) of the posteriors, merges 4 → 2, Spread(K²) ⇒
#     SD ≤ ε' on 2 points; (K-1)/(K+1) = 1/2 ≤ ε' = 0.531);
# (3) glue: by (2) every bad t (∃i: SD > ε') is not K-ratio-safe, so for every belief b
#     Pr_{x~b, t~A(x)}[bad] = Σ_x b(x)·Pr_{t~A(x)}[bad] ≤ Σ_x b(x)·Pr_{t~A(x)}[not safe] ≤ δ'_lo by (1);
# (4) z3 proves the direct statement at n=1 with δ' = n·r.
# Part 2 ((ε̄/2, δ)-SP ⇒ (2ε, 2δ)-DP): as for Theorem 2.2, z3 proves TwoPointSP(s) ⇒
# ApproxSemanticPrivacy(s, δ) at n=1 and refutes TwoPointSP((E-1)/2) ⇒ ApproxDP(E², 2δ).
_K24_LEMMAS = (
    Check(Implies(TwoPointSemanticPrivacy(S_BAR), ApproxSemanticPrivacy(S_BAR, Ds)), (E, DELTA), TWO),
    Check(Implies(ApproxDP(Es, R10 ** 2), RatioSafeMass(KS, DLO), parameters=AT), (E,), Sizes(2, 2, 2), lo=TWO),
    *_safe_sd_lemmas(KS, EPS2, 2),
    Check(Implies(ApproxDP(Es, R10 ** 2), ApproxSemanticPrivacy(EPS2, R10), parameters=AT), (E,), TWO))
K24_PROOF = Proof(
    (*_K24_LEMMAS,
     Check(Implies(TwoPointSemanticPrivacy(S_BAR), ApproxDP(Es ** 2, 2 * Ds)), (E, DELTA), TWO)),
    "part 1 at E=11/10, δ=1/100, K=3: (ε,δ)-DP ⇒ RatioSafeMass(K, δ'_lo) at n≤2 + per-(i, t) ratio-safe ⇒ "
    "posterior Spread(K²) at n=2 + Spread kept by merges 4→2 + Spread(K²) ⇒ SD ≤ ε' + glue; direct at n=1; "
    "part 2: TwoPointSP ⇒ (s,δ)-SP proved, TwoPointSP((E-1)/2) ⇏ ApproxDP(E², 2δ)",
    lemmas=len(_K24_LEMMAS), claim_sizes=(TWO, Sizes(2, 2, 2)))

# Informed beliefs (Appendix A.3): (ε,δ)-DP ⇒ reality-oblivious (ε', δ')-SP with the Theorem 2.4
# parameters. The direct query times out at n=2, so it is decomposed (K = 3):
# (1) z3, n=1 and n=2: (ε,δ)-DP ⇒ RatioSafeMass(K, δ'_lo), where t is K-ratio-safe iff A(y)(t) ≤ K·A(z)(t)
#     for all neighbours y, z (no belief involved).
# (2) z3, n=2, one query per (real x, informed coordinate j, transcript t) (|𝒟|^n·n·|𝒪| = 16 pieces;
#     their conjunction is InformedGoodWhereSafe(K, ε')): for every belief b informed for x via j,
#     if A(x)(t) > 0 and t is K-ratio-safe then SD(b̄_0[·|t], b̄_i[·|t]) ≤ ε' for every i.
# (3) glue (monotonicity of a sum): for b informed for x, every bad t with A(x)(t) > 0 is not
#     K-ratio-safe by (2), so Pr_{t~A(x)}[bad] ≤ Pr_{t~A(x)}[not safe] ≤ δ'_lo by (1).
# (4) z3 also proves the direct statement at n=1.
KA3_PROOF = Proof(
    (Check(Implies(ApproxDP(Es, R10 ** 2), RatioSafeMass(KS, DLO), parameters=AT), (E,), Sizes(2, 2, 2), lo=TWO),
     *(Check(Implies((), informed_good_where_safe_at(xi, j, t)(KS, EPS2), parameters=AT), (E,), Sizes(2, 2, 2))
       for xi in range(4) for j in range(2) for t in range(2)),
     Check(Implies(ApproxDP(Es, R10 ** 2), InformedSemanticPrivacy(EPS2, DLO), parameters=AT), (E,), TWO)),
    "E=11/10, δ=1/100, K=3: (ε,δ)-DP ⇒ RatioSafeMass(K, δ'_lo) at n≤2 + 16 pieces of InformedGoodWhereSafe(K, ε') "
    "at n=2 + monotonicity of the bad mass; direct statement at n=1 (z3)", claim_sizes=(TWO, Sizes(2, 2, 2)))


# --- Claim 3.3 parts 3 and 4: mixtures with the first stage X free --------------------------------
# X(a)·A(a)(o) is bilinear inside max(0, ·), and the engine decides both parts directly, X free, by
# the vertices of the hypotheses' polytopes (symbolic/solve/routes/vertices.py): for fixed E and δ, X's
# hypothesis (its rows agree) is linear in X, each A(a)'s in A(a), and every hockey-stick atom of the
# negated conclusion is linear in each table separately. Part 4's hypothesis, the X-mass of the a
# whose A(a), A'(a) are not (ε,δ)-indistinguishable ≤ δ, is split exactly into one case per set S of
# a that may be bad: X(S) ≤ δ and A(a), A'(a) indistinguishable off S; with E and δ symbolic that is
# 4 cases and about 2,300 small queries at n = 1. (The source's argument: good a have hockey ≤ δ, bad
# a have hockey ≤ 1 and X-mass ≤ δ, so the joint hockey Σ_a X(a)·hockey ≤ δ + δ.)
K333 = Implies((PureDP(1).of(X), Indistinguishable(Es, Ds).of(AF)), Indistinguishable(Es, Ds).of(Compose(X, AF)))
K334 = Implies((PureDP(1).of(X), MostlyIndistinguishable(Es, Ds).of(X, AF)),
               Indistinguishable(Es, 2 * Ds).of(Compose(X, AF)))


# --- Claim 3.3 part 2 and Lemma 4.1: constants with ln E ------------------------------------------

def _l_lo(Ev):
    """A rational lower bound on ln E (E ≥ 1): 2(E-1)/(E+1)."""
    return 2 * (Ev - 1) / (Ev + 1)


def _k332_recheck(cx):
    """X(Bad) or Y(Bad) exceeds the source's 2δ/(ε e^ε) with ln E exact (E = 2)."""
    Ev, tab, d = K332_E, cx.mechanisms["A"], cx.parameters["delta"]
    X_, Y_ = tab.rows[(0,)], tab.rows[(1,)]
    bad = [a > Ev ** 2 * c or c > Ev ** 2 * a for a, c in zip(X_, Y_)]
    mass = max(sum(a for a, b in zip(X_, bad) if b), sum(c for c, b in zip(Y_, bad) if b))
    ok = exact_sign(mass - 2 * d / (Ev * sp.log(Ev))) > 0
    return ok, f"exact: max(X(Bad), Y(Bad)) = {mass} > 2δ/(ε e^ε) = {2 * d / (Ev * sp.log(Ev))}: {ok}"


# (ε,δ)-indist ⇒ point-wise (2ε, 2δ/(ε e^ε))-indist. ln E is not polynomial, so z3 refutes the *weaker*
# conclusion with ln E replaced by the lower bound L = 2(E-1)/(E+1) (a larger δ bound), at E = 2
# (L = 2/3); sympy then checks exactly that X(Bad) > 2δ/(E·ln E) for the counterexample. Beside it:
# the constant that does hold, E and δ symbolic (E > 1: the search keeps to E - 1 ≠ 0), and 99/100 of
# it refuted at E = 2 (so no smaller constant factor works uniformly in δ).
K332_E, K332_GOOD = sp.Integer(2), Ds * (Es ** 2 + 1) / (Es * (Es - 1))
K332_PROOF = Proof(
    (Check(Implies(Indistinguishable(Es, Ds), PointwiseIndistinguishable(Es ** 2, 2 * Ds / (Es * _l_lo(K332_E))),
                   parameters={"E": K332_E}), (E, DELTA), Sizes(1, 2, 3), lo=TWO),
     Check(Implies(Indistinguishable(Es, Ds), PointwiseIndistinguishable(Es ** 2, K332_GOOD)), (E, DELTA),
           Sizes(1, 2, 3), lo=TWO),
     Check(Implies(Indistinguishable(Es, Ds), PointwiseIndistinguishable(Es ** 2, sp.Rational(99, 100) * K332_GOOD),
                   parameters={"E": K332_E}), (E, DELTA), Sizes(1, 2, 3), lo=TWO, expect=False)),
    verdict="first", recheck=_k332_recheck)


def _k41_mechanism(sizes=None):
    """The spec's exact counterexample (notes/lk-exp/k41.py): E=2, δ=1/10⁴, 𝒟={u,v}, 𝒪={t0,t1,t2};
    P = row 0, Q = row 1 over cells (x, t) ↦ index 2t + x."""
    p = sp.Rational(21, 1000)
    c = sp.Rational(1, 210)
    P1 = {(0, 1): p * c, (1, 1): (1 - p) * c, (0, 2): 0, (1, 2): 2 * (1 - p) * c}
    Q1 = {(0, 1): 0, (1, 1): 2 * (1 - p) * c, (0, 2): p * c, (1, 2): (1 - p) * c}
    restP = 1 - sum(P1.values()) - sp.Rational(1, 4)
    restQ = 1 - sum(Q1.values()) - sp.Rational(1, 4)
    assert restP == restQ
    P1[(0, 0)], P1[(1, 0)] = sp.Rational(1, 4), restP
    Q1[(0, 0)], Q1[(1, 0)] = sp.Rational(1, 4), restQ
    rowP = [P1[(j % 2, j // 2)] for j in range(6)]
    rowQ = [Q1[(j % 2, j // 2)] for j in range(6)]
    return {"A": Mechanism.from_table({(0,): rowP, (1,): rowQ}, n=1, domain=(0, 1), outputs=tuple(range(6)),
                                      name="Lemma 4.1 counterexample")}


K41_E, K41_R, K41_BETA, K41_OUTPUTS = sp.Integer(2), sp.Rational(1, 100), sp.Rational(1, 100), 2
K41_CORRECTED = K41_R ** 2 * (K41_E ** 2 + 1) / (K41_E * (K41_E - 1)) + (1 + K41_E ** 2) * K41_R / 2


def _k41_recheck(cx):
    """The bad mass of the counterexample, exactly, against the bound with ln 2 exact."""
    exact_bound = K41_R + 2 * K41_R ** 2 / (K41_E * sp.log(K41_E))
    bads = joint_bad_transcripts(ExactOps(), cx.mechanisms["A"], 2, K41_E ** 3, 2 * K41_R)
    mass = min(sum(pt for bad, pt, _ in bads if bad), sum(qt for bad, _, qt in bads if bad))
    ok = exact_sign(mass - exact_bound) > 0
    return ok, f"exact: Pr[bad t] = {mass} (under P and under Q) > √δ + 2δ/(ε e^ε) = {exact_bound}: {ok}"


def _k41_glue():
    """The corrected constant covers the per-transcript bound: |𝒪|·β ≤ δ''."""
    ok = K41_OUTPUTS * K41_BETA <= K41_CORRECTED
    return ((f"|𝒪|·β = {K41_OUTPUTS * K41_BETA} ≤ δ'' = {K41_CORRECTED} at |𝒟|=2, |𝒪|={K41_OUTPUTS}: {ok}", ok),)


# Lemma 4.1: joint (ε,δ)-indist ⇒ Pr_t[posteriors not (3ε, 2√δ)-indist] ≤ √δ + 2δ/(ε e^ε). δ = r², E fixed
# at 2, r = 1/100; ln E replaced by L = 2(E-1)/(E+1) ≤ ln E (a weaker conclusion, so a refutation refutes
# the source's); z3 checks the exact counterexample of the spec (a free search over 12 unknowns with these
# tiny constants does not finish); sympy then computes the bad mass of the counterexample exactly and
# compares it with the bound with ln 2 exactly. Beside it, the corrected constant
# δ'' = δ(E²+1)/(E(E-1)) + (1+E²)√δ/2 (a hand derivation, see the finding) at |𝒟| = 2, |𝒪| = 2 with the
# same E, δ (δ'' = 101/4000), through per-transcript slices:
# (1) z3: joint (ε,δ)-indist ⇒ JointSliceHypotheses: at each t both hockey sums over the cells (x, t) are
#     ≤ δ (a sub-sum of the joint hockey);
# (2) z3 on 2-atom slices: PosteriorIndistWhereHeavy(β = 1/100): a slice with both hockey sums ≤ δ has
#     (ε̂, δ̂)-indistinguishable posteriors, or P(t) ≤ β and Q(t) ≤ β (1/110 is refuted);
# (3) glue: every bad t has P(t), Q(t) ≤ β, so both bad masses are ≤ |𝒪|·β = 1/50 ≤ δ''.
K41_PROOF = Proof(
    (Check(Implies(Indistinguishable(Es, K41_R ** 2),
                   joint_posterior_indist(2)(Es ** 3, 2 * K41_R, K41_R + 2 * K41_R ** 2 / (K41_E * _l_lo(K41_E))),
                   parameters={"E": K41_E}, mechanisms=_k41_mechanism), (E,), Sizes(1, 2, 6)),
     Check(Implies(Indistinguishable(Es, K41_R ** 2), joint_slice_hypotheses(2)(Es, K41_R ** 2),
                   parameters={"E": K41_E}), (E,), Sizes(1, 2, 2 * K41_OUTPUTS)),
     Check(Implies((), PosteriorIndistWhereHeavy(Es, K41_R ** 2, Es ** 3, 2 * K41_R, K41_BETA),
                   parameters={"E": K41_E}), (E,), Sizes(1, 2, 3)),
     Fact("corrected δ'' = δ(E²+1)/(E(E-1)) + (1+E²)√δ/2 through per-transcript slices", _k41_glue, listed=False)),
    verdict="first", recheck=_k41_recheck)


# --- Appendix A ------------------------------------------------------------------------------------

def _ka2_mechanism(sizes=None):
    """A(x)_1 = δ(2^{w(x)} - 1) for x ∈ {0,1}^5 (w = number of ones): (ln 2, 1/100)-DP."""
    rows = {x: [1 - sp.Rational(2 ** sum(x) - 1, 100), sp.Rational(2 ** sum(x) - 1, 100)]
            for x in databases(5, (0, 1))}
    return {"A": Mechanism.from_table(rows, n=5, domain=(0, 1), outputs=(0, 1), name="A.2 finite witness")}


_N, _SIGMA = sp.Symbol("n", positive=True, integer=True), sp.Symbol("sigma", positive=True)
KA2_DISPLAYED = sp.exp((1 - 2 * _N) / (2 * _SIGMA))        # the source's display
KA2_RATIO = sp.exp(-_N / _SIGMA ** 2 + 1 / (2 * _SIGMA ** 2))  # what the densities give (checked below)


def _ka2_display():
    g = gaussian_ratio_ks()
    same = bool(g.extras["display_agrees"])
    return ((f"sympy derives the ratio {g.formula} from the two densities: "
             f"{sp.simplify(g.formula - KA2_RATIO) == 0}", sp.simplify(g.formula - KA2_RATIO) == 0),
            (f"the display is the source's: {g.extras['displayed'] == KA2_DISPLAYED}",
             g.extras["displayed"] == KA2_DISPLAYED),
            (f"display equals the derived ratio: {same} (they agree only at σ = {g.extras['agree_at_sigma']})", same))


# (ε,δ)-DP does not give reality-oblivious SP: z3 re-verifies a finite witness (E=2, δ=1/100, n=5, real
# database 11111, belief uniform on {00000, 10000}) against ε' = δ' = 1/4; the Gaussian ratio of the
# source's display is derived by sympy (kasiviswanathan_smith_appendix.gaussian_ratio_ks) and compared with the display.
KA2_PROOF = Proof(
    (Check(NotImplies(ApproxDP(Es, sp.Rational(1, 100)), RealityObliviousSemanticPrivacy(sp.Rational(1, 4),
                                                                                          sp.Rational(1, 4)),
                      parameters={"E": 2}, mechanisms=_ka2_mechanism), (E,), Sizes(5, 2, 2)),
     Fact(f"source display {KA2_DISPLAYED} = derived ratio {KA2_RATIO}", _ka2_display)),
    verdict="first")


# Theorem 5.1 with explicit constants: ℰ = databases all of whose neighbours are (ε,δ)-indist;
# b(ℰ) ≥ 1-δ ⇒ (ε', δ')-SP for b, ε' = e^{3ε}-1+2√δ, δ' = n(√δ + 2δ/(εe^ε)) ≥ n·√δ. Proved with the
# stronger δ' = n·r (δ = r²; 2r at (1, 2, 3), see (6)) at fixed E = 11/10, r = 1/10 (ε' = 0.531 < 1, not
# vacuous): z3 proves the direct statement at (1, 2, 2); at n=2 (|𝒟| = 2, |𝒪| ∈ {2, 3}) the direct query
# times out (degree 4 in b and A under max), so it goes through slices (theorems.kasiviswanathan_smith_lemmas:
# c_x = b(x)A(x)(t), d_x = b(x)A(x_{-i})(t) over the 4 atoms x ∈ 𝒟², so that Z0(t) = Σc, Zi(t) = Σd,
# b̄_0 = c/Σc, b̄_i = d/Σd), with β = δ'/3 = 1/15:
# (1) z3, belief-free, n ≤ 2: LocalSliceGap: x ∈ ℰ ⇒ max(0, A(x)(t) - E·A(x_{-i})(t)) +
#     max(0, A(x_{-i})(t) - E·A(x)(t)) ≤ δ for every i, t (x_{-i} is x or a neighbour of x).
# (2) hand (max(0, λz) = λ·max(0, z) for λ ≥ 0): multiplying (1) by b(x) and summing over S = ℰ gives
#     Σ_{x∈ℰ} gaps ≤ δ·b(ℰ) ≤ δ, and Σ_{x∉ℰ} c_x, Σ_{x∉ℰ} d_x ≤ b(𝒟²∖ℰ) ≤ δ: the slice at every (i, t)
#     satisfies SliceHypothesis(ℰ).
# (3) z3, one query per S ⊆ 𝒟² (16): SliceHypothesis(S) ⇒ SliceMerges(S): for every event U the 4-atom
#     merge (S∩U, S∖U, U∖S, neither) satisfies SliceHypothesis({0, 1}); merging keeps Σc, Σd, c(U), d(U).
# (4) z3, on 4-atom slice tables: SliceHypothesis({0, 1}) ⇒ its expanded form (the S-part as 9 linear
#     constraints; E, δ symbolic), and the expanded form ⇒ SliceEventBound(ε', β) with β = δ'/3:
#     Σc ≤ β, or Σd > 0 and π({0,2}) - ρ({0,2}) ≤ ε'. (With the max-form hypothesis z3's answer depends
#     on what ran before in the context: 1 s or a timeout.)
# (5) glue: take U = {x : b̄_0[x|t] > b̄_i[x|t]}, so SD(b̄_0[·|t], b̄_i[·|t]) = π(U) - ρ(U), which the
#     merge by U turns into π'({0,2}) - ρ'({0,2}). By (2)-(4), a transcript t that is bad for some i
#     (SD > ε', or exactly one of Z0, Zi zero) has Z0(t) ≤ β, so Pr_{x~b, t~A(x)}[bad] =
#     Σ_{bad t} Z0(t) ≤ |𝒪|·β ≤ δ' for |𝒪| ≤ 3.
# (6) n = 1: a slice has 2 atoms; padded with two atoms c = d = 0 it is a 4-atom slice table with the
#     same Σc, Σd, SD and slice conditions, so (3)-(5) with LocalSliceGap at n = 1 give bad mass ≤ 3β = 1/5
#     at (1, 2, 3) (the direct query there times out). That is 2r, not n·r = 1/10, but still below the
#     source's δ' = √δ + 2δ/(εe^ε) ≥ 1/10 + 2/11 at n = 1 (εe^ε ≤ (1/10)(11/10) since ln(1+x) ≤ x).
#     z3 proves the direct statement with δ' = n·r at (1, 2, 2).
# The Theorem 2.4 / Appendix A.3 route (global ratio safety) does not carry over: its belief-free step is
# false under this hypothesis (n=2, A(00) = A(01) = A(10) = (1/2, 1/2), A(11) = (0, 1), ℰ ∋ 00; see
# tests/theorems/test_kasiviswanathan_lemmas.py).
_FIVE = Sizes(1, 2, 5)
_CANON, _EXPANDED = slice_hypothesis((0, 1)), slice_hypothesis((0, 1), expanded=True)
K51_PROOF = Proof(
    (Check(Implies((), LocalSliceGap(Es, R10 ** 2), parameters=AT), (E,), Sizes(2, 2, 3), lo=TWO),
     *(Check(Implies(slice_hypothesis(S)(Es, R10 ** 2), slice_merges(S)(Es, R10 ** 2), parameters=AT), (E,), _FIVE)
       for k in range(5) for S in itertools.combinations(range(4), k)),
     Check(Implies(_CANON(Es, Ds), _EXPANDED(Es, Ds)), (E, DELTA), _FIVE),
     Check(Implies(_EXPANDED(Es, R10 ** 2), SliceEventBound(EPS2, 2 * R10 / 3), parameters=AT), (E,), _FIVE),
     Check(Implies((), LocallyDPSemanticPrivacy(Es, R10 ** 2, EPS2, R10), parameters=AT), (E,), TWO)),
    "E=11/10, δ=1/100: LocalSliceGap at n≤2 + slice hypothesis kept by the 16·16 event merges + "
    "SliceEventBound(ε', δ'/3) on 4 atoms + glue (sum over bad t); direct at (1,2,2) (z3); (1,2,3) by padding "
    "the slices", claim_sizes=(TWO, Sizes(1, 2, 3), Sizes(2, 2, 2), Sizes(2, 2, 3)))


def _tv_mechanism(sizes=None):
    """Publish a random record: A(x) = (I, x_I), I uniform on {1, 2}; outputs (i, v) ↦ 2i + v."""
    rows = {x: [sp.Rational(1, 2) * int(x[i] == v) for i in range(2) for v in (0, 1)] for x in databases(2, (0, 1))}
    return {"A": Mechanism.from_table(rows, n=2, domain=(0, 1), outputs=tuple(range(4)), name="random record")}


CLAIMS = [
    Claim("K-D1.1", "⇔", SRC, "Def 1.1 on finite 𝒪: ε-DP over events (Σ max(0, ·) ≤ 0) ⇔ point-wise ε-DP", "equivalent",
          Equivalent(ApproxDP(Es, 0), PureDP(Es)), sizes=Sizes(2, 2, 3)),
    Claim("K-2.2a", "⇒", SRC, "Theorem 2.2: ε-DP ⇒ (e^ε-1)-semantic privacy", "holds", proof=K22A_PROOF),
    Claim("K-2.2b", "⇒", SRC, "Theorem 2.2: ((e^ε-1)/2)-semantic privacy ⇒ 2ε-DP", "holds", proof=K22B_PROOF,
          expect="proved",
          finding=("False for every ε > 0. Exact counterexample (n=1, 𝒟=𝒪={0,1}, E=3/2): A(0)=(25/34, 9/34), "
                   "A(1)=(9/34, 25/34); for every belief SD(b̄_0, b̄_1) ≤ (√(25/9)-1)/(√(25/9)+1) = 1/4 = ε̄/2 "
                   "(equality at b(0)=3/8), but the likelihood ratio 25/9 > E² = 9/4. Tight: s-SP ⇒ ε*-DP with "
                   "e^{ε*} = ((1+s)/(1-s))² (attained); for s = ε̄/2 that is ((1+E)/(3-E))² > E² for 1 < E < 3, "
                   "and for E ≥ 3 every mechanism is ε̄/2-SP. ε-DP ⇒ tanh(ε/2)-SP ⇒ 2ε-DP is the exact chain.")),
    Claim("K-2.2.step", "step", SRC, "proof of Thm 2.2: ε-DP ⇒ e^{-ε} b̄_i[x|t] ≤ b̄_0[x|t] ≤ e^ε b̄_i[x|t]", "holds",
          (Implies(PureDP(Es), PosteriorApprox(Es), parameters={"E": 2}),), sizes=Sizes(2, 2, 3), min_sizes=Sizes(2, 2, 2),
          finding=("Checked from n=2 (at n=1 the step holds: b̄_1 is the prior). False: the correct factor is e^{±2ε} (L-2.1; proved), tight as a supremum. Counterexample "
                   "(E=2): XOR randomized response at n=2 (A(x)_1 = E/(1+E) if x_1≠x_2 else 1/(1+E)), belief "
                   "b(10)=1/10, b(11)=9/10, t=1, i=1: b̄_0[10|1] = 2/11 > 2·b̄_1[10|1] = 2/19; the engine's own "
                   "minimal counterexample is reported with the verdict. Thm 2.2's first part survives (K-2.2a).")),
    Claim("K-2.2.step2", "step", SRC, "proof of Thm 2.2: b uniform on neighbours, SD ≤ ε̄/2 ⇒ "
          "Pr[A(x)=t]/Pr[A(y)=t] ≤ (1+ε̄)/(1-ε̄) ≤ e^{2ε}", "holds",
          (Implies(SemanticPrivacyFor((Es - 1) / 2), RatioDP(Es, 2 - Es),
                   population=lambda s: Population({(0,): sp.Rational(1, 2), (1,): sp.Rational(1, 2)}, n=1,
                                                   domain=(0, 1))),
           Implies(SemanticPrivacyFor((Es - 1) / 2), PureDP(Es ** 2),
                   population=lambda s: Population({(0,): sp.Rational(1, 2), (1,): sp.Rational(1, 2)}, n=1,
                                                   domain=(0, 1)))),
          sizes=Sizes(1, 2, 3), min_sizes=TWO,
          finding=("The first inequality holds (proved: ratio ≤ (1+ε̄)/(1-ε̄) = E/(2-E)); the second is false "
                   "for every E > 1: E/(2-E) - E² = E(E-1)²/(2-E) > 0 (and for E ≥ 2 the bound is not finite). "
                   "E = 3/2: 3 > 9/4. The engine's counterexample to the combined step is reported.")),
    Claim("K-2.4", "⇒", SRC, "Theorem 2.4: (ε,δ)-DP ⇒ (e^{3ε}-1+2√δ, O(n√δ))-SP; (ε̄/2, δ)-SP ⇒ (2ε, 2δ)-DP",
          "holds", proof=K24_PROOF, expect="proved",
          finding=("Part 1 holds (proved at E=11/10, δ=1/100: at n=1 with δ' = n√δ, at n=2 with δ' = √δ + 4δ/(E²-1), "
                   "both stronger than the source's). Part 2 is "
                   "false: the K-2.2b mechanism (E=3/2, A(0)=(25/34, 9/34)) is (ε̄/2, 0)-SP, hence (ε̄/2, δ)-SP, but "
                   "max_S A(0)(S) - E²·A(1)(S) = 19/136, so it is not (2ε, 2δ)-DP for δ < 19/272. The engine's "
                   "own witness may sit at a larger E (e.g. E=3, where ε̄/2 = 1 makes semantic privacy vacuous and "
                   "a deterministic table breaks 2ε-DP); the K-2.2b mechanism shows the failure for every 1 < E < 3.")),
    Claim("K-3.3.1", "⇒", SRC, "Claim 3.3(1): point-wise (ε,δ)-indist ⇒ (ε,δ)-indist", "holds",
          (Implies(PointwiseIndistinguishable(Es, Ds), Indistinguishable(Es, Ds)),),
          params=(E, DELTA), sizes=Sizes(1, 2, 3), min_sizes=TWO),
    Claim("K-3.3.2", "⇒", SRC, "Claim 3.3(2): (ε,δ)-indist ⇒ point-wise (2ε, 2δ/(ε e^ε))-indist", "holds",
          proof=K332_PROOF, expect="proved",
          finding=("False for every ε > 0 (whenever the bound is < 1). The constant that holds: "
                   "max(X(Bad), Y(Bad)) ≤ δ(E²+1)/(E(E-1)) (> 2δ/(E ln E); proved by the engine at |𝒪| ≤ 3 "
                   "with E and δ symbolic; 99/100 of it is refuted at E=2, so no smaller factor holds for every δ). Example (E=2, δ=1/10): "
                   "X = (17/100, 4/100, 79/100), Y = (4/100, 17/100, 79/100): both hockeys 9/100 ≤ δ, "
                   "X(Bad) = 21/100 > δ/ln 2 ≈ 0.1443. The engine's own counterexample is reported. Proof errors: "
                   "bounds only Y(S), and the 'similar argument' bounds X(S') not Y(S').")),
    Claim("K-3.3.3", "prop", SRC, "Claim 3.3(3): A(a), A'(a) (ε,δ)-indist ∀a ⇒ (X, A(X)), (X, A'(X)) (ε,δ)-indist "
          "(X = a first stage that ignores which of A, A' runs)", "holds",
          (K333,), params=(E, DELTA), sizes=Sizes(1, 2, 2), min_sizes=TWO, expect="proved"),
    Claim("K-3.3.4", "prop", SRC, "Claim 3.3(4): with probability ≥ 1-δ over a ← X, A(a), A'(a) (ε,δ)-indist ⇒ "
          "the pairs are (ε, 2δ)-indist", "holds",
          (K334,), params=(E, DELTA), sizes=Sizes(1, 2, 2), min_sizes=TWO, expect="proved"),
    Claim("K-3.3.5", "prop", SRC, "Claim 3.3(5): post-processing of (ε,δ)-indistinguishability (randomized G)",
          "holds", (Implies(Indistinguishable(Es, Ds), Indistinguishable(Es, Ds).of(PostProcess(A, G))),),
          params=(E, DELTA), sizes=TWO, min_sizes=TWO),
    Claim("K-3.3.6", "⇒", SRC, "Claim 3.3(6): (ε,δ)-indist ⇒ SD ≤ (e^ε-1) + δ", "holds",
          (Implies(Indistinguishable(Es, Ds), Indistinguishable(1, Es - 1 + Ds)),),
          params=(E, DELTA), sizes=Sizes(1, 2, 3), min_sizes=TWO),
    Claim("K-4.1", "⇒", SRC, "Lemma 4.1: joint (ε,δ)-indist ⇒ with probability ≥ 1-δ'' over t the posteriors are "
          "(3ε, 2√δ)-indist, δ'' = √δ + 2δ/(ε e^ε)", "holds", proof=K41_PROOF, expect="proved",
          finding=("False with the explicit δ''. Exact counterexample (E=2, δ=1/10⁴): 𝒟={u,v}, 𝒪={t0,t1,t2}, "
                   "p=21/1000: P(u,t1)=p/210, P(v,t1)=(1-p)/210, Q(u,t1)=0, Q(v,t1)=2(1-p)/210; Q(u,t2)=p/210, "
                   "Q(v,t2)=(1-p)/210, P(u,t2)=0, P(v,t2)=2(1-p)/210; P(u,t0)=Q(u,t0)=1/4. Joint hockeys 1/10⁴; "
                   "t1, t2 bad; P(bad) = Q(bad) = 493/35000 > √δ + δ/ln 2 ≈ 0.010144. The proof bounds "
                   "Pr[A'(Y) ∈ Bad'_2], not Pr[A(X) ∈ Bad'_2], and uses Claim 3.3(2). A valid constant: "
                   "δ'' = δ(E²+1)/(E(E-1)) + (1+E²)√δ/2 (by hand: Pr[Bad_0] from the engine-proved constant of "
                   "K-3.3.2, Pr[A(X) ∈ Bad'_2] ≤ E²·Pr[A'(Y) ∈ Bad'_2] off Bad_0); the engine checks it at |𝒟|=2, "
                   "|𝒪|=2 for E=2, δ=1/10⁴ (per-transcript slices), not in general.")),
    Claim("K-A.2", "⇏, derive", SRC, "Appendix A.2: (ε,δ)-DP does not give reality-oblivious semantic privacy; "
          "the Gaussian ratio Pr[A(x)=n|x=0^n]/Pr[A(x)=n|x=(1,0^{n-1})] = exp((-2n+1)/(2σ))", "as stated",
          proof=KA2_PROOF, expect="refuted",
          finding=("The non-implication stands (finite witness: E=2, δ=1/100, n=5, A(x)_1 = (2^{w(x)}-1)/100, belief "
                   "uniform on {00000, 10000}, real x = 11111: SD = 1/2 at t=1, Pr_{A(11111)}[t=1] = 31/100). The "
                   "displayed ratio is wrong: with variance σ² the ratio is exp((1-2n)/(2σ²)); the text writes 2σ.")),
    Claim("K-A.3", "⇒", SRC, "Appendix A.3: informed beliefs: (ε,δ)-DP ⇒ reality-oblivious (ε', δ')-SP with the "
          "Theorem 2.4 parameters", "holds", proof=KA3_PROOF, expect="proved"),
    Claim("K-5.1", "⇒", SRC, "Theorem 5.1: DP only on ℰ with b(ℰ) ≥ 1-δ ⇒ (ε', δ')-SP for b, Theorem 2.4 "
          "parameters", "holds", proof=K51_PROOF, expect="proved"),
    Claim("K-5.TV", "example", SRC, "§5: with total variation, 'publish a random record' counts as private "
          "(SD 1/n between neighbours) although it is not ε-DP and not semantically private", "as stated",
          (Implies((), AdditiveSecrecy(sp.Rational(1, 2)), mechanisms=_tv_mechanism),
           NotImplies((), PureDP(Es), mechanisms=_tv_mechanism),
           NotImplies((), ApproxSemanticPrivacy(sp.Rational(1, 4), sp.Rational(99, 100)), mechanisms=_tv_mechanism)),
          sizes=Sizes(2, 2, 4), min_sizes=Sizes(2, 2, 4), only_sizes=True),
]
