"""Positive membership privacy (Li, Qardaji, Su, Wu, Yang, "Membership privacy: a unifying
framework for privacy definitions", CCS 2013), for a given prior, for every prior, and for the
mutually independent priors 𝔻_I.

Setting of the paper: a universe U of entities, a data set T ⊆ U drawn from a distribution 𝒟 in
a family 𝔻 (the adversary's prior), a mechanism A on data sets. A gives (𝔻, γ)-positive
membership privacy when for every 𝒟 ∈ 𝔻, entity t and event S ⊆ range(A):

    Pr[t ∈ T | A(T) ∈ S] ≤ γ·Pr[t ∈ T]   and   Pr[t ∉ T | A(T) ∈ S] ≥ Pr[t ∉ T] / γ.

Encoding on 𝒟^n: record i is entity t_i; the first value of the domain, ⊥ = 𝒟[0], means "t_i is
not in T" and any other value "t_i is in T" (with that value as its attributes). With |𝒟| = 2 this
is exactly the set model (a data set is its membership vector, adding or removing t_i flips one
record); with |𝒟| > 2 it is the present-with-a-value model of unbounded DP. Both conditions are
sums over the outputs in S, so single outputs suffice; multiplied by P(O = o) (the event's
probability) they read P(in_i, o) ≤ γ·P(in_i)·P(o) and P(out_i)·P(o) ≤ γ·P(out_i, o), which hold
trivially for outputs of probability 0.

The paper's full text was not at hand when this was written; the definition follows the
project's notion zoo, which transcribes it as above.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.tables import databases
from symbolic.model.population import Population
from symbolic.notions.base import Notion, ParamSpec
from symbolic.notions.info import NotionInfo
from symbolic.notions.zoo.bayes import joint, mass

GAMMA_SPEC = ParamSpec("gamma", lower=1, meaning="γ ≥ 1 bounds how far an output may raise the belief that an "
                                                "entity is in the data set")


def absent(A):
    """⊥: the domain value meaning "this entity is not in the data set"."""
    return A.domain[0]


def _presence_terms(ops, A, P):
    """For each entity i (record slot) and output o: (i, o, P(in_i), P(out_i), P(in_i, o), P(out_i, o)),
    in_i meaning record i is present (≠ ⊥)."""
    bot = absent(A)
    for i in range(A.n):
        p_in = mass(ops, A, P, lambda d, i=i: d[i] != bot)
        p_out = mass(ops, A, P, lambda d, i=i: d[i] == bot)
        for o in A.outputs:
            yield (i, o, p_in, p_out, joint(ops, A, P, lambda d, i=i: d[i] != bot, o),
                   joint(ops, A, P, lambda d, i=i: d[i] == bot, o))


def _pmp(ops, A, P, *, gamma):
    out = []
    for i, o, p_in, p_out, j_in, j_out in _presence_terms(ops, A, P):
        po = joint(ops, A, P, lambda d: True, o)
        out.append(ops.le(j_in, gamma * p_in * po, why=lambda i=i, o=o: (
            f"t_{i+1}, o={o}: Pr[t_{i+1} ∈ T | o] > γ·Pr[t_{i+1} ∈ T]")))
        out.append(ops.le(p_out * po, gamma * j_out, why=lambda i=i, o=o: (
            f"t_{i+1}, o={o}: Pr[t_{i+1} ∉ T | o] < Pr[t_{i+1} ∉ T]/γ")))
    return ops.And(out)


MembershipPrivacyFor = Notion(
    "MembershipPrivacyFor", (GAMMA_SPEC,), _pmp, population="given",
    summary="γ-positive membership privacy under the given prior: Pr[t∈T|S] ≤ γ·Pr[t∈T] and "
            "Pr[t∉T|S] ≥ Pr[t∉T]/γ for every entity t (a record ≠ ⊥) and event S (Li et al., CCS 2013)")


def _presence_ratio(ops, A, P, *, gamma):
    """P(o | t_i ∈ T) ≤ γ·P(o | t_i ∉ T), as P(in, o)·P(out) ≤ γ·P(out, o)·P(in)."""
    return ops.And(ops.le(j_in * p_out, gamma * j_out * p_in, why=lambda i=i, o=o: (
        f"t_{i+1}, o={o}: P(o | t_{i+1} ∈ T) > γ·P(o | t_{i+1} ∉ T)"))
        for i, o, p_in, p_out, j_in, j_out in _presence_terms(ops, A, P))


_FAMILY_LEMMA = """
    Lemma (why the body is the presence ratio, not the two conditions at each prior). For a family
    𝔻 of priors closed under the moves below (all priors; all product priors), A is (𝔻, γ)-PMP iff
    C: A(x)(o) ≤ γ·A(y)(o) for every o, i and x with x_i ≠ ⊥, y with y_i = ⊥ (for products: y = x
    with x_i replaced by ⊥), iff P(o | in_i) ≤ γ·P(o | out_i) for every prior of 𝔻 (this body).
    Proof. Write α = P(in_i), a = P(o | in_i), b = P(o | out_i), so P(o) = αa + (1−α)b.
    C ⇒ a ≤ γb for every prior of 𝔻 (a is an average of A(x)(o) over x with x_i ≠ ⊥, b of
    A(y)(o) over y with y_i = ⊥; for a product prior both averages use the same law of the other
    records, and C compares them rest by rest). a ≤ γb ⇒ the two conditions: αa ≤ γα(αa + (1−α)b)
    because αa + (1−α)b ≥ αa/γ + (1−α)a/γ = a/γ; and αa + (1−α)b ≤ γb because a ≤ γb and b ≤ γb
    (γ ≥ 1). ¬C ⇒ both fail somewhere: if A(x)(o) > γ·A(y)(o), the prior uniform on {x, y} gives
    a > γb (this body fails), and the prior (1−α)δ_y + αδ_x gives Pr[t_i ∈ T | o] / α =
    A(x)(o) / (αA(x)(o) + (1−α)A(y)(o)) → A(x)(o)/A(y)(o) > γ as α → 0, so the first PMP
    condition fails for α small (both priors are products when x, y differ only at i). ∎
    The supremum of the PMP ratio is approached, not attained (α → 0), so no finite family of
    priors decides the two conditions as written; the presence ratio has the same universal
    closure and is decided by the two-point priors. A witness prior reported for a violation is a
    prior under which presence raises P(o) more than γ-fold; PMP itself then fails at the prior
    that moves all but a small mass α < (a − γb)/(γ(a − b)) of in_i onto the absent database."""


def _presence_pairs(n, domain):
    """Uniform priors on {x, y} with x_i ≠ ⊥ = y_i for some i (the maximiser and minimiser of C)."""
    bot = tuple(domain)[0]
    fam = []
    for x, y in itertools.combinations(databases(n, tuple(domain)), 2):
        if any((a != bot) != (b != bot) for a, b in zip(x, y)):
            fam.append(Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain,
                                  name=f"uniform on {x},{y}"))
    return fam


def _presence_neighbours(n, domain):
    """Uniform priors on the neighbours {r⊕u, r⊕⊥}, u ≠ ⊥ (product priors)."""
    bot = tuple(domain)[0]
    fam = []
    for x in databases(n, tuple(domain)):
        for i, u in enumerate(x):
            if u != bot:
                y = x[:i] + (bot,) + x[i + 1:]
                fam.append(Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain,
                                      name=f"uniform on {x},{y}"))
    return fam


_presence_pairs.__doc__ += _FAMILY_LEMMA
_presence_neighbours.__doc__ += _FAMILY_LEMMA

MembershipPrivacy = Notion(
    "MembershipPrivacy", (GAMMA_SPEC,), _presence_ratio, population="product", sufficient=_presence_neighbours,
    summary="(𝔻_I, γ)-positive membership privacy: for every prior with independent entities, Pr[t∈T|S] ≤ "
            "γ·Pr[t∈T] and Pr[t∉T|S] ≥ Pr[t∉T]/γ (decided as P(o|t∈T) ≤ γ·P(o|t∉T); Li et al., CCS 2013)")
"""(𝔻_I, γ)-PMP: positive membership privacy for the mutually independent priors 𝔻_I (each entity
in T independently; here every product prior on 𝒟^n), the family under which the paper relates
PMP to differential privacy. See :func:`_presence_neighbours` for why the body is the presence
ratio and why neighbour pairs decide it. By the lemma, (𝔻_I, γ)-PMP is the one-sided bound
A(r⊕u)(o) ≤ γ·A(r⊕⊥)(o): adding an entity may raise an output's probability by at most γ, and
may lower it arbitrarily."""

MembershipPrivacyAllPriors = Notion(
    "MembershipPrivacyAllPriors", (GAMMA_SPEC,), _presence_ratio, population="all", sufficient=_presence_pairs,
    summary="γ-positive membership privacy for every prior (decided as P(o|t∈T) ≤ γ·P(o|t∉T) on two-point priors)")


def _entries():
    return (
        NotionInfo("membership-privacy", MembershipPrivacy, "add/remove one entity (⊥ = absent); independent priors",
                   "forall-prior", "Li, Qardaji, Su, Wu, Yang, Membership privacy: a unifying framework for privacy "
                   "definitions, CCS 2013 (positive membership privacy under 𝔻_I)",
                   "∀ independent priors, t, S: Pr[t∈T|S] ≤ γ·Pr[t∈T] and Pr[t∉T|S] ≥ Pr[t∉T]/γ"),
    )


ALL = [MembershipPrivacyFor, MembershipPrivacy, MembershipPrivacyAllPriors]
ENTRIES = _entries()
