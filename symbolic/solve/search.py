"""The search: sweep sizes smallest first, solve the negated claim with z3 (CEGIS for ∀𝒫
hypotheses), re-verify every counterexample exactly, minimise it.

Refute cheaply, prove carefully: at each size the solver first tries a few fixed rational
parameter values (one counterexample at one ε refutes a claim for all ε) and, when the claim
shares one population, a few structured populations (point masses, uniform on two databases,
uniform), which make most queries linear; then the full query with the parameters symbolic.
Only an unsatisfiable full query counts as a proof at that size.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import sympy as sp
import z3

from symbolic.core.errors import Transcendental

from symbolic.solve.deadline import check_within
from symbolic.solve.effort import Exhausted, Meter, units
from symbolic.solve.encode import Encoding, conjuncts, const_population, z3val
from symbolic.solve.hockey import AUX_PREFIX
from symbolic.solve.settings import Settings
from symbolic.solve.solver import Solver, _approx, _value, extract, structured_populations
from symbolic.solve.quotient import quotient_change
from symbolic.solve import beliefs, edges, vertices
from symbolic.solve.vacuity import vacuity_of_sizes, witness_back
from symbolic.core.verdicts import Counterexample, Obligation, Proved, Refuted, Sizes, Unknown, Vacuous
from symbolic.solve.verify import Assignment, argument_problems, verify


# --- one implication at one size ----------------------------------------------------------------

@dataclass
class SizeResult:
    status: str            # "sat" | "unsat" | "unknown"
    assignment: Assignment | None = None
    reason: str = ""
    seconds: float = 0.0
    how: str = ""
    obligations: list = field(default_factory=list)   # the unsat queries (tuples of z3 terms) a proof rests on


def _run(imp, params, sizes, settings, meter, fixed_params, population=None, split=False, witness=None,
         family=False, fail_fast=False):
    imp2 = replace(imp, population=population) if population is not None else imp
    enc = Encoding(imp2, params, sizes, {**rational_values(params), **imp.parameters, **fixed_params}, witness, family,
                   settings.hockey, argument_ranges=settings.argument_ranges)
    parts = enc.negated_conclusion_parts() if split else [z3.Or(enc.negated_conclusion_parts())]
    solver = Solver(enc, settings, meter)
    unknown, obligations = [], []
    for part in parts:
        if part is False:
            continue
        assumed = (part,) if part is not True else ()
        if split:  # one small query per disjunct, with the nonlinear real arithmetic procedure
            prev = solver
            solver = Solver(enc, settings, meter, extra=list(assumed), nlsat=True, learned=prev)
            try:
                status, info = solver.solve()
                assumed = ()
            except z3.Z3Exception:
                solver = Solver(enc, settings, meter, learned=prev)
                status, info = solver.solve(assumed)
        else:
            status, info = solver.solve(assumed)
        if status == "unsat":  # everything the solver was given when it answered unsat
            obligations.append(tuple(solver.s.assertions()) + tuple(assumed))
        if status == "sat":
            asg = extract(enc, info)
            if asg is None:
                asg = _rationalise(enc, solver, part, info)
                if asg is None:
                    unknown.append("the solver's counterexample has irrational values")
                    continue
            return SizeResult("sat", asg, how=f"{len(parts)} part(s), CEGIS rounds {solver.rounds}"), enc, solver, part
        if status == "unknown":
            unknown.append(str(info))
            if fail_fast:
                break
    if unknown:
        return SizeResult("unknown", reason="; ".join(sorted(set(unknown)))), enc, solver, None
    return (SizeResult("unsat", how=f"{len(parts)} part(s), CEGIS rounds {solver.rounds}", obligations=obligations),
            enc, solver, None)


# Effort of the steps at one size, in z3 units at the ci level (scaled with the level); counts bound the loops.
LOCAL_EFFORT = units(45)    # a proof by locality: every disjunct refuted with its own hypotheses
LOCAL_FIRST_CELLS = 12      # from n·|𝒟|·|𝒪| above this, locality is tried before the cheap refutations
CHEAP_EFFORT = units(15)    # the sweep of fixed parameters and structured populations at one size
CHEAP_QUERIES = 600         # at most this many (parameter value, population, witness) triples in that sweep
FIXED_SECONDS = 2.0         # nominal seconds a query, refuting a claim over all beliefs at a fixed parameter value


def rational_values(params) -> dict:
    """The parameters fixed at a rational value: constants in every query (linear where E was the
    only nonlinearity)."""
    return {p.name: p.value for p in params if getattr(p, "value", None) is not None and p.value.is_Rational}


def irrational_values(params) -> dict:
    """The parameters fixed at an irrational value: the solver sees a rational enclosure, and a
    counterexample counts only once re-verified exactly at the value itself."""
    return {p.name: p.value for p in params if getattr(p, "value", None) is not None and not p.value.is_Rational}


def _unknowns(t, cache):
    """The uninterpreted constants (unknowns and parameters) of a z3 term (iterative, memoised by
    term id: deep sums must not hit Python's recursion limit)."""
    stack = [(t, False)]
    while stack:
        u, expanded = stack.pop()
        key = u.get_id()
        if key in cache:
            continue
        if z3.is_const(u) and u.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            name = u.decl().name()  # the bounds of hockey.py belong to whichever disjunct meets their comparison
            cache[key] = frozenset() if name.startswith(AUX_PREFIX) else frozenset([name])
        elif expanded or not u.num_args():
            cache[key] = frozenset().union(*[cache[c.get_id()] for c in u.children()])
        else:
            stack.append((u, True))
            stack.extend((c, False) for c in u.children() if c.get_id() not in cache)
    return cache[t.get_id()]


def _run_local(imp, params, sizes, settings, meter, effort=LOCAL_EFFORT, family=False):
    """Prove by locality: ¬conclusion = D_1 ∨ … ∨ D_k; each D_j is refuted together with only those
    hypothesis conjuncts (and range, simplex and side constraints) whose unknowns all occur in D_j.
    Dropping constraints weakens the query, so each "unsat" is a valid refutation of D_j under the full hypotheses;
    anything but "unsat" gives up (a model of the weakened query is no counterexample). Not used with
    ∀𝒫 hypotheses or a ∀𝒫 conclusion. At n ≥ 2 this decides notions that are conjunctions over
    neighbour pairs as fast as n=1: a pair's conclusion only meets the pair's own hypotheses.

    With a ∀𝒫 hypothesis, its instances at the point masses and at the uniform populations on two
    neighbouring databases (all of them product populations) stand for it: each instance is implied by the
    hypothesis, so a disjunct refuted with instances is refuted with the hypothesis. With ``family``, a
    ∀𝒫 conclusion is its conjunction over the notion's finite sufficient family (its lemma), so ¬conclusion
    is a disjunction over the members like any other."""
    enc = Encoding(imp, params, sizes, {**rational_values(params), **imp.parameters}, None, family, settings.hockey)
    if enc.witness is not None:
        return SizeResult("unknown", reason="locality: the conclusion's ∀𝒫 has no finite family")
    meter = meter.sub(settings.scale(effort), "locality")
    cache = {}
    # simplified: a point mass weighs every other database by 0, and 0·x must not count x among the unknowns
    instances = [z3.simplify(enc.eval(ni, const_population(q))) for ni in enc.universal
                 for q in structured_populations(sizes, product=True)
                 if sum(1 for x in q.probs if x != 0) <= 2]   # point masses, uniform on two neighbours
    hyps = [(h, _unknowns(h, cache)) for h in conjuncts(enc.hyps + instances) if not z3.is_true(h)]
    # a disjunct's support grows to whole rows: a conditional probability given D = d divides by the row's
    # mass, which mentions every output of d (dropping no constraint makes a refutation invalid, only rarer)
    row_of = {v.decl().name(): frozenset(x.decl().name() for x in row) for row in enc.rows for v in row}
    by_unknown = {}
    for k, (h, u) in enumerate(hyps):
        for name in u:
            by_unknown.setdefault(name, []).append(k)
    # the base and side constraints indexed the same way: a disjunct looks only at those meeting its support
    base = [(c, _unknowns(c, cache)) for c in enc.base + enc.ops.side]
    base_by_unknown, base_closed = {}, [k for k, (c, u) in enumerate(base) if not u]
    for k, (c, u) in enumerate(base):
        for name in u:
            base_by_unknown.setdefault(name, []).append(k)
    parts = enc.negated_conclusion_parts()
    obligations = []
    for part in parts:
        if part is False or (not isinstance(part, bool) and z3.is_false(part)):
            continue
        part = z3.BoolVal(part) if isinstance(part, bool) else part
        support = _unknowns(part, cache)
        support = support.union(*(row_of.get(name, ()) for name in support))
        near = sorted({k for name in support for k in by_unknown.get(name, ())})
        keep = [hyps[k][0] for k in near if hyps[k][1] <= support] + [h for h, u in hyps if not u]
        near_base = sorted({k for name in support for k in base_by_unknown.get(name, ())}.union(base_closed))
        keep += [base[k][0] for k in near_base if base[k][1] <= support]
        if meter.exhausted():
            return SizeResult("unknown", reason="locality: " + meter.reason())
        s = z3.Solver()
        s.add(keep)
        if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) != z3.unsat:  # as an assumption, like Solver.solve: z3's incremental core
            return SizeResult("unknown", reason="locality: a disjunct is not refuted by its own hypotheses")
        obligations.append(tuple(keep) + (part,))
    return SizeResult("unsat", how=f"{len(parts)} part(s), each refuted with the hypotheses on its own unknowns",
                      obligations=obligations)


