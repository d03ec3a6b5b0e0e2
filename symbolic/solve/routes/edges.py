"""Decide a claim part whose hypothesis holds for every population, by that hypothesis on the
edges of the simplex of populations, its quantifier eliminated exactly.

A hypothesis over every population 𝒫 (a joint distribution on 𝒟^n) is an ∃∀ question: a table
satisfies it when the notion's body holds at every 𝒫. Where the body's supremum over 𝒫 is only
approached as 𝒫 tends to the boundary (the prior's mass on one database tending to 0), no finite
family of populations decides it and a search for counterexamples with finitely many populations
does not converge. This route keeps, of the hypothesis, its instances on the edges of the simplex:
for databases a ≠ b, the populations 𝒫_t = t·δ_a + (1 − t)·δ_b with t ∈ [0, 1]. Every 𝒫_t is a
population, so the edges' instances are implied by the hypothesis, and a claim part they refute is
proved. A hypothesis over every *product* population keeps only the edges between databases that
differ in one record, where 𝒫_t is a product (that record mixed, the others fixed).

    Lemma (a quadratic on [0, 1]). Let p(t) = c₀ + c₁t + c₂t². Then p(t) ≥ 0 for every t ∈ [0, 1]
    iff p(0) ≥ 0, p(1) ≥ 0 and (c₂ ≤ 0 or c₁ ≥ 0 or c₁ + 2c₂ ≤ 0 or 4c₀c₂ − c₁² ≥ 0); the same with
    every comparison of p strict for p(t) > 0; and p(t) = 0 for every t iff c₀ = c₁ = c₂ = 0.
    Proof. If c₂ ≤ 0, p is concave or linear and its minimum over [0, 1] is at an end. If c₂ > 0 its
    only critical point t* = −c₁/(2c₂) lies in (0, 1) iff c₁ < 0 and c₁ + 2c₂ > 0, and there
    p(t*) = c₀ − c₁²/(4c₂), which has the sign of 4c₀c₂ − c₁²; otherwise the minimum is at an end.

The body at 𝒫_t is read as a conjunction of atoms polynomial in t
(:func:`symbolic.solve.routes.atoms.conjunction`); ∀t distributes over the conjunction, and each atom of
degree at most 2 in t becomes the lemma's condition, a formula in the tables and parameters alone.
A body that is no such conjunction (a disjunction of guarded cases, say) keeps instead its truth next
to each end of the edge: for t in (0, η), η small enough, every atom has the sign of its first
nonzero coefficient in t, so the body's truth there is a formula in the tables alone (its germ). It
is implied by the body holding on all of [0, 1], and it is the limit the hypothesis is needed for
(the prior's mass on one database tending to 0).
The part is then one query without quantifiers, asked per disjunct of the negated conclusion; all
unsatisfiable: proved at this size. Each disjunct is asked first with the instances on the edges
between the databases whose rows it mentions (every subset of the instances is implied by the
hypothesis, so refuting it refutes the disjunct), and again with every edge when that narrower query
has a model. A satisfiable disjunct gives tables and parameters that are
made rational and re-verified exactly on the claim as written (its hypothesis over every
population decided exactly, :mod:`symbolic.solve.queries.every_belief`); a candidate that fails there
leaves the part to the other methods. A body with an atom that is no polynomial in t is not taken.
"""
from __future__ import annotations

import itertools

import sympy as sp
import z3

from symbolic.core.formula import satisfied
from symbolic.model.population import PopTable
from symbolic.solve.routes.atoms import NotPolynomial, comparison, conjunction, disjunction, term
from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import units
from symbolic.solve.queries.encode import z3_or
from symbolic.solve.routes.route import RouteResult, constant_names, rational_model
from symbolic.solve.queries.solver import assignment
from symbolic.solve.queries.verify import verify
from symbolic.solve.backends.z3_ops import to_z3

ROUTE_EFFORT = units(30)   # z3 units for the whole route at one size (at the ci level)
MAX_EDGES = 200
T = sp.Symbol("_t")


def _coefficients(f, env):
    """The coefficients of ``f`` in ``T`` as solver terms, the constant first; None when ``f`` is no
    polynomial in ``T``."""
    f = sp.expand(f)
    if not f.is_polynomial(T):
        return None
    poly = sp.Poly(f, T)
    return [to_z3(sp.expand(poly.coeff_monomial(T ** k)), env) for k in range(max(poly.degree(), 0) + 1)]


