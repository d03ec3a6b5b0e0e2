"""What a mechanism discloses about attributes of the secret, for the search (Saeidian et al. (2023), §3):
disclosure (Def. 3.2) to one adversary and to every adversary (Theorem 3), min-entropy thresholds
(Theorem 4, Proposition 7, Corollary 8), singling out, the pre-processing inequality ℓ(U→y) ≤ ℓ(X→y),
and the reconstructed posterior bound of Theorem 6. Conventions as in :mod:`symbolic.notions.families.pml`:
an attribute U is a second free kernel 𝒟^n → 𝒰 (so U - X - Y holds by construction), every
ε-statement is polynomial in E = e^ε, and "given" notions use the exact support-restricted
definitions under the one prior.
"""
from __future__ import annotations

from symbolic.notions.base import E_SPEC, Notion
from symbolic.notions.prior_terms import attribute_prob, full_support, joint_uy, output_prob


# --- disclosure and singling out -----------------------------------------------------------------

def _discloses_at(ops, A, U, P, u, o):
    """y discloses U=u under P: P_Y(y) > 0 and P(U=u, y) = P_Y(y). Both are sums of non-negative
    terms (P(x)A(x)(y) and P(x)A(x)(y)(1 - U(x)(u)), as U(x)(u) ≤ 1), so they hold iff some term of
    the first is positive and every term of the second is zero, i.e. iff some x has P(x) > 0 and
    A(x)(y) > 0, and every x has P(x) = 0 or U(x)(u) = 1 or A(x)(y) = 0. This factored form is
    exact for every prior and keeps the solver away from cubic equalities."""
    some = ops.Or(ops.And([ops.gt(P.p(d), 0), ops.gt(A.p(d, o), 0)]) for d in A.rows)
    every = ops.And(ops.Or([ops.eq(P.p(d), 0), ops.eq(U.p(d, u), 1), ops.eq(A.p(d, o), 0)]) for d in A.rows)
    return ops.And([some, every])


def _discloses(ops, A, U, P):
    """Definition 3.2 [R]: some y with P_Y(y) > 0 makes the posterior of U a point mass."""
    return ops.Or(_discloses_at(ops, A, U, P, u, o) for o in A.outputs for u in U.outputs)


def _no_disclosure(ops, A, U, P):
    out = []
    for o in A.outputs:
        for u in U.outputs:
            ok = ops.Not(_discloses_at(ops, A, U, P, u, o))
            if ops.exact and not ok:
                ops.trace.append(f"y={o} discloses U={u}: P(U={u}|y) = 1")
            out.append(ok)
    return ops.And(out)


Discloses = Notion("Discloses", (), _discloses, population="given", arity=2,
                   summary="(A, U): some y with P_Y(y) > 0 has P(U=u|y) = 1 (Definition 3.2)")
NoDisclosure = Notion("NoDisclosure", (), _no_disclosure, population="given", arity=2,
                      summary="(A, U): no y with P_Y(y) > 0 makes the posterior of U a point mass")


def _adversary(body):
    def f(ops, A, U, P):
        return ops.Implies(full_support(ops, P=P), body(ops, A, U, P))
    return f


def _all_adversaries_disclosure(n, domain):
    """Uniform prior: for a full-support prior Q, y discloses u iff some A(x)(y) > 0 and every x
    with A(x)(y) > 0 has U(x)(u) = 1 (Q(x) > 0 for all x), which does not depend on Q; so one
    full-support prior decides the notion (this is Theorem 3's content for finite 𝒴)."""
    from symbolic.model.population import uniform
    return [uniform(n=n, domain=domain)]


DisclosesToAllAdversaries = Notion(
    "DisclosesToAllAdversaries", (), _adversary(_discloses), population="all", arity=2,
    sufficient=_all_adversaries_disclosure,
    summary="(A, U): U is disclosed to every adversary Q with full support")
NoDisclosureToAnyAdversary = Notion(
    "NoDisclosureToAnyAdversary", (), _adversary(_no_disclosure), population="all", arity=2,
    sufficient=_all_adversaries_disclosure,
    summary="(A, U): U is disclosed to no adversary Q with full support")


def _min_entropy_above(ops, U, P, *, E):
    return ops.And(ops.lt(E * attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"E·P_U({u}) ≥ 1")
                   for u in U.outputs)


def _min_entropy_at_least(ops, U, P, *, E):
    return ops.And(ops.le(E * attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"E·P_U({u}) > 1")
                   for u in U.outputs)


MinEntropyAbove = Notion("MinEntropyAbove", (E_SPEC,), _min_entropy_above, population="given",
                         summary="(U): H_∞(U) > ε, i.e. E·P_U(u) < 1 for every u")
MinEntropyAtLeast = Notion("MinEntropyAtLeast", (E_SPEC,), _min_entropy_at_least, population="given",
                           summary="(U): H_∞(U) ≥ ε, i.e. E·P_U(u) ≤ 1 for every u")


def _nondegenerate(ops, U, P):
    return ops.And(ops.lt(attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"P_U({u}) = 1") for u in U.outputs)


NondegenerateAttribute = Notion("NondegenerateAttribute", (), _nondegenerate, population="given",
                                summary="(U): H_∞(U) > 0, i.e. P_U(u) < 1 for every u")


def _secret_entropy_above(ops, *m, P, E):
    return ops.And(ops.lt(E * P.p(d), 1, why=lambda d=d: f"E·P({d}) ≥ 1") for d in P.probs)


