"""Prove an :class:`~symbolic.notions.induction.Induction` for every k: sympy for the closed forms, z3 (cvc5 beside
it) for the step on real numbers.

Three obligations (see :mod:`symbolic.notions.induction`):

1. **closed forms**: each number's closed form at k + 1 equals the recurrence applied to the closed forms at k,
   and at k = 1 it equals the base's value, exactly (sympy, ``k`` a positive integer symbol);
2. **invariant at k = 1**: for every parameter value in range, the invariant holds of the closed forms at k = 1
   (z3: its negation with the ranges is unsatisfiable);
3. **step**: for all reals in their ranges, the invariant and the premises of the numbers at k imply the invariant
   and the conclusion of the numbers at k + 1 (z3: the negation is unsatisfiable, within the settings' effort;
   cvc5 decides the same query when the second solver is on). A satisfying assignment is read back as exact
   rationals and re-checked on the sympy relations: a confirmed one refutes the step.

Verdicts are three-valued: ``proved`` (all three hold), ``refuted`` (a step counterexample confirmed exactly, or a
closed form that does not satisfy its recurrence), ``unknown`` (the solver's limit, with which limit it hit).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.notions.induction import K_SYMBOL, Induction


@dataclass(frozen=True)
class InductionResult:
    """The engine's answer for one :class:`~symbolic.notions.induction.Induction`: ``status`` "proved",
    "refuted" or "unknown"; ``checks`` (text, ok) for each obligation; ``second_solver`` cvc5's answer on the step
    ("unsat" confirms; "off" when not asked); ``counterexample`` the step's exact refuting values, if any.

    >>> InductionResult("x", "proved", (("step", True),), "", "unsat").confirmed
    True
    """

    name: str
    status: str
    checks: tuple
    reason: str
    second_solver: str
    counterexample: dict | None = None

    @property
    def confirmed(self) -> bool:
        """Proved, and the second solver found the step's negation unsatisfiable too."""
        return self.status == "proved" and self.second_solver == "unsat"

    def argument(self, ind: Induction) -> list:
        """The lines of the all-k argument, for a certificate."""
        return [f"{ind.name}: S(k) = {ind.statement}, for every k ≥ 1 by induction ({ind.source})",
                f"base: {ind.base}", f"step: {ind.glue}", *(text for text, _ in self.checks)]


def _relation(rel, env):
    """A sympy relation (or True/False) as a z3 Boolean."""
    import z3
    from symbolic.solve.backends.z3_ops import to_z3
    if rel is sp.true or rel is True:
        return z3.BoolVal(True)
    if rel is sp.false or rel is False:
        return z3.BoolVal(False)
    lhs, rhs = to_z3(rel.lhs, env), to_z3(rel.rhs, env)
    ops = {sp.LessThan: lambda x, y: x <= y, sp.StrictLessThan: lambda x, y: x < y,
           sp.GreaterThan: lambda x, y: x >= y, sp.StrictGreaterThan: lambda x, y: x > y,
           sp.Equality: lambda x, y: x == y}
    return ops[type(rel)](lhs, rhs)


def _ranges(variables, env) -> list:
    from symbolic.solve.queries.encode import within_range
    return [c for v in variables for c in within_range(env[v.name], v)]


def _closed_checks(ind: Induction) -> list:
    """(text, ok) for each number: closed form at k + 1 = recurrence at the closed forms at k; and its k = 1 value."""
    syms = ind.symbols()
    at_k = {syms[n]: ind.closed[n] for n in ind.numbers}
    out = []
    for n in ind.numbers:
        gap = (ind.closed[n].subs(K_SYMBOL, K_SYMBOL + 1) - ind.recurrence[n].subs(at_k)).doit()
        ok = sp.simplify(sp.expand(gap)) == 0
        first = sp.simplify(ind.closed[n].subs(K_SYMBOL, 1).doit() - ind.at_one[n]) == 0
        out.append((f"{n}(k) = {ind.closed[n]} satisfies {n}(k+1) = {ind.recurrence[n]} and {n}(1) = "
                    f"{ind.at_one[n]} (sympy)", bool(ok and first)))
    return out


def _decide(assertions, settings) -> tuple:
    """(z3's answer "unsat"/"sat"/"unknown", the model or None, the reason)."""
    import z3
    from symbolic.solve.backends.deadline import check_within, unknown_reason
    s = z3.Solver()
    s.add(assertions)
    r = check_within(s, settings.query_effort)
    if r == z3.unsat:
        return "unsat", None, ""
    if r == z3.sat:
        return "sat", s.model(), ""
    return "unknown", None, unknown_reason(s)


