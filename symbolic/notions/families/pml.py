"""Pointwise maximal leakage (PML) notions for the search: polynomial, log-free, written once.

Source: Saeidian, Cervia, Oechtering, Skoglund, "Rethinking Disclosure Prevention with Pointwise
Maximal Leakage" (§2 Defs. 2.3-2.4, Thms 1-2; §3 Def. 3.2, Thms 3-4, Props 5, 7, Thm 6, Cor. 8;
§4 Defs. 4-5, Thms 9-11, Remark 13). Formulas lost in extraction follow
``notes/pml-formulas.md`` and ``/work/notes/S-spec.md`` (reconstructions, checked as claims).

The public notions: ``PMLAllPriors`` (the PML ℓ(X→y) ≤ ε for every output y and every
full-support prior; Def. 4 and Thm. 11 (1)) and ``LeakageCapacityAtMost`` (the leakage capacity,
the supremum of PML over priors and outputs, is at most ε; Def. 2.4 and Thm. 2).

>>> from symbolic.api import evaluate
>>> from symbolic.model.mechanism import randomized_response
>>> rr = randomized_response(3)
>>> [(evaluate(N, rr, E=3), evaluate(N, rr, E=2)) for N in (PMLAllPriors, LeakageCapacityAtMost)]
[(True, False), (True, False)]

The secret is the database X ∈ 𝒟^n (n = 1: a single secret on 𝒟); the mechanism A is the kernel
P_{Y|X}; an attribute U is a second free kernel 𝒟^n → 𝒰 (so U - X - Y holds by construction).
Every ε-statement is polynomial in E = e^ε:

    ℓ_P(X→y) ≤ ε  ⟺  A(x)(y) ≤ E·P_Y(y) for every x with P(x) > 0       (Theorem 1)

(outputs with P_Y(y) = 0 leak nothing: then every such A(x)(y) is 0 and the inequality holds).

Notions quantifying over *all full-support priors* (population ``"all"``/``"product"``) use the
**continuous extension** of the condition to the closed simplex (the inequality for every x, or
for every slice, multiplied out so that no division appears). Lemma (used by every ∀-prior notion
below): if g(P, A) ≤ 0 is a polynomial inequality in the prior that coincides with "PML ≤ ε" on
full-support priors, then "∀ full-support P: PML ≤ ε" ⟺ "∀ P in the closed simplex: g ≤ 0".
Proof: ⇐ is restriction. ⇒: full-support priors are dense in the closed simplex and
{P: g(P, A) ≤ 0} is closed (g is continuous), so it contains the closure. ∎ The engine's
population unknowns are ≥ 0 only; with this lemma no strict positivity is needed, and the
suprema that are not attained (Remark 13) become maxima at vertices of the closure, which is what
the ``sufficient`` families below use. At a boundary prior the body is the continuous extension,
not the support-restricted PML; a witness population reported for a violated ∀-prior notion may
be such a boundary prior, and then every full-support prior close enough to it violates the
notion too (the violation set is open).

Single-prior notions (population ``"given"``, the true prior of Theorems 4, 6, Prop. 7, Cor. 8)
use the exact support-restricted definition. The §3 notions about attributes of the secret
(disclosure, singling out, min-entropy thresholds, the posterior bound) are in
:mod:`symbolic.notions.families.disclosure`, the terms both use in :mod:`symbolic.notions.prior_terms`;
``ALL`` below lists the notions of both modules.
"""
from __future__ import annotations

from symbolic.core.tables import replace
from symbolic.notions.base import E_SPEC, Notion
from symbolic.notions.families.disclosure import (Discloses, DisclosesToAllAdversaries, EpsAtLeastLogInvOneMinusPmin,
                                         EpsAtLeastLogInvPmin, EpsBelowLogInvPmin, MinEntropyAbove, MinEntropyAtLeast,
                                         NoDisclosure, NoDisclosureToAnyAdversary, NondegenerateAttribute,
                                         NoSinglingOut, PosteriorBound, PreProcessing, SecretEntropyAbove, SinglesOut)
from symbolic.notions.prior_terms import FullSupport, insert_at, output_prob, point_masses, rests_at


# --- a single prior (the true distribution) -------------------------------------------------------

