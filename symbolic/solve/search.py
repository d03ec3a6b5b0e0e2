"""The search over sizes: sweep the grid smallest first, decide the part at each size (the steps of
:mod:`symbolic.solve.one_size`), re-verify every counterexample exactly, minimise it, and combine the
sizes into one verdict (proved within the bounds, refuted with a re-verified minimal counterexample, or
unknown saying which size and why).
"""
from __future__ import annotations

import time
from dataclasses import replace

import sympy as sp
import z3

from symbolic.core.errors import Transcendental
from symbolic.core.verdicts import Counterexample, Obligation, Proved, Refuted, Sizes, Unknown, Vacuous
from symbolic.solve.backends.effort import Exhausted, Meter
from symbolic.solve.backends.settings import Settings
from symbolic.solve.backends.constants import with_refinement
from symbolic.solve.one_size import _in_range, irrational_values, rational_values, search_size
from symbolic.solve.queries.encode import Encoding, z3val
from symbolic.solve.queries.solver import Solver, _value, extract
from symbolic.solve.queries.verify import Assignment, argument_guards, argument_problems, verify
from symbolic.solve.routes.quotient import quotient_change
from symbolic.solve.vacuity import vacuity_of_sizes, witness_back


def _safety_note(meter) -> str:
    """'' unless the wall-clock safety net cut something off on the way (the path may then differ from
    a run on an idle machine; a proof or a re-verified counterexample stays true either way)."""
    if not meter.safety_hits:
        return ""
    return (f"; the wall-clock safety limit cut off {meter.safety_hits} step(s) on the way "
            f"(raise it with --timeout)")


def _universal_method(imp, proved):
    """How the hypotheses over every population were used, for the certificate ('' without one)."""
    if not any(ni.notion.population in ("all", "product") for ni in imp.hypotheses):
        return ""
    on_edges = ["edges of the simplex" in str(how) for _, _, how in proved]
    if all(on_edges):
        return " (∀𝒫 hypotheses on the simplex's edges)"
    return " (CEGIS for ∀𝒫)" if not any(on_edges) else " (∀𝒫: CEGIS or the simplex's edges, by size)"


# --- minimisation --------------------------------------------------------------------------------

def _candidates(group):
    """Simple values to try, smallest denominators first."""
    if group == "param":
        return [sp.Integer(2), sp.Integer(3), sp.Rational(3, 2), sp.Integer(4), sp.Integer(1)]
    out = [sp.Integer(0), sp.Integer(1)]
    for q in range(2, 7):
        out += [sp.Rational(p, q) for p in range(1, q) if sp.gcd(p, q) == 1]
    return out


MINIMISE_CPU_SLACK = 20.0   # processor seconds a nominal second of minimisation allows (z3's slowest count: 10^5 a second)


def minimise(imp, params, sizes, settings, how, asg: Assignment):
    """Fewest non-zero entries, then smallest denominators; every step re-verified exactly."""
    fp, pop, wit = how
    # the steps depend on sat/unsat answers only; so that the same counterexample comes out on every run, a
    # query ends by its step count (processor time is only a far net here: MINIMISE_CPU_SLACK), never near
    # a processor-time limit that one run reaches and the next does not. Each query is asked afresh, alone in
    # a z3 context of its own with its fixes asserted (not assumed): what z3 does with it depends on the query
    # only, and z3 picks its nonlinear procedure for a query asked once (on one incremental solver with the fixes
    # as assumptions, a catalogue refutation's minimisation took 9 to 90 s, depending on what had run before in
    # the context; asked afresh, 1 s)
    meter = Meter(settings.minimise_effort, safety_end=settings.until(time.monotonic() + settings.budget),
                  name="minimisation", cpu_slack=MINIMISE_CPU_SLACK)
    imp2 = replace(imp, population=pop) if pop is not None else imp
    enc = Encoding(imp2, params, sizes, {**rational_values(params), **imp.parameters, **fp}, wit, False, settings.hockey)
    capped = settings.capped(2.0)   # its queries take the meter's processor-time slack
    neg = z3.Or(enc.negated_conclusion_parts())
    state = {"solver": Solver(enc, capped, meter, extra=[neg], alone=True)}
    try:
        status, model = state["solver"].solve()
    except Exhausted:
        return asg
    if status != "sat" or extract(enc, model) is None:
        return asg
    best, fixes = asg, []
    state["model"] = model

    def attempt(c):
        nonlocal best
        try:   # the populations CEGIS learned so far are kept
            state["solver"] = Solver(enc, capped, meter, extra=fixes + [c, neg], learned=state["solver"], alone=True)
            status, m = state["solver"].solve()
        except Exhausted:
            return None
        if status != "sat":
            return False
        new = extract(enc, m)
        if new is None or not verify(imp2, params, new)[0]:
            return False
        best, state["model"] = new, m
        fixes.append(c)
        return True

    # Canonical: each step depends only on sat/unsat answers, never on which model z3 returns.
    cur = lambda v: _value(state["model"], v)
    for g, _, v in enc.vars:               # 1. fewest non-zero entries, greedily in a fixed order
        if g != "param" and attempt(v == 0) is None:
            return best
    for g, _, v in enc.vars:               # 2. smallest denominators, candidates in a fixed order
        if g != "param" and cur(v) == 0:
            fixes.append(v == 0)
            continue
        for c in _candidates(g):
            if c == 0:
                continue
            if g == "param" and not all(_in_range(p, c) for p in params if p.name == str(v)):
                continue
            r = attempt(v == z3val(c))
            if r is None:
                return best
            if r:
                break
        else:
            fixes.append(v == z3val(cur(v)))
    return best


# --- the sweep -------------------------------------------------------------------------------------