def _run_route(route, imp, params, sizes, settings, meter, **options):
    """A route for one size (:mod:`symbolic.solve.vertices`, :mod:`symbolic.solve.beliefs`) as a
    definite SizeResult, or None when it does not apply or leaves the part undecided."""
    enc = Encoding(imp, params, sizes, {**rational_values(params), **imp.parameters}, None, False, False)
    res = route.decide(enc, settings, meter, **options)
    if res is None or res.status == "unknown":
        return None
    return SizeResult(res.status, res.assignment, how=res.how, obligations=res.obligations)


def _rationalise(enc, solver, part, model):
    """Fix unknowns one at a time to nearby rationals while the query stays satisfiable."""
    fixes = []
    for _, _, v in enc.vars:
        if _value(model, v) is not None:
            continue
        for den in (10, 100, 10**4, 10**6):
            c = v == z3val(_approx(model, v, den))
            status, m = solver.solve(tuple(fixes + [c, part]))
            if status == "sat":
                fixes.append(c)
                model = m
                break
        else:
            return None
    return extract(enc, model)


def search_size(imp, params, sizes, settings, meter):
    """Refute cheaply first (fixed parameters, structured populations), then the full query."""
    free_params = [p for p in params if p.name not in imp.parameters and p.name not in rational_values(params)]
    needs_pop = imp.population is None and any(
        ni.notion.population == "given" for ni in imp.instances)
    cheap = []
    values = [dict(zip([p.name for p in free_params], [sp.Rational(v)] * len(free_params)))
              for v in settings.refute_values if all(_in_range(p, v) for p in free_params)] if free_params else [{}]
    # a value that puts a notion's argument outside its range is not a question the claim asks
    values = [fp for fp in values if not argument_problems(imp, Assignment({}, {}, fp))]
    kind = imp.conclusion.notion.population
    needs_witness = kind in ("all", "product")
    for fp in values:  # only queries that are linear once E is fixed: structured 𝒫 and witnesses
        if (needs_pop or needs_witness) and not settings.structured:
            continue
        pops = structured_populations(sizes) if needs_pop else [None]
        wits = structured_populations(sizes, product=kind == "product") if needs_witness else [None]
        cheap += [(fp, pop, w) for pop in pops for w in wits]
    t0 = time.monotonic()
    # a proof by locality first where one is possible: it answers true claims at large sizes in seconds,
    # and gives up at the first disjunct its own hypotheses do not refute (a false claim loses little)
    local = not needs_pop and (not needs_witness or imp.conclusion.notion.sufficient is not None)
    if local and sizes.n * sizes.domain * sizes.outputs > LOCAL_FIRST_CELLS:
        res = _run_local(imp, params, sizes, settings, meter, family=needs_witness)
        if res.status == "unsat":
            res.how += "; conclusion's ∀𝒫 decided on its sufficient family" if needs_witness else ""
            res.seconds = time.monotonic() - t0
            return res, ({}, None, None)
        local = False   # tried: not again below
    sweep = meter.sub(settings.scale(CHEAP_EFFORT), "cheap sweep")
    per_query = replace(settings, query_effort=min(settings.query_effort, settings.cheap_effort))
    for fp, pop, wit in cheap[:CHEAP_QUERIES]:   # thousands of structured witnesses at large sizes: the sweep is capped
        if sweep.exhausted():
            break
        try:
            res, enc, solver, part = _run(imp, params, sizes, per_query, sweep, fp, population=pop, witness=wit)
        except Exhausted:
            break
        if res.status == "sat":
            res.how = _fixed(fp) + (", structured population" if pop is not None else "") + f"; {res.how}"
            res.seconds = time.monotonic() - t0
            return res, (fp, pop, wit)
    try:
        # a conclusion over all populations brings products 𝒫'·A·E: split on its disjuncts at once
        nonlinear = needs_witness or needs_pop
        res, first = SizeResult("unknown"), None
        if any(ni.notion.population in ("all", "product") and ni.notion.sufficient is None for ni in imp.hypotheses):
            # a hypothesis over every population with no finite family: on the simplex's edges, before CEGIS
            res = _run_route(edges, imp, params, sizes, settings, meter) or res
        if res.status == "unknown" and not (nonlinear and settings.split):
            first = settings.capped(3.0) if settings.split else settings
            res, enc, solver, part = _run(imp, params, sizes, first, meter, {}, split=False)
        has_family = imp.conclusion.notion.sufficient is not None
        if res.status == "unknown":
            # a composition (an atom multiplies two constrained tables) is what the whole query finds hardest
            res = _run_route(vertices, imp, params, sizes, settings, meter, products_only=True) or res
        if res.status == "unknown" and needs_witness:
            res = _run_route(beliefs, imp, params, sizes, settings, meter) or res
        if res.status == "unknown" and needs_witness and free_params:
            # refute at a fixed parameter value with the belief free: the structured beliefs above miss
            # most counterexamples over all beliefs (only a satisfiable answer is used here)
            quick = settings.capped(FIXED_SECONDS)
            for fp in values:
                found, enc, solver, part = _run(imp, params, sizes, quick, meter, fp, split=True, fail_fast=True)
                if found.status == "sat":
                    found.how = _fixed(fp) + f", belief free; {found.how}"
                    found.seconds = time.monotonic() - t0
                    return found, (fp, None, None)
        if res.status == "unknown" and local:
            res = _run_local(imp, params, sizes, settings, meter, family=needs_witness)
            if res.status == "unsat" and needs_witness:
                res.how += "; conclusion's ∀𝒫 decided on its sufficient family"
        if res.status == "unknown" and settings.split:
            # with a family to fall back on, give the lemma-free split a shorter leash
            split_settings = settings.capped(5.0) if has_family else settings
            res, enc, solver, part = _run(imp, params, sizes, split_settings, meter, {}, split=True,
                                          fail_fast=has_family)
        if res.status == "unknown" and first is not None and first.query_effort < settings.query_effort:
            # the short unsplit try may only have been cut off by its short leash: give it the full one
            res, enc, solver, part = _run(imp, params, sizes, settings, meter, {}, split=False)
        if res.status == "unknown":
            res = _run_route(vertices, imp, params, sizes, settings, meter) or res
        if res.status == "unknown" and has_family:
            # last resort: the conclusion's ∀𝒫 on its finite sufficient family (a lemma, stated
            # and proved in the notion's docstring and cross-checked against z3 in the tests)
            res, enc, solver, part = _run(imp, params, sizes, settings, meter, {}, split=True, family=True)
            if res.status != "unknown":
                res.how += "; conclusion's ∀𝒫 decided on its sufficient family"
    except Exhausted as e:
        res = SizeResult("unknown", reason=e.text)
    res.seconds = time.monotonic() - t0
    return res, ({}, None, None)


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


