"""DP-type notions of the zoo whose only change to ε-DP is *which pairs* are compared, or *how much*:
unbounded, local, group, individual, personalised, metric (d_X) and Blowfish privacy.

Each body is one ratio bound ``Pr[A(d)=o] ≤ level·Pr[A(d')=o]`` over the pairs of a neighbour
relation (:mod:`symbolic.model.neighbours`), written once over ``ops``; the level is E, a
per-record E_i, or E^{distance}. Point-wise bounds are the event bounds of the papers: summing
``p(o) ≤ c·q(o)`` over o ∈ S gives ``P(S) ≤ c·Q(S)``, and S = {o} gives back the point-wise form.

Structural parameters (the group size, the metric, the policy graph, the fixed dataset, the number
of per-record levels) are fixed when a notion is built by its factory; the level parameters are
the notion's parameters, so the solver can treat them as unknowns. ε-DP itself (replace one
record), approximate DP and free-lunch privacy are :mod:`symbolic.notions.families.dp`'s and are not
repeated here; ``dp_over(ReplaceOne())`` is ε-DP read through a relation value.
"""
from __future__ import annotations

import functools

from symbolic.core.errors import InvalidSize
from symbolic.model.neighbours import (AddRemove, AllPairs, Hamming, Metric, PolicyGraph, ReplaceOne, at_dataset)
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion, ParamSpec
from symbolic.notions.info import NotionInfo


def power(x, k: int):
    """x^k for a whole k ≥ 0 as a product (z3 terms stay polynomial; x^0 = 1)."""
    out = 1
    for _ in range(k):
        out = out * x
    return out


def noted(ops, holds, text):
    """``holds``, with ``text()`` recorded in the exact trace when it is False (solver terms pass
    through): the reason for a condition built from comparisons that must not record their own
    (such as the consequent of an implication, evaluated whether or not its premise holds)."""
    if ops.exact and not holds:
        ops.trace.append(text())
    return holds


def ratio_bound(ops, A, pairs, level):
    """∀ pairs (d, d2) and outputs o: Pr[A(d)=o] ≤ level(pair)·Pr[A(d2)=o]."""
    return ops.And(
        ops.le(A.p(pr.d, o), level(pr) * A.p(pr.d2, o),
               why=lambda pr=pr, o=o: f"{pr.text()}, o={o}: Pr[A(d)=o]={A.p(pr.d, o)} > "
                                      f"{level(pr)}·Pr[A(d')=o]={level(pr)}·{A.p(pr.d2, o)}")
        for pr in pairs for o in A.outputs)


def _named(base, relation, default):
    return base if relation == default else f"{base}[{relation}]"


@functools.lru_cache(maxsize=None)
def dp_over(relation, name: str | None = None, summary: str = "") -> Notion:
    """ε-DP with the neighbour relation ``relation``: ∀ related (d, d'), ∀ o: Pr[A(d)=o] ≤ E·Pr[A(d')=o]."""

    def body(ops, A, P=None, *, E):
        return ratio_bound(ops, A, relation.of(A), lambda pr: E)

    return Notion(name or f"DP[{relation}]", (E_SPEC,), body,
                  summary=summary or f"Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o] for d, d' related by {relation.words}")


UnboundedDP = dp_over(AddRemove(), "UnboundedDP", (
    "unbounded ε-DP (Kifer, Machanavajjhala 2011): Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o] when d' is d with one "
    "record added or removed (⊥ = the domain's first value marks an absent record)"))
"""Unbounded ε-DP (Kifer, Machanavajjhala, "No free lunch in data privacy", SIGMOD 2011, Sec. 2):
neighbours differ by adding or removing one record. Encoded with n record slots and an absent
value ⊥ (:class:`~symbolic.model.neighbours.AddRemove`; default ⊥ = the domain's first value): d ~ d'
when they differ in one slot that is ⊥ in one of them. Because ⊥ is a value of 𝒟, the pairs are
a subset of replace-one pairs (all of them when 𝒟 = {⊥, one value}), so ε-DP over the whole
domain implies it; the paper's relation
"ε-unbounded ⇒ 2ε-bounded" (replace = remove then add) is the check UnboundedDP(E) ⇒ PureDP(E²)."""

LocalDP = dp_over(AllPairs(), "LocalDP", (
    "ε-local DP of a randomiser (Kasiviswanathan et al. 2008; Warner 1965): Pr[R(x)=y] ≤ e^ε·Pr[R(x')=y] "
    "for every two inputs x, x'"))
