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
from fractions import Fraction

import sympy as sp
import z3

from .encode import Encoding, conjuncts, const_population, z3val
from .population import Population, point_mass, uniform
from .tables import MechTable, PopTable, databases
from .vacuity import vacuity_of_sizes
from .verdicts import Counterexample, Obligation, Proved, Refuted, Sizes, Unknown, Vacuous
from .verify import Assignment, verify, violating_member


@dataclass(frozen=True)
class Settings:
    """Search settings; named profiles: quick, ci, thorough."""

    timeout: float = 20.0          # seconds for one solver call
    budget: float = 60.0           # seconds for one claim
    refute_values: tuple = (2, Fraction(3, 2), 3)
    structured: bool = True
    minimise: bool = True
    minimise_seconds: float = 10.0
    cegis_rounds: int = 60
    split: bool = True
    cheap_timeout: float = 0.5    # seconds per query while refuting cheaply
    second_solver: bool = True    # cvc5 re-decides every query a proof rests on
    second_timeout: float = 8.0   # seconds per query for the second solver
    second_budget: float = 20.0   # seconds for the second solver on one claim
    stop_at: float | None = None  # a hard stop for the whole run (time.monotonic() value), or None

    def until(self, t: float) -> float:
        """``t``, or the hard stop if that comes first."""
        return t if self.stop_at is None else min(t, self.stop_at)

    @classmethod
    def profile(cls, name: str) -> "Settings":
        from .errors import UnknownName
        table = {"quick": cls(timeout=10, budget=20, minimise_seconds=5),
                 "ci": cls(),
                 "thorough": cls(timeout=120, budget=600, minimise_seconds=60)}
        if name not in table:
            raise UnknownName(f"no settings profile {name!r}; profiles: {', '.join(table)}")
        return table[name]


class _Timeout(Exception):
    pass


def fresh_context():
    """Start a new z3 context, so that a claim's solver runs do not depend on what ran
    before in the same process (z3's heuristics depend on its term tables). z3py keeps its
    default context in a module global; dropping it makes z3 create a new one on next use."""
    import z3.z3 as core
    core._main_ctx = None


def _value(model, v):
    """A z3 model value as an exact sympy number (rational), or None if algebraic."""
    x = model.eval(v, model_completion=True)
    if z3.is_rational_value(x):
        return sp.Rational(x.numerator_as_long(), x.denominator_as_long())
    return None


def _approx(model, v, den=10**6):
    x = model.eval(v, model_completion=True)
    if z3.is_rational_value(x):
        return Fraction(x.numerator_as_long(), x.denominator_as_long())
    return Fraction(x.approx(20).as_fraction()).limit_denominator(den)


