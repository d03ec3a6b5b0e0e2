"""Exact decision of a notion over every belief, at a fixed table: does it hold for all priors b?

A hypothesis that quantifies over all beliefs (semantic privacy, say) and has no finite sufficient
family could not be re-verified exactly, so a counterexample resting on it decided nothing. Here the
notion's own body is evaluated once with the mechanisms' exact tables and the belief left as
symbols b_x (:class:`~symbolic.core.formula.FormulaOps`), which gives a formula in b. Its negation is
put in disjunctive normal form (:func:`formula_dnf`): maxima with 0 and ``If`` terms are split
exactly (a sum of maxima with coefficients of one sign as a choice of subsets, as in
:mod:`symbolic.solve.routes.atoms`; anything else case by case). The notion holds for every belief exactly
when no conjunction has a point b in the simplex, and each conjunction is decided as follows.

Its atoms are sorted into affine ones (which cut the simplex down to a polytope P), those of degree 2
and the rest. (1) P's closure is computed by its vertices; when it has none, or a strict affine atom
vanishes at the mean of the vertices (a point of the relative interior, so the atom vanishes on all
of P), the conjunction is empty. (2) Otherwise P is non-empty and dense in its closure, so an atom
q > 0 of degree 2 has a point in P exactly when max q over the closure is > 0, and that maximum is
computed exactly by :mod:`symbolic.core.quadratic` (q ≥ 0: empty when the maximum is < 0; q = 0: when
the maximum is < 0 or the minimum > 0). Leaving the other atoms out only makes the conjunction
larger, so one atom that has no point empties it. (3) A conjunction not shown empty is searched for a
point (vertices, maximisers, points between them and the centre) at which every atom holds exactly;
such a belief is a violation, confirmed once more by evaluating the notion with
:class:`~symbolic.core.ops.ExactOps`. Anything else leaves the question undecided, never answered.

No solver is involved: this is the exact re-verification :mod:`symbolic.solve.queries.verify` needs.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import sympy as sp
from flint import fmpq

from symbolic.core.formula import Cmp, FormulaOps, Negation, Unreadable, linear_in, satisfied, subset_sums
from symbolic.core.exact import at_values
from symbolic.core.ops import ExactOps, UndecidedComparison, exact_sign
from symbolic.core.quadratic import (Polytope, TooLarge, affine_form, maximum, quadratic_form, simplex_bound,
                                     vertices)
from symbolic.core.tables import PopTable, databases
from symbolic.model.population import simple_populations
from symbolic.solve.queries.encode import eval_notion

MAX_CONJUNCTIONS = 20000
MAX_MAXIMA = 10         # maxima in one comparison expanded over subsets: 2^10 atoms at most
MAX_DATABASES = 8       # beliefs on more databases are not decided here
STEPS = 100_000          # conjunctions kept while building the normal form, plus conjunctions decided (effort)
SAFETY_SECONDS = 600.0   # the wall-clock safety net behind that count
POLYA_DEGREES = (0, 1, 2)   # multipliers (Σ b)^p tried for a bound before the exact maximum


class _Cap(Exception):
    pass


@dataclass(frozen=True)
class BeliefDecision:
    """``status`` "holds" (for every belief, decided exactly), "fails" (``belief`` violates it, exactly)
    or "undecided" (``reason`` says why)."""

    status: str
    belief: PopTable | None = None
    reason: str = ""
    conjunctions: int = 0


# --- the negation as a disjunctive normal form -----------------------------------------------

def _negated(c: Cmp, ops):
    if c.op == ">":
        return ops.atom(-c.f, ">=")
    if c.op == ">=":
        return ops.atom(-c.f, ">")
    return ops.Or([ops.atom(c.f, ">"), ops.atom(-c.f, ">")])


def _aux(f, ops):
    return sorted((s for s in f.free_symbols if s in ops.maxima or s in ops.choices), key=lambda s: s.dummy_index)


def _by_subsets(c: Cmp, ops, maxs):
    """``rest + Σ c_k·max(0, u_k) op 0`` with every c_k of one sign as a junction over the subsets S:
    for c_k > 0 it holds iff ``rest + Σ_S c_k u_k op 0`` for some S, for c_k < 0 iff for every S. None
    when the maxima do not occur linearly with rational coefficients of one sign."""
    if c.op == "==" or len(maxs) > MAX_MAXIMA:
        return None
    linear = linear_in(c.f, maxs)
    if linear is None:
        return None
    coeffs, rest = linear
    if any(not k.is_Rational or k == 0 for k in coeffs):
        return None
    signs = {k > 0 for k in coeffs}
    if len(signs) != 1:
        return None
    us = [sp.expand(k * ops.maxima[m]) for k, m in zip(coeffs, maxs)]
    parts = [ops.atom(f, c.op, expanded=True) for f in subset_sums(rest, us)]
    return ops.Or(parts) if signs == {True} else ops.And(parts)


def _split(c: Cmp, ops):
    """``c`` with its maxima and ``If`` terms resolved, as a formula without them (see the module)."""
    aux = _aux(c.f, ops)
    if all(s in ops.maxima for s in aux):
        node = _by_subsets(c, ops, aux)
        if node is not None:
            return node
    s = aux[0]
    put = lambda v: ops.atom(c.f.subs(s, v), c.op)
    if s in ops.maxima:
        u = ops.maxima[s]
        return ops.Or([ops.And([ops.atom(-u, ">="), put(0)]), ops.And([ops.atom(u, ">"), put(u)])])
    cond, then, other = ops.choices[s]
    first, second = cond, ops.Not(cond)
    order = _monotone(c.f, s, then, other, ops) if c.op != "==" else None
    if order is not None:   # c grows from the ``other`` value to the ``then`` value (or falls)
        first, second = (first, True) if order > 0 else (True, second)
    return ops.Or([ops.And([first, put(then)]), ops.And([second, put(other)])])


def _nonnegative(f) -> bool:
    """Every coefficient of the polynomial f is ≥ 0 (so f ≥ 0 wherever its symbols are)."""
    f = sp.expand(f)
    if not f.free_symbols:
        return f.is_Rational and f >= 0
    try:
        return all(k.is_Rational and k >= 0 for k in sp.Poly(f, *sorted(f.free_symbols, key=str)).coeffs())
    except sp.PolynomialError:
        return False


def _monotone(f, s, then, other, ops):
    """1 when the atom ``f op 0`` (op > or ≥) can only become true as ``s`` moves from ``other`` to
    ``then``, -1 when only as it moves back, None when neither is shown. Then, with c the condition of
    ``If(c, then, other)``: [c ∧ A(then)] ∨ [¬c ∧ A(other)] = [c ∧ A(then)] ∨ A(other) for 1 (if
    A(other) holds and c does, A(then) holds too), and = A(then) ∨ [¬c ∧ A(other)] for -1.
    The symbols of ``then - other`` must be beliefs or maxima with 0, so only values ≥ 0 matter."""
    if any(x in ops.choices for x in (then - other).free_symbols):
        return None
    k = sp.expand(f).coeff(s)
    if not k.is_Rational or k == 0 or sp.expand(f - k * s).has(s):
        return None
    if _nonnegative(then - other):
        return 1 if k > 0 else -1
    if _nonnegative(other - then):
        return -1 if k > 0 else 1
    return None


def formula_dnf(node, ops, positive=True, cap=MAX_CONJUNCTIONS, keep=None):
    """``node`` (``positive``) or its negation as a list of conjunctions of atoms free of maxima and
    ``If`` terms, one of which holds exactly when it does; raises ``_Cap`` beyond ``cap`` conjunctions.
    ``keep(conjunction)``: False drops a conjunction that has no point (it is tested as the form is
    built, so that products of alternatives stay small)."""
    if isinstance(node, bool):
        return [[]] if node == positive else []
    if isinstance(node, Negation):
        return formula_dnf(node.part, ops, not positive, cap, keep)
    if isinstance(node, Cmp):
        if not positive:
            return formula_dnf(_negated(node, ops), ops, True, cap, keep)
        if _aux(node.f, ops):
            return formula_dnf(_split(node, ops), ops, True, cap, keep)
        return [[node]] if keep is None or keep([node]) else []
    every = (node.kind == "and") == positive
    if every:
        out = [[]]
        for part in node.parts:
            sub = formula_dnf(part, ops, positive, cap, keep)
            joined = []
            for x in out:
                for y in sub:
                    conj = x + [a for a in y if a not in x]
                    if keep is None or keep(conj):
                        joined.append(conj)
                        if len(joined) > cap:
                            raise _Cap()
            out = joined
        return out
    out = []
    for part in node.parts:
        out += formula_dnf(part, ops, positive, cap, keep)
        if len(out) > cap:
            raise _Cap()
    return out


# --- one conjunction --------------------------------------------------------------------------

def _holds_at(c: Cmp, symbols, point) -> bool | None:
    try:
        s = exact_sign(c.f.subs({x: sp.Rational(int(v.p), int(v.q)) for x, v in zip(symbols, point)}))
    except UndecidedComparison:
        return None
    return satisfied(s, c.op)


class Decider:
    """Decides conjunctions of atoms over the beliefs ``symbols`` (see the module). The forms of atoms,
    the polytopes of sets of affine atoms and the emptiness of one atom over a polytope are cached:
    the conjunctions of one normal form share most of them."""

    def __init__(self, symbols):
        self.symbols = tuple(symbols)
        self._forms, self._polytopes, self._atoms = {}, {}, {}

    def form(self, c: Cmp):
        """("affine", (a, c)), ("quadratic", (Q, g, d)) or ("other", None)."""
        if c not in self._forms:
            aff = affine_form(c.f, self.symbols)
            quad = quadratic_form(c.f, self.symbols) if aff is None else None
            self._forms[c] = ("affine", aff) if aff is not None else (("quadratic", quad) if quad is not None
                                                                       else ("other", None))
        return self._forms[c]

    def polytope(self, affine):
        """(P, its vertices, the mean of its vertices) for a set of affine atoms; None when empty (also
        when a strict atom vanishes on all of it)."""
        if affine not in self._polytopes:
            forms = {op: [self.form(c)[1] for c in affine if c.op == op] for op in ("==", ">=", ">")}
            P = Polytope(len(self.symbols), tuple(forms["=="]), tuple(forms[">="] + forms[">"]))
            verts = vertices(P)
            out = None
            if verts:
                k = len(self.symbols)
                centre = tuple(sum((v[i] for v in verts), fmpq(0)) / len(verts) for i in range(k))
                if all(sum((a[i] * centre[i] for i in range(k)), c) > 0 for a, c in forms[">"]):
                    out = (P, verts, centre)
            self._polytopes[affine] = out
        return self._polytopes[affine]

    def atom_top(self, affine, c: Cmp):
        """None when no point of the polytope of ``affine`` satisfies the quadratic atom ``c``; else a
        point of its closure where c's polynomial is largest."""
        key = (affine, c)
        if key not in self._atoms:
            P = self.polytope(affine)[0]
            form = self.form(c)[1]
            for extra in POLYA_DEGREES:   # empty on the whole simplex already?
                bound = simplex_bound(form, extra)
                if bound < 0 or (bound == 0 and c.op == ">"):
                    self._atoms[key] = None
                    return None
            top_value, top = maximum(P, form)
            empty = (c.op == ">" and top_value <= 0) or (c.op != ">" and top_value < 0)
            if not empty and c.op == "==":
                neg = (tuple(tuple(-x for x in row) for row in form[0]), tuple(-x for x in form[1]), -form[2])
                empty = maximum(P, neg)[0] < 0
            self._atoms[key] = None if empty else top
        return self._atoms[key]

    def _tops(self, conj):
        """Steps 1 and 2 of the module for ``conj``, each cached: None when its affine atoms have no point
        in common or one quadratic atom has none in their polytope; else the polytope (as
        :meth:`polytope` gives it) and, per quadratic atom, a point of its closure where it is largest."""
        affine = frozenset(c for c in conj if self.form(c)[0] == "affine")
        poly = self.polytope(affine)
        if poly is None:
            return None
        quads = [c for c in conj if self.form(c)[0] == "quadratic"]
        quads.sort(key=lambda c: (affine, c) not in self._atoms)   # the cached ones first
        tops = []
        for c in quads:
            top = self.atom_top(affine, c)
            if top is None:
                return None
            tops.append(top)
        return poly, tops

    def possible(self, conj) -> bool:
        """False when ``conj`` is shown empty by steps 1 and 2 of the module."""
        return self._tops(conj) is not None

    def decide(self, conj):
        """"empty" when no belief satisfies every atom of ``conj``, a point (tuple of rationals, one per
        symbol) that satisfies them all, or None."""
        found = self._tops(conj)
        if found is None:
            return "empty"
        (_, verts, centre), tops = found
        for point in _tries(centre, verts, tops):
            if all(_holds_at(c, self.symbols, point) for c in conj):
                return point
        return None