"""ε-local differential privacy (Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith, "What can we learn
privately?", FOCS 2008, the definition of an ε-local randomiser; Warner 1965's randomised response
is the first example): a randomiser R: 𝒳 → Δ(𝒴) with R(y|x) ≤ e^ε·R(y|x') for all x, x', y. The
table is the randomiser and its whole input 𝒟^n is one user's value x (n = 1: one record), so
the pairs are all pairs of inputs. On tables this is the same condition as free-lunch privacy
(Kifer, Machanavajjhala 2011); what differs is what the input is, and the engine checks the
two are equivalent rather than sharing a body."""


@functools.lru_cache(maxsize=None)
def group_dp(k: int = 2) -> Notion:
    """k-group ε-DP (Dwork, Roth, "The algorithmic foundations of differential privacy", 2014,
    Thm. 2.2, privacy for groups of size k): ∀ d, d' differing in at most k records, ∀ o:
    Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o]. Thm. 2.2 says ε-DP gives it at kε; ``group_dp(1)`` is ε-DP."""
    rel = Hamming(k)
    return dp_over(rel, f"GroupDP[k={k}]", f"ε-DP for groups of size {k}: Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o] when d, d' "
                                           f"differ in at most {k} records")


def blowfish(graph="line", constraint=None) -> Notion:
    """(ε, P)-Blowfish privacy (He, Machanavajjhala, Ding, "Blowfish privacy: tuning privacy-utility
    trade-offs using policies", SIGMOD 2014, Defs. 3.2-3.3 and Sec. 4 for constraints): ∀ G-neighbours
    d, d' in I_Q, ∀ o: Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o]. The policy's secrets are each record's value, its
    discriminative graph G is on the domain (``"line"``: consecutive values; ``"complete"``: ε-DP; or
    explicit value pairs), Q an optional :class:`~symbolic.model.neighbours.Constraint` (see
    :class:`~symbolic.model.neighbours.PolicyGraph` for the neighbours under constraints). Like
    d_X-privacy, (ε, G)-Blowfish without constraints bounds one record's change x→y by
    e^{ε·d_G(x, y)} (d_G the shortest-path distance in G)."""
    return _blowfish(graph if isinstance(graph, str) else tuple(tuple(e) for e in graph), constraint)


@functools.lru_cache(maxsize=None)
def _blowfish(graph, constraint) -> Notion:
    rel = PolicyGraph(graph, constraint)
    return dp_over(rel, f"Blowfish[{rel}]", f"Blowfish privacy: Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o] for neighbours of the "
                                             f"policy {rel}")


@functools.lru_cache(maxsize=None)
def metric_dp(metric: Metric = Metric()) -> Notion:
    """d_X-privacy (Chatzikokolakis, Andrés, Bordenabe, Palamidessi, "Broadening the scope of
    differential privacy using metrics", PETS 2013, Sec. 3, the definition of d_X-privacy): ∀ x, x',
    ∀ o: Pr[A(x)=o] ≤ e^{ε·d(x,x')}·Pr[A(x')=o], for an integer metric d on the inputs (here the
    databases; see :class:`~symbolic.model.neighbours.Metric`). With E = e^ε the level is
    E^{d(x,x')}, polynomial because d is a whole number. The paper writes ε·d as one metric; we keep
    ε as the parameter and d fixed, so the Hamming metric gives ε-DP extended to every pair
    (group privacy for every k) and the discrete metric free-lunch privacy."""

    def body(ops, A, P=None, *, E):
        return ratio_bound(ops, A, metric.of(A), lambda pr: power(E, pr.distance))

    return Notion(f"MetricDP[{metric}]", (E_SPEC,), body,
                  summary=f"d_X-privacy: Pr[A(x)=o] ≤ e^(ε·d(x,x'))·Pr[A(x')=o], d the {metric.name} metric")


def individual_dp(dataset=None, neighbours=ReplaceOne()) -> Notion:
    """ε-individual DP at a fixed dataset D (Soria-Comas, Domingo-Ferrer, Sánchez, Megías, "Individual
    differential privacy: a utility-preserving formulation of differential privacy guarantees", IEEE
    Trans. Inf. Forensics Secur. 12(6), 2017, Def. 4): ∀ D' ~ D, ∀ o: e^{-ε}·Pr[A(D')=o] ≤
    Pr[A(D)=o] ≤ e^ε·Pr[A(D')=o]. Only pairs containing the actual dataset D count (``dataset``; None:
    the database whose records are all the domain's first value). The listing of the zoo places this
    paper in the VLDB Journal; it appeared in IEEE TIFS."""
    if dataset is not None:
        dataset = tuple(dataset) if isinstance(dataset, (tuple, list)) else (dataset,)
    return _individual_dp(dataset, neighbours)