def _fixed(fp):
    """How a cheap refutation fixed the parameters, for the certificate: ``fixed E=2``."""
    return "fixed " + ", ".join(f"{k}={v}" for k, v in fp.items())


def _in_range(p, v):
    return p.contains(sp.Rational(v))


# --- minimisation --------------------------------------------------------------------------------

def _candidates(group):
    """Simple values to try, smallest denominators first."""
    if group == "param":
        return [sp.Integer(2), sp.Integer(3), sp.Rational(3, 2), sp.Integer(4), sp.Integer(1)]
    out = [sp.Integer(0), sp.Integer(1)]
    for q in range(2, 7):
        out += [sp.Rational(p, q) for p in range(1, q) if sp.gcd(p, q) == 1]
    return out


def minimise(imp, params, sizes, settings, how, asg: Assignment):
    """Fewest non-zero entries, then smallest denominators; every step re-verified exactly."""
    fp, pop, wit = how
    meter = Meter(settings.minimise_effort, safety_end=settings.until(time.monotonic() + settings.budget),
                  name="minimisation")
    imp2 = replace(imp, population=pop) if pop is not None else imp
    enc = Encoding(imp2, params, sizes, {**rational_values(params), **imp.parameters, **fp}, wit, False, settings.hockey)
    solver = Solver(enc, settings.capped(2.0), meter)
    neg = z3.Or(enc.negated_conclusion_parts())
    try:
        status, model = solver.solve((neg,))
    except Exhausted:
        return asg
    if status != "sat" or extract(enc, model) is None:
        return asg
    best, fixes = asg, []
    state = {"model": model}

    def attempt(c):
        nonlocal best
        try:
            status, m = solver.solve(tuple(fixes + [c, neg]))
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
    try:
        return _check_grid(imp, params, lo, hi, settings, meter, quotient_change(imp, params))
    except Transcendental as e:
        return Unknown(f"transcendental: {e}")


def _check_grid(imp, params, lo: Sizes, hi: Sizes, settings: Settings, meter, change=None):
    """The sweep; with a :class:`~symbolic.solve.quotient.QuotientChange` the solver works on the
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
    return Proved(hi, tuple(proved), certificate,
                  vacuity=vac.status, witness=vac.witness, obligations=tuple(obligations))