def _tries(centre, verts, tops):
    yield centre
    yield from verts
    for top in tops:
        yield top
        for j in range(1, 13):
            w = fmpq(1, 2 ** j)
            yield tuple(t + w * (c - t) for t, c in zip(top, centre))


# --- a notion over every belief ----------------------------------------------------------------

def on_one_table(ni, table, steps=STEPS, witness=False) -> BeliefDecision:
    """:func:`decide_every_belief` for a notion instance of one mechanism with number arguments, on an
    exact table (what evaluating such a notion on a table means)."""
    return decide_every_belief(ni, {"A": table}, {}, table.n, table.domain, steps, witness=witness)


def decide_every_belief(ni, env, params, n, domain, steps=STEPS, witness=False) -> BeliefDecision:
    """Does notion instance ``ni`` hold for every belief on 𝒟^n, with the mechanisms of ``env`` and
    the parameter values ``params`` fixed? Decided exactly, or left undecided. A notion over product
    beliefs is decided only at n = 1, where every belief is a product. At most ``steps`` conjunctions are
    kept and decided (so the answer is the same on any machine); a wall-clock safety net stands behind.
    ``witness``: the violating belief is one to show a user, so one whose reason rests on defined
    conditionals is sought on (see :func:`_violation`) before one that fails only by a convention for an
    undefined one is returned; without it the first violation found is returned (the verdict is the same
    either way)."""
    if ni.notion.population == "product" and n > 1:
        return BeliefDecision("undecided", reason="over product beliefs at n > 1 (only all beliefs are decided here)")
    dbs = databases(n, tuple(domain))
    if len(dbs) > MAX_DATABASES:
        return BeliefDecision("undecided", reason=f"beliefs on {len(dbs)} databases (at most {MAX_DATABASES} are decided)")
    end, taken = time.monotonic() + SAFETY_SECONDS, [0]
    shown = None   # a violation whose reason rests on an undefined conditional, kept while a better one is sought
    for q in simple_populations(n=n, domain=tuple(domain)):   # a violation at a simple belief is found at once
        belief = q.table()
        try:
            v = _violation(ni, env, belief, params)
        except UndecidedComparison:
            break
        if v == "defined" or (v and not witness):
            return BeliefDecision("fails", belief)
        shown = shown or (belief if v == "undefined" else None)
    symbols = [sp.Dummy(f"b{j}") for j in range(len(dbs))]
    ops, decider = FormulaOps(), Decider(symbols)

    def over() -> str:
        taken[0] += 1
        if taken[0] > steps:
            return f"effort limit (more than {steps:,} conjunctions kept or decided)"
        return "wall-clock safety limit" if time.monotonic() > end else ""

    def keep(conj):
        why = over()
        if why:
            raise _Cap(why)
        return decider.possible(conj)
    try:
        formula = eval_notion(ops, ni, env, PopTable(n, tuple(domain), dict(zip(dbs, symbols))), params, at_values)
        conjs = formula_dnf(formula, ops, positive=False, keep=keep)
    except (Unreadable, UndecidedComparison) as e:
        return _or_shown(shown, BeliefDecision("undecided", reason=f"the notion over a free belief cannot be read "
                                                                   f"exactly: {e}"))
    except _Cap as e:
        return _or_shown(shown, BeliefDecision("undecided", reason=str(e) or f"its negation has more than "
                                                                             f"{MAX_CONJUNCTIONS} conjunctions"))
    open_ = 0
    for conj in conjs:
        why = over()
        if why:
            return _or_shown(shown, BeliefDecision("undecided", reason=why, conjunctions=len(conjs)))
        try:
            res = decider.decide(conj)
        except TooLarge:
            res = None
        if res is None:
            open_ += 1
            continue
        if res != "empty":
            belief = PopTable(n, tuple(domain), {d: sp.Rational(int(v.p), int(v.q)) for d, v in zip(dbs, res)})
            try:
                v = _violation(ni, env, belief, params)
            except UndecidedComparison:
                v = None
            if v == "defined" or (v and not witness):
                return BeliefDecision("fails", belief, conjunctions=len(conjs))
            if v == "undefined":
                shown = shown or belief
                continue
            open_ += 1
    if shown is not None:
        return BeliefDecision("fails", shown, conjunctions=len(conjs))
    if open_:
        return BeliefDecision("undecided", reason=f"{open_} of {len(conjs)} conjunctions neither empty nor satisfied",
                              conjunctions=len(conjs))
    return BeliefDecision("holds", conjunctions=len(conjs))


def _violation(ni, env, belief, params):
    """None when ``ni`` holds at ``belief`` (exactly); "defined" when it fails there and the reason it
    gives rests on defined conditionals only; "undefined" when it fails only by a convention for a
    conditional that is not defined there (``ExactOps.undefined``), a witness shown only when no other is
    found. Raises :class:`UndecidedComparison` when the exact evaluation cannot decide."""
    ops = ExactOps()
    if eval_notion(ops, ni, env, belief, params, at_values):
        return None
    return "defined" if ops.defined_reason() else "undefined"


def _or_shown(shown, decision):
    """A violation already confirmed exactly (with an undefined conditional) rather than ``decision``."""
    return decision if shown is None else BeliefDecision("fails", shown)