@functools.lru_cache(maxsize=None)
def _individual_dp(dataset, neighbours) -> Notion:
    def body(ops, A, P=None, *, E):
        D = at_dataset(dataset, A.n, A.domain)
        if D not in A.rows:
            raise InvalidSize(f"individual DP at {D}: the table has no row for it")
        pairs = [pr for pr in neighbours.of(A) if pr.d == D]
        back = [pr._replace(d=pr.d2, d2=pr.d) for pr in pairs]
        return ratio_bound(ops, A, pairs + back, lambda pr: E)

    at = "" if dataset is None else f"D={dataset}"
    rel = "" if neighbours == ReplaceOne() else str(neighbours)
    tag = ",".join(x for x in (at, rel) if x)
    return Notion("IndividualDP" + (f"[{tag}]" if tag else ""), (E_SPEC,), body,
                  summary="individual DP at the fixed dataset D: e^-ε·Pr[A(D')=o] ≤ Pr[A(D)=o] ≤ e^ε·Pr[A(D')=o] "
                          "for every neighbour D' of D")


@functools.lru_cache(maxsize=None)
def personalized_dp(records: int = 2, neighbours=ReplaceOne()) -> Notion:
    """Φ-personalised DP (Jorgensen, Yu, Cormode, "Conservative or liberal? Personalized differential
    privacy", ICDE 2015, Def. 3): each record i has its own level ε_i, and ∀ d, d' differing in record
    i, ∀ o: Pr[A(d)=o] ≤ e^{ε_i}·Pr[A(d')=o]. Parameters ``E1`` … ``E<records>`` (E_i = e^{ε_i}); a
    table with fewer records uses the first levels, one with more is an error. All levels equal to
    E is ε-DP. The paper's D ~_u D' differ in the record of user u; ``neighbours`` reads that as
    replacing it (default) or, with :class:`~symbolic.model.neighbours.AddRemove`, as adding or
    removing it."""
    if isinstance(records, bool) or not isinstance(records, int) or records < 1:
        raise InvalidSize(f"personalized_dp: records={records!r} must be a whole number ≥ 1")
    specs = tuple(ParamSpec(f"E{j}", lower=1, meaning=f"E{j} = e^ε{j}, the level of record {j}, so ε{j} ≥ 0 "
                                                       f"means E{j} ≥ 1") for j in range(1, records + 1))

    def body(ops, A, P=None, **levels):
        if A.n > records:
            raise InvalidSize(f"PersonalizedDP has levels for {records} records; the table has n={A.n}: "
                              f"build it with personalized_dp(records={A.n})")
        return ratio_bound(ops, A, (pr for pr in neighbours.of(A) if pr.index is not None),
                           lambda pr: levels[f"E{pr.index + 1}"])

    rel = "" if neighbours == ReplaceOne() else f",{neighbours}"
    return Notion(f"PersonalizedDP[records={records}{rel}]", specs, body,
                  summary="personalised DP: Pr[A(d)=o] ≤ e^ε_i·Pr[A(d')=o] when d, d' differ in record i")


# --- probabilistic DP: the bad outputs of each database -------------------------------------------

@functools.lru_cache(maxsize=None)
def probabilistic_dp(neighbours=ReplaceOne()) -> Notion:
    """(ε,δ)-probabilistic DP (Machanavajjhala, Kifer, Abowd, Gehrke, Vilhuber, "Privacy: theory meets
    practice on the map", ICDE 2008, Def. 4): for every database d the outputs split into Ω1, Ω2 with
    Pr[A(d) ∈ Ω2] ≤ δ and, for every neighbour d' and o ∈ Ω1, e^{-ε} ≤ Pr[A(d')=o]/Pr[A(d)=o] ≤ e^ε.
    The smallest Ω2 holds the outputs where some neighbour breaks the two-sided bound (an output
    A(d) cannot produce costs nothing there), so the condition is

        ∀ d: Σ_o Pr[A(d)=o]·[∃ d' ~ d: Pr[A(d)=o] > E·Pr[A(d')=o] or Pr[A(d')=o] > E·Pr[A(d)=o]] ≤ δ.

    The zoo's listing (after Meiser, ePrint 2018/277) states a weaker per-pair, one-sided form
    Σ_o p·[p > E·q] ≤ δ for each d ~ d'; this follows the ICDE paper: the bad set depends on d alone
    and bounds the ratio both ways."""

    def body(ops, A, P=None, *, E, delta):
        around = {}
        for pr in neighbours.of(A):
            around.setdefault(pr.d, []).append(pr.d2)
        out = []
        for d, others in around.items():
            bad = [ops.Or([ops.gt(A.p(d, o), E * A.p(d2, o)) for d2 in others]
                          + [ops.gt(A.p(d2, o), E * A.p(d, o)) for d2 in others]) for o in A.outputs]
            mass = ops.sum(ops.If(b, A.p(d, o), 0) for b, o in zip(bad, A.outputs))
            out.append(ops.le(mass, delta, why=lambda d=d, mass=mass: (
                f"d={d}: Pr[A(d) lands where a neighbour's ratio leaves [1/E, E]] = {mass} > δ={delta}")))
        return ops.And(out)

    return Notion(_named("ProbabilisticDP", neighbours, ReplaceOne()), (E_SPEC, DELTA_SPEC), body,
                  summary="(ε,δ)-probabilistic DP: for each d, Pr[A(d)=o with some neighbour's ratio outside "
                          "[e^-ε, e^ε]] ≤ δ")


