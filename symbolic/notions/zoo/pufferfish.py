"""Pufferfish privacy (secrets, discriminative pairs, a class Θ of data distributions) and
distributional (coupled-worlds) differential privacy with its simulator.

Pufferfish (Kifer, Machanavajjhala, "Pufferfish: a framework for mathematical privacy
definitions", ACM TODS 39(1), 2014, Def. 3.1): given potential secrets 𝕊, discriminative pairs
𝕊_pairs ⊆ 𝕊 × 𝕊 (mutually exclusive statements about the data) and a set 𝔻 of evolution
scenarios θ (data distributions), M satisfies ε-PufferFish(𝕊, 𝕊_pairs, 𝔻) when for every θ ∈ 𝔻,
every (s_i, s_j) ∈ 𝕊_pairs with P(s_i | θ) ≠ 0 and P(s_j | θ) ≠ 0, and every output w,

    P(M(Data) = w | s_i, θ) ≤ e^ε·P(M(Data) = w | s_j, θ)   and the same with s_i, s_j swapped.

Secrets here are data: :class:`RecordSecret` ("record i takes a value in V") or
:class:`DatabaseSecret` ("the data set is one of these"). 𝔻 is ``"all"`` (every distribution on
𝒟^n), ``"product"`` (independent records, the class under which the paper shows Pufferfish with
record pairs is ε-DP), ``"given"`` (the claim's one population), or a finite list of populations.

The paper's full text was not at hand when this was written; the definition follows the paper
as cited and the project's notion zoo, which agree.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from symbolic.core.errors import InvalidParameter, InvalidSize, clip
from symbolic.core.prob import violated_event
from symbolic.core.tables import PopTable, databases
from symbolic.model.population import Population, point_mass
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion
from symbolic.notions.info import NotionInfo
from symbolic.notions.zoo.bayes import joint, mass, neighbour_pair_priors, two_point_priors, when


@dataclass(frozen=True)
class RecordSecret:
    """The statement "record ``index`` (0-based) takes a value in ``values``" (σ_{i,t} for one value)."""

    index: int
    values: tuple

    def holds(self, d) -> bool:
        return d[self.index] in self.values

    def __str__(self):
        vals = ",".join(map(str, self.values))
        return f"X{self.index + 1}∈{{{vals}}}"


@dataclass(frozen=True)
class DatabaseSecret:
    """The statement "the data set is one of ``databases``"."""

    databases: frozenset

    def holds(self, d) -> bool:
        return tuple(d) in self.databases

    def __str__(self):
        return "D∈{" + ",".join(map(str, sorted(self.databases))) + "}"


def record_pairs(n, domain):
    """(X_i = a, X_i = b) for every record i and values a ≠ b: the pairs of bounded DP."""
    return [(RecordSecret(i, (a,)), RecordSecret(i, (b,))) for i in range(n)
            for a, b in itertools.combinations(domain, 2)]


def presence_pairs(n, domain):
    """(X_i = t, X_i = ⊥) for every record i and value t ≠ ⊥ = 𝒟[0] (⊥: record i absent): the pairs
    (σ_{i,t}, ¬σ_i) of unbounded DP in the paper's section on differential privacy."""
    bot = tuple(domain)[0]
    return [(RecordSecret(i, (t,)), RecordSecret(i, (bot,))) for i in range(n) for t in tuple(domain)[1:]]


_THETA_WORDS = {"all": "all distributions", "product": "independent records", "given": "the given distribution"}


