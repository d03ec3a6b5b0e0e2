"""Differential privacy and its associative and causal variations, as notions.

Each body is the formal definition, written once for exact numbers and z3 terms. The
causal notions are computed in the structural model M^A (:func:`symbolic.model.causal.mechanism_model`)
by ``do(...)``, not by a closed form, so the model's semantics is what gets checked.
Conditional probabilities are compared cross-multiplied (num₁·den₂ ≤ E·num₂·den₁), which is
equivalent to the ratio form whenever both conditions have positive probability.

The notions (E = e^ε ≥ 1; d' = d[i→v] replaces record i; 𝒫 a population on 𝒟^n; "∀𝒫" notions
quantify over every population, "For" notions are relative to the one given 𝒫):

- ``PureDP``: ε-DP, Pr[A(d)=o] ≤ E·Pr[A(d')=o] (Dwork, McSherry, Nissim, Smith (2006), Def. 1).
- ``ApproxDP``: (ε,δ)-DP, Pr[A(d)∈S] ≤ E·Pr[A(d')∈S] + δ for every event S (Dwork, Kenthapadi,
  McSherry, Mironov, Naor (2006), Def. 1).
- ``FreeLunchPrivacy``: the ε-DP inequality for every pair of databases, not only neighbours
  (Kifer and Machanavajjhala (2011)).
- ``StrongAdversaryDP`` / ``StrongAdversaryDPFor``: Pr[O=o|D=d] ≤ E·Pr[O=o|D=d'] where both
  conditions have positive probability, ∀𝒫 / for 𝒫 (Tschantz, Sen, Datta (2020), Defs. 2, 10).
- ``Bayesian0DP`` / ``IndependentBayesian0DP`` / ``Bayesian0DPFor``: Pr[O=o|D_i=u] ≤
  E·Pr[O=o|D_i=v], ∀𝒫 / for every product 𝒫 / for 𝒫 (Tschantz, Sen, Datta (2020), Defs. 3, 4).
- ``WholeDatabaseInterventionDP`` / ``WholeDatabaseInterventionDPFor``: Pr[O=o|do(D=d)] ≤
  E·Pr[O=o|do(D=d')] in the causal model, ∀𝒫 / for 𝒫 (Tschantz, Sen, Datta (2020), Defs. 5, 6).
- ``DataPointInterventionDP`` / ``DataPointInterventionDPFor``: Pr[O=o|do(D_i=u)] ≤
  E·Pr[O=o|do(D_i=v)], ∀𝒫 / for 𝒫 (Tschantz, Sen, Datta (2020), Defs. 8, 7).
- ``StrongBayesianDP``: Pr[O=o|D_i=u, D_-i=r] ≤ E·Pr[O=o|D_i=v, D_-i=r], ∀𝒫 (Tschantz, Sen,
  Datta (2020), Fig. 2 (d)).
- ``Noninterference``: A's output distribution does not depend on its input (ε = 0; Tschantz, Sen,
  Datta (2020), related work).
- ``StatisticalNondisclosure``: Pr[D=d|O=o] = Pr[D=d] for the given 𝒫 (Dalenius (1977), as stated
  in Tschantz, Sen, Datta (2020), App. A.3).

Binary randomized response at E = 3 satisfies each ε-type notion at E = 3 and none at E = 2:

>>> from symbolic.model.mechanism import randomized_response
>>> rr, P = randomized_response(3), uniform(n=1, domain=(0, 1))
>>> from symbolic.api import evaluate
>>> levels = (PureDP, FreeLunchPrivacy, StrongAdversaryDP, Bayesian0DP, IndependentBayesian0DP,
...           WholeDatabaseInterventionDP, DataPointInterventionDP, StrongBayesianDP)
>>> [(evaluate(N, rr, E=3), evaluate(N, rr, E=2)) for N in levels] == [(True, False)] * 8
True
>>> given = (StrongAdversaryDPFor, Bayesian0DPFor, WholeDatabaseInterventionDPFor, DataPointInterventionDPFor)
>>> [(evaluate(N, rr, population=P, E=3), evaluate(N, rr, population=P, E=2)) for N in given]
[(True, False), (True, False), (True, False), (True, False)]
>>> evaluate(ApproxDP, rr, E=2, delta="1/4"), evaluate(ApproxDP, rr, E=2, delta="1/5")
(True, False)
>>> evaluate(Noninterference, rr), evaluate(StatisticalNondisclosure, rr, population=P)
(False, False)
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.model.causal import mechanism_model
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion
from symbolic.model.population import Population, uniform
from symbolic.core.fast_exact import hockey_check, one_pass, pure_dp_checks
from symbolic.core.prob import violated_event
from symbolic.core.tables import databases, replace


def _pure_dp_why(A, E, i, d, v, o):
    return (f"i={i+1}, d={d}, d'={replace(d, i, v)}, o={o}: "
            f"Pr[A(d)=o]={A.p(d, o)} > E·Pr[A(d')=o]={E}·{A.p(replace(d, i, v), o)}")


def _pure_dp(ops, A, P=None, *, E):
    return ops.And(
        ops.le(A.p(d, o), E * A.p(replace(d, i, v), o), why=lambda i=i, d=d, v=v, o=o: _pure_dp_why(A, E, i, d, v, o))
        for i, d, v in A.neighbours() for o in A.outputs)


def _pure_dp_fast(A, P=None, *, E):
    """The body of PureDP on a rational table in one pass over integer columns (see
    :mod:`symbolic.core.fast_exact`); None when it does not apply (then the body decides)."""
    return one_pass(A, lambda view: pure_dp_checks(view, E),
                    lambda d, i, v, j: _pure_dp_why(A, E, i, d, v, A.outputs[j]))


PureDP = Notion("PureDP", (E_SPEC,), _pure_dp, summary=(
    "ε-DP: Pr[A(d)=o] ≤ e^ε·Pr[A(d[i→v])=o] for all i, d, v, o"), fast=_pure_dp_fast)


def _free_lunch(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(x, o), E * A.p(y, o), why=lambda x=x, y=y, o=o: f"d={x}, d'={y}, o={o}")
                   for x in A.rows for y in A.rows if x != y for o in A.outputs)


FreeLunchPrivacy = Notion("FreeLunchPrivacy", (E_SPEC,), _free_lunch, summary=(
    "ε-free-lunch privacy: Pr[A(d)=o] ≤ e^ε·Pr[A(d')=o] for every pair of databases"))


def _approx_dp_why(A, E, delta, i, d, v):
    """The violated event at the failing pair, with both sides in exact numbers (:func:`violated_event`)."""
    d2 = replace(d, i, v)
    event = violated_event(A.outputs, [A.p(d, o) for o in A.outputs], [A.p(d2, o) for o in A.outputs], E, delta,
                           names=("Pr[A(d)∈S]", "Pr[A(d')∈S]"))
    return f"i={i+1}, d={d}, d'={d2}: {event}"


def _approx_dp(ops, A, P=None, *, E, delta):
    # max over events S of Pr[A(d)∈S] - E·Pr[A(d')∈S] is attained at S = {o : A(d)(o) > E·A(d')(o)},
    # so "for all events" is Σ_o max(0, A(d)(o) - E·A(d')(o)) ≤ δ: no enumeration of 2^|𝒪| sets.
    return ops.And(
        ops.le(ops.sum(ops.max0(A.p(d, o) - E * A.p(replace(d, i, v), o)) for o in A.outputs), delta,
               why=lambda i=i, d=d, v=v: _approx_dp_why(A, E, delta, i, d, v))
        for i, d, v in A.neighbours())


def _approx_dp_fast(A, P=None, *, E, delta):
    """The body of ApproxDP on a rational table in one pass over integer columns; None when it does not apply."""
    return one_pass(A, lambda view: hockey_check(view, E, delta), lambda d, i, v, _: _approx_dp_why(A, E, delta, i, d, v))


ApproxDP = Notion("ApproxDP", (E_SPEC, DELTA_SPEC), _approx_dp, summary=(
    "(ε,δ)-DP: Pr[A(d)∈S] ≤ e^ε·Pr[A(d')∈S] + δ for neighbours and all events S"), fast=_approx_dp_fast)


# --- associative variations (conditioning in M^A) -------------------------------------------

def _masses(ops, worlds, key):
    """(Pr[K=k, O=o] by (k, o), Pr[K=k] by k) for K = key(world), each summed in one pass over the
    worlds of M^A. A value no world takes has no entry: its mass is exactly 0 (worlds of weight 0 are
    pruned), so a conditional given it is undefined and the bodies below leave its pairs out (their
    comparisons ask both masses > 0: Implies(0 > 0, ...) would be vacuous)."""
    joint, mass = {}, {}
    for a, w in worlds:
        k = key(a)
        joint.setdefault((k, a["O"]), []).append(w)
        mass.setdefault(k, []).append(w)
    return {k: ops.sum(ws) for k, ws in joint.items()}, {k: ops.sum(ws) for k, ws in mass.items()}


def _strong_adversary(ops, A, P, *, E):
    joint, mass = _masses(ops, mechanism_model(A, P).worlds(ops), lambda a: a["D"])

    def cond(o, d):
        return joint.get((d, o), 0), mass[d]

    out = []
    for i, d, v in A.neighbours():
        d2 = replace(d, i, v)
        if d not in mass or d2 not in mass:
            continue
        for o in A.outputs:
            (n1, m1), (n2, m2) = cond(o, d), cond(o, d2)
            out.append(ops.Implies(ops.And([ops.gt(m1, 0), ops.gt(m2, 0)]),
                                   ops.le(n1 * m2, E * n2 * m1,
                                          why=lambda i=i, d=d, d2=d2, o=o: f"i={i+1}, d={d}, d'={d2}, o={o}: "
                                          f"Pr[O=o|D=d] > E·Pr[O=o|D=d']")))
    return ops.And(out)


def _full_support(n, domain):
    """One full-support population: the body depends on 𝒫 only through its support (given
    D=d, O is drawn from A(d)), and a full-support 𝒫 makes every pair of databases checked."""
    return [uniform(n=n, domain=domain)]


StrongAdversaryDP = Notion("StrongAdversaryDP", (E_SPEC,), _strong_adversary, population="all",
                           summary="∀𝒫: Pr[O=o|D=d] ≤ e^ε·Pr[O=o|D=d[i→v]] where both have 𝒫 > 0",
                           sufficient=_full_support)
StrongAdversaryDPFor = Notion("StrongAdversaryDPFor", (E_SPEC,), _strong_adversary, population="given",
                              summary="strong-adversary DP (Tschantz, Sen, Datta (2020), Def. 2) for the one given "
                                      "population 𝒫 (Appendix B)")


def _bayesian0(ops, A, P, *, E):
    worlds = mechanism_model(A, P).worlds(ops)
    out = []
    for i in range(A.n):
        joint, mass = _masses(ops, worlds, lambda a, i=i: a[f"D{i+1}"])
        for u, v in itertools.permutations(A.domain, 2):
            if u not in mass or v not in mass:
                continue
            mu, mv = mass[u], mass[v]
            for o in A.outputs:
                nu, nv = joint.get((u, o), 0), joint.get((v, o), 0)
                out.append(ops.Implies(ops.And([ops.gt(mu, 0), ops.gt(mv, 0)]),
                                       ops.le(nu * mv, E * nv * mu,
                                              why=lambda i=i, u=u, v=v, o=o: f"i={i+1}, D_i={u} vs {v}, o={o}: "
                                              f"Pr[O=o|D_i={u}] > E·Pr[O=o|D_i={v}]")))
    return ops.And(out)


def _pairs(n, domain):
    """Uniform populations on two databases x ≠ y. For u ≠ v, Pr[O=o|D_i=u] is a convex
    combination of A(x)(o) over x with x_i = u (weights 𝒫(x|D_i=u)), and the two conditional
    laws can be chosen independently; so the largest ratio is max_x A(x)(o) / min_y A(y)(o),
    reached by the population uniform on {x, y}."""
    dbs = databases(n, domain)
    return [Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain, name=f"uniform on {x},{y}")
            for x, y in itertools.combinations(dbs, 2)]


def _neighbour_pairs(n, domain):
    """Uniform populations on two neighbours r[i→u], r[i→v] (these are product populations).
    For a product 𝒫 the inequality for (i, u, v, o) is multilinear in the marginals of the
    other indices, so its worst case is at point masses for them; 𝒫(D_i=u), 𝒫(D_i=v) > 0 then
    needs index i to put mass on both u and v, and the conditionals do not depend on how much."""
    dbs = databases(n, domain)
    out = []
    for x, y in itertools.combinations(dbs, 2):
        if sum(a != b for a, b in zip(x, y)) == 1:
            out.append(Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain,
                                  name=f"uniform on {x},{y}"))
    return out


Bayesian0DP = Notion("Bayesian0DP", (E_SPEC,), _bayesian0, population="all", sufficient=_pairs,
                     summary="∀𝒫: Pr[O=o|D_i=u] ≤ e^ε·Pr[O=o|D_i=v] where both have 𝒫 > 0")
IndependentBayesian0DP = Notion("IndependentBayesian0DP", (E_SPEC,), _bayesian0, population="product",
                                sufficient=_neighbour_pairs,
                                summary="Bayesian₀ DP (Tschantz, Sen, Datta (2020), Def. 3) for every product population "
                                        "(independent data points)")
Bayesian0DPFor = Notion("Bayesian0DPFor", (E_SPEC,), _bayesian0, population="given",
                        summary="Bayesian₀ DP (Tschantz, Sen, Datta (2020), Def. 3) for the one given population 𝒫")


# --- causal variations (interventions in M^A) ------------------------------------------------

def _whole_db(ops, A, P, *, E):
    model = mechanism_model(A, P)
    cache = {}

    def pr(o, d):
        if d not in cache:
            cache[d] = model.do(D=d).worlds(ops)
        return ops.sum(w for a, w in cache[d] if a["O"] == o)

    return ops.And(ops.le(pr(o, d), E * pr(o, replace(d, i, v)),
                          why=lambda i=i, d=d, v=v, o=o: f"i={i+1}, do(D={d}) vs do(D={replace(d, i, v)}), o={o}")
                   for i, d, v in A.neighbours() for o in A.outputs)


def _any_one(n, domain):
    """Pr[O=o | do(D=d)] = Pr[A(d)=o] whatever 𝒫 (Lemma 1), so any one population decides it."""
    return [uniform(n=n, domain=domain)]


WholeDatabaseInterventionDP = Notion("WholeDatabaseInterventionDP", (E_SPEC,), _whole_db, population="all",
                                     sufficient=_any_one,
                                     summary="∀𝒫: Pr[O=o|do(D=d)] ≤ e^ε·Pr[O=o|do(D=d[i→v])]")
WholeDatabaseInterventionDPFor = Notion("WholeDatabaseInterventionDPFor", (E_SPEC,), _whole_db, population="given",
                                        summary="whole-database intervention DP (Tschantz, Sen, Datta (2020), Def. 5) for the one "
                                                "given population 𝒫")


def do_data_point(ops, A, P, i, u):
    """Pr[O=o | do(D_i=u)] in M^A for each output o (a tuple aligned with A.outputs)."""
    worlds = mechanism_model(A, P).do(**{f"D{i+1}": u}).worlds(ops)
    return tuple(ops.sum(w for a, w in worlds if a["O"] == o) for o in A.outputs)


def _data_point(ops, A, P, *, E):
    out = []
    for i in range(A.n):
        pr = {u: do_data_point(ops, A, P, i, u) for u in A.domain}
        for u, v in itertools.permutations(A.domain, 2):
            for j, o in enumerate(A.outputs):
                out.append(ops.le(pr[u][j], E * pr[v][j],
                                  why=lambda i=i, u=u, v=v, o=o: f"i={i+1}, do(D_i={u}) vs do(D_i={v}), o={o}: "
                                  f"Pr[O=o|do(D_i={u})] > E·Pr[O=o|do(D_i={v})]"))
    return ops.And(out)


def _point_masses(n, domain):
    """Point masses on each database. For a fixed mechanism the inequality for (i, u, v, o) is
    Σ_r 𝒫(r)·(A(r[i→u])(o) - E·A(r[i→v])(o)) ≤ 0, linear in 𝒫; a linear function on the
    simplex is largest at a vertex, i.e. at a point mass."""
    from symbolic.model.population import point_mass
    return [point_mass(d, domain=domain) for d in databases(n, domain)]


DataPointInterventionDPFor = Notion("DataPointInterventionDPFor", (E_SPEC,), _data_point, population="given",
                                    summary="for the given 𝒫: Pr[O=o|do(D_i=u)] ≤ e^ε·Pr[O=o|do(D_i=v)]")
DataPointInterventionDP = Notion("DataPointInterventionDP", (E_SPEC,), _data_point, population="all",
                                 sufficient=_point_masses,
                                 summary="∀𝒫: Pr[O=o|do(D_i=u)] ≤ e^ε·Pr[O=o|do(D_i=v)]")

ALL = [PureDP, FreeLunchPrivacy, ApproxDP, StrongAdversaryDP, StrongAdversaryDPFor, Bayesian0DP,
       IndependentBayesian0DP, Bayesian0DPFor, WholeDatabaseInterventionDP, WholeDatabaseInterventionDPFor,
       DataPointInterventionDPFor, DataPointInterventionDP]


def _strong_bayesian(ops, A, P, *, E):
    """Condition on D_i and on every other data point D_j = d_j (Figure 2(d))."""
    joint, mass = _masses(ops, mechanism_model(A, P).worlds(ops), lambda a: tuple(a[f"D{j+1}"] for j in range(A.n)))

    def cond(o, d):
        return joint.get((d, o), 0), mass[d]

    out = []
    for i, d, v in A.neighbours():
        d2 = replace(d, i, v)
        if d not in mass or d2 not in mass:
            continue
        for o in A.outputs:
            (n1, m1), (n2, m2) = cond(o, d), cond(o, d2)
            out.append(ops.Implies(ops.And([ops.gt(m1, 0), ops.gt(m2, 0)]), ops.le(n1 * m2, E * n2 * m1,
                                   why=lambda i=i, d=d, d2=d2, o=o: f"i={i+1}, D={d} vs {d2}, o={o}")))
    return ops.And(out)


StrongBayesianDP = Notion("StrongBayesianDP", (E_SPEC,), _strong_bayesian, population="all", sufficient=_full_support,
                          summary="∀𝒫: Pr[O=o|D_i=u, D_-i=r] ≤ e^ε·Pr[O=o|D_i=v, D_-i=r] where both have 𝒫 > 0")


def _noninterference(ops, A, P=None):
    return ops.And(ops.eq(A.p(x, o), A.p(y, o), why=lambda x=x, y=y, o=o: f"A({x}) and A({y}) differ at o={o}")
                   for x in A.rows for y in A.rows if x < y for o in A.outputs)


Noninterference = Notion("Noninterference", (), _noninterference,
                         summary="A's output distribution does not depend on its input")


def _nondisclosure(ops, A, P):
    worlds = mechanism_model(A, P).worlds(ops)
    out = []
    for d in A.rows:
        pd = ops.sum(w for a, w in worlds if a["D"] == d)
        for o in A.outputs:
            po = ops.sum(w for a, w in worlds if a["O"] == o)
            out.append(ops.eq(ops.sum(w for a, w in worlds if a["D"] == d and a["O"] == o), pd * po,
                              why=lambda d=d, o=o: f"D={d}, O={o} are dependent"))
    return ops.And(out)


StatisticalNondisclosure = Notion("StatisticalNondisclosure", (), _nondisclosure, population="given",
                                  summary="Pr[D=d|O=o] = Pr[D=d] for the true 𝒫 (D and O independent)")


def _brp_all(ops, A, P=None, *, E):
    from symbolic.notions.families.causal import brp_holds
    sem = mechanism_model(A, P)
    return ops.And(brp_holds(ops, sem, f"D{i+1}", "O", E) for i in range(A.n))


brp_all_data_points_notion = Notion("BRPEveryDataPoint", (E_SPEC,), _brp_all, population="all",
                                    sufficient=_point_masses,
                                    summary="max_𝒫 max RP(O, D_i) ≤ e^ε for every i (ε-BRP from each D_i to O)")

ALL += [StrongBayesianDP, Noninterference, StatisticalNondisclosure, brp_all_data_points_notion]
