"""How the notion-agreement tests build their cases: which notions, how each one's arguments are
built, parameter values, hypothesis strategies for small exact tables (with 10^-30 nudges), and the
two readings of a notion body (exact sympy and z3). The tests are in test_notion_agreement.py."""
from __future__ import annotations

import importlib
import pkgutil

import sympy as sp
import z3
from hypothesis import strategies as st

from symbolic.notions.claims import Implies
from symbolic.solve.queries.encode import Encoding, _const_table, const_population, eval_notion, z3val
from symbolic.core.ops import ExactOps, Truth
from symbolic.solve.backends.z3_ops import Z3Ops, to_z3
from symbolic.core.tables import MechTable, PopTable, databases
from symbolic.core.terms import AdaptiveVar, MechVar
from symbolic.core.verdicts import Sizes

R = sp.Rational
TINY = R(1, 10**30)

def _modules():
    """Every notion module of the engine and every theorem module (a source's own lemma notions)."""
    import symbolic.notions
    import theorems
    out = []
    for pkg in (symbolic.notions, theorems):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            # the command line and the self-test state no notions (and the self-test's faults edit the engine)
            if not info.name.startswith(("theorems.cli", "theorems.selftest")):
                out.append(importlib.import_module(info.name))
    return out


MODULES = _modules()


def _find(name):
    """The object called ``name`` in the one module (engine notions or theorems) that defines it."""
    hits = [getattr(m, name) for m in MODULES if name in vars(m)]
    assert hits, f"nothing called {name} in any notion or theorem module"
    return hits[0]


# every notion listed in an ``ALL`` of the engine's notion modules or a theorem module, except the
# transcendental ones: they have no solver reading by design (their body raises Transcendental in
# solver mode; tests/notions/test_zoo_divergence.py checks that, and their certified exact reading)
def _transcendental():
    from symbolic.notions.listed.catalog import notion_catalog
    return {id(i.notion) for i in notion_catalog() if i.cls == "transcendental"}


TRANSCENDENTAL = _transcendental()
NOTIONS = [nt for nt in {id(nt): nt for m in MODULES for nt in getattr(m, "ALL", ())}.values()
           if id(nt) not in TRANSCENDENTAL]

# Notions outside the ALL lists: factory-built and helper notions, checked the same way.
EXTRA = [
    _find("pure_dp_at_distance")(1), _find("pure_dp_at_distance")(2),
    _find("additive_secrecy_at_distance")(1), _find("additive_secrecy_at_distance")(2),
    _find("slice_hypothesis")((0,)), _find("slice_hypothesis")((0, 1)),
    _find("slice_hypothesis")((0, 1), expanded=True), _find("slice_merges")((0,)),
    _find("joint_slice_hypotheses")(2), _find("joint_posterior_indist")(2),
    _find("informed_good_where_safe_at")(0, 0, 0), _find("informed_good_where_safe_at")(1, 0, 1),
    _find("posterior_spread_where_safe_at")(0, 0), _find("posterior_spread_where_safe_at")(0, 1),
    _find("EntryPreProcessing"),
]

# --- how each notion's arguments are built ----------------------------------------------------

