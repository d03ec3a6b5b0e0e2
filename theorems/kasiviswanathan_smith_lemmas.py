"""Kasiviswanathan and Smith (2008): the notions their proofs go through, stated for the engine.

Each notion here is one step of one of the source's proofs, not a definition a user would state on
its own: ratio-safe transcripts (Appendix A.3 and the first part of Theorem 2.4), slices of the two
games at one transcript (Theorem 5.1), two joint distributions and their per-transcript slices
(Lemma 4.1) and mixtures with a free first stage (Claim 3.3, parts 3 and 4). The definitions
themselves (semantic privacy, indistinguishability, posteriors and their conventions) are engine
notions, :mod:`symbolic.notions.families.semantic`; the claims that use these steps are in
:mod:`theorems.kasiviswanathan_smith`. Each body is written once over ``ops``, like every notion.
"""
from __future__ import annotations

import itertools

from symbolic.core.tables import MechTable, replace
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion, ParamSpec
from symbolic.notions.families.semantic import (K_SPEC, LEVEL_SPEC, guard_normalisers, hockey, informed, locally_indist,
                                       minus_i, posterior_parts, posterior_sd_ok, row_of)

ALL = []


# --- ratio-safe transcripts (Appendix A.3 and Theorem 2.4 part 1, through their proof) -----------

def ratio_safe(ops, A, t, K):
    """t is K-ratio-safe: A(y)(t) ≤ K·A(z)(t) for every ordered pair of neighbours y, z."""
    return ops.And(ops.le(A.p(d, t), K * A.p(replace(d, i, v), t)) for i, d, v in A.neighbours())


def _ratio_safe_mass(ops, A, P=None, *, K, delta):
    return ops.And(ops.le(ops.sum(ops.If(ops.Not(ratio_safe(ops, A, t, K)), A.p(x, t), 0) for t in A.outputs), delta,
                          why=lambda x=x: f"real database {x}: Pr_{{t~A(x)}}[t not K-ratio-safe] > δ")
                   for x in A.rows)


RatioSafeMass = Notion("RatioSafeMass", (K_SPEC, DELTA_SPEC), _ratio_safe_mass, summary=(
    "∀x: Pr_{t~A(x)}[some neighbours y, z have A(y)(t) > K·A(z)(t)] ≤ δ (no belief involved)"))


def _informed_good_where_safe(ops, A, P, *, K, eps):
    return ops.And(ops.Implies(ops.And([informed(ops, P, x), ops.gt(A.p(x, t), 0), ratio_safe(ops, A, t, K)]),
                               ops.And(posterior_sd_ok(ops, A, P, i, t, eps) for i in range(A.n)))
                   for x in A.rows for t in A.outputs)


InformedGoodWhereSafe = Notion("InformedGoodWhereSafe", (K_SPEC, LEVEL_SPEC), _informed_good_where_safe,
                               population="all", summary=(
    "∀x, ∀b informed for x, ∀t with A(x)(t) > 0 and t K-ratio-safe, ∀i: SD(b̄_0[·|t], b̄_i[·|t]) ≤ ε"))

ALL += [RatioSafeMass, InformedGoodWhereSafe]


def informed_good_where_safe_at(xi: int, j: int, t: int) -> Notion:
    """One piece of InformedGoodWhereSafe: the xi-th database x (sorted), beliefs supported on
    {y : y agrees with x off j}, transcript t. The conjunction over (xi, j, t) is InformedGoodWhereSafe."""
    def body(ops, A, P, *, K, eps):
        x = sorted(A.rows)[xi]
        sup = ops.And(ops.eq(P.p(y), 0) for y in P.probs if any(y[k] != x[k] for k in range(len(x)) if k != j))
        return ops.Implies(ops.And([sup, ops.gt(A.p(x, t), 0), ratio_safe(ops, A, t, K)]),
                           ops.And(posterior_sd_ok(ops, A, P, i, t, eps) for i in range(A.n)))
    return Notion(f"InformedGoodWhereSafe[x#{xi},j={j + 1},t={t}]", (K_SPEC, LEVEL_SPEC), body, population="all",
                  summary="InformedGoodWhereSafe for one real database x, one informed coordinate j, one transcript t")