class Solver:
    """CEGIS over one encoding: ``solve(extra)`` finds values for the unknowns such that the
    hypotheses hold (∀𝒫 ones for every population) and the conclusion fails."""

    def __init__(self, enc: Encoding, settings: Settings, deadline: float, extra=(), nlsat=False, learned=None):
        self.enc, self.settings, self.deadline = enc, settings, deadline
        self.s = z3.Tactic("qfnra-nlsat").solver() if nlsat else z3.Solver()
        self.s.add(enc.base + enc.hyps + enc.ops.side + list(extra))
        self.instances = {id(ni): [] for ni in enc.universal}
        self.tried = {}
        self.rounds = 0
        if learned is not None:  # populations another query on the same encoding already learned
            for ni in enc.universal:
                self.tried[id(ni)] = set(learned.tried.get(id(ni), ()))
                for pop in learned.instances.get(id(ni), []):
                    self._instantiate(ni, pop)
            return
        for ni in enc.universal:  # seed: the uniform population
            self._instantiate(ni, const_population(uniform(n=enc.sizes.n, domain=enc.domain)))

    def _instantiate(self, ni, pop):
        self.instances[id(ni)].append(pop)
        self.s.add(self.enc.eval(ni, pop))
        self.s.add(self.enc.ops.side)

    def _remaining(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Timeout()
        return left

    def _check(self, solver, extra=()):
        ms = int(1000 * min(self.settings.timeout, self._remaining()))
        solver.set("timeout", max(ms, 1))
        return solver.check(*extra)

    def solve(self, extra=()):
        """'sat' with a model, 'unsat', or 'unknown' with a reason."""
        while True:
            r = self._check(self.s, extra)
            if r == z3.unsat:
                return "unsat", None
            if r == z3.unknown:
                return "unknown", self.s.reason_unknown()
            model = self.s.model()
            bad = self._counter_population(model)
            if bad is None:
                return "sat", model
            self.rounds += 1
            if self.rounds > self.settings.cegis_rounds:
                return "unknown", f"CEGIS did not converge in {self.settings.cegis_rounds} rounds"

    def _counter_population(self, model):
        """For each ∀𝒫 hypothesis: is there 𝒫 violating it for the candidate? (then refine)"""
        if not self.enc.universal:
            return None
        fixed_env, fixed_params = self._fixed(model)
        refined = None
        for ni in self.enc.universal:  # the oracle tries structured populations first, adding all that break the guess
            product = ni.notion.population == "product"
            for q in structured_populations(self.enc.sizes, product=product):
                if q in self.tried.setdefault(id(ni), set()):
                    continue
                holds = z3.simplify(self.enc.eval(ni, const_population(q), env=fixed_env, penv=fixed_params))
                if z3.is_false(holds):
                    self.tried[id(ni)].add(q)
                    self._instantiate(ni, const_population(q))
                    refined = ni
        if refined is not None:
            return refined
        for ni in self.enc.universal:
            check = Encoding.__new__(Encoding)
            check.__dict__.update(self.enc.__dict__)
            check.base, check.vars = [], []
            check.ops = type(self.enc.ops)()
            pop = check.new_population("Q", product=ni.notion.population == "product")
            s = z3.Solver()
            s.add(check.base)
            s.add(z3.Not(check.eval(ni, pop, env=fixed_env, penv=fixed_params)))
            s.add(check.ops.side)
            r = self._check(s)
            if r == z3.sat:
                m = s.model()
                vals = {d: z3val(_approx(m, t)) if not _is_rational(m, t) else m.eval(t, model_completion=True)
                        for d, t in pop.probs.items()}
                self._instantiate(ni, PopTable(pop.n, pop.domain, vals))
                return ni
            if r == z3.unknown:
                raise _Timeout()
        return None

    def _fixed(self, model):
        """The candidate's unknowns replaced by the model's values (z3 numerals)."""
        sub = [(v, model.eval(v, model_completion=True)) for _, _, v in self.enc.vars]
        f = lambda t: z3.simplify(z3.substitute(t, *sub)) if sub and isinstance(t, z3.ExprRef) else t
        env = {}
        for name, tab in self.enc.env.items():
            env[name] = _map_table(tab, f)
        penv = {k: f(v) for k, v in self.enc.penv.items()}
        return env, penv


def _is_rational(m, t):
    return z3.is_rational_value(m.eval(t, model_completion=True))


def _map_table(tab, f):
    if isinstance(tab, MechTable):
        return MechTable(tab.n, tab.domain, tab.outputs, {d: tuple(f(x) for x in r) for d, r in tab.rows.items()})
    if isinstance(tab, dict):
        return {k: (_map_table(v, f) if isinstance(v, MechTable) else
                    (v if k is None else tuple(f(x) for x in v))) for k, v in tab.items()}
    return tab


# --- from a model to an exact assignment --------------------------------------------------------

def extract(enc: Encoding, model) -> Assignment | None:
    """Exact values of every unknown; None if some value is algebraic (not rational)."""
    vals = {}
    for _, _, v in enc.vars:
        x = _value(model, v)
        if x is None:
            return None
        vals[v.get_id()] = x
    ev = lambda t: _exact_term(t, vals)
    mechs = {}
    for name, tab in enc.env.items():
        mechs[name] = _map_table(tab, ev)
    pops = {}
    if enc.pop is not None:
        pops["P"] = PopTable(enc.pop.n, enc.pop.domain, {d: ev(x) for d, x in enc.pop.probs.items()})
    if enc.witness is not None:
        pops["P'"] = PopTable(enc.witness.n, enc.witness.domain, {d: ev(x) for d, x in enc.witness.probs.items()})
    params = {p.name: ev(enc.penv[p.name]) for p in enc.params}
    asg = Assignment(mechs, pops, params)
    if enc.witness is None and enc.witness_family and enc.imp.conclusion.notion.population in ("all", "product"):
        member = violating_member(enc.imp, asg, enc.sizes.n, enc.domain)  # decided on the family: name the member
        if member is not None:
            pops["P'"] = member
    return asg


def _exact_term(t, vals):
    """Evaluate a z3 term built from unknowns, numerals, + and * exactly."""
    if z3.is_rational_value(t):
        return sp.Rational(t.numerator_as_long(), t.denominator_as_long())
    if z3.is_const(t) and t.get_id() in vals:
        return vals[t.get_id()]
    if z3.is_add(t):
        return sp.Add(*[_exact_term(c, vals) for c in t.children()])
    if z3.is_mul(t):
        return sp.Mul(*[_exact_term(c, vals) for c in t.children()])
    if z3.is_sub(t):
        a, b = t.children()
        return _exact_term(a, vals) - _exact_term(b, vals)
    raise ValueError(f"cannot evaluate {t} exactly")


# --- one implication at one size ----------------------------------------------------------------

@dataclass
class SizeResult:
    status: str            # "sat" | "unsat" | "unknown"
    assignment: Assignment | None = None
    reason: str = ""
    seconds: float = 0.0
    how: str = ""
    obligations: list = field(default_factory=list)   # the unsat queries (tuples of z3 terms) a proof rests on


_STRUCTURED = {}


def structured_populations(sizes: Sizes, product=False):
    """Point masses, the uniform population, and uniform populations on two databases
    (perfectly correlated ones among them); with ``product``, only those that are products."""
    key = (sizes.n, sizes.domain, product)
    if key not in _STRUCTURED:
        n, k = sizes.n, sizes.domain
        dom = tuple(range(k))
        dbs = databases(n, dom)
        out = [point_mass(d, domain=dom) for d in dbs]
        out.append(uniform(n=n, domain=dom))
        for i, x in enumerate(dbs):
            for y in dbs[i + 1:]:
                if product and sum(a != b for a, b in zip(x, y)) != 1:
                    continue
                out.append(Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=dom))
        _STRUCTURED[key] = tuple(out)
    return _STRUCTURED[key]