def _pml_under(ops, A, P, *, E):
    """ε-PML for the set of priors 𝒫 = {P}: ∀y ∀x with P(x) > 0: A(x)(y) ≤ E·P_Y(y)  (Theorem 1)."""
    return ops.And(ops.Implies(ops.gt(P.p(d), 0),
                               ops.le(A.p(d, o), E * output_prob(ops, A, P, o),
                                      why=lambda d=d, o=o: f"x={d}, y={o}: P(y|x) > E·P_Y(y)"))
                   for d in A.rows for o in A.outputs)


PMLUnder = Notion("PMLUnder", (E_SPEC,), _pml_under, population="given",
                  summary="ε-PML under the given prior: ℓ_P(X→y) ≤ ε for every y")


# --- leakage capacity (Def. 2.4, Theorem 2) -----------------------------------------------------

def _zero_pattern(ops, A, P=None):
    return ops.Or(ops.And([ops.gt(A.p(x, o), 0), ops.eq(A.p(y, o), 0)])
                  for o in A.outputs for x in A.rows for y in A.rows if x != y)


def _no_zero_pattern(ops, A, P=None):
    return ops.And(ops.Implies(ops.gt(A.p(x, o), 0), ops.gt(A.p(y, o), 0,
                               why=lambda x=x, y=y, o=o: f"P({o}|{x}) > 0 = P({o}|{y})"))
                   for o in A.outputs for x in A.rows for y in A.rows if x != y)


ZeroPattern = Notion("ZeroPattern", (), _zero_pattern,
                     summary="some y, x, x' with P(y|x) > 0 = P(y|x') (infinite capacity, L59)")
NoZeroPattern = Notion("NoZeroPattern", (), _no_zero_pattern,
                       summary="every column P(y|·) is zero everywhere or nowhere")


def _min_positive_entry(ops, A, P=None, *, E):
    return ops.And(ops.Or([ops.eq(A.p(d, o), 0), ops.ge(E * A.p(d, o), 1)]) for d in A.rows for o in A.outputs)


MinPositiveEntry = Notion("MinPositiveEntry", (E_SPEC,), _min_positive_entry,
                          summary="every non-zero entry P(y|x) is at least 1/E")


def _lift(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(x, o), E * A.p(y, o), why=lambda x=x, y=y, o=o: f"P({o}|{x}) > E·P({o}|{y})")
                   for o in A.outputs for x in A.rows for y in A.rows if x != y)


CapacityClosedForm = Notion("CapacityClosedForm", (E_SPEC,), _lift, summary=(
    "Theorem 2's closed form: max_y max_{x,x'} P(y|x)/P(y|x') ≤ E"))


# --- ε-PML over families of priors -----------------------------------------------------------

def _pml_ext(ops, A, P, *, E):
    """Continuous extension of ℓ_P(X→y) ≤ ε: A(x)(y) ≤ E·P_Y(y) for every x and y."""
    return ops.And(ops.le(A.p(d, o), E * output_prob(ops, A, P, o),
                          why=lambda d=d, o=o: f"x={d}, y={o}: P(y|x) > E·P_Y(y)")
                   for d in A.rows for o in A.outputs)


PMLAllPriors = Notion("PMLAllPriors", (E_SPEC,), _pml_ext, population="all", sufficient=point_masses,
                      summary="sup over full-support priors of ℓ(X→y) ≤ ε for every y "
                              "(Saeidian et al. (2023), Thm 11 (1))")
PMLProductPriors = Notion("PMLProductPriors", (E_SPEC,), _pml_ext, population="product",
                          sufficient=point_masses,
                          summary="sup over full-support product priors of ℓ(X→y) ≤ ε "
                                  "(Saeidian et al. (2023), Thm 11 (2))")
LeakageCapacityAtMost = Notion("LeakageCapacityAtMost", (E_SPEC,), _pml_ext, population="all",
                               sufficient=point_masses,
                               summary="C(P_{Y|X}) = sup_{P∈𝒬_X} sup_y ℓ_P(X→y) ≤ ε (Definition 2.4)")