def posterior_spread_where_safe_at(i: int, t: int) -> Notion:
    """For every belief b: if transcript t is K-ratio-safe then (a) Z0(t) = 0 ⇔ Zi(t) = 0 and
    (b) w0[x]·wi[y] ≤ K2·w0[y]·wi[x] for all databases x ≠ y (w0[x] = b(x)A(x)(t), wi[x] = b(x)A(x_{-i})(t)),
    i.e. after dividing by Z0·Zi > 0 the posteriors π = b̄_0[·|t], ρ = b̄_i[·|t] satisfy Spread(K2):
    π(x)ρ(y) ≤ K2·π(y)ρ(x). One coordinate i (0-based), one transcript t."""
    def body(ops, A, P, *, K, K2):
        w0, wi, Z0, Zi = posterior_parts(ops, A, P, i, t)
        zeros = ops.And([ops.Implies(ops.eq(Z0, 0), ops.eq(Zi, 0)), ops.Implies(ops.eq(Zi, 0), ops.eq(Z0, 0))])
        spread = ops.And(ops.le(w0[x] * wi[y], K2 * w0[y] * wi[x], why=lambda x=x, y=y: f"x={x}, y={y}")
                         for x in A.rows for y in A.rows if x != y)
        return ops.Implies(ratio_safe(ops, A, t, K), ops.And([zeros, spread]))
    return Notion(f"PosteriorSpreadWhereSafe[i={i + 1},t={t}]", (K_SPEC, ParamSpec("K2", lower=1)), body,
                  population="all", summary=("∀b: t K-ratio-safe ⇒ Z0(t) = 0 ⇔ Zi(t) = 0 and the posteriors "
                                             "b̄_0[·|t], b̄_i[·|t] satisfy Spread(K2), for one i and one t"))


# --- slices of the two games at one transcript (Theorem 5.1, through its proof) -----------------
#
# For a belief b, a coordinate i and a transcript t, the *slice* of (b, A(b)) and (b, A_i(b)) at t
# is the pair of sub-probability vectors over the atoms x ∈ 𝒟^n (sorted)
#     c_x = b(x)·A(x)(t),    d_x = b(x)·A(x_{-i})(t),
# stored as a two-row table (n = 1, 𝒟 = {0, 1}): row 0 = (c, 1 - Σc), row 1 = (d, 1 - Σd); the last
# output ⊥ only completes the rows to distributions. Then Σc = Z0(t), Σd = Zi(t) and the posteriors
# are b̄_0[·|t] = c/Σc, b̄_i[·|t] = d/Σd.

def slice_table(A, b, i, t):
    """The slice at (i, t) as an exact :class:`~symbolic.core.tables.MechTable` (atoms = sorted databases)."""
    xs = sorted(A.rows)
    c = [b.p(x) * A.p(x, t) for x in xs]
    d = [b.p(x) * A.p(minus_i(x, i, A.domain), t) for x in xs]
    return MechTable(1, (0, 1), tuple(range(len(xs) + 1)), {(0,): tuple(c) + (1 - sum(c),),
                                                              (1,): tuple(d) + (1 - sum(d),)})


def _slice(T):
    return T.rows[(0,)][:-1], T.rows[(1,)][:-1]


def _gap(ops, a, b, E):
    """max(0, a - E·b) + max(0, b - E·a): the two-sided excess of a single cell."""
    return ops.max0(a - E * b) + ops.max0(b - E * a)


def _slice_conditions(ops, c, d, S, E, delta):
    """Σ_{j∈S} [max(0, c_j - E·d_j) + max(0, d_j - E·c_j)] ≤ δ, Σ_{j∉S} c_j ≤ δ, Σ_{j∉S} d_j ≤ δ."""
    out = [j for j in range(len(c)) if j not in S]
    return [ops.le(ops.sum(_gap(ops, c[j], d[j], E) for j in S), delta,
                   why="Σ over S of the slice gaps exceeds δ"),
            ops.le(ops.sum(c[j] for j in out), delta, why="Σ c outside S exceeds δ"),
            ops.le(ops.sum(d[j] for j in out), delta, why="Σ d outside S exceeds δ")]


def _local_slice_gap(ops, A, P=None, *, E, delta):
    out = []
    for x in A.rows:
        gaps = []
        for i in range(A.n):
            y = minus_i(x, i, A.domain)
            for t in A.outputs:
                gaps.append(ops.le(_gap(ops, A.p(x, t), A.p(y, t), E), delta,
                                   why=lambda x=x, i=i, t=t: f"x={x} ∈ ℰ, i={i + 1}, t={t}: slice gap > δ"))
        out.append(ops.Implies(locally_indist(ops, A, x, E, delta), ops.And(gaps)))
    return ops.And(out)


LocalSliceGap = Notion("LocalSliceGap", (E_SPEC, DELTA_SPEC), _local_slice_gap, summary=(
    "∀x ∈ ℰ (A(x) (ε,δ)-indist from every neighbour), ∀i, t: max(0, A(x)(t) - e^ε A(x_{-i})(t)) + "
    "max(0, A(x_{-i})(t) - e^ε A(x)(t)) ≤ δ (no belief involved)"))


