"""One z3 query on an encoding, and reading its model back as exact tables.

:class:`Solver` asks z3 (nlsat for nonlinear queries, each call bounded by z3's resource limit and charged to the
caller's effort meter) whether
an :class:`~symbolic.solve.queries.encode.Encoding` is satisfiable under extra assumptions; :func:`extract`
turns a model into an exact :class:`~symbolic.solve.queries.verify.Assignment` (rationals, or algebraic
numbers rounded to nearby rationals that exact re-verification then checks)."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp
import z3

from symbolic.core.tables import MechTable, PopTable
from symbolic.core.verdicts import Sizes
from symbolic.model.population import simple_populations, uniform
from symbolic.solve.backends.deadline import check_within, cut_by_clock, unknown_reason
from symbolic.solve.backends.effort import Exhausted, Meter
from symbolic.solve.queries.encode import Encoding, const_population, z3val
from symbolic.solve.backends.settings import Settings
from symbolic.solve.queries.verify import Assignment, violating_member


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

    def __init__(self, enc: Encoding, settings: Settings, meter: Meter, extra=(), nlsat=False, learned=None,
                 alone=False):
        self.enc, self.settings, self.meter = enc, settings, meter
        self.home = z3.main_ctx()   # where the encoding's terms, the assertions kept and the models returned live
        # An nlsat query gets a z3 context of its own, its assertions translated into it: nlsat's order of the
        # variables follows the context's term table, so in the shared context the same query can take 40 times
        # as long after other queries ran; alone, its work depends on the query only.
        self.ctx = z3.Context() if nlsat or alone else None
        self.s = z3.Tactic("qfnra-nlsat", ctx=self.ctx).solver() if nlsat else z3.Solver(ctx=self.ctx)
        self.asserted = []          # what the solver was given, as terms of the home context
        self._add(enc.base + enc.hyps + enc.ops.side + list(extra))
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

    def _add(self, terms):
        terms = [z3.BoolVal(t, self.home) if isinstance(t, bool) else t
                 for t in (terms if isinstance(terms, (list, tuple)) else [terms])]
        self.asserted += terms
        self.s.add([self._here(t) for t in terms])

    def _here(self, t):
        """``t`` in the solver's context."""
        return t if self.ctx is None else t.translate(self.ctx)

    def assertions(self) -> tuple:
        """Everything the solver was given (terms of the encoding's context)."""
        return tuple(self.asserted)

    def _instantiate(self, ni, pop):
        self.instances[id(ni)].append(pop)
        self._add(self.enc.eval(ni, pop))
        self._add(self.enc.ops.side)

    def _check(self, solver, extra=()):
        return check_within(solver, self.settings.query_effort, *extra, meter=self.meter, safety=self.settings.timeout)

    def solve(self, extra=()):
        """'sat' with a model, 'unsat', or 'unknown' with a reason."""
        while True:
            r = self._check(self.s, [self._here(t) for t in extra])
            if r == z3.unsat:
                return "unsat", None
            if r == z3.unknown:
                return "unknown", unknown_reason(self.s)
            model = self.s.model() if self.ctx is None else self.s.model().translate(self.home)
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
                raise Exhausted("wall-clock" if cut_by_clock(s) else "effort", "CEGIS check: " + unknown_reason(s))
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
    return assignment(enc, vals)


def assignment(enc: Encoding, vals: dict) -> Assignment:
    """The exact tables, populations and parameters of ``enc`` at exact values of its unknowns
    (``vals``: z3 term id -> rational)."""
    ev = lambda t: _exact_term(t, vals)
    mechs = {}
    for name, tab in enc.env.items():
        mechs[name] = _map_table(tab, ev)
    pops = {}
    if enc.pop is not None:
        pops["P"] = PopTable(enc.pop.n, enc.pop.domain, {d: ev(x) for d, x in enc.pop.probs.items()})
    if enc.witness is not None:
        pops["P'"] = PopTable(enc.witness.n, enc.witness.domain, {d: ev(x) for d, x in enc.witness.probs.items()})
    # a parameter fixed at an exact value takes that value (the solver saw a rational enclosure of it)
    params = {p.name: (p.value if getattr(p, "value", None) is not None else ev(enc.penv[p.name])) for p in enc.params}
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


_STRUCTURED = {}


def structured_populations(sizes: Sizes, product=False):
    """:func:`~symbolic.model.population.simple_populations` at ``sizes``, computed once per size."""
    key = (sizes.n, sizes.domain, product)
    if key not in _STRUCTURED:
        _STRUCTURED[key] = tuple(simple_populations(n=sizes.n, domain=tuple(range(sizes.domain)), product=product))
    return _STRUCTURED[key]