def _run(imp, params, sizes, settings, deadline, fixed_params, population=None, split=False, witness=None,
         family=False, fail_fast=False):
    imp2 = replace(imp, population=population) if population is not None else imp
    enc = Encoding(imp2, params, sizes, {**imp.parameters, **fixed_params}, witness, family)
    parts = enc.negated_conclusion_parts() if split else [z3.Or(enc.negated_conclusion_parts())]
    solver = Solver(enc, settings, deadline)
    unknown, obligations = [], []
    for part in parts:
        if part is False:
            continue
        assumed = (part,) if part is not True else ()
        if split:  # one small query per disjunct, with the nonlinear real arithmetic procedure
            prev = solver
            solver = Solver(enc, settings, deadline, extra=list(assumed), nlsat=True, learned=prev)
            try:
                status, info = solver.solve()
                assumed = ()
            except z3.Z3Exception:
                solver = Solver(enc, settings, deadline, learned=prev)
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
            cache[key] = frozenset([u.decl().name()])
        elif expanded or not u.num_args():
            cache[key] = frozenset().union(*[cache[c.get_id()] for c in u.children()])
        else:
            stack.append((u, True))
            stack.extend((c, False) for c in u.children() if c.get_id() not in cache)
    return cache[t.get_id()]


def _run_local(imp, params, sizes, settings, deadline, seconds):
    """Prove by locality: ¬conclusion = D_1 ∨ … ∨ D_k; each D_j is refuted together with only those
    hypothesis conjuncts (and range, simplex and side constraints) whose unknowns all occur in D_j.
    Dropping constraints weakens the query, so each "unsat" is a valid refutation of D_j under the full hypotheses;
    anything but "unsat" gives up (a model of the weakened query is no counterexample). Not used with
    ∀𝒫 hypotheses or a ∀𝒫 conclusion. At n ≥ 2 this decides notions that are conjunctions over
    neighbour pairs as fast as n=1: a pair's conclusion only meets the pair's own hypotheses."""
    enc = Encoding(imp, params, sizes, dict(imp.parameters), None, False)
    if enc.universal or enc.witness is not None:
        return SizeResult("unknown", reason="locality: ∀𝒫 involved")
    end = min(deadline, time.monotonic() + seconds)
    cache = {}
    hyps = [(h, _unknowns(h, cache)) for h in conjuncts(enc.hyps) if not z3.is_true(h)]
    parts = enc.negated_conclusion_parts()
    obligations = []
    for part in parts:
        if part is False or (not isinstance(part, bool) and z3.is_false(part)):
            continue
        part = z3.BoolVal(part) if isinstance(part, bool) else part
        support = _unknowns(part, cache)
        keep = [h for h, u in hyps if u <= support]
        keep += [c for c in enc.base + enc.ops.side if _unknowns(c, cache) <= support]
        left = end - time.monotonic()
        if left <= 0:
            return SizeResult("unknown", reason="locality: time")
        s = z3.Solver()
        s.set("timeout", int(1000 * min(left, settings.timeout)))
        s.add(keep)
        if s.check(part) != z3.unsat:  # as an assumption, like Solver.solve: z3's incremental core
            return SizeResult("unknown", reason="locality: a disjunct is not refuted by its own hypotheses")
        obligations.append(tuple(keep) + (part,))
    return SizeResult("unsat", how=f"{len(parts)} part(s), each refuted with the hypotheses on its own unknowns",
                      obligations=obligations)


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