def _cond_pml(ops, A, P, *, E):
    """ℓ(X_i→y | X_{-i}=r) ≤ ε for every i, r, y, multiplied by the slice mass m_r:
    A(r⊕u)(y)·Σ_w P(r⊕w) ≤ E·Σ_v P(r⊕v)·A(r⊕v)(y) for every u. Affine in P (and multi-affine in
    the marginals of a product P); at a point mass δ_d it is DP's A(d[i→u])(y) ≤ E·A(d)(y) for the
    slice of d and 0 ≤ 0 elsewhere, so point masses decide it (module lemma)."""
    return ops.And(ops.le(lhs, rhs, why=lambda i=i, r=r, u=u, o=o: f"i={i+1}, x_-i={r}, u={u}, y={o}: "
                                                                  f"P(y|X_i=u, x_-i) > E·P(y|x_-i)")
                   for i, r, u, o, lhs, rhs in _cond_terms(ops, A, P, E))


def _cond_terms(ops, A, P, E):
    """(i, r, u, y, A(r⊕u)(y)·m_r, E·Σ_v P(r⊕v)·A(r⊕v)(y)) for every index, rest, value and output."""
    for i in range(A.n):
        for r in rests_at(A, i):
            mass = ops.sum(P.p(insert_at(r, i, w)) for w in A.domain)
            for o in A.outputs:
                rhs = E * ops.sum(P.p(insert_at(r, i, v)) * A.p(insert_at(r, i, v), o) for v in A.domain)
                for u in A.domain:
                    yield i, r, u, o, A.p(insert_at(r, i, u), o) * mass, rhs


ConditionalPMLAllPriors = Notion(
    "ConditionalPMLAllPriors", (E_SPEC,), _cond_pml, population="all", sufficient=point_masses,
    summary="sup over full-support P of max_i ℓ(X_i→y | X_-i=x_-i) ≤ ε (Saeidian et al. (2023), Thm 9 (1))")
ConditionalPMLProductPriors = Notion(
    "ConditionalPMLProductPriors", (E_SPEC,), _cond_pml, population="product", sufficient=point_masses,
    summary="the same over full-support product priors (Saeidian et al. (2023), Thm 9 (2))")