def pufferfish(pairs, theta="all", *, name=None) -> Notion:
    """The ε-Pufferfish notion for discriminative ``pairs`` and evolution scenarios ``theta``.

    ``pairs``: a function (n, domain) → pairs (such as :func:`record_pairs`, sizes follow the
    claim), or a fixed sequence of pairs of :class:`RecordSecret` / :class:`DatabaseSecret`.
    ``theta``: ``"all"``, ``"product"`` (needs record secrets), ``"given"``, or a non-empty list of
    :class:`~symbolic.model.population.Population` (then the notion holds only at their n and 𝒟).

    >>> from symbolic.core.ops import ExactOps
    >>> from symbolic.model.mechanism import randomized_response
    >>> pf = pufferfish(record_pairs, "product")
    >>> pf.body(ExactOps(), randomized_response(3).table(), P=point_mass((0,), domain=(0, 1)).table(), E=3)
    True
    """
    if not callable(pairs):
        fixed = tuple(pairs)
        for pair in fixed:
            if not (isinstance(pair, tuple) and len(pair) == 2
                    and all(isinstance(s, (RecordSecret, DatabaseSecret)) for s in pair)):
                raise InvalidParameter(f"pufferfish: {clip(pair, 60)} is not a pair of RecordSecret/DatabaseSecret; "
                                       f"write (RecordSecret(0, (0,)), RecordSecret(0, (1,)))")
        if not fixed:
            raise InvalidParameter("pufferfish: no discriminative pairs given; give at least one, or record_pairs")
        label = "; ".join(f"{s}|{t}" for s, t in fixed)
        pairs_at = lambda n, domain: fixed
    else:
        label = getattr(pairs, "__name__", "pairs").replace("_", " ")
        pairs_at = pairs
    thetas = None
    if isinstance(theta, str):
        if theta not in _THETA_WORDS:
            raise InvalidParameter(f"pufferfish: theta={clip(theta, 40)} must be 'all', 'product', 'given' or a "
                                   f"list of populations")
        population, theta_label = theta, _THETA_WORDS[theta]
    else:
        thetas = tuple(theta)
        if not thetas or not all(isinstance(t, Population) for t in thetas):
            raise InvalidParameter("pufferfish: theta must be 'all', 'product', 'given' or a non-empty list of "
                                   "Population objects")
        if len({(t.n, tuple(t.domain)) for t in thetas}) != 1:
            raise InvalidParameter("pufferfish: the populations of theta must share n and the domain")
        population, theta_label = "none", f"{len(thetas)} given distribution(s)"

    def checked_pairs(n, domain):
        out = tuple(pairs_at(n, tuple(domain)))
        dbs = databases(n, tuple(domain))
        for s, t in out:
            for s_ in (s, t):
                if isinstance(s_, RecordSecret) and not 0 <= s_.index < n:
                    raise InvalidParameter(f"pufferfish: secret {s_} names record {s_.index + 1} of {n}")
            both = [d for d in dbs if s.holds(d) and t.holds(d)]
            if both:
                raise InvalidParameter(f"pufferfish: the secrets {s} and {t} of a discriminative pair must be mutually "
                                       f"exclusive; both hold at {both[0]}")
            if population == "product" and not (isinstance(s, RecordSecret) and isinstance(t, RecordSecret)):
                raise InvalidParameter(f"pufferfish: with theta='product' the secrets must be RecordSecret (values of "
                                       f"one record); got {s}, {t}")
        return out

    def body(ops, A, P=None, *, E):
        prs = checked_pairs(A.n, A.domain)
        scenarios = [P] if thetas is None else [_constant(ops, t, A) for t in thetas]
        out = []
        for k, th in enumerate(scenarios):
            tag = "" if thetas is None else f"θ{k + 1}, "
            for s, t in prs:
                ms, mt = mass(ops, A, th, s.holds), mass(ops, A, th, t.holds)
                for o in A.outputs:
                    js, jt = joint(ops, A, th, s.holds, o), joint(ops, A, th, t.holds, o)
                    out.append(when(ops, ops.And([ops.gt(ms, 0), ops.gt(mt, 0)]), lambda s=s, t=t, o=o, js=js, jt=jt, ms=ms,
                               mt=mt: ops.And([
                                   ops.le(js * mt, E * jt * ms, why=lambda: f"{tag}o={o}: P(o|{s}) > E·P(o|{t})"),
                                   ops.le(jt * ms, E * js * mt, why=lambda: f"{tag}o={o}: P(o|{t}) > E·P(o|{s})")])))
        return ops.And(out)

    def sufficient(n, domain):
        prs = checked_pairs(n, domain)
        if population == "product":
            return neighbour_pair_priors(n, domain)
        relevant = {frozenset((x, y)) for s, t in prs for x in databases(n, tuple(domain)) if s.holds(x)
                    for y in databases(n, tuple(domain)) if t.holds(y)}
        return [q for q in two_point_priors(n, domain) if frozenset(q_support(q)) in relevant]

    return Notion(name or f"Pufferfish[{label}; {theta_label}]", (E_SPEC,), body, population=population,
                  sufficient=sufficient if population in ("all", "product") else None,
                  summary=f"ε-Pufferfish: P(o|s,θ) ≤ e^ε·P(o|s',θ) both ways for the pairs ({label}) and θ in "
                          f"{theta_label} where both secrets have positive probability (Kifer, Machanavajjhala, "
                          f"TODS 2014, Def. 3.1)")


