"""Notions quantified over a prior on the data: local information privacy, maximal leakage,
Bayesian DP, inferential privacy and noiseless privacy (the membership notions are in
:mod:`symbolic.notions.zoo.membership`, Pufferfish and distributional DP in
:mod:`symbolic.notions.zoo.pufferfish`).

The data set X ∈ 𝒟^n is drawn from a prior P (a population); A is the kernel P(o|x). Every
condition is a ratio of conditional probabilities; each is compared cross-multiplied by the
probabilities of its conditions (no division), which is equivalent to the ratio form wherever
the conditions have positive probability, and what a guard says elsewhere. Comparisons over
events S ⊆ 𝒪 reduce to single outputs: for ratio bounds because Σ_{o∈S} p_o ≤ E·Σ_{o∈S} q_o
follows from p_o ≤ E·q_o for each o; for additive bounds by the hockey-stick identity
max_S (P(S) − E·Q(S)) = Σ_o max(0, p_o − E·q_o).

Populations: ``"given"`` is one prior shared by a claim; ``"all"`` every prior on 𝒟^n;
``"product"`` every prior with independent records. Each ``"all"``/``"product"`` notion has a
``sufficient`` family with its proof (the functions below) and a test against the solver.

The full texts of these papers were not at hand when this module was written: the definitions
follow the papers as cited (statement numbers left out where they could not be checked) and the
project's notion zoo; differences are stated in each docstring.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.tables import databases
from symbolic.model.population import Population
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion, ParamSpec
from symbolic.notions.info import NotionInfo
from symbolic.notions.prior_terms import output_prob


# --- shared terms ---------------------------------------------------------------------------------

def when(ops, guard, make):
    """``guard ⇒ make()``; in exact arithmetic ``make()`` is not built when the guard fails, so a
    comparison that does not apply never shows up as a failure reason."""
    if guard is False or (ops.exact and not guard):
        return True
    return ops.Implies(guard, make())


def mass(ops, A, P, keep):
    """P(X ∈ {x : keep(x)}) = Σ_{keep(x)} P(x)."""
    return ops.sum(P.p(d) for d in A.rows if keep(d))


def joint(ops, A, P, keep, o):
    """P(X ∈ {x : keep(x)}, O = o) = Σ_{keep(x)} P(x)·A(x)(o)."""
    return ops.sum(P.p(d) * A.p(d, o) for d in A.rows if keep(d))


def running_max(ops, xs):
    """max(x_1, ..., x_k) as x_1 + max(0, x_2 − m_1) + ... (exact, and a chain of If terms for z3)."""
    m = xs[0]
    for x in xs[1:]:
        m = m + ops.max0(x - m)
    return m


def odds_bound(ops, A, P, *, E, i, fixed=(), label=""):
    """For record i, a pair of values u ≠ v and an output o, with the records ``fixed`` = ((j, x_j),
    ...) known: P(o | X_i=u, x_K) ≤ E·P(o | X_i=v, x_K) where both conditions have positive
    probability, as P(o, u, x_K)·P(v, x_K) ≤ E·P(o, v, x_K)·P(u, x_K)."""
    match = {u: (lambda d, u=u: d[i] == u and all(d[j] == w for j, w in fixed)) for u in A.domain}
    m = {u: mass(ops, A, P, match[u]) for u in A.domain}
    out = []
    for o in A.outputs:
        jo = {u: joint(ops, A, P, match[u], o) for u in A.domain}
        for u, v in itertools.permutations(A.domain, 2):
            out.append(when(ops, ops.And([ops.gt(m[u], 0), ops.gt(m[v], 0)]), lambda u=u, v=v, o=o: ops.le(
                jo[u] * m[v], E * jo[v] * m[u],
                why=lambda: f"i={i+1}{label}, X_i={u} vs {v}, o={o}: P(o|X_i={u}{label}) > E·P(o|X_i={v}{label})")))
    return ops.And(out)


# --- finite families of priors (each with the proof of the notions that use it) -------------------

def two_point_priors(n, domain):
    """The uniform priors on two databases {x, y}, x ≠ y.

    They decide every condition of the form "P(o | X ∈ s) ≤ E·P(o | X ∈ s') for every prior with
    P(s), P(s') > 0", s ∩ s' = ∅ (Bayesian DP's and inferential privacy's for all priors,
    Pufferfish's for all data distributions). Proof: P(o | s) is the average of A(x)(o) over x ∈ s
    with weights P(x | s), and P(o | s') that of A(y)(o) over y ∈ s'; the two weightings can be
    chosen independently (s, s' are disjoint), so the largest ratio over priors is
    max_{x∈s} A(x)(o) / min_{y∈s'} A(y)(o), and the uniform prior on the maximiser x and the
    minimiser y has exactly these two conditionals. A violation under some prior is thus a
    violation under a two-point prior, which is a prior; the converse is trivial."""
    dbs = databases(n, tuple(domain))
    return [Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain, name=f"uniform on {x},{y}")
            for x, y in itertools.combinations(dbs, 2)]


def neighbour_pair_priors(n, domain):
    """The uniform priors on two neighbours {r⊕u, r⊕v} (record i takes u or v, the other records
    are r). They are product priors: point masses on the other records, uniform on {u, v} at i.

    They decide "P(o | X_i ∈ U) ≤ E·P(o | X_i ∈ V) for every product prior with P(X_i ∈ U),
    P(X_i ∈ V) > 0" (U ∩ V = ∅). Proof: under a product prior, P(o | X_i ∈ U) =
    Σ_{u∈U} w_u Σ_r P_{-i}(r)·A(r⊕u)(o) with w the marginal of X_i conditioned on U, and the rest
    r has the same law P_{-i} under both conditions. For fixed w, w', the difference
    P(o|U) − E·P(o|V) is affine in P_{-i}, which is multilinear in the other marginals, so its
    largest value over products of simplices is at a vertex, a point mass on one rest r; there it
    is Σ_u w_u A(r⊕u)(o) − E·Σ_v w'_v A(r⊕v)(o) ≤ max_u A(r⊕u)(o) − E·min_v A(r⊕v)(o), the value
    under the uniform prior on the maximiser and the minimiser. So some product prior violates
    the bound iff one of these does."""
    dbs = databases(n, tuple(domain))
    return [Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain, name=f"uniform on {x},{y}")
            for x, y in itertools.combinations(dbs, 2) if sum(a != b for a, b in zip(x, y)) == 1]


# --- local information privacy --------------------------------------------------------------------

def _lip(ops, A, P, *, E):
    """E⁻¹·P_Y(y) ≤ P(y|x) ≤ E·P_Y(y) for every y and every x with P(x) > 0. An output with
    P_Y(y) = 0 has P(y|x) = 0 on the support, and both sides are 0."""
    out = []
    for o in A.outputs:
        py = output_prob(ops, A, P, o)
        for d in A.rows:
            out.append(when(ops, ops.gt(P.p(d), 0), lambda d=d, o=o, py=py: ops.And([
                ops.le(A.p(d, o), E * py, why=lambda: f"x={d}, y={o}: P(y|x) > E·P_Y(y)"),
                ops.le(py, E * A.p(d, o), why=lambda: f"x={d}, y={o}: P(y|x) < P_Y(y)/E")])))
    return ops.And(out)


LocalInformationPrivacy = Notion(
    "LocalInformationPrivacy", (E_SPEC,), _lip, population="given",
    summary="ε-LIP under the given prior: e^-ε ≤ P(y|x)/P_Y(y) ≤ e^ε for every y and x with P(x) > 0 "
            "(Jiang, Li, Tandon, IEEE TIFS 2021)")
"""ε-local information privacy (Jiang, Li, Tandon, "Context-aware local information privacy",
IEEE Trans. Inf. Forensics Security 16 (2021); also Grosse, Saeidian, Sadeghi, Oechtering,
Skoglund, "Quantifying privacy via information density", arXiv 2402.12967): for the prior P_X,
e^{-ε} ≤ P(y|x)/P_Y(y) ≤ e^ε for all y and all x in the support of P_X, i.e. the information
density i(x; y) = log P(x|y)/P(x) lies in [−ε, ε]. The secret is the whole data set X."""


def _lip_every_prior(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(x, o), E * A.p(y, o), why=lambda x=x, y=y, o=o: f"y={o}: P(y|x={x}) > E·P(y|x={y})")
                   for x in A.rows for y in A.rows if x != y for o in A.outputs)


LocalInformationPrivacyEveryPrior = Notion(
    "LocalInformationPrivacyEveryPrior", (E_SPEC,), _lip_every_prior,
    summary="ε-LIP under every prior, in closed form: P(y|x) ≤ e^ε·P(y|x') for every y and every two data sets")
"""ε-LIP for every prior on 𝒟^n, in closed form: P(y|x) ≤ E·P(y|x') for every output y and every two data sets
x ≠ x' (free-lunch privacy). Proof. If the closed form holds, then for any prior P_Y(y) = Σ P(x')·P(y|x') is an
average of values each ≥ P(y|x)/E and ≤ E·P(y|x), so both LIP bounds hold for every x. Conversely, if
P(y|x) > E·P(y|x'), the prior with weight t on x and 1 − t on x' has P_Y(y) = t·P(y|x) + (1 − t)·P(y|x') → P(y|x')
as t → 0, so P(y|x) > E·P_Y(y) for t small enough (x has P(x) = t > 0): the upper bound of LIP fails. The
supremum over priors is not attained (a table at level exactly E is approached as t → 0, never reached), so this
is the notion's level for a fixed table as a supremum over priors. Cross-checked against the given-prior notion by
the solver in ``tests/notions/test_readings.py``."""


# --- maximal leakage ------------------------------------------------------------------------------

L_SPEC = ParamSpec("E", lower=1, meaning="E = e^L, L ≥ 0 the bound on the maximal leakage in nats")


def _maximal_leakage(ops, A, P=None, *, E):
    cols = [running_max(ops, [A.p(d, o) for d in A.rows]) for o in A.outputs]
    total = ops.sum(cols)
    return ops.le(total, E, why=lambda: f"Σ_y max_x P(y|x) = {total} > E = {E}")


def _maximal_leakage_under(ops, A, P, *, E):
    cols = [running_max(ops, [ops.If(ops.gt(P.p(d), 0), A.p(d, o), 0) for d in A.rows]) for o in A.outputs]
    total = ops.sum(cols)
    return ops.le(total, E, why=lambda: f"Σ_y max_(x: P(x)>0) P(y|x) = {total} > E = {E}")


MaximalLeakage = Notion(
    "MaximalLeakage", (L_SPEC,), _maximal_leakage,
    summary="maximal leakage ≤ L = ln E: Σ_y max_x P(y|x) ≤ E (Issa, Wagner, Kamath, IEEE-IT 2020, Def. 1, Thm 1)")
"""Maximal leakage (Issa, Wagner, Kamath, "An operational approach to information leakage",
IEEE Trans. Inf. Theory 66 (2020), Def. 1; closed form Thm 1): L(X→Y) = sup over U − X − Y of
log Pr[U = Û(Y)] / max_u P_U(u) = log Σ_y max_{x: P_X(x)>0} P(y|x). It depends on the prior only
through its support; this notion takes every database in the support (every full-support
prior, which is also the supremum over priors). The level is given as E = e^L (so that the
condition Σ_y max_x P(y|x) ≤ E has no logarithm; ``eps`` on the command line is L in nats). The
notes name the parameter ``L``; here it is ``E`` like every other level, meaning e^L."""

MaximalLeakageUnder = Notion(
    "MaximalLeakageUnder", (L_SPEC,), _maximal_leakage_under, population="given",
    summary="maximal leakage under the given prior ≤ ln E: Σ_y max over the support of P(y|x) ≤ E")


# --- Bayesian differential privacy (Yang, Sato, Nakagawa) -----------------------------------------

def _bayesian_dp(ops, A, P, *, E):
    out = []
    for i in range(A.n):
        others = [j for j in range(A.n) if j != i]
        for k in range(len(others) + 1):
            for K in itertools.combinations(others, k):
                for xk in itertools.product(A.domain, repeat=k):
                    fixed = tuple(zip(K, xk))
                    label = "".join(f", X{j+1}={w}" for j, w in fixed)
                    out.append(odds_bound(ops, A, P, E=E, i=i, fixed=fixed, label=label))
    return ops.And(out)


_BDP_SUMMARY = ("ε-Bayesian DP: P(o | X_i=u, X_K=x_K) ≤ e^ε·P(o | X_i=v, X_K=x_K) for every target i, known set "
                "K ⊆ [n]∖{i}, x_K, u, v, o where both conditions have positive probability")
BayesianDP = Notion("BayesianDP", (E_SPEC,), _bayesian_dp, population="given",
                    summary=_BDP_SUMMARY + " (the given prior; Yang, Sato, Nakagawa, SIGMOD 2015)")
"""ε-Bayesian differential privacy (Yang, Sato, Nakagawa, "Bayesian differential privacy on
correlated data", SIGMOD 2015): an adversary (i, K) targets record i and knows the records in
K ⊆ [n]∖{i}; the rest are unknown and distributed by the prior conditioned on what it knows. The
Bayesian DP leakage of the adversary is sup over x_i, x_i', x_K, S of
log P(r(X)∈S | x_i, x_K) / P(r(X)∈S | x_i', x_K); the mechanism is ε-BDP when every adversary's
leakage is ≤ ε. K = ∅ is Bayesian₀ DP (Tschantz, Sen, Datta), K = [n]∖{i} the strong Bayesian
DP of the same paper. The prior is the given population (the paper's correlation model)."""

BayesianDPAllPriors = Notion("BayesianDPAllPriors", (E_SPEC,), _bayesian_dp, population="all",
                             sufficient=two_point_priors,
                             summary=_BDP_SUMMARY + " (every prior; decided on the two-point priors)")
"""Bayesian DP for every prior. Each condition compares P(o | X ∈ s) with P(o | X ∈ s') for the
disjoint sets s = {x_i = u, x_K}, s' = {x_i = v, x_K}: the two-point priors decide it (see
:func:`two_point_priors`). The level is then the largest ratio A(x)(o)/A(y)(o) over all x ≠ y
(any two databases differ in some record i and agree on K = ∅), free-lunch privacy."""


# --- inferential privacy (Ghosh, Kleinberg) -------------------------------------------------------

def _inferential(ops, A, P, *, E):
    return ops.And(odds_bound(ops, A, P, E=E, i=i) for i in range(A.n))


_IP_SUMMARY = ("ε-inferential privacy: P(X_i=a | o)/P(X_i=b | o) ≤ e^ε·P(X_i=a)/P(X_i=b) for every i, a, b, o "
               "(posterior odds at most e^ε times prior odds)")
InferentialPrivacy = Notion("InferentialPrivacy", (E_SPEC,), _inferential, population="given",
                            summary=_IP_SUMMARY + " under the given prior (Ghosh, Kleinberg, ITCS 2017)")
"""ε-inferential privacy (Ghosh, Kleinberg, "Inferential privacy guarantees for differentially
private mechanisms", ITCS 2017, arXiv 1603.01508): under the prior π on the data set, for every
record i, values a, b with π(X_i=a), π(X_i=b) > 0 and event S with positive probability, the
posterior odds of a against b given M(X) ∈ S are at most e^ε times the prior odds. By Bayes'
rule the odds ratio is P(S | X_i=a)/P(S | X_i=b), so the condition is, cross-multiplied,
P(X_i=a, o)·P(X_i=b) ≤ e^ε·P(X_i=b, o)·P(X_i=a) for each output o (an o with P(X_i=b, o) = 0 <
P(X_i=a, o) has infinite posterior odds and fails). The paper studies the guarantee over
families of priors (independent, positively affiliated, ...): the two families that are finite
to decide are below; affiliated priors are not encoded."""

InferentialPrivacyAllPriors = Notion(
    "InferentialPrivacyAllPriors", (E_SPEC,), _inferential, population="all", sufficient=two_point_priors,
    summary=_IP_SUMMARY + " for every prior (decided on the two-point priors)")
"""Inferential privacy for every prior (arbitrary correlations). The condition compares
P(o | X_i = a) with P(o | X_i = b), disjoint conditions: :func:`two_point_priors` decides it."""

InferentialPrivacyProductPriors = Notion(
    "InferentialPrivacyProductPriors", (E_SPEC,), _inferential, population="product",
    sufficient=neighbour_pair_priors,
    summary=_IP_SUMMARY + " for every prior with independent records (decided on neighbour pairs)")
"""Inferential privacy for every product prior (independent records), where the paper recalls that
ε-DP gives ε-inferential privacy. :func:`neighbour_pair_priors` decides it (U = {a}, V = {b})."""


# --- noiseless privacy (Bhaskar, Bhowmick, Goyal, Laxman, Thakurta) -------------------------------

def _noiseless(ops, A, P, *, E, delta):
    out = []
    for i in range(A.n):
        m = {u: mass(ops, A, P, lambda d, u=u: d[i] == u) for u in A.domain}
        jo = {(u, o): joint(ops, A, P, lambda d, u=u: d[i] == u, o) for u in A.domain for o in A.outputs}
        for a, b in itertools.permutations(A.domain, 2):
            hockey = ops.sum(ops.max0(jo[a, o] * m[b] - E * jo[b, o] * m[a]) for o in A.outputs)
            out.append(ops.le(hockey, delta * m[a] * m[b], why=lambda i=i, a=a, b=b: (
                f"i={i+1}, X_i={a} vs {b}: some event S has P(S|X_i={a}) > E·P(S|X_i={b}) + δ")))
    return ops.And(out)


NoiselessPrivacy = Notion(
    "NoiselessPrivacy", (E_SPEC, DELTA_SPEC), _noiseless, population="given",
    summary="(ε,δ)-noiseless privacy under the given data distribution: P(S | X_i=a) ≤ e^ε·P(S | X_i=b) + δ "
            "for every i, a, b, S (Bhaskar et al., ASIACRYPT 2011)")
"""(ε, δ)-noiseless privacy (Bhaskar, Bhowmick, Goyal, Laxman, Thakurta, "Noiseless database
privacy", ASIACRYPT 2011): the mechanism (often a deterministic query) draws its randomness from
the data distribution 𝒟: for every record ℓ, values a, a' and event S,
P(f(T) ∈ S | t_ℓ = a, Aux) ≤ e^ε·P(f(T) ∈ S | t_ℓ = a', Aux) + δ. Over events this is the
hockey-stick sum Σ_o max(0, P(o|a) − E·P(o|a')) ≤ δ; multiplied by P(a)·P(a') it needs no
division and holds trivially when either value has probability 0. Difference from the paper: the
auxiliary information Aux is empty here (an adversary who knows other records is Bayesian DP's
known set K, :data:`BayesianDP`)."""


NoiselessPrivacyAllPriors = Notion(
    "NoiselessPrivacyAllPriors", (E_SPEC, DELTA_SPEC), _noiseless, population="all", sufficient=two_point_priors,
    summary="(ε,δ)-noiseless privacy for every data distribution (decided on the two-point priors)")
"""(ε, δ)-noiseless privacy for every data distribution. For record i and values a ≠ b the condition is
H(P(·|X_i=a), P(·|X_i=b)) ≤ δ with H(P, Q) = Σ_o max(0, P(o) − E·Q(o)), cross-multiplied by P(X_i=a)·P(X_i=b).
P(·|X_i=a) is a mixture of the rows A(x), x_i = a, and P(·|X_i=b) one of the rows A(y), y_i = b, with weights that
can be chosen independently (the two sets of data sets are disjoint). H is jointly convex, so its largest value
over the two simplices of weights is at a vertex: one row against one row, which the uniform prior on {x, y}
gives exactly (there the cross-multiplied condition is the conditional one times 1/4). So
:func:`two_point_priors` decides it; a prior giving either value probability 0 satisfies it trivially."""


def _entries():
    return (
        NotionInfo("lip", LocalInformationPrivacy, "given prior", "polynomial",
                   "Jiang, Li, Tandon, Context-aware local information privacy, IEEE TIFS 2021 (definition of ε-LIP)",
                   "∀ y, ∀ x with P(x) > 0: E⁻¹·P_Y(y) ≤ P(y|x) ≤ E·P_Y(y)"),
        NotionInfo("maximal-leakage", MaximalLeakage, "whole data set, full-support prior", "polynomial",
                   "Issa, Wagner, Kamath, An operational approach to information leakage, IEEE-IT 2020, Def. 1 "
                   "and Thm 1", "Σ_y max_x P(y|x) ≤ E, E = e^L"),
        NotionInfo("bayesian-dp", BayesianDP, "given prior; target record vs known records K", "polynomial",
                   "Yang, Sato, Nakagawa, Bayesian differential privacy on correlated data, SIGMOD 2015 "
                   "(definition of ε-Bayesian DP)",
                   "∀ i, K ⊆ [n]∖{i}, x_K, u, v, o: P(o|X_i=u, x_K) ≤ E·P(o|X_i=v, x_K) under the prior"),
        NotionInfo("inferential-privacy", InferentialPrivacy, "given prior; one record's value", "polynomial",
                   "Ghosh, Kleinberg, Inferential privacy guarantees for differentially private mechanisms, "
                   "ITCS 2017 (arXiv 1603.01508)",
                   "∀ i, a, b, o: P(X_i=a|o)/P(X_i=b|o) ≤ E·P(X_i=a)/P(X_i=b)"),
        NotionInfo("noiseless-privacy", NoiselessPrivacy, "given data distribution; one record's value",
                   "polynomial", "Bhaskar, Bhowmick, Goyal, Laxman, Thakurta, Noiseless database privacy, "
                   "ASIACRYPT 2011", "∀ i, a, b, S: P(S|X_i=a) ≤ E·P(S|X_i=b) + δ under the data distribution"),
    )


ALL = [LocalInformationPrivacy, LocalInformationPrivacyEveryPrior, MaximalLeakage, MaximalLeakageUnder, BayesianDP,
       BayesianDPAllPriors, InferentialPrivacy, InferentialPrivacyAllPriors, InferentialPrivacyProductPriors, NoiselessPrivacy,
       NoiselessPrivacyAllPriors]
ENTRIES = _entries()