ATTRIBUTE = "A,U"        # (mechanism, attribute kernel on the same databases)
FIRST_SECOND = "A1,A2"   # (first stage, second stage: a family over the first's outputs, or a table)
MIXTURE = "X,AF"         # (first stage on two rows, family over its outputs)
SHAPES = {
    "Discloses": ATTRIBUTE, "NoDisclosure": ATTRIBUTE, "DisclosesToAllAdversaries": ATTRIBUTE,
    "NoDisclosureToAnyAdversary": ATTRIBUTE, "PreProcessing": ATTRIBUTE, "PosteriorBound": ATTRIBUTE,
    "ConditionalPMLGivenFirst": FIRST_SECOND,
    "MostlyIndistinguishable": MIXTURE,
}
# bodies that read exactly the rows (0,) and (1,): n = 1, |𝒟| = 2
N1_ONLY = {"SliceEventBound", "PosteriorIndistWhereHeavy", "MostlyIndistinguishable", "SliceHypothesis", "SliceMerges", "JointSliceHypotheses", "JointPosteriorIndist"}
# output counts the body needs: SliceEventBound reads atoms 0..3 of a slice table (4 atoms + ⊥, as in
# K-5.1); SliceHypothesis({0, 1}) needs two atoms; joint tables over 𝒟×𝒪 have a multiple of |𝒟| = 2
OUTPUTS = {"SliceEventBound": (5,), "SliceHypothesis": (3, 4), "SliceMerges": (2, 3, 4),
           "JointSliceHypotheses": (2, 4), "JointPosteriorIndist": (2, 4)}


def shape(notion):
    s = SHAPES.get(notion.name)
    if s is None:
        assert notion.arity in (0, 1), (
            f"{notion.name} has arity {notion.arity} and no entry in SHAPES: say how its arguments are built")
        s = "P" if notion.arity == 0 else "A"
    return s


def base_name(notion):
    return notion.name.split("[")[0]


def n1_only(notion):
    return base_name(notion) in N1_ONLY


# --- parameters ---------------------------------------------------------------------------------

PARAM_POOL = (0, R(1, 10), R(1, 4), R(1, 3), R(1, 2), 1, R(3, 2), 2, 3)


def in_range(spec, v):
    lo, hi = spec.lower, spec.upper
    if lo is not None and (v < lo or (getattr(spec, "lower_strict", False) and v == lo)):
        return False
    if hi is not None and (v > hi or (getattr(spec, "upper_strict", False) and v == hi)):
        return False
    return True


def values_for(spec):
    """A few in-range values: E-like (≥ 1) → {1, 3/2, 2, 3}; δ → {0, 1/10, 1/4, 1/3, 1/2, 1}; ..."""
    vals = [v for v in PARAM_POOL if in_range(spec, v)]
    assert vals, f"no sample value in range for parameter {spec}"
    return vals


# --- strategies -------------------------------------------------------------------------------

DENOMINATORS = (1, 2, 3, 4, 6)


@st.composite
def distributions(draw, size, denominators=DENOMINATORS):
    """A distribution on ``size`` points whose entries are multiples of 1/D, D small: zeros and
    equal entries are frequent."""
    D = draw(st.sampled_from(denominators))
    cuts = sorted(draw(st.lists(st.integers(0, D), min_size=size - 1, max_size=size - 1)))
    return tuple(R(b - a, D) for a, b in zip([0] + cuts, cuts + [D]))


@st.composite
def tables(draw, n, k, m):
    dom = tuple(range(k))
    return MechTable(n, dom, tuple(range(m)), {d: draw(distributions(m)) for d in databases(n, dom)})


@st.composite
def populations(draw, n, k, product=False):
    dom = tuple(range(k))
    dbs = databases(n, dom)
    if product:
        marg = [draw(distributions(k)) for _ in range(n)]
        probs = {}
        for d in dbs:
            p = R(1)
            for j, v in enumerate(d):
                p *= marg[j][v]
            probs[d] = p
        return PopTable(n, dom, probs)
    return PopTable(n, dom, dict(zip(dbs, draw(distributions(len(dbs))))))


@st.composite
def kernels(draw, inputs, size):
    k = {o: draw(distributions(size)) for o in inputs}
    k[None] = tuple(range(size))
    return k


def family(draw, first, m):
    """A second stage: one table per output of ``first``, on the same databases."""
    return {o: draw(tables(first.n, len(first.domain), m)) for o in first.outputs}