def _slice_conditions_expanded(ops, c, d, S, E, delta):
    """The same conditions with the S-part free of max: for E ≥ 1 at most one of c_j - E·d_j,
    d_j - E·c_j is positive, so Σ_{j∈S} max(0, c_j - E d_j, d_j - E c_j) ≤ δ iff every choice of one
    term from {0, c_j - E d_j, d_j - E c_j} per j ∈ S sums to ≤ δ (3^|S| linear constraints)."""
    out = []
    for choice in itertools.product(range(3), repeat=len(S)):
        terms = [(0, c[j] - E * d[j], d[j] - E * c[j])[k] for j, k in zip(S, choice)]
        out.append(ops.le(ops.sum(terms), delta, why="Σ over S of the slice gaps exceeds δ"))
    return out + _slice_conditions(ops, c, d, S, E, delta)[1:]


def slice_hypothesis(S, expanded=False) -> Notion:
    """The slice condition with atom set S ⊆ {0..m-1} (indices of sorted databases) on a slice table;
    ``expanded`` writes the S-part as 3^|S| linear constraints (equivalent for E ≥ 1, and much easier
    for the solver as a hypothesis)."""
    S = tuple(sorted(S))
    conditions = _slice_conditions_expanded if expanded else _slice_conditions

    def body(ops, T, P=None, *, E, delta):
        c, d = _slice(T)
        return ops.And(conditions(ops, c, d, S, E, delta))
    return Notion(f"SliceHypothesis[S={list(S)}{', expanded' if expanded else ''}]", (E_SPEC, DELTA_SPEC), body,
                  summary=("slice table (c, d): Σ_{j∈S} [max(0, c_j - e^ε d_j) + max(0, d_j - e^ε c_j)] ≤ δ, "
                           "Σ_{j∉S} c_j ≤ δ and Σ_{j∉S} d_j ≤ δ"))


def event_merge(S, U, m):
    """The merge of m atoms by membership in S and in the event U: j ↦ 0 (S∩U), 1 (S∖U), 2 (U∖S),
    3 (neither); ⊥ (index m) ↦ 4."""
    return tuple((0 if j in U else 1) + (0 if j in S else 2) for j in range(m)) + (4,)


def slice_merges(S) -> Notion:
    """Every event merge of a slice table (see :func:`event_merge`) satisfies SliceHypothesis({0, 1})."""
    S = tuple(sorted(S))

    def body(ops, T, P=None, *, E, delta):
        c, d = _slice(T)
        m = len(c)
        out = []
        for bits in itertools.product((0, 1), repeat=m):
            U = {j for j in range(m) if bits[j]}
            f = event_merge(S, U, m)
            cc = [ops.sum(c[j] for j in range(m) if f[j] == k) for k in range(4)]
            dd = [ops.sum(d[j] for j in range(m) if f[j] == k) for k in range(4)]
            out.append(ops.And(_slice_conditions(ops, cc, dd, (0, 1), E, delta)))
        return ops.And(out)
    return Notion(f"SliceMerges[S={list(S)}]", (E_SPEC, DELTA_SPEC), body, summary=(
        "for every event U, the 4-atom merge (S∩U, S∖U, U∖S, neither) satisfies SliceHypothesis({0, 1})"))


def _slice_event_bound(ops, T, P=None, *, eps, beta):
    c, d = _slice(T)
    C, D = ops.sum(c), ops.sum(d)
    gap = (c[0] + c[2]) * D - (d[0] + d[2]) * C
    return ops.Or([ops.le(C, beta),
                   ops.And([ops.gt(D, 0), ops.le(gap, eps * C * D,
                                                 why="π({0,2}) - ρ({0,2}) > ε with Σc > β")])])


SliceEventBound = Notion("SliceEventBound", (LEVEL_SPEC, ParamSpec("beta", lower=0)), _slice_event_bound, summary=(
    "4-atom slice table: Σc ≤ β, or Σd > 0 and π({0,2}) - ρ({0,2}) ≤ ε for π = c/Σc, ρ = d/Σd"))

ALL += [LocalSliceGap, SliceEventBound]


# --- Lemma 4.1: two joint distributions, their transcripts and per-transcript slices -------------

def _normalised_indist(ops, c, d, E, delta):
    """(ok, Σc, Σd): the normalised vectors c/Σc and d/Σd are (ε,δ)-indistinguishable, cross-multiplied:
    Σ_x max(0, c_x·Σd - E·d_x·Σc) ≤ δ·Σc·Σd and the mirror (zero normalisers: see guard_normalisers;
    one zero fails)."""
    C, D = ops.sum(c), ops.sum(d)
    f = ops.sum(ops.max0(a * D - E * b * C) for a, b in zip(c, d))
    g = ops.sum(ops.max0(b * C - E * a * D) for a, b in zip(c, d))
    return guard_normalisers(ops, C, D, ops.And([ops.le(f, delta * C * D), ops.le(g, delta * C * D)])), C, D


