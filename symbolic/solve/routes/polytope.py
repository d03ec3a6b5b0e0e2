"""The vertices of a polytope whose constraints have parametric coefficients, in closed form.

One block of unknowns (the rows of one table, each summing to 1, entries ≥ 0) is constrained by
atoms ``a(p)·x + c(p) ≥ 0`` that are linear in the unknowns for fixed parameters p. For each p the
feasible set P(p) is a bounded polytope (inside a product of simplices), and each of its vertices is
the unique solution of d tight, linearly independent constraints (d = the dimension after the row
sums are solved for each row's last entry). So every vertex, for every p, is one of the candidates
built here: for each choice of d constraints with a determinant that is not identically 0, the
solution by Cramer's rule x = N(p)/D(p), kept with the sign σ of D(p) on which it lies, and the
conditions, polynomial in p, under which it is a point of P(p):

    σ·D(p) > 0   and, for every constraint k,   σ·D(p)·(a_k(p)·x + c_k(p)) ≥ 0

(both sides of each cleared of the parameters' own divisions by multiplying by their square, which
keeps the sign where they are defined). Candidates whose conditions no parameter value satisfies are
dropped (a solver query each; a query that does not answer keeps the candidate). Candidates with the
same coordinates and sign are one. Nothing here is approximate: the candidates cover every vertex
at every parameter value, and every candidate whose conditions hold is a feasible point.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp
import z3

from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import units

MAX_BASES = 1500          # choices of d constraints in one block; beyond this the block is not enumerated
FEASIBILITY_EFFORT = units(2)   # z3 units for one feasibility query


class TooLarge(Exception):
    """The block has more candidate bases than :data:`MAX_BASES`, or a constraint is not linear."""


@dataclass(frozen=True)
class Candidate:
    """One candidate vertex: ``coords[name] = numer[name] / den`` for every unknown of the block,
    valid where ``sign·den > 0`` and every polynomial of ``conditions`` is ≥ 0."""

    coords: tuple        # ((name, sympy rational function of the parameters), ...)
    numer: tuple         # ((name, sympy polynomial), ...)
    den: sp.Expr
    sign: int
    conditions: tuple    # sympy polynomials in the parameters, each ≥ 0 (the first, sign·den, > 0)

    def at(self, values: dict) -> dict:
        """The coordinates at exact parameter values."""
        sub = {sp.Symbol(k): v for k, v in values.items()}
        return {name: sp.cancel(sp.sympify(x).subs(sub)) for name, x in self.coords}

    def holds_at(self, values: dict) -> bool:
        """Are this candidate's conditions true at exact parameter values (a point of the polytope)?"""
        sub = {sp.Symbol(k): v for k, v in values.items()}
        vals = [sp.sympify(c).subs(sub) for c in self.conditions]
        return all(v.is_Rational for v in vals) and vals[0] > 0 and all(v >= 0 for v in vals[1:])


def sign_form(expr):
    """A polynomial with the sign of ``expr`` wherever ``expr`` is defined: numerator times
    denominator of its reduced fraction (the denominator's sign itself when it is a number)."""
    num, den = sp.fraction(sp.together(sp.expand(expr)))
    if den.is_number:
        return sp.expand(num * sp.sign(den))
    return sp.expand(num * den)


def linear_rows(atoms, rows, unknowns):
    """The block's constraints ``(a, c)`` over its free unknowns (each row's last entry solved from its
    sum), with the unknowns' own nonnegativity; the free unknowns; the substitution; and the
    constraints that mention no unknown (conditions on the parameters alone)."""
    subst = {}
    free = []
    for row in rows:
        syms = [sp.Symbol(n) for n in row]
        free += syms[:-1]
        subst[syms[-1]] = 1 - sp.Add(*syms[:-1])
    exprs = [sp.Symbol(n) for n in unknowns]
    for at in atoms:
        if at.op == ">":
            raise TooLarge("a strict hypothesis (the feasible set is not closed)")
        exprs += [at.f, -at.f] if at.op == "==" else [at.f]
    cons, params_only, seen = [], [], set()
    for e in exprs:
        e = sp.expand(sp.sympify(e).xreplace(subst))
        poly = sp.Poly(e, *free) if free else None
        if poly is not None and poly.total_degree() > 1:
            raise TooLarge(f"a constraint is not linear in the table: {e}")
        a = tuple(sp.cancel(e.coeff(y)) for y in free)
        c = sp.cancel(e.xreplace({y: 0 for y in free}))
        if all(x == 0 for x in a):
            if not (c.is_number and c >= 0):
                params_only.append(c)
            continue
        if (a, c) not in seen:
            seen.add((a, c))
            cons.append((a, c))
    return cons, free, subst, params_only


