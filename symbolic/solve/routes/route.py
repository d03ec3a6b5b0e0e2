"""What a route for one claim part at one size answers, and exact values from a satisfiable query.

A route (:mod:`symbolic.solve.routes.vertices`, :mod:`symbolic.solve.routes.beliefs`) decides the same question as
the whole query by another argument; it answers with a :class:`RouteResult`. ``sat`` carries exact
tables the route has re-verified; ``unsat`` carries the queries the proof rests on, as obligations for
the second solver; ``unknown`` says why.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import units
from symbolic.solve.queries.solver import _approx, _value
from symbolic.solve.backends.z3_ops import to_z3


@dataclass
class RouteResult:
    status: str                    # "sat" | "unsat" | "unknown"
    assignment: object = None
    reason: str = ""
    how: str = ""
    obligations: list = field(default_factory=list)


def rational_model(solver, variables, effort=units(2)):
    """Rational values (z3 term id -> sympy Rational) of ``variables`` in a model of the satisfiable
    ``solver``: each algebraic value is replaced by a nearby rational while the query stays
    satisfiable, one variable at a time; None when some variable admits none of the tried ones."""
    model = solver.model()
    fixes = []
    for v in variables:
        if _value(model, v) is not None:
            continue
        for den in (10, 100, 10**4, 10**6):
            fix = v == z3.RealVal(str(_approx(model, v, den)))
            if check_within(solver, effort, *(fixes + [fix])) == z3.sat:
                fixes.append(fix)
                model = solver.model()
                break
        else:
            return None
    return {v.get_id(): _value(model, v) for v in variables}


def constant_names(t, memo):
    """Names of the uninterpreted constants of a z3 term (iterative, memoised by term id)."""
    stack = [t]
    out = set()
    while stack:
        u = stack.pop()
        if u.get_id() in memo:
            continue
        memo[u.get_id()] = True
        if z3.is_const(u) and u.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(u.decl().name())
        stack.extend(u.children())
    return out


def sign_oracle(enc, env, effort=units(2)):
    """A coefficient (of a maximum, or a conditional term's mass) -> 1 where the query's
    own constraints prove it ≥ 0, -1 where they prove it ≤ 0, else None (``env``: names -> unknowns)."""
    memo = {}

    def sign(c):
        if c not in memo:
            memo[c] = None
            t = to_z3(c, env)
            for value, opposite in ((1, t < 0), (-1, t > 0)):
                s = z3.Tactic("qfnra-nlsat").solver()
                s.add(enc.base + [opposite])
                if check_within(s, effort) == z3.unsat:
                    memo[c] = value
                    break
        return memo[c]
    return sign