def _transcript_cells(A, nx):
    """[(P(·, t), Q(·, t)) for every transcript t] for P = row 0, Q = row 1 over 𝒟×𝒪 (outputs
    j ↦ (x, t) = (j mod nx, j div nx))."""
    rows = list(A.rows)
    p, q = row_of(A, rows[0]), row_of(A, rows[1])
    return [(p[t * nx:(t + 1) * nx], q[t * nx:(t + 1) * nx]) for t in range(len(p) // nx)]


def joint_bad_transcripts(ops, A, nx, E, delta):
    """[(t is bad, P(t), Q(t)) for every transcript t]: t is bad when P(·|t), Q(·|t) are not
    (ε̂, δ̂)-indistinguishable (cross-multiplied; exactly one of P(t), Q(t) zero is bad)."""
    bads = []
    for c, d in _transcript_cells(A, nx):
        ok, pt, qt = _normalised_indist(ops, c, d, E, delta)
        bads.append((ops.Not(ok), pt, qt))
    return bads


def joint_posterior_indist(nx: int) -> Notion:
    """Lemma 4.1's conclusion for two joint distributions P = row 0, Q = row 1 on 𝒟×𝒪, given as
    one table with outputs j ↦ (x, t) = (j mod nx, j div nx):
    Pr_{t~P}[P(·|t), Q(·|t) not (ε̂, δ̂)-indist] ≤ bound and the same for t ~ Q.
    Bad t, cross-multiplied: Σ_x max(0, P(x,t)Q(t) - Ê·Q(x,t)P(t)) > δ̂·P(t)Q(t) or the symmetric one;
    with exactly one of P(t), Q(t) zero, t is bad."""
    def body(ops, A, P=None, *, E, delta, bound):
        bads = joint_bad_transcripts(ops, A, nx, E, delta)
        out = []
        for k in (1, 2):
            out.append(ops.le(ops.sum(ops.If(bd, pq[k - 1], 0) for bd, *pq in bads), bound,
                              why=f"Pr over t ~ {'P' if k == 1 else 'Q'} of a bad t exceeds the bound"))
        return ops.And(out)
    return Notion(f"JointPosteriorIndist[|D|={nx}]",
                  (E_SPEC, DELTA_SPEC, ParamSpec("bound", lower=0, meaning="a probability bound is ≥ 0")), body,
                  summary=("Pr_{t}[(P|t, Q|t) not (ε̂, δ̂)-indistinguishable] ≤ bound under t~P and t~Q "
                           "(Lemma 4.1's conclusion; P, Q = the two rows over 𝒟×𝒪)"))


def joint_slice_hypotheses(nx: int) -> Notion:
    """For two joint distributions P = row 0, Q = row 1 on 𝒟×𝒪 (outputs j ↦ (x, t) = (j mod nx,
    j div nx), as in :func:`joint_posterior_indist`): at every transcript t,
    Σ_x max(0, P(x,t) - e^ε Q(x,t)) ≤ δ and Σ_x max(0, Q(x,t) - e^ε P(x,t)) ≤ δ."""
    def body(ops, A, P=None, *, E, delta):
        out = []
        for t, (c, d) in enumerate(_transcript_cells(A, nx)):
            out += [ops.le(hockey(ops, c, d, E), delta, why=f"t={t}: P-side hockey > δ"),
                    ops.le(hockey(ops, d, c, E), delta, why=f"t={t}: Q-side hockey > δ")]
        return ops.And(out)
    return Notion(f"JointSliceHypotheses[|D|={nx}]", (E_SPEC, DELTA_SPEC), body, summary=(
        "at every transcript t, the cells (x, t) of P and Q have both hockey sums ≤ δ"))


def _posterior_indist_where_heavy(ops, T, P=None, *, E, delta, Ehat, dhat, beta):
    c, d = _slice(T)
    hyp = [ops.le(hockey(ops, c, d, E), delta), ops.le(hockey(ops, d, c, E), delta)]
    ok, C, D = _normalised_indist(ops, c, d, Ehat, dhat)
    return ops.Implies(ops.And(hyp), ops.Or([ok, ops.And([ops.le(C, beta, why="Σc > β"), ops.le(D, beta, why="Σd > β")])]))


PosteriorIndistWhereHeavy = Notion(
    "PosteriorIndistWhereHeavy",
    (E_SPEC, DELTA_SPEC, ParamSpec("Ehat", lower=1), ParamSpec("dhat", lower=0), ParamSpec("beta", lower=0)),
    _posterior_indist_where_heavy, summary=(
        "one transcript's slice (c, d) = (P(·,t), Q(·,t)) with both hockey sums ≤ δ: the posteriors c/Σc, "
        "d/Σd are (ε̂, δ̂)-indistinguishable, or Σc ≤ β and Σd ≤ β"))

ALL += [PosteriorIndistWhereHeavy]
