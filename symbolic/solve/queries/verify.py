"""Exact re-verification of a counterexample, independent of the solver's model.

The candidate's numbers are rebuilt as sympy Rationals; every row is checked to be a
distribution; every hypothesis is evaluated exactly (a ∀𝒫 hypothesis on the notion's finite
sufficient family of populations) and must hold; the conclusion must fail. Any failure makes
the candidate a bug, never a result.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import sympy as sp

from symbolic.solve.queries.encode import eval_notion, targets
from symbolic.solve.queries.every_belief import decide_every_belief
from symbolic.core.exact import at_values, expr_text
from symbolic.core.ops import ExactOps, UndecidedComparison, exact_sign
from symbolic.core.ranges import describe, problems as range_problems
from symbolic.core.tables import MechTable


@dataclass(frozen=True)
class Assignment:
    """Exact values for every unknown of an encoding."""

    mechanisms: dict   # name -> MechTable | {o1: MechTable} | kernel dict
    populations: dict  # "P" / "P'" -> PopTable
    parameters: dict   # name -> sympy number


def _check_row(row, what, problems):
    for x in row:
        if exact_sign(x) < 0:
            problems.append(f"{what} has a negative entry {x}")
    total = sp.Add(*row)
    try:   # exactly: a sum 10^-17 short of 1 is not 1 (nsimplify would round it to 1)
        off = exact_sign(total - 1)
    except UndecidedComparison as e:
        problems.append(f"{what}: cannot decide that it sums to 1 ({e})")
        return
    if off != 0:
        problems.append(f"{what} sums to {total}, not 1")


def verify(imp, params, asg: Assignment):
    """Return (ok, violated_text, problems). A value the exact evaluation cannot decide (for instance a
    parameter expression that divides by zero at the candidate's parameters) is a problem, never a pass."""
    try:
        return _verify(imp, params, asg)
    except UndecidedComparison as e:
        return False, "", [f"exact evaluation failed: {e}"]


def verify_witness(imp, params, asg: Assignment):
    """Return (ok, problems): do the rows form distributions, do the parameters lie in their ranges, does
    every notion argument (the conclusion's too) lie in its notion's range, and do all hypotheses of ``imp``
    hold, exactly? (Whether the conclusion holds is not looked at.) This is how a claim is shown not to be
    vacuous: where an argument leaves its range the claim says nothing, so a witness there shows nothing."""
    try:
        problems = _table_problems(params, asg) or argument_problems(imp, asg)
        if not problems:
            problems = _hypothesis_problems(imp, asg)
    except UndecidedComparison as e:
        problems = [f"exact evaluation failed: {e}"]
    return (not problems), problems


def violating_member(imp, asg: Assignment, n, domain):
    """For a conclusion over all populations decided on its finite sufficient family: the first member
    at which the conclusion fails exactly (the counterexample's witness population), or None."""
    c = imp.conclusion
    for q in c.notion.sufficient(n, tuple(domain)):
        try:
            if not eval_notion(ExactOps(), c, asg.mechanisms, q.table(), asg.parameters, at_values):
                return q.table()
        except UndecidedComparison:
            return None
    return None


def defined_witness(imp, cx):
    """``cx`` with a witness population P' at which the reason the conclusion fails rests only on defined
    conditionals (no posterior with a zero normaliser, see ``ExactOps.undefined``), when ``cx``'s own P'
    is not such and one is found at the same tables and parameters (on the conclusion's finite family,
    else by the exact decision over every belief); else ``cx`` itself. The new witness is confirmed by
    exact evaluation, and the violated text is its reason. The verdict does not change: only which
    violating population is shown."""
    c = imp.conclusion
    wit = cx.populations.get("P'")
    if wit is None or c.notion.population not in ("all", "product"):
        return cx
    try:
        if _fails_defined(c, cx, wit) is not False:
            return cx
        if c.notion.sufficient is not None:
            found = next((q.table() for q in c.notion.sufficient(wit.n, wit.domain)
                          if _fails_defined(c, cx, q.table())), None)
        else:
            res = decide_every_belief(c, cx.mechanisms, cx.parameters, wit.n, wit.domain, witness=True)
            found = res.belief if res.status == "fails" else None
        if found is None or not _fails_defined(c, cx, found):
            return cx
        ops = ExactOps()
        eval_notion(ops, c, cx.mechanisms, found, cx.parameters, at_values)
    except UndecidedComparison:
        return cx
    return replace(cx, populations={**cx.populations, "P'": found}, violated=f"{c}: " + (ops.reason() or "fails"))


def _fails_defined(c, cx, pop):
    """None when the conclusion holds at ``pop``; else whether its reason rests on defined conditionals."""
    ops = ExactOps()
    if eval_notion(ops, c, cx.mechanisms, pop, cx.parameters, at_values):
        return None
    return ops.defined_reason()


def _table_problems(params, asg: Assignment):
    problems = []
    for name, tab in asg.mechanisms.items():
        if isinstance(tab, MechTable):
            for d, row in tab.rows.items():
                _check_row(row, f"mechanism {name} row {d}", problems)
        elif isinstance(tab, dict):
            for k, v in tab.items():
                if isinstance(v, MechTable):
                    for d, row in v.rows.items():
                        _check_row(row, f"mechanism {name}<{k}> row {d}", problems)
                elif k is not None:
                    _check_row(v, f"kernel {name} row {k}", problems)
    for name, pop in asg.populations.items():
        _check_row(tuple(pop.probs.values()), f"population {name}", problems)
    for p in params:
        v = asg.parameters.get(p.name)
        if v is None:
            problems.append(f"parameter {p.name} has no value")
            continue
        problems += p.range_problems(v)
    return problems


def argument_problems(imp, asg: Assignment) -> list:
    """Arguments of the claim's notions that lie outside the notion's own range at the candidate's
    parameter values (the claim says nothing there)."""
    out = []
    for ni in imp.instances:
        for spec, a in zip(ni.notion.params, ni.args):
            value = at_values(a, asg.parameters)
            if sp.sympify(value).free_symbols:
                continue
            out += [f"{ni.notion.name}: argument {bad}" for bad in
                    range_problems(spec.name, value, spec.lower, spec.upper, spec.lower_strict, spec.upper_strict)]
    return out


def argument_guards(imp) -> list:
    """The conditions "N's p = expression in range" for each notion argument written in the claim's parameters
    (the ranges a query with ``argument_ranges`` keeps them in)."""
    out = []
    for ni in imp.instances:
        for spec, a in zip(ni.notion.params, ni.args):
            a = sp.sympify(a)
            if a.free_symbols and not (a.is_Symbol and a.name == spec.name):   # not the claim's own parameter
                rng = describe(spec.name, spec.lower, spec.upper, spec.lower_strict, spec.upper_strict)
                out.append(f"{ni.notion.name}'s {spec.name} = {expr_text(a)} lies in {rng}")
    return out


def _hypothesis_problems(imp, asg: Assignment):
    problems = []
    ops = ExactOps()
    env = asg.mechanisms
    pop = asg.populations.get("P")
    for ni in imp.hypotheses:
        kind = ni.notion.population
        if kind in ("all", "product"):
            # the notion's own tables first (a fixed mechanism is not among the free ones), then any
            own = [t.eval(ops, env) for t in targets(ni)]
            some = next(iter(t for t in own + list(env.values()) if isinstance(t, MechTable)), None)
            n, dom = (some.n, some.domain) if some is not None else (None, None)
            if ni.notion.sufficient is None:
                problems += _every_belief_problems(ni, asg, n, dom)
                continue
            for q in ni.notion.sufficient(n, dom):
                if not eval_notion(ops, ni, env, q.table(), asg.parameters, at_values):
                    problems.append(f"hypothesis {ni} fails for population {q!r}")
                    break
        elif not eval_notion(ops, ni, env, pop, asg.parameters, at_values):
            problems.append(f"hypothesis {ni} does not hold: {ops.trace[-1] if ops.trace else ''}")
    return problems


def _every_belief_problems(ni, asg: Assignment, n, dom):
    """A hypothesis over all populations with no finite sufficient family, decided exactly for every
    belief at the candidate's tables (:mod:`symbolic.solve.queries.every_belief`); [] when it holds."""
    what = f"hypothesis {ni} quantifies over all populations and has no finite sufficient family"
    if n is None:
        return [f"{what}: it cannot be re-verified exactly"]
    res = decide_every_belief(ni, asg.mechanisms, asg.parameters, n, dom)
    if res.status == "holds":
        return []
    if res.status == "fails":
        return [f"hypothesis {ni} fails for the belief {res.belief.probs!r}"]
    return [f"{what}, and deciding it exactly for every belief was not possible: {res.reason}"]


def _verify(imp, params, asg: Assignment):
    problems = _table_problems(params, asg) + argument_problems(imp, asg)
    if problems:
        return False, "", problems
    problems = _hypothesis_problems(imp, asg)
    env = asg.mechanisms
    pop = asg.populations.get("P")
    c = imp.conclusion
    witness = asg.populations.get("P'") if c.notion.population in ("all", "product") else pop
    if witness is None and c.notion.population in ("all", "product"):
        return False, "", problems + [f"conclusion {c} is over all populations and the candidate has no witness population"]
    ops2 = ExactOps()
    if eval_notion(ops2, c, env, witness, asg.parameters, at_values):
        problems.append(f"conclusion {c} holds, so this is no counterexample")
    violated = f"{c}: " + (ops2.reason() or "fails")
    return (not problems), violated, problems
