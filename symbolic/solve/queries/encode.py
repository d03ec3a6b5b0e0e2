"""Build the solver's view of one implication at one size: unknown tables, populations,
parameters, the hypotheses and the negated conclusion.

The same notion bodies are evaluated here with :class:`~symbolic.solve.backends.z3_ops.Z3Ops` and in
:mod:`symbolic.solve.queries.verify` with :class:`~symbolic.core.ops.ExactOps`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp
import z3

from symbolic.core.errors import DPCheckError
from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import units
from symbolic.solve.queries.hockey import HockeyRewriter
from symbolic.solve.backends.z3_ops import Z3Ops, to_z3
from symbolic.core.tables import MechTable, PopTable, databases
from symbolic.core.terms import PARAMETER_VALUES, AdaptiveVar, KernelVar, MechVar
from symbolic.core.verdicts import Sizes


def z3val(x):
    """Exact sympy/int/Fraction number → z3 numeral."""
    x = sp.Rational(x)
    return z3.RealVal(f"{x.p}/{x.q}") if x.q != 1 else z3.RealVal(int(x.p))


def free_terms(imp):
    """The free mechanism variables of an implication, each once, dependencies first."""
    out = []
    for ni in imp.instances:
        for t in (ni.on if ni.on is not None else ((MechVar("A"),) if ni.notion.arity else ())):
            for v in t.free():
                if v not in out:
                    out.append(v)
    return out


def targets(ni):
    if ni.on is not None:
        return ni.on
    return (MechVar("A"),) * ni.notion.arity


def within_range(t, r) -> list:
    """The constraints that put the term ``t`` inside the range of ``r`` (a claim's parameter or a
    notion's parameter spec: ``lower``/``upper``, each open when ``lower_strict``/``upper_strict``)."""
    out = []
    if r.lower is not None:
        out.append(t > z3val(r.lower) if r.lower_strict else t >= z3val(r.lower))
    if r.upper is not None:
        out.append(t < z3val(r.upper) if r.upper_strict else t <= z3val(r.upper))
    return out


def eval_notion(ops, ni, env, pop, params_env, to_num):
    """Evaluate a notion instance; a family target (adaptive second stage) means 'for every member'."""
    args = {p.name: to_num(a, params_env) for p, a in zip(ni.notion.params, ni.args)}
    env = {**env, PARAMETER_VALUES: lambda e: to_num(e, params_env)}   # a term's own parameters (a sampling rate)
    tabs = [t.eval(ops, env) for t in targets(ni)]
    fam = [i for i, t in enumerate(tabs) if isinstance(t, dict)]
    if ni.notion.arity == 1 and fam and None in tabs[fam[0]]:
        raise DPCheckError(f"{ni.notion.name} takes one mechanism 𝒟^n → 𝒪, but {targets(ni)[fam[0]]!r} is a kernel "
                           f"on outputs: apply it to a mechanism first, e.g. PostProcess(A, K)")
    if not fam or ni.notion.arity > 1:  # several mechanisms: the notion takes families whole
        return ni.notion.body(ops, *tabs, P=pop, **args)
    i = fam[0]
    return ops.And(ni.notion.body(ops, *(tabs[:i] + [member] + tabs[i + 1:]), P=pop, **args)
                   for member in tabs[i].values())


@dataclass
class Encoding:
    """Unknowns and constraints of ``hypotheses ∧ ¬conclusion`` at one size."""

    imp: object
    params: tuple
    sizes: Sizes
    fixed_params: dict
    fixed_witness: object = None
    witness_family: bool = False
    hockey: bool = False      # rewrite hockey-stick comparisons (symbolic.solve.queries.hockey); False: the plain If terms
    argument_ranges: bool = False   # keep each notion argument written in the parameters inside its range
    ops: Z3Ops = field(default_factory=Z3Ops)

    def __post_init__(self):
        n, k, m = self.sizes.as_tuple()
        self.domain = tuple(range(k))
        self.outputs = tuple(range(m))
        self.dbs = databases(n, self.domain)
        self.base = []            # simplex and range constraints
        self.vars = []            # (group, key, z3 var) for every unknown number
        self.rows = []            # every unknown distribution (mechanism row, kernel row, population)
        self.env = {}             # free term name -> table / family / kernel (z3)
        self.penv = {}            # parameter name -> z3 term
        self._build_params()
        self._guard_divisors()
        if self.argument_ranges:
            self._guard_arguments()
        self._build_mechanisms()
        self.pop = self._build_shared_population()
        self.hyps, self.universal = [], []
        for ni in self.imp.hypotheses:
            if ni.notion.population in ("all", "product"):
                self.universal.append(ni)
            else:
                self.hyps.append(self.eval(ni, self.pop))
        self.witness = None
        c = self.imp.conclusion
        if c.notion.population not in ("all", "product"):
            self.concl = self.eval(c, self.pop)
        elif self.witness_family and self.fixed_witness is None and c.notion.sufficient is not None:
            # ∃𝒫 ¬body(A, 𝒫) ⟺ ∃q in the notion's sufficient family: ¬body(A, q) (its lemma)
            fam = c.notion.sufficient(self.sizes.n, self.domain)
            self.concl = self.ops.And([self.eval(c, const_population(q)) for q in fam])
        else:
            if self.fixed_witness is not None:  # a structured witness: refuting cheaply
                self.witness = const_population(self.fixed_witness)
            else:
                self.witness = self.new_population("P'", product=c.notion.population == "product")
            self.concl = self.eval(c, self.witness)
        if self.hockey:  # exact rewrites (see hockey.py): hypotheses are positive, the conclusion is negated
            rw = HockeyRewriter()
            self.hyps = [rw.formula(h, 1) for h in self.hyps]
            self.concl = rw.formula(self.concl, -1)

    # -- unknowns ---------------------------------------------------------------------------
    def real(self, group, key, name):
        v = z3.Real(name)
        self.vars.append((group, key, v))
        self.base.append(v >= 0) if group != "param" else None
        return v

    def _row(self, group, key, name, size):
        row = tuple(self.real(group, (key, j), f"{name}[{j}]") for j in range(size))
        self.base.append(z3.Sum(row) == 1)
        self.rows.append(row)
        return row

    def _build_params(self):
        for p in self.params:
            if p.name in self.fixed_params:
                self.penv[p.name] = z3val(self.fixed_params[p.name])
                continue
            v = self.real("param", p.name, p.name)
            self.base += within_range(v, p)
            self.penv[p.name] = v

    def _fixed_mechanisms(self):
        fm = self.imp.mechanisms
        return fm(self.sizes) if callable(fm) else (fm or {})

    def _build_mechanisms(self):
        n = self.sizes.n
        fixed = self._fixed_mechanisms()
        for t in free_terms(self.imp):
            if t.name in fixed:
                self.env[t.name] = _const_table(fixed[t.name])
            elif isinstance(t, MechVar):
                self.env[t.name] = MechTable(n, self.domain, self.outputs, {
                    d: self._row(t.name, d, f"{t.name}{list(d)}", len(self.outputs)) for d in self.dbs})
            elif isinstance(t, AdaptiveVar):
                first = t.after.eval(self.ops, self.env)
                self.env[t.name] = {o1: MechTable(n, self.domain, self.outputs, {
                    d: self._row(t.name, (o1, d), f"{t.name}<{o1}>{list(d)}", len(self.outputs))
                    for d in self.dbs}) for o1 in first.outputs}
            elif isinstance(t, KernelVar):
                src = t.source.eval(self.ops, self.env)
                size = t.size or len(self.outputs)
                kern = {o: self._row(t.name, o, f"{t.name}<{o}>", size) for o in src.outputs}
                kern[None] = tuple(range(size))
                self.env[t.name] = kern
            else:
                raise DPCheckError(f"unsupported free term {t!r}")

    def new_population(self, name, product=False):
        n = self.sizes.n
        if product:
            marg = [self._row(name, ("marginal", j), f"{name}_{j+1}", len(self.domain)) for j in range(n)]
            probs = {}
            for d in self.dbs:
                t = marg[0][d[0]]
                for j in range(1, n):
                    t = t * marg[j][d[j]]
                probs[d] = t
            return PopTable(n, self.domain, probs)
        row = self._row(name, "joint", name, len(self.dbs))
        return PopTable(n, self.domain, dict(zip(self.dbs, row)))

    def _build_shared_population(self):
        needs = any(ni.notion.population == "given" for ni in self.imp.instances)
        if not needs:
            return None
        fixed = self.imp.population
        if fixed is not None:
            pop = fixed(self.sizes) if callable(fixed) else fixed
            return const_population(pop)
        return self.new_population("P")

    # -- formulas ---------------------------------------------------------------------------
    def _guard_divisors(self):
        """Where a notion's parameter expression divides (x^-k), the search keeps to parameter values
        with x ≠ 0: a claim says nothing where its own expressions are undefined (z3 would otherwise
        give x/0 an arbitrary value and "refute" the claim there). One constraint per divisor."""
        seen = set()
        for ni in self.imp.instances:
            for a in ni.args:
                for sub in sp.preorder_traversal(sp.sympify(a)):
                    if sub.is_Pow and sub.exp.is_negative and sub.base.free_symbols and sub.base not in seen:
                        seen.add(sub.base)
                        self.base.append(to_z3(sub.base, self.penv, self.ops) != 0)
        self._divisor_signs([b for b in seen if any(x.name not in self.fixed_params for x in b.free_symbols)])

    def _guard_arguments(self):
        """A notion's argument written in the claim's parameters (``PureDP((1 + s)/(1 - s))``) is kept
        inside the notion's own range (E ≥ 1 there): the claim says nothing about an instance the notion
        does not define (at s = 2 that E is -3, and any table would "refute" the claim)."""
        for ni in self.imp.instances:
            for spec, a in zip(ni.notion.params, ni.args):
                a = sp.sympify(a)
                if not a.free_symbols:
                    continue   # a number: checked when the notion was instantiated
                self.base += within_range(to_z3(a, self.penv, self.ops), spec)

    def _divisor_signs(self, bases):
        """Tell the ops which divisors have one sign wherever the query's parameter constraints
        (ranges and the guards above) hold, so comparisons are multiplied out instead of dividing
        (nonlinear real arithmetic decides polynomials, not x/0). The sign is proved, not assumed:
        an unsatisfiable ``constraints ∧ b ≤ 0`` (resp. ``b ≥ 0``) query on the parameters alone;
        a divisor that may vanish or change sign in range, or an undecided query, keeps its division."""
        for b in bases:
            if not all(s.name in self.penv for s in b.free_symbols) or not b.is_polynomial(*b.free_symbols):
                continue
            t = to_z3(b, self.penv, self.ops)
            for sign, opposite in ((1, t <= 0), (-1, t >= 0)):
                s = z3.Tactic("qfnra-nlsat").solver()
                s.add(self.base + [opposite])
                if check_within(s, units(2)) == z3.unsat:
                    self.ops.signs[t.get_id()] = (t if sign > 0 else -t, sign)
                    break

    def to_num(self, expr, penv):
        return to_z3(expr, penv, self.ops)

    def eval(self, ni, pop, env=None, penv=None):
        return eval_notion(self.ops, ni, env or self.env, pop, penv or self.penv, self.to_num)

    def negated_conclusion_parts(self):
        """¬conclusion split on its top-level conjuncts: ¬(c1 ∧ ... ∧ ck) = ¬c1 ∨ ... ∨ ¬ck."""
        c = self.concl
        if isinstance(c, bool):
            return [not c]
        return [z3.Not(x) for x in conjuncts([c])]


def conjuncts(terms):
    """The conjuncts of z3 Booleans (Python bools allowed), nested conjunctions flattened, in order."""
    out, todo = [], [z3.BoolVal(t) if isinstance(t, bool) else t for t in terms]
    while todo:
        t = todo.pop(0)
        if z3.is_and(t):
            todo[:0] = list(t.children())
        else:
            out.append(t)
    return out


def _const_table(mech):
    """A fixed Mechanism (or MechTable) as a table of z3 numerals."""
    tab = mech.table() if hasattr(mech, "table") else mech
    return MechTable(tab.n, tab.domain, tab.outputs, {d: tuple(z3val(x) for x in r) for d, r in tab.rows.items()})


def const_population(pop):
    tab = pop.table() if hasattr(pop, "table") else pop
    return PopTable(tab.n, tab.domain, {d: z3val(x) for d, x in tab.probs.items()})


def z3_or(parts):
    """The disjunction of negated-conclusion parts as one solver term."""
    return z3.Or([z3.BoolVal(p) if isinstance(p, bool) else p for p in parts])