def search_size(imp, params, sizes, settings, deadline):
    """Refute cheaply first (fixed parameters, structured populations), then the full query."""
    free_params = [p for p in params if p.name not in imp.parameters]
    needs_pop = imp.population is None and any(
        ni.notion.population == "given" for ni in list(imp.hypotheses) + [imp.conclusion])
    cheap = []
    values = [dict(zip([p.name for p in free_params], [sp.Rational(v)] * len(free_params)))
              for v in settings.refute_values if all(_in_range(p, v) for p in free_params)] if free_params else [{}]
    kind = imp.conclusion.notion.population
    needs_witness = kind in ("all", "product")
    for fp in values:  # only queries that are linear once E is fixed: structured 𝒫 and witnesses
        if (needs_pop or needs_witness) and not settings.structured:
            continue
        pops = structured_populations(sizes) if needs_pop else [None]
        wits = structured_populations(sizes, product=kind == "product") if needs_witness else [None]
        cheap += [(fp, pop, w) for pop in pops for w in wits]
    t0 = time.monotonic()
    for fp, pop, wit in cheap:
        try:
            res, enc, solver, part = _run(imp, params, sizes, replace(settings, timeout=min(settings.timeout, settings.cheap_timeout)),
                                          deadline, fp, population=pop, witness=wit)
        except _Timeout:
            break
        if res.status == "sat":
            res.how = "fixed " + ", ".join(f"{k}={v}" for k, v in fp.items()) + (
                ", structured population" if pop is not None else "") + f"; {res.how}"
            res.seconds = time.monotonic() - t0
            return res, (fp, pop, wit)
    try:
        # a conclusion over all populations brings products 𝒫'·A·E: split on its disjuncts at once
        nonlinear = needs_witness or needs_pop
        res, first = SizeResult("unknown"), None
        if not (nonlinear and settings.split):
            first = replace(settings, timeout=min(settings.timeout, 3.0)) if settings.split else settings
            res, enc, solver, part = _run(imp, params, sizes, first, deadline, {}, split=False)
        has_family = imp.conclusion.notion.sufficient is not None
        if res.status == "unknown" and not nonlinear:
            res = _run_local(imp, params, sizes, settings, deadline, seconds=10.0)
        if res.status == "unknown" and settings.split:
            # with a family to fall back on, give the lemma-free split a shorter leash
            split_settings = replace(settings, timeout=min(settings.timeout, 5.0)) if has_family else settings
            res, enc, solver, part = _run(imp, params, sizes, split_settings, deadline, {}, split=True,
                                          fail_fast=has_family)
        if res.status == "unknown" and first is not None and first.timeout < settings.timeout:
            # the short unsplit try may only have been cut off (a loaded machine): give it the full leash
            res, enc, solver, part = _run(imp, params, sizes, settings, deadline, {}, split=False)
        if res.status == "unknown" and has_family:
            # last resort: the conclusion's ∀𝒫 on its finite sufficient family (a lemma, stated
            # and proved in the notion's docstring and cross-checked against z3 in the tests)
            res, enc, solver, part = _run(imp, params, sizes, settings, deadline, {}, split=True, family=True)
            if res.status != "unknown":
                res.how += "; conclusion's ∀𝒫 decided on its sufficient family"
    except _Timeout:
        res = SizeResult("unknown", reason="time budget exhausted")
    res.seconds = time.monotonic() - t0
    return res, ({}, None, None)


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
    deadline = settings.until(time.monotonic() + settings.minimise_seconds)
    imp2 = replace(imp, population=pop) if pop is not None else imp
    enc = Encoding(imp2, params, sizes, {**imp.parameters, **fp}, wit)
    solver = Solver(enc, replace(settings, timeout=min(settings.timeout, 2.0)), deadline)
    neg = z3.Or(enc.negated_conclusion_parts())
    try:
        status, model = solver.solve((neg,))
    except _Timeout:
        return asg
    if status != "sat" or extract(enc, model) is None:
        return asg
    best, fixes = asg, []
    state = {"model": model}

    def attempt(c):
        nonlocal best
        try:
            status, m = solver.solve(tuple(fixes + [c, neg]))
        except _Timeout:
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