def grid(lo: Sizes, hi: Sizes):
    """Sizes from ``lo`` to ``hi``, smallest first (lexicographic in n, |𝒟|, |𝒪|)."""
    return [Sizes(n, k, m) for n in range(lo.n, hi.n + 1) for k in range(lo.domain, hi.domain + 1)
            for m in range(lo.outputs, hi.outputs + 1)]


def check_implication(imp, params, lo: Sizes, hi: Sizes, settings: Settings, meter: Meter | None = None):
    """Verdict for one implication over the size grid: Refuted (re-verified exactly), Unknown, or,
    when the negated claim is unsatisfiable at every size, Proved if a witness shows the hypotheses can
    hold together at those sizes and Vacuous if they cannot. A notion that cannot be stated to the
    solver (exp, log, a supremum over a continuum, with symbolic parameters) makes it Unknown, saying why.
    ``meter``: the effort account (by default ``settings.effort`` z3 units, with ``settings.budget``
    seconds of wall clock as the safety net)."""
    try:   # constants such as log 3 are enclosed in intervals, narrowed when a counterexample needs it
        change = quotient_change(imp, params)
        return with_refinement(lambda: _check_grid(imp, params, lo, hi, settings, meter, change))
    except Transcendental as e:
        return Unknown(f"transcendental: {e}")


def _check_grid(imp, params, lo: Sizes, hi: Sizes, settings: Settings, meter, change=None):
    """The sweep; with a :class:`~symbolic.solve.routes.quotient.QuotientChange` the solver works on the
    rewritten claim and every assignment it finds is mapped back and re-verified on ``imp`` itself."""
    meter = meter or Meter(settings.effort, safety_end=settings.until(time.monotonic() + settings.budget))
    s_imp, s_params = (change.imp, change.params) if change else (imp, params)
    back = (lambda a: replace(a, parameters=change.original_parameters(a.parameters))) if change else (lambda a: a)
    said = f"parameters changed: {change.text}; " if change else ""
    proved, searched, unknown, obligations = [], [], [], []
    for sizes in grid(lo, hi):
        if meter.exhausted():
            if meter.out_of_time():
                meter.note_safety()
            unknown.append((sizes, meter.reason()))
            break
        res, how = search_size(s_imp, s_params, sizes, settings, meter)
        if res.status == "sat" and not settings.argument_ranges and argument_problems(s_imp, res.assignment):
            # the solver's values put a notion's argument outside its range: ask again with the ranges
            settings = replace(settings, argument_ranges=True)
            res, how = search_size(s_imp, s_params, sizes, settings, meter)
        searched.append(sizes)
        if res.status == "unsat":
            proved.append((sizes, round(res.seconds, 3), said + res.how))
            obligations += [Obligation(f"{s_imp} at {sizes}, query {j + 1}", sizes, q)
                            for j, q in enumerate(res.obligations)]
        elif res.status == "unknown":
            unknown.append((sizes, res.reason))
        else:
            at_pop = (lambda i: i) if how[1] is None else (lambda i: replace(i, population=how[1]))
            asg = res.assignment
            ok, violated, problems = verify(at_pop(s_imp), s_params, asg)
            minimised = ok and settings.minimise
            if minimised:
                asg = minimise(s_imp, s_params, sizes, settings, how, asg)
            if minimised or change:   # the final values, on the claim as written
                asg = back(asg)
                ok, violated, problems = verify(at_pop(imp), params, asg)
            if not ok and irrational_values(params):
                at = ", ".join(f"{k} = {v}" for k, v in irrational_values(params).items())
                return Unknown(f"transcendental: the solver's counterexample at {sizes} lies in the rational enclosure "
                               f"of {at} but fails exact re-verification at {at} itself: " + "; ".join(problems),
                               tuple(proved))
            cx = Counterexample(sizes, asg.mechanisms, asg.populations, asg.parameters, violated, str(imp))
            minimal = not unknown
            note = said + res.how + ("" if ok else "; RE-VERIFICATION FAILED: " + "; ".join(problems))
            if unknown:
                note += "; not known to be minimal: undecided at " + ", ".join(str(s) for s, _ in unknown)
            note += _safety_note(meter)
            return Refuted(cx, ok, minimal, tuple(searched), note)
    if not proved and not unknown:
        return Unknown(f"no sizes to check between {lo} and {hi}")
    vac = None
    if proved and not unknown:
        vac = vacuity_of_sizes(s_imp, s_params, [s for s, _, _ in proved], settings, meter)
        if change and vac.witness is not None:
            vac = witness_back(vac, imp, params, back)
        if vac.status == "vacuous":
            return Vacuous(f"{imp}: {vac.reason}", hi)
    if unknown:
        return Unknown("; ".join(f"{s}: {r}" for s, r in unknown) + _safety_note(meter), tuple(proved))
    certificate = {"solver": f"z3 {z3.get_version_string()}",
                   "method": "negated claim unsatisfiable at every size" + _universal_method(imp, proved),
                   "effort": f"{meter.spent:,} of {meter.limit:,} z3 units"}
    if meter.safety_hits:
        certificate["safety"] = _safety_note(meter).lstrip("; ")
    if vac.status == "satisfiable" and vac.reason:
        certificate["vacuous_at"] = vac.reason
    if change:
        certificate["parameters"] = change.text
    guards = argument_guards(s_imp) if settings.argument_ranges else []
    if guards:
        certificate["where"] = ("only where " + "; ".join(guards) + ": the claim says nothing where a notion's "
                                "argument leaves its range, and the solver's values did there")
    return Proved(hi, tuple(proved), certificate,
                  vacuity=vac.status, witness=vac.witness, obligations=tuple(obligations))