def _second(assertions, settings) -> str:
    if not settings.second_solver:
        return "off"
    from symbolic.solve.backends import cvc5_backend
    from symbolic.solve.backends.cvc5_child import decide_batch
    d = decide_batch([cvc5_backend.prepare(assertions)], timeout=settings.second_timeout,
                     effort=settings.second_query_effort, cpu=settings.second_cpu)
    return d[0].status if d else "unknown"


def _exact_model(model, env) -> dict | None:
    import z3
    out = {}
    for name, var in env.items():
        x = model.eval(var, model_completion=True)
        if not z3.is_rational_value(x):
            return None
        out[name] = sp.Rational(x.numerator_as_long(), x.denominator_as_long())
    return out


def prove_induction(ind: Induction, settings) -> InductionResult:
    """Decide the three obligations of ``ind`` (module text) under ``settings`` (z3 effort, second solver).

    >>> from symbolic.notions.listed.inductions import GROUP_APPROX
    >>> from symbolic.solve.backends.settings import Settings
    >>> res = prove_induction(GROUP_APPROX, Settings(second_solver=False))
    >>> res.status, res.checks[-1]
    ('proved', ('step: S(k) ∧ S(1) ⇒ S(k+1) for all reals in range (z3)', True))
    """
    import z3
    from symbolic.solve.queries.solver import fresh_context
    fresh_context()
    checks = _closed_checks(ind)
    syms = ind.symbols()
    env = {v.name: z3.Real(v.name) for v in ind.variables}
    env.update({n: z3.Real(n) for n in ind.numbers})
    ranges = _ranges(ind.variables, env)
    first = dict(ind.at_one)
    base_query = ranges + [z3.Not(z3.And([_relation(c, env) for c in ind.invariant(first)]))]
    base, _, why = _decide(base_query, settings)
    checks.append(("the invariant holds at k = 1 for every parameter in range (z3)", base == "unsat"))
    nxt = {n: ind.recurrence[n] for n in ind.numbers}
    now = [_relation(c, env) for c in ind.invariant(syms) + ind.premises(syms)]
    then = [_relation(c, env) for c in ind.invariant(nxt) + ind.conclusion(nxt)]
    step_query = ranges + now + [z3.Not(z3.And(then))]
    step, model, why_step = _decide(step_query, settings)
    second = _second(step_query, settings) if step == "unsat" else "off"
    checks.append(("step: S(k) ∧ S(1) ⇒ S(k+1) for all reals in range (z3"
                   + (", and cvc5" if second == "unsat" else "") + ")", step == "unsat"))
    if all(ok for _, ok in checks):
        return InductionResult(ind.name, "proved", tuple(checks), "", second)
    if not all(ok for _, ok in checks[:len(ind.numbers)]):
        return InductionResult(ind.name, "refuted", tuple(checks), "a closed form does not satisfy its recurrence or its value at k = 1",
                               second)
    if step == "sat":
        values = _exact_model(model, env)
        if values is not None and _refutes(ind, values):
            return InductionResult(ind.name, "refuted", tuple(checks), "the step fails at the values shown "
                                   "(checked exactly)", second, {k: str(v) for k, v in values.items()})
        return InductionResult(ind.name, "unknown", tuple(checks), "the solver's model of a failing step was not "
                               "confirmed by exact evaluation", second)
    return InductionResult(ind.name, "unknown", tuple(checks), why_step or why or "the solver did not decide", second)


def _refutes(ind: Induction, values: dict) -> bool:
    """Do exact ``values`` (of the variables and the numbers at k) satisfy the ranges, the invariant and the
    premises, and fail the invariant or conclusion at k + 1?"""
    subs = {sp.Symbol(n, real=True): v for n, v in values.items()}
    syms = ind.symbols()
    if not all(v.contains(values[v.name]) for v in ind.variables):
        return False
    if not all(bool(c.subs(subs)) for c in ind.invariant(syms) + ind.premises(syms)):
        return False
    nxt = {n: ind.recurrence[n] for n in ind.numbers}
    return not all(bool(c.subs(subs)) for c in ind.invariant(nxt) + ind.conclusion(nxt))


__all__ = ["InductionResult", "prove_induction"]