def _entry_pml_product(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ ε for a product prior: P(y|X_i=u) = Σ_r P(X_-i=r)·A(r⊕u)(y) ≤ E·P_Y(y) for every u
    (independence: P(X_-i=r | X_i=u) = P(X_-i=r)). Multi-affine in the marginals, so the product
    point masses decide it; at δ_d it is A(d[i→u])(y) ≤ E·A(d)(y) (source eq. (7), module lemma)."""
    out = []
    for i in range(A.n):
        rests = rests_at(A, i)
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                lhs = ops.sum(P.marginal_rest(ops, i, r) * A.p(insert_at(r, i, u), o) for r in rests)
                out.append(ops.le(lhs, E * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: "
                                  f"P(y|X_i=u) > E·P_Y(y)"))
    return ops.And(out)


EntryPMLProductPriors = Notion(
    "EntryPMLProductPriors", (E_SPEC,), _entry_pml_product, population="product", sufficient=point_masses,
    summary="sup over full-support product P of max_i ℓ(X_i→y) ≤ ε (Saeidian et al. (2023), Thm 9 (3))")


def _entry_pml_joint(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ ε for a correlated prior, multiplied by P(X_i=u):
    Σ_{x_i=u} P(x)A(x)(y) ≤ E·P(X_i=u)·P_Y(y). No finite family of priors decides it (the
    supremum is approached along P = tδ_a + (1-t)δ_b, t → 0, and both sides vanish at t = 0), so
    it has no ``sufficient`` family; see :func:`entry_pml_all_priors_exact`."""
    out = []
    for i, u, o, pu, joint, py in _entry_terms(ops, A, P):
        out.append(ops.le(joint, E * pu * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: "
                          f"P(y|X_i=u) > E·P_Y(y)"))
    return ops.And(out)


EntryPMLAllPriors = Notion(
    "EntryPMLAllPriors", (E_SPEC,), _entry_pml_joint, population="all",
    summary="sup over full-support (correlated) P of max_i ℓ(X_i→y) ≤ ε (Saeidian et al. (2023), Thm 11 (3))")


def entry_pml_all_priors_exact(A, E) -> bool:
    """Exact decision of :data:`EntryPMLAllPriors` for a concrete table A: the level is the
    free-lunch ratio max_y max_{x≠x'} A(x)(y)/A(x')(y) (proof: ≤ by pre-processing ℓ(X_i→y) ≤
    ℓ(X→y) and Theorem 2; ≥ by the two-point priors tδ_a + (1-t)δ_b with a_i ≠ b_i, under which
    exp ℓ(X_i→y) = A(a)(y)/(tA(a)(y) + (1-t)A(b)(y)) → A(a)(y)/A(b)(y) as t → 0, and mixing in
    η·uniform keeps it full-support; this is the proof of Saeidian et al. (2023), Theorem 11, whose
    limit the theorems side checks in sympy)."""
    from symbolic.core.ops import ExactOps
    return _lift(ExactOps(), A, E=E)


# --- conditional PML for composition ----------------------------------------------------------

def _cond_second(ops, A1, A2, P, *, E):
    """ℓ(X→y2 | Y1=y1) ≤ ε for every y1, y2: the prior is the posterior P(x|y1) ∝ P(x)A1(x)(y1),
    A2 may depend on y1 (a family). Multiplied by P(y1):
    for x with P(x)A1(x)(y1) > 0: A2<y1>(x)(y2)·P(y1) ≤ E·Σ_x' P(x')A1(x')(y1)A2<y1>(x')(y2)."""
    out = []
    fam = A2 if isinstance(A2, dict) else {o1: A2 for o1 in A1.outputs}
    for o1 in A1.outputs:
        p1 = output_prob(ops, A1, P, o1)
        K2 = fam[o1]
        for o2 in K2.outputs:
            rhs = E * ops.sum(P.p(d) * A1.p(d, o1) * K2.p(d, o2) for d in A1.rows)
            for d in A1.rows:
                out.append(ops.Implies(ops.gt(P.p(d) * A1.p(d, o1), 0), ops.le(K2.p(d, o2) * p1, rhs)))
    return ops.And(out)


ConditionalPMLGivenFirst = Notion("ConditionalPMLGivenFirst", (E_SPEC,), _cond_second, population="given", arity=2,
                                  summary="(A1, A2): ℓ(X→y2 | Y1=y1) ≤ ε for every y1, y2")


# --- Remark 13: attainment ------------------------------------------------------------------

def _e_above_one(ops, *m, P=None, E):
    return ops.gt(E, 1)


EAboveOne = Notion("EAboveOne", (E_SPEC,), _e_above_one, arity=0, summary="ε > 0, i.e. E > 1")


def _tight_dp(ops, A, P=None, *, E):
    return ops.Or(ops.eq(A.p(d, o), E * A.p(replace(d, i, v), o)) for i, d, v in A.neighbours() for o in A.outputs)


def _tight_flp(ops, A, P=None, *, E):
    return ops.Or(ops.eq(A.p(x, o), E * A.p(y, o)) for x in A.rows for y in A.rows if x != y for o in A.outputs)


TightDP = Notion("TightDP", (E_SPEC,), _tight_dp, summary="some neighbour ratio equals E exactly")
TightFLP = Notion("TightFLP", (E_SPEC,), _tight_flp, summary="some pair ratio equals E exactly")


def _not_attained_pml(ops, A, P, *, E):
    return ops.And(ops.Implies(ops.gt(output_prob(ops, A, P, o), 0),
                               ops.lt(A.p(d, o), E * output_prob(ops, A, P, o),
                                      why=lambda d=d, o=o: f"x={d}, y={o}: exp ℓ = E attained"))
                   for d in A.rows for o in A.outputs)


def _not_attained_cond(ops, A, P, *, E):
    return ops.And(ops.Implies(ops.gt(rhs, 0), ops.lt(lhs, rhs, why=lambda i=i, r=r, u=u, o=o:
                                                      f"i={i+1}, x_-i={r}, u={u}, y={o}: attained"))
                   for i, r, u, o, lhs, rhs in _cond_terms(ops, A, P, E))


def _not_attained_entry(ops, A, P, *, E):
    out = []
    for i in range(A.n):
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                lhs = ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u)
                out.append(ops.Implies(ops.gt(py, 0), ops.lt(lhs, E * P.marginal(ops, i, u) * py,
                           why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: attained")))
    return ops.And(out)


PMLBelowLevel = Notion("PMLBelowLevel", (E_SPEC,), _not_attained_pml, population="given",
                       summary="under the given prior every ℓ(X→y) with P_Y(y) > 0 is < ε")
ConditionalPMLBelowLevel = Notion("ConditionalPMLBelowLevel", (E_SPEC,), _not_attained_cond, population="given",
                                  summary="under the given prior every ℓ(X_i→y|x_-i) is < ε")
EntryPMLBelowLevel = Notion("EntryPMLBelowLevel", (E_SPEC,), _not_attained_entry, population="given",
                            summary="under the given prior every ℓ(X_i→y) with P_Y(y) > 0 is < ε")


def _is_product(ops, *m, P):
    n = P.n
    if n == 1:
        return True
    marg = lambda j, v: P.marginal(ops, j, v)
    out = []
    for d in P.probs:
        t = marg(0, d[0])
        for j in range(1, n):
            t = t * marg(j, d[j])
        out.append(ops.eq(P.p(d), t))
    return ops.And(out)


IsProduct = Notion("IsProduct", (), _is_product, population="given", arity=0,
                   summary="the given prior is the product of its marginals")


# --- the group bound on an entry's leakage (Theorem 10) ------------------------------------------

def _entry_group_bound(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ -log(P(X_i=u) + (1 - P(X_i=u))E^{-n}) for the maximising u, multiplied out:
    P(y, X_i=u)·(P_u·E^n + 1 - P_u) ≤ P_u·E^n·P_Y(y)."""
    En = E ** A.n
    return ops.And(ops.le(j * (pu * En + 1 - pu), pu * En * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}")
                   for i, u, o, pu, j, py in _entry_terms(ops, A, P))


def _entry_terms(ops, A, P):
    """(i, u, y, P(X_i=u), P(y, X_i=u), P_Y(y)) for every index, value and output."""
    for i in range(A.n):
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                yield i, u, o, P.marginal(ops, i, u), ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u), py


EntryLeakageGroupBound = Notion("EntryLeakageGroupBound", (E_SPEC,), _entry_group_bound, population="given",
                                summary="ℓ(X_i→y) ≤ -log(P(x_i) + (1-P(x_i))e^{-nε}) "
                                        "(Saeidian et al. (2023), Thm 10, upper bound)")


# --- pre-processing onto an entry ----------------------------------------------------------------

def _entry_pre(ops, A, P):
    """ℓ(X_i→y) ≤ ℓ(X→y) for every i and y (pre-processing with U = X_i), under the given prior:
    for every u, Σ_{x_i=u} P(x)A(x)(y) ≤ P(X_i=u)·A(x*)(y) for some x* with P(x*) > 0."""
    out = []
    for i in range(A.n):
        for o in A.outputs:
            for u in A.domain:
                j = ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u)
                pu = P.marginal(ops, i, u)
                out.append(ops.Or([ops.And([ops.gt(P.p(d), 0), ops.le(j, pu * A.p(d, o))]) for d in A.rows]))
    return ops.And(out)


EntryPreProcessing = Notion("EntryPreProcessing", (), _entry_pre, population="given",
                            summary="ℓ(X_i→y) ≤ ℓ(X→y) for every i, y under the given prior")

ALL = [FullSupport, PMLUnder, Discloses, NoDisclosure, DisclosesToAllAdversaries, NoDisclosureToAnyAdversary,
       MinEntropyAbove, MinEntropyAtLeast, NondegenerateAttribute, SecretEntropyAbove, EpsBelowLogInvPmin,
       EpsAtLeastLogInvOneMinusPmin, EpsAtLeastLogInvPmin, SinglesOut, NoSinglingOut, ZeroPattern,
       NoZeroPattern, MinPositiveEntry, CapacityClosedForm, PMLAllPriors, PMLProductPriors,
       LeakageCapacityAtMost, ConditionalPMLAllPriors, ConditionalPMLProductPriors, EntryPMLProductPriors,
       EntryPMLAllPriors, PreProcessing, ConditionalPMLGivenFirst, EAboveOne, TightDP, TightFLP,
       PMLBelowLevel, ConditionalPMLBelowLevel, EntryPMLBelowLevel, IsProduct, PosteriorBound,
       EntryLeakageGroupBound]