def _below_log_inv_pmin(ops, *m, P, E):
    return ops.Or(ops.lt(E * P.p(d), 1) for d in P.probs)


SecretEntropyAbove = Notion("SecretEntropyAbove", (E_SPEC,), _secret_entropy_above, population="given", arity=0,
                            summary="ε < H_∞(X) = log 1/max_x P(x): E·P(x) < 1 for every x")
EpsBelowLogInvPmin = Notion("EpsBelowLogInvPmin", (E_SPEC,), _below_log_inv_pmin, population="given", arity=0,
                            summary="ε < log 1/p_min: E·P(x) < 1 for some x")


def _at_least_log_inv_one_minus_pmin(ops, *m, P, E):
    return ops.Or(ops.ge(E * (1 - P.p(d)), 1) for d in P.probs)


def _at_least_log_inv_pmin(ops, *m, P, E):
    return ops.Or(ops.ge(E * P.p(d), 1) for d in P.probs)


EpsAtLeastLogInvOneMinusPmin = Notion(
    "EpsAtLeastLogInvOneMinusPmin", (E_SPEC,), _at_least_log_inv_one_minus_pmin, population="given", arity=0,
    summary="ε ≥ log 1/(1 - p_min): E·(1 - P(x)) ≥ 1 for some x")
EpsAtLeastLogInvPmin = Notion("EpsAtLeastLogInvPmin", (E_SPEC,), _at_least_log_inv_pmin, population="given",
                              arity=0, summary="ε ≥ log 1/p_min: E·P(x) ≥ 1 for some x")


def _singles_out_at(ops, A, P, x, o):
    """P(X=x|y) = 1 with P_Y(y) > 0: P(x)A(x)(y) > 0 and every other x' has P(x')A(x')(y) = 0
    (sums of non-negative terms, as in :func:`_discloses_at`)."""
    return ops.And([ops.gt(P.p(x), 0), ops.gt(A.p(x, o), 0)]
                   + [ops.Or([ops.eq(P.p(d), 0), ops.eq(A.p(d, o), 0)]) for d in A.rows if d != x])


def _singles_out(ops, A, P):
    return ops.Or(_singles_out_at(ops, A, P, d, o) for d in A.rows for o in A.outputs)


def _no_singling_out(ops, A, P):
    out = []
    for d in A.rows:
        for o in A.outputs:
            ok = ops.Not(_singles_out_at(ops, A, P, d, o))
            if ops.exact and not ok:
                ops.trace.append(f"y={o} singles out X={d}")
            out.append(ok)
    return ops.And(out)


SinglesOut = Notion("SinglesOut", (), _singles_out, population="given",
                    summary="some y with P_Y(y) > 0 makes P(X=x|y) = 1 (singling out, §3.3)")
NoSinglingOut = Notion("NoSinglingOut", (), _no_singling_out, population="given",
                       summary="no y with P_Y(y) > 0 makes the posterior of X a point mass")


# --- pre-processing and the posterior bound ------------------------------------------------------

def _pre(ops, A, U, P):
    """ℓ(U→y) ≤ ℓ(X→y) for every y: every u has P(y|u) ≤ max_{x: P(x)>0} A(x)(y), written as
    Σ_x P(x)U(x)(u)A(x)(y) ≤ P_U(u)·A(x*)(y) for some x* with P(x*) > 0."""
    out = []
    for o in A.outputs:
        for u in U.outputs:
            j = joint_uy(ops, A, U, P, u, o)
            pu = attribute_prob(ops, U, P, u)
            out.append(ops.Or([ops.And([ops.gt(P.p(d), 0), ops.le(j, pu * A.p(d, o))]) for d in A.rows]))
    return ops.And(out)


PreProcessing = Notion("PreProcessing", (), _pre, population="given", arity=2,
                       summary="(A, U): ℓ(U→y) ≤ ℓ(X→y) for every y (U - X - Y)")


def _posterior_bound(ops, A, U, P, *, E):
    """P(U=u|y) ≤ q_u/(q_u + (1-q_u)/E), q_u = P_U(u), E = e^C: multiplied out,
    P(u, y)·(E·q_u + 1 - q_u) ≤ E·q_u·P_Y(y)."""
    out = []
    for o in A.outputs:
        py = output_prob(ops, A, P, o)
        for u in U.outputs:
            q = attribute_prob(ops, U, P, u)
            out.append(ops.le(joint_uy(ops, A, U, P, u, o) * (E * q + 1 - q), E * q * py,
                              why=lambda u=u, o=o: f"P(U={u}|y={o}) exceeds the bound"))
    return ops.And(out)


PosteriorBound = Notion("PosteriorBound", (E_SPEC,), _posterior_bound, population="given", arity=2,
                        summary="(A, U): P(U=u|y) ≤ q_u/(q_u + (1-q_u)e^{-C}) for every u, y "
                                "(Saeidian et al. (2023), Thm 6, reconstructed)")


ALL = [Discloses, NoDisclosure, DisclosesToAllAdversaries, NoDisclosureToAnyAdversary, MinEntropyAbove,
       MinEntropyAtLeast, NondegenerateAttribute, SecretEntropyAbove, EpsBelowLogInvPmin,
       EpsAtLeastLogInvOneMinusPmin, EpsAtLeastLogInvPmin, SinglesOut, NoSinglingOut, PreProcessing, PosteriorBound]