ProbabilisticDP = probabilistic_dp()

GroupDP2 = group_dp(2)
BlowfishLine = blowfish("line")
MetricDPL1 = metric_dp(Metric("l1"))
IndividualDP = individual_dp()
PersonalizedDP = personalized_dp(2)

ALL = [UnboundedDP, ProbabilisticDP, LocalDP, GroupDP2, IndividualDP, PersonalizedDP, MetricDPL1, BlowfishLine]

_POINT = "Pr[A(d)=o] ≤ E·Pr[A(d')=o]"
ENTRIES = (
    NotionInfo("unbounded-dp", UnboundedDP, AddRemove().words, "polynomial",
               "Kifer, Machanavajjhala, No free lunch in data privacy, SIGMOD 2011, Sec. 2 (unbounded DP)",
               f"∀ d ~ d' (one record added or removed; ⊥ = absent), ∀ o: {_POINT}"),
    NotionInfo("probabilistic-dp", ProbabilisticDP, "replace one record", "polynomial",
               "Machanavajjhala, Kifer, Abowd, Gehrke, Vilhuber, ICDE 2008, Def. 4",
               "∀ d: Pr[A(d)=o for an o where some neighbour's ratio Pr[A(d')=o]/Pr[A(d)=o] leaves [1/E, E]] ≤ δ"),
    NotionInfo("local-dp", LocalDP, "all pairs of one user's inputs", "polynomial",
               "Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith, FOCS 2008 (ε-local randomiser); Warner 1965",
               "∀ x, x', y: R(y|x) ≤ E·R(y|x') (the table is the randomiser R)"),
    NotionInfo("group-dp", GroupDP2, Hamming(2).words + " (default k = 2; group_dp(k) for others)", "polynomial",
               "Dwork, Roth, The algorithmic foundations of differential privacy, 2014, Thm. 2.2",
               f"∀ d, d' differing in at most k records, ∀ o: {_POINT}"),
    NotionInfo("individual-dp", IndividualDP, "replace one record, pairs at the fixed dataset D (default: all "
               "records the first value; individual_dp(D) for others)", "polynomial",
               "Soria-Comas, Domingo-Ferrer, Sánchez, Megías, IEEE TIFS 12(6) 2017, Def. 4",
               "∀ D' ~ D, ∀ o: Pr[A(D)=o] ≤ E·Pr[A(D')=o] and Pr[A(D')=o] ≤ E·Pr[A(D)=o]"),
    NotionInfo("personalized-dp", PersonalizedDP, "replace record i, at level E_i (default 2 records; "
               "personalized_dp(records) for more)", "polynomial",
               "Jorgensen, Yu, Cormode, Conservative or liberal? Personalized differential privacy, ICDE 2015, Def. 3",
               "∀ i, ∀ d ~ᵢ d', ∀ o: Pr[A(d)=o] ≤ E_i·Pr[A(d')=o]"),
    NotionInfo("metric-dp", MetricDPL1, "all pairs at l1 distance in domain order (default; metric_dp(Metric(...)) "
               "for others)", "polynomial",
               "Chatzikokolakis, Andrés, Bordenabe, Palamidessi, PETS 2013, Sec. 3 (d_X-privacy)",
               "∀ x, x', ∀ o: Pr[A(x)=o] ≤ E^d(x,x')·Pr[A(x')=o]"),
    NotionInfo("blowfish", BlowfishLine, PolicyGraph().words + " (default; blowfish(graph, constraint) for others)",
               "polynomial", "He, Machanavajjhala, Ding, Blowfish privacy, SIGMOD 2014, Defs. 3.2-3.3",
               f"∀ G-neighbours d, d' (one record moved along an edge of G; in I_Q), ∀ o: {_POINT}"),
)