pufferfish.__doc__ += """
    Sufficient families (for a fixed mechanism). ``"all"``: the secrets of a pair are disjoint
    sets of databases, so the two conditionals P(o | s, θ) and P(o | s', θ) are averages of A(·)(o)
    over s and over s' with weights that θ can choose independently; the two-point priors on
    x ∈ s, y ∈ s' decide the pair (:func:`~symbolic.notions.zoo.bayes.two_point_priors`).
    ``"product"``: for record secrets X_i ∈ U vs X_i ∈ V the uniform priors on neighbours
    r⊕u, r⊕v decide it (:func:`~symbolic.notions.zoo.bayes.neighbour_pair_priors`)."""


def q_support(q):
    """The databases a population gives positive probability."""
    return [d for d, p in zip(databases(q.n, q.domain), q.probs) if p != 0]


def _constant(ops, pop, A):
    """A fixed population as a table of ``ops`` numbers, after checking it fits A's sizes."""
    if pop.n != A.n or tuple(pop.domain) != tuple(A.domain):
        raise InvalidSize(f"this Pufferfish notion's distributions are on {len(pop.domain)} values ^ n={pop.n}, the "
                          f"mechanism on {len(A.domain)} values ^ n={A.n}: check it at n={pop.n}, "
                          f"|𝒟|={len(pop.domain)} only (sizes=Sizes({pop.n}, {len(pop.domain)}, ...))")
    return PopTable(pop.n, tuple(pop.domain), {d: ops.num(p) for d, p in zip(databases(pop.n, pop.domain), pop.probs)})


PufferfishRecordAll = pufferfish(record_pairs, "all")
PufferfishRecordProduct = pufferfish(record_pairs, "product")
PufferfishPresenceProduct = pufferfish(presence_pairs, "product")


# --- distributional (coupled-worlds) differential privacy ------------------------------------------

def simulated_row(d, i, bot):
    """The row of the simulator table that stands for Sim(d_{-i}): d without record i, padded with ⊥."""
    return d[:i] + d[i + 1:] + (bot,)


def _ddp(ops, A, S, P, *, E, delta):
    if (S.n, tuple(S.domain), tuple(S.outputs)) != (A.n, tuple(A.domain), tuple(A.outputs)):
        raise InvalidParameter("distributional DP: the simulator table must have the mechanism's n, domain and "
                               "outputs (it is read at rows (d_-i, ⊥))")
    bot = A.domain[0]
    out = []
    for i in range(A.n):
        for t in A.domain:
            keep = lambda d, i=i, t=t: d[i] == t
            m = mass(ops, A, P, keep)
            real = [joint(ops, A, P, keep, o) for o in A.outputs]
            sim = [ops.sum(P.p(d) * S.p(simulated_row(d, i, bot), o) for d in A.rows if keep(d)) for o in A.outputs]
            for x, y, what in ((real, sim, "M(D) vs Sim(D_-i)"), (sim, real, "Sim(D_-i) vs M(D)")):
                out.append(ops.le(ops.sum(ops.max0(a - E * b) for a, b in zip(x, y)), delta * m,
                                  why=lambda i=i, t=t, what=what, x=x, y=y, m=m: f"i={i+1}, D_i={t}: {what}: "
                                  + violated_event(A.outputs, x, y, E, delta * m, names=("Pr[·∈S, D_i]", "Pr[·∈S, D_i]"))))
    return ops.And(out)


