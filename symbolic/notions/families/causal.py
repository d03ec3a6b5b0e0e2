"""Bounded relative probability (BRP) on structural models, and the models it is used on.

RP(ρ, φ, ψ) = Pr[ρ | do(φ)] / Pr[ρ | do(ψ)]; the largest effect of X on Y is
max_{y, x1, x2} RP(Y=y, X=x1, X=x2), and ε-BRP from X to Y bounds it by e^ε for every
distribution of the exogenous variables (Tschantz, Sen, Datta (2020), §6.1, Definition 9).
Ratios are compared cross-multiplied: Pr[Y=y|do(x1)] ≤ E·Pr[Y=y|do(x2)] (an infinite ratio violates every bound).
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.model.causal import SEM, Equation, mechanism_model, prog_status_model
from symbolic.notions.base import E_SPEC, Notion


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def effect_table(ops, sem: SEM, cause, effect):
    """{x: {y: Pr[Y=y | do(X=x)]}} for cause X (one variable or a tuple, intervened jointly)
    and effect Y (one variable or a tuple, taken jointly)."""
    cause, effect = _as_tuple(cause), _as_tuple(effect)
    xs = list(itertools.product(*[sem.values(c) for c in cause]))
    ys = list(itertools.product(*[sem.values(e) for e in effect]))
    out = {}
    for x in xs:
        worlds = sem.do(**dict(zip(cause, x))).worlds(ops)
        out[x] = {y: ops.sum(w for a, w in worlds if tuple(a[e] for e in effect) == y) for y in ys}
    return out


def brp_holds(ops, sem: SEM, cause, effect, E):
    tab = effect_table(ops, sem, cause, effect)
    return ops.And(ops.le(tab[x1][y], E * tab[x2][y],
                          why=lambda x1=x1, x2=x2, y=y: f"{_as_tuple(effect)}={y}: do({_as_tuple(cause)}={x1}) vs "
                                                        f"do({_as_tuple(cause)}={x2})")
                   for x1, x2 in itertools.permutations(tab, 2) for y in tab[x1])


def relative_probabilities(sem: SEM, cause, effect, ops=None):
    """Every relative probability RP(Y=y, X=x1, X=x2) of the model, exactly (sympy; ``[oo]``
    when some Pr[Y=y|do(x2)] = 0 < Pr[Y=y|do(x1)]); concrete or symbolic numbers."""
    from symbolic.core.ops import ExactOps
    tab = effect_table(ops or ExactOps(), sem, cause, effect)
    ratios = []
    for x1, x2 in itertools.permutations(tab, 2):
        for y, p1 in tab[x1].items():
            p2 = tab[x2][y]
            if sp.simplify(p2) == 0:
                if sp.simplify(p1) != 0:
                    return [sp.oo]
                continue
            ratios.append(sp.simplify(p1 / p2))
    return ratios


def dominant(exprs, symbol, samples=(sp.Rational(101, 100), 2, 3, 10, 1000)):
    """The expression that is largest at every sample value of ``symbol`` (exact comparison),
    or None if no single one is. Used to pick max RP as a function of E = e^ε > 1."""
    for cand in dict.fromkeys(exprs):
        if all(sp.simplify(cand.subs(symbol, s) - e.subs(symbol, s)) >= 0 for e in exprs for s in samples):
            return cand
    return None


def brp_notion(name, builder, cause, effect, *, summary="", population="all", arity=1, sufficient=None):
    """A notion 'ε-BRP from ``cause`` to ``effect`` in the model ``builder(A..., P, params)``'."""
    def body(ops, *mechs, P=None, E):
        sem = builder(*mechs, P=P, E=E)
        return brp_holds(ops, sem, cause, effect, E)
    return Notion(name, (E_SPEC,), body, population=population, arity=arity, summary=summary,
                  sufficient=sufficient)


def any_one_population(n, domain):
    """A sufficient family of one population, for BRP notions whose cause is *every* exogenous variable
    of the model. Proof: do(X=x) on the exogenous X replaces its value in every world, so
    Pr[Y=y | do(X=x)] = Σ_u 𝒫(u)·Pr[Y=y | X=x] = Pr[Y=y | X=x]·Σ_u 𝒫(u) = Pr[Y=y | X=x]: the notion's
    truth value is the same for every population, and the uniform one decides it."""
    from symbolic.model.population import uniform
    return (uniform(n=n, domain=tuple(domain)),)


def brp_all_data_points(ops, A, P=None, *, E):
    """ε-BRP from every D_i to O in M^A (equation 28)."""
    sem = mechanism_model(A, P)
    return ops.And(brp_holds(ops, sem, f"D{i+1}", "O", E) for i in range(A.n))


def rr_kernel_row(E, k, r):
    """k-ary randomized response: keep with probability E/(E+k-1)."""
    return tuple(E / (E + k - 1) if v == r else 1 / (E + k - 1) for v in range(k))


def randomized_response_model(A, P=None, E=None, copy=False):
    """Tschantz, Sen, Datta (2020), §6.3: R_i exogenous (joint 𝒫), D_i := RR_E(R_i) (each person
    randomizes their own answer), O := A(D_1..D_n). With ``copy=True``, R_2 := R_1 (attributes affecting one
    another) and 𝒫 is the distribution of R_1 alone."""
    n, dom = A.n, A.domain
    k = len(dom)
    eqs = []
    if copy:
        eqs += [Equation(f"R{i+1}", dom, ("R1",), lambda r: r) for i in range(1, n)]
        exo, joint = ("R1",), {(d[0],): P.probs[d] for d in P.probs if all(x == d[0] for x in d)}
    else:
        exo, joint = tuple(f"R{i+1}" for i in range(n)), dict(P.probs)
    eqs += [Equation(f"D{i+1}", dom, (f"R{i+1}",), lambda r: rr_kernel_row(E, k, r), random=True) for i in range(n)]
    eqs.append(Equation("O", A.outputs, tuple(f"D{i+1}" for i in range(n)),
                        lambda *ds: tuple(A.rows[tuple(ds)]), random=True))
    return SEM(exo, {r: dom for r in exo}, joint, tuple(eqs))


def sequence_model(K1, K2, P=None, E=None):
    """X, Y, Z in sequence with pa(Z) = {X, Y} (Theorem 1): X exogenous with distribution 𝒫,
    Y := K1(X), Z := K2(Y)(X). ``K1`` is a table over one data point (X's values are its
    domain); ``K2`` maps each value of Y to such a table, or is a kernel on Y's values
    alone (post-processing, Z := K2(Y))."""
    dom = K1.domain
    exo = ("X",)
    joint = {(d[0],): P.probs[d] for d in P.probs}
    eqs = [Equation("Y", K1.outputs, ("X",), lambda x: tuple(K1.rows[(x,)]), random=True)]
    if None in K2:  # a kernel on Y's values
        eqs.append(Equation("Z", K2[None], ("Y",), lambda y: tuple(K2[y]), random=True))
    else:
        z_out = next(iter(K2.values())).outputs
        eqs.append(Equation("Z", z_out, ("X", "Y"), lambda x, y: tuple(K2[y].rows[(x,)]), random=True))
    return SEM(exo, {"X": dom}, joint, tuple(eqs))


__all__ = ["effect_table", "brp_holds", "relative_probabilities", "dominant", "brp_notion", "any_one_population", "brp_all_data_points",
           "randomized_response_model", "sequence_model", "prog_status_model", "mechanism_model"]