def all_of_unit_interval(f, op, env):
    """The lemma: a z3 formula in ``f``'s other symbols that holds iff ``f(t) op 0`` for every
    t ∈ [0, 1] (``f`` a sympy polynomial of degree ≤ 2 in ``T``); None for a higher degree or no
    polynomial."""
    cs = _coefficients(f, env)
    if cs is None or len(cs) > 3:
        return None
    c0, c1, c2 = cs + [z3.RealVal(0)] * (3 - len(cs))
    if op == "==":
        return z3.And(c0 == 0, c1 == 0, c2 == 0)
    at0, at1 = c0, c0 + c1 + c2
    if op == ">":
        return z3.And(at0 > 0, at1 > 0, z3.Or(c2 <= 0, c1 >= 0, c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 > 0))
    return z3.And(at0 >= 0, at1 >= 0, z3.Or(c2 <= 0, c1 >= 0, c1 + 2 * c2 <= 0, 4 * c0 * c2 - c1 * c1 >= 0))


def germ(f, op, env, at_one=False):
    """A z3 formula in ``f``'s other symbols that holds iff ``f(t) op 0`` for every t in some
    interval (0, η) (``at_one``: (1 − η, 1)): near the end a polynomial has the sign of its first
    nonzero coefficient in t (in 1 − t at the other end), and is 0 there only if it is 0. None when
    ``f`` is no polynomial in ``T``."""
    cs = _coefficients(f.subs(T, 1 - T) if at_one else f, env)
    if cs is None:
        return None
    if op == "==":
        return z3.And([c == 0 for c in cs])
    alts = [z3.And([d == 0 for d in cs[:k]] + [c > 0]) for k, c in enumerate(cs)]
    if op == ">=":
        alts.append(z3.And([c == 0 for c in cs]))
    return z3.Or(alts)


_SIDES = {">=": (0, ">="), "<=": (1, ">="), ">": (0, ">"), "<": (1, ">"), "==": (0, "==")}


def germ_of(phi, env, at_one=False):
    """The truth of the Boolean formula ``phi`` (atoms polynomial in t) on an interval (0, η) (or
    (1 − η, 1)): each atom's sign is constant there, so the formula's truth is the same Boolean
    combination of the atoms' germs. None when an atom is no polynomial comparison."""
    if isinstance(phi, bool):
        return z3.BoolVal(phi)
    if z3.is_true(phi) or z3.is_false(phi):
        return phi
    if z3.is_not(phi) or z3.is_and(phi) or z3.is_or(phi) or z3.is_implies(phi):
        kids = [germ_of(c, env, at_one) for c in phi.children()]
        if any(k is None for k in kids):
            return None
        if z3.is_not(phi):
            return z3.Not(kids[0])
        if z3.is_implies(phi):
            return z3.Implies(kids[0], kids[1])
        return z3.And(kids) if z3.is_and(phi) else z3.Or(kids)
    cmp = comparison(phi)
    if cmp is None:
        return None
    op, lhs, rhs = cmp
    first, strict = _SIDES[op]
    try:
        big, small = (term(lhs), term(rhs)) if first == 0 else (term(rhs), term(lhs))
    except NotPolynomial:
        return None
    return germ(big - small, strict, env, at_one)


def _exactly(atoms, env):
    """The lemma's conditions for a conjunction of atoms, or None when one is beyond it."""
    out = []
    for at in atoms:
        cond = z3.BoolVal(satisfied(at.f, at.op)) if at.f.is_Rational else all_of_unit_interval(at.f, at.op, env)
        if cond is None:
            return None
        out.append(cond)
    return out