def _ddp_point_masses(n, domain):
    """Point masses δ_x. For fixed (A, Sim) each condition, multiplied by P(D_i = t), reads
    f(P) = Σ_o max(0, L_o(P)) − δ·m(P) ≤ 0 with L_o and m linear in P: f is convex, so its
    largest value over the simplex is at a vertex δ_x, where it is the (ε, δ)-indistinguishability of
    A(x) and Sim(x_-i) for t = x_i (and 0 ≤ 0 for t ≠ x_i)."""
    return [point_mass(d, domain=domain) for d in databases(n, tuple(domain))]


_DDP_SUMMARY = ("(ε,δ)-distributional DP with simulator Sim (second mechanism, read at rows (d_-i, ⊥)): for every θ, "
                "i, t with θ(D_i=t) > 0, M(D) and Sim(D_-i) given D_i = t are (ε,δ)-indistinguishable")
DistributionalDP = Notion("DistributionalDP", (E_SPEC, DELTA_SPEC), _ddp, population="all", arity=2,
                          sufficient=_ddp_point_masses, summary=_DDP_SUMMARY + " — every θ (Bassily et al., FOCS 2013)")
"""(ε, δ)-distributional differential privacy (Bassily, Groce, Katz, Smith, "Coupled-worlds
privacy: exploiting adversarial uncertainty in statistical data privacy", FOCS 2013): M is DDP
for a class Δ of data distributions if there is a simulator Sim such that for every θ ∈ Δ, every
i and every value t of D_i (with the auxiliary information Z, empty here), the law of M(D) given
D_i = t is (ε, δ)-indistinguishable (both directions) from the law of Sim(D_-i) given D_i = t,
D ~ θ. One simulator for all θ and i; it sees the other records only, in order.

How the ∃ is encoded: the simulator is the notion's second mechanism, an n-record table read at
the rows (d_-i, ⊥) (every Sim: 𝒟^{n-1} → Δ(𝒪) is such a table; rows not ending in ⊥ are unused).
For a concrete simulator the notion is decided exactly. In a claim, a simulator that is a free
mechanism of the hypotheses is existential, which is the definition: "DDP(A, S) ⇒ B(A)" over all
A, S says "if some simulator works, B holds". As a conclusion, "⇒ ∃ Sim" cannot be stated: the
engine would read it as a fixed or universally chosen S. Differences from the paper: Δ is every
distribution here (:data:`DistributionalDPFor`: one given θ), and the auxiliary information is
empty."""

DistributionalDPFor = Notion("DistributionalDPFor", (E_SPEC, DELTA_SPEC), _ddp, population="given", arity=2,
                             summary=_DDP_SUMMARY + " — the one given θ")


def _entries():
    return (
        NotionInfo("pufferfish", PufferfishRecordAll, "discriminative pairs X_i=a vs X_i=b; all data distributions",
                   "forall-prior", "Kifer, Machanavajjhala, Pufferfish: a framework for mathematical privacy "
                   "definitions, ACM TODS 2014, Def. 3.1",
                   "∀ θ ∈ Θ, (s, s') ∈ pairs, o: P(o|s,θ) ≤ E·P(o|s',θ) where P(s|θ), P(s'|θ) > 0"),
        NotionInfo("distributional-dp", DistributionalDP, "simulator on the other records; all data distributions",
                   "forall-prior", "Bassily, Groce, Katz, Smith, Coupled-worlds privacy, FOCS 2013 (distributional DP)",
                   "∃ Sim ∀ θ, i, t: M(D) | D_i=t ≈_(ε,δ) Sim(D_-i) | D_i=t (Sim: the second mechanism)"),
    )


ALL = [PufferfishRecordAll, PufferfishRecordProduct, PufferfishPresenceProduct]
PAIRED = [DistributionalDP, DistributionalDPFor]   # notions of (mechanism, simulator): arity 2
ENTRIES = _entries()
