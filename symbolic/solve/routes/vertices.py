"""Decide one claim part at one size by the vertices of its hypotheses' polytopes.

Applies when, for fixed parameters, (1) the unknowns fall into blocks (the rows of one table; rows
that share a hypothesis are one block) and every hypothesis is a conjunction of constraints linear in
one block, so each block ranges over a bounded polytope P_b(p); and (2) the negated conclusion is a
disjunction of atoms ``f > 0`` / ``f ≥ 0`` with f multilinear across blocks (of degree at most 1 in
each block's unknowns together, as Pr[A₁(d)=o₁]·Pr[A₂(d)=o₂] is in a composition). Then:

    Lemma. If some point of P_1(p) × … × P_k(p) satisfies an atom, some product of vertices does.
    Proof. Fix all blocks but b: f is linear in block b on the polytope P_b(p), so it attains its
    maximum over P_b(p) at a vertex, where f is at least its value at the point. Replace block b by
    that vertex and repeat for every block; f never decreases, so the atom still holds.

Every vertex of every P_b(p) is one of the block's candidates (:mod:`symbolic.solve.routes.polytope`), so the
claim part is refuted at this size iff, for some atom and some choice of one candidate per block the
atom mentions, the parameters' constraints, the candidates' conditions and the atom at those
coordinates hold together: a small query in the parameters alone, one per combination. All
unsatisfiable: proved at this size (blocks the atom does not mention only weaken the query when
left out). A satisfiable one gives parameter values and exact tables, completed with a feasible
vertex of every other block, which the caller re-verifies exactly like any counterexample.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp
import z3

from symbolic.solve.routes.atoms import conjunction, disjunction, dnf
from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import Exhausted, units
from symbolic.solve.queries.encode import z3_or
from symbolic.solve.routes.route import RouteResult, constant_names, rational_model, sign_oracle
from symbolic.solve.routes.polytope import TooLarge, candidates, sign_form
from symbolic.solve.routes.symmetry import orbit_representatives, symmetries
from symbolic.solve.queries.solver import assignment
from symbolic.solve.queries.verify import verify
from symbolic.solve.backends.z3_ops import to_z3

MAX_QUERIES = 10000   # combinations over all atoms; beyond this the route is not taken
MAX_CASES = 64        # cases of the hypotheses (disjuncts of their normal form)
ROUTE_EFFORT = units(45)  # z3 units for the whole route at one size (ci level); a route cut off leaves the rest to the others


@dataclass
class _Block:
    names: list
    rows: list
    atoms: list


def _shape(enc):
    """(the parameters' own constraints in z3, the rows, the hypotheses' cases (each a list of atoms
    that must all hold; one case per disjunct when a hypothesis is a disjunction), the atoms of the
    negated conclusion, name -> z3 term); None when the encoding does not have the shape of the lemma."""
    if enc.universal or enc.ops.side:
        return None
    env = {v.decl().name(): v for _, _, v in enc.vars}
    unknowns = {v.decl().name() for g, _, v in enc.vars if g != "param"}
    rows = [tuple(v.decl().name() for v in row) for row in enc.rows]
    if {n for r in rows for n in r} != unknowns:
        return None
    sums = {sp.expand(sp.Add(*[sp.Symbol(n) for n in r]) - 1) for r in rows}
    params_z3 = []
    for t in enc.base:
        if not (constant_names(t, {}) & unknowns):
            params_z3.append(t)
            continue
        ats = conjunction(t)   # a simplex constraint: x ≥ 0 or a row's sum = 1, nothing else
        if ats is None or not all((a.op == ">=" and a.f.is_Symbol and a.f.name in unknowns) or
                                  (a.op == "==" and (a.f in sums or -a.f in sums)) for a in ats):
            return None
    cases = [[]]
    sign = None
    for h in enc.hyps:
        form = conjunction(h)
        if form is not None:
            form = [form]
        else:   # e.g. a sum of conditional terms bounded by δ: one conjunction per subset of its terms
            sign = sign or sign_oracle(enc, env)
            form = dnf(h, cap=MAX_CASES, sign=sign, sums=True)
        if form is None or len(cases) * len(form) > MAX_CASES:
            return None
        cases = [x + y for x in cases for y in form]
    events = disjunction(z3_or(enc.negated_conclusion_parts()))
    if events is None:
        return None
    return params_z3, rows, cases, events, env


def _blocks(rows, hyp_atoms, params_z3, events, env):
    """(blocks, block of each unknown, the parameters' constraints with the case's own) for one case
    of the hypotheses; None when an atom of the negated conclusion is not multilinear across them."""
    unknowns = {n for r in rows for n in r}
    parent = {n: n for n in unknowns}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for group in rows + [sorted(a.symbols() & unknowns) for a in hyp_atoms]:
        for x in group[1:]:
            parent[find(x)] = find(group[0])
    roots = sorted({find(n) for n in unknowns})
    blocks = [_Block([], [], []) for _ in roots]
    index = {r: i for i, r in enumerate(roots)}
    block_of = {n: index[find(n)] for n in unknowns}
    for r in rows:
        blocks[block_of[r[0]]].rows.append(r)
        blocks[block_of[r[0]]].names += list(r)
    params_z3 = list(params_z3)
    for a in hyp_atoms:
        mentioned = a.symbols() & unknowns
        if not mentioned:
            params_z3.append(a.z3(env))
        else:
            blocks[block_of[next(iter(mentioned))]].atoms.append(a)
    if not all(_multilinear(e.f, block_of) for e in events):
        return None
    return blocks, block_of, params_z3


def _multilinear(f, block_of):
    xs = sorted((s for s in f.free_symbols if s.name in block_of), key=str)
    if not xs:
        return True
    try:
        poly = sp.Poly(f, *xs)
    except sp.PolynomialError:
        return False
    for monom in poly.monoms():
        per = {}
        for x, k in zip(xs, monom):
            per[block_of[x.name]] = per.get(block_of[x.name], 0) + k
        if any(k > 1 for k in per.values()):
            return False
    return not any(s.name in block_of for c in poly.coeffs() for s in sp.sympify(c).free_symbols)


def _homogenised(f, blocks_in, block_of, h):
    """f times the product of the blocks' denominators, as a polynomial in the unknowns and the
    denominator symbols ``h[b]``: each monomial is multiplied by h[b] for every block b it does not
    mention (a monomial that mentions b is multiplied by h[b] when b's unknowns, numerator/h[b], are
    put in). Its sign, in :func:`sign_form`."""
    xs = sorted((s for s in f.free_symbols if s.name in block_of), key=str)
    if not xs:
        return sign_form(f)
    poly = sp.Poly(f, *xs)
    out = sp.Integer(0)
    for monom, coeff in poly.terms():
        mentioned = {block_of[x.name] for x, k in zip(xs, monom) if k}
        term = coeff * sp.Mul(*[x ** k for x, k in zip(xs, monom)])
        out += term * sp.Mul(*[h[b] for b in blocks_in if b not in mentioned])
    return sign_form(out)


@dataclass(frozen=True)
class _Case:
    atoms: list
    blocks: list
    block_of: dict
    params: list      # the parameters' constraints, with this case's own


def _has_product(events, case, table_of):
    """Does some atom multiply the unknowns of two tables (two blocks of different tables) that
    hypotheses constrain, as a composition's Pr[A₁(d)=o₁]·Pr[A₂(d)=o₂] does? (Rows of one table
    that a case of the hypotheses leaves in separate blocks are no composition.)"""
    for e in events:
        tables = {table_of[s.name] for s in e.f.free_symbols if s.name in case.block_of
                  and case.blocks[case.block_of[s.name]].atoms}
        if len(tables) > 1:
            return True
    return False


def decide(enc, settings, meter, products_only=False):
    """:class:`RouteResult`, or None when the encoding does not have the lemma's shape or is too large
    (or, with ``products_only``, when no atom multiplies the unknowns of two constrained blocks).
    A hypothesis that is a disjunction splits the part into cases, one per disjunct: the part is
    proved when every case is, refuted when one case gives a re-verified counterexample."""
    shape = _shape(enc)
    if shape is None:
        return None
    params_z3, rows, case_atoms, events, env = shape
    cases = []
    for atoms in case_atoms:
        split = _blocks(rows, atoms, params_z3, events, env)
        if split is None:
            return None
        cases.append(_Case(atoms, *split))
    table_of = {v.decl().name(): g for g, _, v in enc.vars if g != "param"}
    if products_only and not any(_has_product(events, c, table_of) for c in cases):
        return None
    meter = meter.sub(settings.scale(ROUTE_EFFORT), "vertices route")
    cands = {}   # a block (rows, atoms, parameters' constraints) -> its candidates; blocks recur across cases

    def block_candidates(case, b):
        blk = case.blocks[b]
        key = (tuple(blk.rows), tuple(map(str, blk.atoms)), tuple(map(str, case.params)))
        if key not in cands:
            cands[key] = candidates(blk.atoms, blk.rows, blk.names, case.params, env, to_z3, meter)[0]
        return cands[key]
    plans, orbits = [], []
    try:
        for case in cases:
            renamings = symmetries(enc, rows, case.atoms)
            reps = orbit_representatives(events, renamings)
            orbits.append((len(reps), len(renamings)))
            for e in (events[i] for i in reps):
                ins = sorted({case.block_of[s.name] for s in e.f.free_symbols if s.name in case.block_of})
                plans.append((case, e, ins, [block_candidates(case, b) for b in ins]))
    except TooLarge:
        return None
    except Exhausted as e:
        return RouteResult("unknown", reason="vertices: " + e.text)
    total = sum(_count(lists) for _, _, _, lists in plans)
    if total > MAX_QUERIES:
        return None
    z3c = {}   # candidate id -> (substitution pairs, its conditions in z3, its denominator in z3)
    obligations, unknown = [], []
    for case, e, ins, lists in plans:
        h = {b: sp.Symbol(f"_den{b}") for b in ins}
        hz = {b: z3.Real(f"_den{b}") for b in ins}
        F = to_z3(_homogenised(e.f, ins, case.block_of, h), {**env, **{str(h[b]): hz[b] for b in ins}})
        for combo in itertools.product(*lists):
            if meter.exhausted():
                return RouteResult("unknown", reason="vertices: " + meter.reason())
            pairs, conds, sign = [], [], 1
            for b, c in zip(ins, combo):
                sub, cz, dz = _z3_candidate(c, env, z3c)
                pairs += sub + [(hz[b], dz)]
                conds += cz
                sign *= c.sign
            t = z3.substitute(F, *pairs) if pairs else F
            strict = e.op == ">"
            goal = (t > 0 if strict else t >= 0) if sign > 0 else (t < 0 if strict else t <= 0)
            s = z3.Tactic("qfnra-nlsat").solver()
            s.add(case.params + conds + [goal])
            r = check_within(s, settings.query_effort, meter=meter, safety=settings.timeout)
            if r == z3.unsat:
                obligations.append(tuple(s.assertions()))
            elif r == z3.sat:
                asg = _counterexample(enc, s, dict(zip(ins, combo)), case, lambda b, c=case: block_candidates(c, b), env)
                if asg is not None and verify(enc.imp, enc.params, asg)[0]:
                    return RouteResult("sat", asg, how=f"a product of vertices of the hypotheses' polytopes "
                                                        f"({len(obligations) + 1} queries)")
                unknown.append("a satisfiable vertex combination gave no exactly re-verified counterexample")
            else:
                unknown.append("a vertex combination was not decided")
    split = f"{len(cases)} cases of the hypotheses, " if len(cases) > 1 else ""
    reps, renamings = max(orbits)
    how = (f"vertices of the hypotheses' polytopes: {split}{max(len(c.blocks) for c in cases)} block(s), "
           f"{sum(len(v) for v in cands.values())} candidate vertices, {len(events)} atoms "
           f"({reps} up to {renamings} symmetries{' in the case that keeps most' if split else ''}), "
           f"{total} queries, {meter.spent:,} z3 units")
    if unknown:
        return RouteResult("unknown", reason="vertices: " + "; ".join(sorted(set(unknown))), how=how)
    return RouteResult("unsat", how=how, obligations=obligations)


def _count(lists):
    n = 1
    for x in lists:
        n *= len(x)
    return n


def _z3_candidate(c, env, memo):
    key = id(c)
    if key not in memo:
        sub = [(env[name], to_z3(x, env)) for name, x in c.numer]
        conds = [to_z3(c.conditions[0], env) > 0] + [to_z3(x, env) >= 0 for x in c.conditions[1:]]
        memo[key] = (sub, conds, to_z3(c.den, env), c)   # the candidate is kept alive so its id is not reused
    return memo[key][:3]


def _counterexample(enc, solver, chosen, case, block_candidates, env):
    """Exact tables from a satisfiable combination: rational parameters (rounded and re-checked when
    the model's are algebraic), the chosen vertices' coordinates there, and a feasible vertex of every
    other block; None when no such completion is found."""
    params = [v for g, _, v in enc.vars if g == "param"]
    vals = rational_model(solver, params)
    if vals is None:
        return None
    values = {v.decl().name(): vals[v.get_id()] for v in params}
    for b in range(len(case.blocks)):
        c = chosen.get(b)
        if c is None:
            c = next((x for x in block_candidates(b) if x.holds_at(values)), None)
            if c is None:
                return None
        for name, x in c.at(values).items():
            if not x.is_Rational:
                return None
            vals[env[name].get_id()] = x
    return assignment(enc, vals)