@st.composite
def cases(draw, notion, k=2, ns=(1, 2), families=True):
    """(notion instance applied to its terms, env of exact tables, population or None, sizes)."""
    params = [draw(st.sampled_from(values_for(p))) for p in notion.params]
    n = 1 if n1_only(notion) else draw(st.sampled_from(ns))
    m = draw(st.sampled_from(OUTPUTS.get(base_name(notion), (2, 3))))
    kk = 2 if n1_only(notion) else k
    s = shape(notion)
    ni = notion(*params)
    env = {}
    if s == "A":
        env["A"] = draw(tables(n, kk, m))
    elif s == ATTRIBUTE:
        env["A"] = draw(tables(n, kk, m))
        env["U"] = draw(tables(n, kk, draw(st.sampled_from((2, 3)))))
        ni = ni.of(MechVar("A"), MechVar("U"))
    elif s == FIRST_SECOND:
        env["A1"] = draw(tables(n, kk, m))
        m2 = draw(st.sampled_from((2, 3)))
        if families and draw(st.booleans()):
            env["A2"] = family(draw, env["A1"], m2)
            ni = ni.of(MechVar("A1"), AdaptiveVar("A2", after=MechVar("A1")))
        else:
            env["A2"] = draw(tables(n, kk, m2))
            ni = ni.of(MechVar("A1"), MechVar("A2"))
    elif s == MIXTURE:
        env["X"] = draw(tables(1, 2, m))
        env["AF"] = family(draw, env["X"], draw(st.sampled_from((2, 3))))
        ni = ni.of(MechVar("X"), AdaptiveVar("AF", after=MechVar("X")))
    pop = None
    if notion.population != "none" or draw(st.booleans()):
        pop = draw(populations(n, kk, product=notion.population == "product" and draw(st.booleans())))
    return ni, env, pop, Sizes(n, kk, m)


# --- tiny moves: 10^-30 off a tie ---------------------------------------------------------------

def _nudge_row(row, j, l, t):
    row = list(row)
    row[j] += t
    row[l] -= t
    return tuple(row)


@st.composite
def nudged(draw, case):
    """The case moved by ±10⁻³⁰ in one table entry, one population entry or one parameter (staying
    a distribution and in range), or unchanged."""
    ni, env, pop, sizes = case
    what = draw(st.sampled_from(("none", "none", "table", "population", "parameter")))
    t = TINY * draw(st.sampled_from((1, -1)))
    if what == "table" and env:
        tabs = [(name, key) for name, v in env.items() for key in (
            [None] if isinstance(v, MechTable) else [o for o in v if o is not None])]
        name, key = draw(st.sampled_from(tabs))
        tab = env[name] if key is None else env[name][key]
        if isinstance(tab, MechTable):
            d = draw(st.sampled_from(sorted(tab.rows)))
            row = tab.rows[d]
            if len(row) < 2:
                return case
            j, l = draw(st.permutations(range(len(row))))[:2]
            if row[l] - t < 0 or row[j] + t < 0:
                t = -t
            if row[l] - t < 0 or row[j] + t < 0:
                return case
            new = MechTable(tab.n, tab.domain, tab.outputs, {**tab.rows, d: _nudge_row(row, j, l, t)})
            env = dict(env)
            if key is None:
                env[name] = new
            else:
                env[name] = {**env[name], key: new}
        return ni, env, pop, sizes
    if what == "population" and pop is not None:
        dbs = sorted(pop.probs)
        j, l = draw(st.permutations(dbs))[:2]
        if pop.probs[l] - t < 0 or pop.probs[j] + t < 0:
            t = -t
        if pop.probs[l] - t < 0 or pop.probs[j] + t < 0:
            return case
        probs = dict(pop.probs)
        probs[j] += t
        probs[l] -= t
        return ni, env, PopTable(pop.n, pop.domain, probs), sizes
    if what == "parameter" and ni.args:
        i = draw(st.integers(0, len(ni.args) - 1))
        spec = ni.notion.params[i]
        args = list(ni.args)
        for s in (t, -t):
            if in_range(spec, args[i] + s):
                args[i] = args[i] + s
                break
        from symbolic.notions.base import NotionInstance
        return NotionInstance(ni.notion, tuple(args), ni.on), env, pop, sizes
    return case