def candidates(atoms, rows, unknowns, params_z3, env, to_z3, meter):
    """Every candidate vertex of the block (see the module's docstring) and the block's conditions on
    the parameters alone (sympy, each ≥ 0). ``params_z3``: the parameters' own constraints (z3);
    ``env``: name -> z3 term, for :func:`to_z3`."""
    cons, free, subst, params_only = linear_rows(atoms, rows, unknowns)
    d = len(free)
    if sp.binomial(len(cons), d) > MAX_BASES:
        raise TooLarge(f"{sp.binomial(len(cons), d)} bases")
    found, out = set(), []
    base = list(params_z3) + [to_z3(sign_form(c), env) >= 0 for c in params_only]
    for chosen in itertools.combinations(range(len(cons)), d):
        meter.check()
        M = sp.Matrix([list(cons[k][0]) for k in chosen])
        det = sp.cancel(M.det()) if d else sp.Integer(1)
        if det == 0:
            continue
        rhs = sp.Matrix([-cons[k][1] for k in chosen])
        sol = [sp.cancel(x) for x in M.LUsolve(rhs)] if d else []
        point = {y: v for y, v in zip(free, sol)}
        coords = {str(y): point[y] for y in free}
        for last, e in subst.items():
            coords[str(last)] = sp.cancel(e.xreplace(point))
        den = sp.lcm_list([sp.fraction(v)[1] for v in coords.values()]) if coords else sp.Integer(1)
        den = sp.expand(den)
        numer = {k: sp.expand(sp.cancel(v * den)) for k, v in coords.items()}
        for sign in ((1 if den > 0 else -1,) if den.is_number else (1, -1)):
            key = (tuple(sorted((k, str(v)) for k, v in coords.items())), sign)
            if key in found:
                continue
            found.add(key)
            conds = [sp.expand(sign * den)]
            for a, c in cons:
                value = sum((ai * numer[str(y)] for ai, y in zip(a, free)), sp.Integer(0)) + c * den
                conds.append(sign_form(sign * value))
            conds += [sign_form(c) for c in params_only]   # the block's hypotheses on the parameters alone
            conds = [conds[0]] + [x for x in dict.fromkeys(conds[1:]) if not (x.is_number and x >= 0)]
            if any(x.is_number and x < 0 for x in conds[1:]):
                continue
            s = z3.Tactic("qfnra-nlsat").solver()
            s.add(base + [to_z3(conds[0], env) > 0] + [to_z3(x, env) >= 0 for x in conds[1:]])
            if check_within(s, FEASIBILITY_EFFORT, meter=meter) == z3.unsat:
                continue
            out.append(Candidate(tuple(sorted(coords.items())), tuple(sorted(numer.items())), den, sign,
                                 tuple(conds)))
    return covering(out, base, env, to_z3, meter), params_only


def _conditions_z3(c, env, to_z3):
    return [to_z3(c.conditions[0], env) > 0] + [to_z3(x, env) >= 0 for x in c.conditions[1:]]


def covering(cands, base, env, to_z3, meter):
    """The candidates without those that are, wherever they are a point of the polytope, the same point
    as another candidate kept (whose conditions then hold too: they say only "this point, with this
    sign of the denominator, is feasible"). Degenerate bases (feasible only where they coincide with
    a vertex of the general position) go; a candidate goes only on an unsatisfiable query, tried most
    complicated first."""
    kept = list(cands)
    for c in sorted(cands, key=lambda c: -sum(sp.count_ops(x) for _, x in c.coords)):
        meter.check()
        others = [o for o in kept if o is not c]
        elsewhere = []
        for o in others:   # o is not the point of c here: its denominator has the other sign, or a coordinate differs
            same = [to_z3(sp.expand(n_o * c.den - n_c * o.den), env) == 0
                    for (_, n_o), (_, n_c) in zip(o.numer, c.numer)]
            elsewhere.append(z3.Not(z3.And([to_z3(o.sign * o.den, env) > 0] + same)))
        s = z3.Tactic("qfnra-nlsat").solver()
        s.add(base + _conditions_z3(c, env, to_z3) + elsewhere)
        if check_within(s, FEASIBILITY_EFFORT, meter=meter) == z3.unsat:
            kept.remove(c)
    return kept