def check_implication(imp, params, lo: Sizes, hi: Sizes, settings: Settings, deadline=None):
    """Verdict for one implication over the size grid: Refuted (re-verified exactly), Unknown, or,
    when the negated claim is unsatisfiable at every size, Proved if a witness shows the hypotheses can
    hold together at those sizes and Vacuous if they cannot."""
    deadline = settings.until(deadline or (time.monotonic() + settings.budget))
    proved, searched, unknown, obligations = [], [], [], []
    for sizes in grid(lo, hi):
        if time.monotonic() >= deadline:
            unknown.append((sizes, "time budget exhausted"))
            break
        res, how = search_size(imp, params, sizes, settings, deadline)
        searched.append(sizes)
        if res.status == "unsat":
            proved.append((sizes, round(res.seconds, 3), res.how))
            obligations += [Obligation(f"{imp} at {sizes}, query {j + 1}", sizes, q)
                            for j, q in enumerate(res.obligations)]
        elif res.status == "unknown":
            unknown.append((sizes, res.reason))
        else:
            ok, violated, problems = verify(imp if how[1] is None else replace(imp, population=how[1]),
                                            params, res.assignment)
            asg = res.assignment
            if ok and settings.minimise:
                asg = minimise(imp, params, sizes, settings, how, asg)
                ok, violated, problems = verify(imp if how[1] is None else replace(imp, population=how[1]),
                                                params, asg)
            cx = Counterexample(sizes, asg.mechanisms, asg.populations, asg.parameters, violated, str(imp))
            minimal = not unknown
            note = res.how + ("" if ok else "; RE-VERIFICATION FAILED: " + "; ".join(problems))
            if unknown:
                note += "; not known to be minimal: undecided at " + ", ".join(str(s) for s, _ in unknown)
            return Refuted(cx, ok, minimal, tuple(searched), note)
    if not proved and not unknown:
        return Unknown(f"no sizes to check between {lo} and {hi}")
    vac = None
    if proved and not unknown:
        vac = vacuity_of_sizes(imp, params, [s for s, _, _ in proved], settings, deadline)
        if vac.status == "vacuous":
            return Vacuous(f"{imp}: {vac.reason}", hi)
    if unknown:
        return Unknown("; ".join(f"{s}: {r}" for s, r in unknown), tuple(proved))
    return Proved(hi, tuple(proved), {"solver": f"z3 {z3.get_version_string()}",
                                      "method": "negated claim unsatisfiable at every size (CEGIS for ∀𝒫)"},
                  vacuity=vac.status, witness=vac.witness, obligations=tuple(obligations))