# --- the two readings -----------------------------------------------------------------------------

def exact_value(ni, env, pop):
    res = eval_notion(ExactOps(), ni, env, pop, {}, lambda a, penv: sp.sympify(a))
    assert isinstance(res, (bool, Truth)), f"exact evaluation of {ni} gave {res!r}, not a truth value"
    return bool(res)


def z3_env(env):
    out = {}
    for name, v in env.items():
        if isinstance(v, MechTable):
            out[name] = _const_table(v)
        elif all(isinstance(t, MechTable) for t in v.values()):
            out[name] = {o: _const_table(t) for o, t in v.items()}
        else:  # a kernel: input -> row, plus None -> outputs
            out[name] = {o: (row if o is None else tuple(z3val(x) for x in row)) for o, row in v.items()}
    return out


def decide(term, side=()):
    """Truth value of a ground z3 formula: folded by simplify, else decided by a solver."""
    if isinstance(term, bool) and not side:
        return term
    if isinstance(term, bool):
        term = z3.BoolVal(term)
    if not side:
        t = z3.simplify(term)
        if z3.is_true(t):
            return True
        if z3.is_false(t):
            return False
    return solver_decide(term, side)


def solver_decide(term, side=()):
    answers = []
    for goal in (term, z3.Not(term)):
        s = z3.Solver()
        s.set("timeout", 30000)
        s.add(list(side) + [goal])
        answers.append(s.check())
    assert z3.unknown not in answers, f"z3 answered unknown on a ground formula: {answers}"
    assert answers.count(z3.sat) == 1, f"side constraints inconsistent or formula undecided: {answers}"
    return answers[0] == z3.sat


def z3_value(ni, env, pop, use_solver=False):
    ops = Z3Ops()
    res = eval_notion(ops, ni, z3_env(env), None if pop is None else const_population(pop), {},
                      lambda a, penv: to_z3(a, {}, ops))
    if use_solver:
        return solver_decide(z3.BoolVal(res) if isinstance(res, bool) else res, ops.side)
    return decide(res, ops.side)


def encoding_value(ni, env, pop, sizes):
    """The engine's Encoding of True ⇒ notion with everything fixed: unsat of base ∧ ¬notion ⇔ it holds."""
    witness = pop if ni.notion.population in ("all", "product") else None
    imp = Implies((), ni, population=pop, mechanisms=dict(env))
    enc = Encoding(imp, (), sizes, {}, fixed_witness=witness)
    assert not enc.vars, f"unknowns left in a fixed encoding: {enc.vars}"
    c = enc.concl
    if isinstance(c, bool):
        return c
    s = z3.Solver()
    s.set("timeout", 30000)
    s.add(enc.base + enc.ops.side + [z3.Not(c)])
    r = s.check()
    assert r != z3.unknown, f"z3 unknown on a fixed encoding of {ni}"
    return r == z3.unsat


def has_family(env):
    return any(isinstance(v, dict) for v in env.values())


def describe(ni, env, pop):
    def fmt(v):
        if isinstance(v, MechTable):
            return {d: tuple(map(str, r)) for d, r in v.rows.items()}
        return {o: fmt(t) if isinstance(t, MechTable) else t for o, t in v.items()}
    return (f"{ni} args={tuple(map(str, ni.args))}\n  tables={ {k: fmt(v) for k, v in env.items()} }\n"
            f"  population={None if pop is None else {d: str(p) for d, p in pop.probs.items()} }")


def check_agreement(case):
    ni, env, pop, sizes = case
    e = exact_value(ni, env, pop)
    z = z3_value(ni, env, pop)
    assert e == z, f"exact says {e}, z3 says {z}: {describe(ni, env, pop)}"
    return e