def _edge_instances(enc, ni, env, readings):
    """The conditions for the hypothesis ``ni`` on the edges of the simplex, one (ends, conditions)
    per edge (``readings`` counts the edges read exactly and by their germs), or None."""
    t = z3.Real(str(T))
    zero = z3.RealVal(0)
    out = []
    product = ni.notion.population == "product"
    for a, b in itertools.combinations(range(len(enc.dbs)), 2):
        if product and sum(u != v for u, v in zip(enc.dbs[a], enc.dbs[b])) != 1:
            continue   # t·δ_a + (1-t)·δ_b is a product population only when a and b differ in one record
        row = [t if j == a else (1 - t if j == b else zero) for j in range(len(enc.dbs))]
        body = enc.eval(ni, PopTable(enc.sizes.n, enc.domain, dict(zip(enc.dbs, row))))
        atoms = conjunction(body)
        exact = _exactly(atoms, env) if atoms is not None else None
        if exact is not None:
            readings["exactly"] += 1
            out.append(((enc.dbs[a], enc.dbs[b]), exact))
            continue
        # a body the lemma does not read: its truth next to each end of the edge instead
        ends = [germ_of(body, env, at_one) for at_one in (False, True)]
        if any(e is None for e in ends):
            return None
        readings["by their germs"] += 1
        out.append(((enc.dbs[a], enc.dbs[b]), ends))
    return out


def _database(key, dbs):
    """The database of a table entry's key (``(d, j)``, or ``((o, d), j)`` in an adaptive stage), or None."""
    where = key[0] if isinstance(key, tuple) and key else None
    if where in dbs:
        return where
    if isinstance(where, tuple) and len(where) == 2 and where[1] in dbs:
        return where[1]
    return None


def decide(enc, settings, meter):
    """:class:`~symbolic.solve.routes.route.RouteResult`, or None when the part has no hypothesis over every
    population, or one whose body on an edge the lemma cannot read."""
    if not enc.universal or enc.ops.side or enc.imp.conclusion.notion.population in ("all", "product"):
        return None
    if len(enc.dbs) * (len(enc.dbs) - 1) // 2 > MAX_EDGES:
        return None
    env = {v.decl().name(): v for _, _, v in enc.vars}
    edges, readings = [], {"exactly": 0, "by their germs": 0}
    for ni in enc.universal:
        inst = _edge_instances(enc, ni, env, readings)
        if inst is None:
            return None
        edges += inst
    meter = meter.sub(settings.scale(ROUTE_EFFORT), "edges route")
    negated = z3_or(enc.negated_conclusion_parts())
    disjuncts = [z3.And([a.z3(env) for a in d]) if isinstance(d, list) else d.z3(env)
                 for d in (disjunction(negated) or [])] or [negated]
    dbs = set(enc.dbs)
    db_of = {v.decl().name(): _database(key, dbs) for g, key, v in enc.vars if g != "param"}
    every = [c for _, conds in edges for c in conds]
    obligations, narrowed = [], 0
    for d in disjuncts:
        # first the edges between databases whose rows the disjunct mentions: fewer instances of the
        # hypothesis imply less, so their refutation is one of the whole; a model of them is asked
        # again with every edge
        mentioned = {db_of.get(x) for x in constant_names(d, {})}
        near = [c for ends, conds in edges if set(ends) <= mentioned for c in conds]
        for kept in ([near, every] if near and len(near) < len(every) else [every]):
            if meter.exhausted():
                return RouteResult("unknown", reason="edges: " + meter.reason())
            s = z3.Tactic("qfnra-nlsat").solver()
            s.add(enc.base + list(enc.hyps) + kept + [d])
            r = check_within(s, settings.query_effort, meter=meter, safety=settings.timeout)
            if r != z3.sat or kept is not near:
                break
        if r == z3.unsat:
            obligations.append(tuple(s.assertions()))
            narrowed += kept is near
            continue
        if r == z3.sat:
            vals = rational_model(s, [v for _, _, v in enc.vars])
            asg = assignment(enc, vals) if vals is not None else None
            if asg is not None and verify(enc.imp, enc.params, asg)[0]:
                return RouteResult("sat", asg, how="a table that satisfies the hypothesis on every edge of the "
                                                   "simplex of populations, re-verified on every population")
            return RouteResult("unknown", reason="edges: a candidate that the hypothesis on the edges allows "
                                                 "fails it elsewhere")
        return RouteResult("unknown", reason="edges: a query undecided")
    return RouteResult("unsat", obligations=obligations,
                       how="the hypothesis on the edges of the simplex of populations ("
                           + ", ".join(f"{k} {how}" for how, k in readings.items() if k)
                           + f"): {len(disjuncts)} disjuncts refuted ({narrowed} on the edges among the "
                           f"databases they mention), {meter.spent:,} z3 units")
