"""A solver formula read back as polynomial atoms ``f ≥ 0``, ``f > 0`` or ``f = 0`` over sympy.

The notion bodies build z3 terms; a route that reasons about their shape (linear in one table,
multilinear across tables) needs them as polynomials. :func:`conjunction` reads a formula that is
asserted (a hypothesis) as a list of atoms that must all hold; :func:`disjunction` reads one as a
list of atoms of which one must hold (the negated conclusion). Either returns ``None`` when the
formula is not of that shape; nothing is approximated.

A hockey-stick sum ``Σ_o max(0, t_o)`` (z3 ``If(0 < t, t, 0)``) is expanded exactly over the choices
of each maximum: ``max(0, t) = max(0, t)`` over the choice {0, t}, so with a negative coefficient
``g ≥ 0`` holds iff it holds for every choice (a conjunction), and with a positive coefficient iff it
holds for some choice (a disjunction). The other combinations are not of either shape.

>>> import z3
>>> a, b, d = z3.Reals("a b d")
>>> [str(x) for x in conjunction(z3.If(0 < a - 2*b, a - 2*b, 0) <= d)]
['d >= 0', '-a + 2*b + d >= 0']
>>> [str(x) for x in disjunction(z3.Not(z3.If(0 < a - 2*b, a - 2*b, 0) <= d))]
['-d > 0', 'a - 2*b - d > 0']
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp
import z3

from symbolic.core.formula import Cmp, linear_in, satisfied, subset_sums
from symbolic.solve.backends.z3_ops import to_z3

MAX_CHOICES = 10   # hockey-stick terms in one comparison: 2^10 expanded atoms at most
MAX_GROUPED = 64   # ... and kept unexpanded as one Choice


@dataclass(frozen=True)
class Atom(Cmp):
    """``f op 0`` with ``op`` one of ``>=``, ``>``, ``==``; ``f`` a sympy expression (a
    :class:`~symbolic.core.formula.Cmp` that the routes also turn into solver constraints)."""

    def symbols(self) -> frozenset:
        return frozenset(s.name for s in self.f.free_symbols)

    def z3(self, env):
        """The atom as a solver constraint, its symbols looked up by name in ``env``."""
        t = to_z3(self.f, env)
        return t > 0 if self.op == ">" else (t >= 0 if self.op == ">=" else t == 0)


@dataclass(frozen=True)
class Choice:
    """``rest + Σ_{k ∈ S} parts[k] op 0`` for some subset S of the parts: a comparison
    ``rest + Σ_k c_k·max(0, u_k) op 0`` with every c_k ≥ 0 kept unexpanded (part k is c_k·u_k).
    :meth:`atoms` lists the 2^k comparisons one of which holds exactly when it does."""

    rest: sp.Expr
    parts: tuple
    op: str

    def __str__(self):
        return f"{self.rest} + some of {list(map(str, self.parts))} {self.op} 0"

    def symbols(self) -> frozenset:
        return frozenset(s.name for f in (self.rest, *self.parts) for s in f.free_symbols)

    def atoms(self) -> list:
        return [Atom(f, self.op) for f in subset_sums(self.rest, self.parts)]

    def subs(self, values) -> "Choice":
        """The choice with ``values`` (symbol -> expression) put in."""
        return Choice(sp.expand(self.rest.subs(values)), tuple(sp.expand(p.subs(values)) for p in self.parts), self.op)


class NotPolynomial(Exception):
    """The term has a part the atoms cannot state (an If that is not a maximum with 0, a function)."""


def term(t, maxima=None):
    """A z3 arithmetic term as a sympy expression; each ``If(0 < u, u, 0)`` becomes a fresh symbol
    recorded in ``maxima`` (symbol -> the sympy form of ``u``) when ``maxima`` is a dict."""
    if z3.is_rational_value(t):
        return sp.Rational(t.numerator_as_long(), t.denominator_as_long())
    if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        return sp.Symbol(t.decl().name())
    kids = t.children()
    if z3.is_add(t):
        return sp.Add(*[term(c, maxima) for c in kids])
    if z3.is_sub(t):
        return term(kids[0], maxima) - sp.Add(*[term(c, maxima) for c in kids[1:]])
    if z3.is_mul(t):
        return sp.Mul(*[term(c, maxima) for c in kids])
    if z3.is_div(t):
        return term(kids[0], maxima) / term(kids[1], maxima)
    if t.decl().kind() == z3.Z3_OP_UMINUS:
        return -term(kids[0], maxima)
    if t.decl().kind() == z3.Z3_OP_POWER and z3.is_rational_value(kids[1]) and kids[1].denominator_as_long() == 1:
        return term(kids[0], maxima) ** int(kids[1].numerator_as_long())
    if z3.is_app_of(t, z3.Z3_OP_ITE) and maxima is not None:
        inner = _maximum_with_zero(t)
        if inner is not None:
            u = term(inner)
            key = sp.Symbol(f"_max{len(maxima)}")
            maxima[key] = u
            return key
    raise NotPolynomial(str(t)[:80])


def _maximum_with_zero(t):
    """``u`` when ``t`` is ``If(0 < u, u, 0)``, ``If(u > 0, u, 0)`` or the ``≤``/``≥`` forms; else None."""
    cond, then, other = t.children()
    if not (z3.is_rational_value(other) and other.numerator_as_long() == 0):
        return None
    if cond.num_args() != 2:
        return None
    lhs, rhs = cond.children()
    zero = lambda x: z3.is_rational_value(x) and x.numerator_as_long() == 0
    if (z3.is_lt(cond) or z3.is_le(cond)) and zero(lhs) and rhs.eq(then):
        return then
    if (z3.is_gt(cond) or z3.is_ge(cond)) and zero(rhs) and lhs.eq(then):
        return then
    return None


_FLIP = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}


def comparison(t):
    """(op, lhs, rhs) of a z3 comparison, or None."""
    for test, op in ((z3.is_le, "<="), (z3.is_lt, "<"), (z3.is_ge, ">="), (z3.is_gt, ">"), (z3.is_eq, "==")):
        if test(t) and t.num_args() == 2 and t.arg(0).sort() == z3.RealSort():
            return op, t.arg(0), t.arg(1)
    return None


def _atoms_of(op, lhs, rhs, every, sign=None, grouped=False):
    """The atoms of ``lhs op rhs``; ``every``: they must all hold (else one of them must). ``sign``: a
    coefficient of a maximum that is no number -> 1 where it is proved ≥ 0, -1 where proved ≤ 0, else
    None (c·max(0, u) = max(0, c·u) when c ≥ 0, so the expansion below holds as for a positive number).
    ``grouped``: a disjunction over the choices of the maxima is returned as one :class:`Choice`."""
    maxima = {}
    big, small = (rhs, lhs) if op in ("<=", "<", "==") else (lhs, rhs)
    f = sp.expand(term(big, maxima) - term(small, maxima))
    if op == "==":
        return [Atom(f, "==")] if every and not maxima else None
    strict = ">" if op in ("<", ">") else ">="
    if not maxima:
        return [Atom(f, strict)]
    if len(maxima) > (MAX_GROUPED if grouped and not every else MAX_CHOICES):
        return None
    keys = list(maxima)
    linear = linear_in(f, keys)
    if linear is None:
        return None   # a maximum inside a product of maxima
    coeffs, rest = linear
    signs = {(1 if c > 0 else -1) if c.is_Rational and c != 0 else (sign(c) if sign is not None else None)
             for c in coeffs}
    if None in signs:
        return None   # a coefficient of unknown sign
    if signs != ({-1} if every else {1}):
        return None
    parts = tuple(sp.expand(c * maxima[k]) for c, k in zip(coeffs, keys))
    if grouped and not every:
        return [Choice(rest, parts, strict)]
    return [Atom(g, strict) for g in subset_sums(rest, parts)]


def conjunction(t, positive=True):
    """Atoms that all hold exactly when ``t`` is true (``positive``) or false; None if ``t`` is no
    conjunction of such atoms."""
    form = dnf(t, positive, cap=1)
    return form[0] if form is not None and len(form) == 1 else None


def disjunction(t, positive=True):
    """Atoms one of which holds exactly when ``t`` is true (``positive``) or false; None if ``t`` is
    no disjunction of such atoms."""
    form = dnf(t, positive)
    if form is None or any(len(c) != 1 for c in form):
        return None
    return [c[0] for c in form]


def dnf(t, positive=True, cap=20000, sign=None, grouped=False, sums=False):
    """``t`` (``positive``) or its negation as a list of conjunctions of atoms, one of which holds
    exactly when it does (disjunctive normal form, hockey-stick sums expanded as above); None when
    ``t`` has a part the atoms cannot state or the form would exceed ``cap`` conjunctions (``sign``: as
    for :func:`_atoms_of`; ``grouped``: a hockey-stick comparison that holds for some choice of its
    maxima is one :class:`Choice`, not one conjunction per choice). ``sums``: a comparison
    ``Σ_k If(c_k, m_k, 0) + r > 0`` is read by :func:`_conditional_sum`; the form is then one that
    holds *whenever* ``t`` does (a pigeonhole step may weaken it), exact where that step is not taken.

    >>> import z3
    >>> a, b = z3.Reals("a b")
    >>> [[str(x) for x in c] for c in dnf(z3.Not(z3.And(a >= 0, z3.Or(b == 0, a <= b))))]
    [['-a > 0'], ['b > 0', 'a - b > 0'], ['-b > 0', 'a - b > 0']]
    """
    if isinstance(t, bool):
        t = z3.BoolVal(t)
    if z3.is_true(t) or z3.is_false(t):
        return [[]] if z3.is_true(t) == positive else []
    if z3.is_not(t):
        return dnf(t.arg(0), not positive, cap, sign, grouped, sums)
    if z3.is_implies(t):
        t = z3.Or(z3.Not(t.arg(0)), t.arg(1))
    kids = t.children()
    if (z3.is_and(t) and positive) or (z3.is_or(t) and not positive):
        out = [[]]
        for c in kids:
            sub = dnf(c, positive, cap, sign, grouped, sums)
            if sub is None or len(out) * len(sub) > cap:
                return None
            out = [x + y for x in out for y in sub]
        return out
    if (z3.is_or(t) and positive) or (z3.is_and(t) and not positive):
        out = []
        for c in kids:
            sub = dnf(c, positive, cap, sign, grouped, sums)
            if sub is None or len(out) + len(sub) > cap:
                return None
            out += sub
        return out
    cmp = comparison(t)
    if cmp is None:
        return None
    op, lhs, rhs = cmp
    try:
        if op == "==":
            if positive:
                ats = _atoms_of("==", lhs, rhs, every=True, sign=sign)
                return None if ats is None else [ats]
            above, below = _atoms_of(">", lhs, rhs, every=False, sign=sign), _atoms_of("<", lhs, rhs, every=False, sign=sign)
            return None if above is None or below is None else [[x] for x in above + below]
        op = op if positive else _FLIP[op]
        if sums:
            form = _conditional_sum(op, lhs, rhs, cap, sign, grouped)
            if form is not None:
                return form
        some = _atoms_of(op, lhs, rhs, every=False, sign=sign, grouped=grouped)
        if some is not None:
            return [[x] for x in some]
        every = _atoms_of(op, lhs, rhs, every=True, sign=sign)
        return None if every is None else [every]
    except NotPolynomial:
        return None


MAX_EXACT_SUBSETS = 64   # conjunctions the exact reading of a sum of conditional terms may give


def _conditional_terms(t):
    """(c, m) for the summands ``If(c, m, 0)`` of ``t`` that are no maximum with 0, and the others."""
    ifs, others, todo = [], [], [t]
    while todo:
        k = todo.pop()
        if z3.is_add(k):
            todo.extend(k.children())
            continue
        other = k.arg(2) if z3.is_app_of(k, z3.Z3_OP_ITE) else None
        if other is not None and z3.is_rational_value(other) and other.numerator_as_long() == 0 \
                and _maximum_with_zero(k) is None:
            ifs.append((k.arg(0), k.arg(1)))
        else:
            others.append(k)
    return ifs, others


def _heads(f, op):
    """``f op 0`` as the start of a conjunction: [[atom]], or [[]] / [] when f is a number."""
    if f.is_Rational:
        return [[]] if satisfied(f, op) else []
    return [[Atom(f, op)]]


def _conditional_sum(op, lhs, rhs, cap, sign, grouped):
    """``lhs op rhs`` where one side is a sum with conditional terms ``If(c_k, m_k, 0)`` (every m_k ≥ 0
    by ``sign``), as a disjunctive normal form that holds whenever it does; None when it is not of
    this shape. Written as ``Σ_k If(c_k, m_k, 0) + r op 0`` (op ``>`` or ``≥``) the sum is bounded
    from below (:func:`_sum_at_least`); written as ``r - Σ_k If(c_k, m_k, 0) op 0`` it is bounded
    from above (:func:`_sum_at_most`)."""
    if op not in (">", ">="):
        lhs, rhs, op = rhs, lhs, {"<": ">", "<=": ">="}.get(op)
    if op is None:
        return None
    ifs, others = _conditional_terms(lhs)
    upper, others_up = _conditional_terms(rhs)
    if bool(ifs) == bool(upper):
        return None
    try:
        masses = [sp.expand(term(m)) for _, m in ifs or upper]
        if ifs:
            r = sp.expand(sp.Add(*[term(o) for o in others]) - term(rhs))
        else:
            r = sp.expand(term(lhs) - sp.Add(*[term(o) for o in others_up]))
    except NotPolynomial:
        return None
    if sign is None or any(not (m.is_Rational and m >= 0) and sign(m) != 1 for m in masses):
        return None
    if ifs:
        return _sum_at_least(op, r, masses, [c for c, _ in ifs], cap, sign, grouped)
    return _sum_at_most(op, r, masses, [c for c, _ in upper], cap, sign, grouped)


def _sum_at_least(op, r, masses, conds, cap, sign, grouped):
    """``Σ_k If(c_k, m_k, 0) + r op 0``. With B = {k : c_k} the comparison is Σ_{k∈B} m_k + r op 0,
    and since every m_k ≥ 0:

    - exactly, it holds iff for some subset B' ⊆ B, Σ_{k∈B'} m_k + r op 0 (take B' = B; a larger
      sum only helps): one conjunction ∧_{k∈B'} c_k ∧ (Σ_{B'} m_k + r op 0) per subset. Used when
      that gives at most MAX_EXACT_SUBSETS conjunctions.
    - otherwise (pigeonhole): if r op 0 fails then r ≤ 0, B is not empty (the m_k must make up
      the difference), and some k ∈ B has m_k + r/|B| op 0, hence m_k + r/K op 0 (K terms,
      |B| ≤ K, r ≤ 0): the form
      (r op 0) ∨ ∨_k (c_k ∧ m_k + r/K op 0), implied by the comparison but not equivalent to it.
    """
    subs = _condition_forms(conds, True, cap, sign, grouped)
    if subs is None:
        return None
    if _choices(subs) <= MAX_EXACT_SUBSETS:   # a term counts where its condition's form is chosen
        out = _per_choice(op, r, masses, subs, lambda c: 0 if c is None else 1)
        return out if len(out) <= cap else None
    k = len(conds)
    out = _heads(r, op)
    for m, sub in zip(masses, subs):
        head = Atom(sp.expand(m + r / k), op)
        out += [[head] + c for c in sub]
    return out if len(out) <= cap else None


def _sum_at_most(op, r, masses, conds, cap, sign, grouped):
    """``r - Σ_k If(c_k, m_k, 0) op 0``, exactly. With B = {k : c_k} the comparison is
    r - Σ_{k∈B} m_k op 0; since every m_k ≥ 0 it holds iff for some S ⊇ B, r - Σ_{k∈S} m_k op 0
    (take S = B; conversely B ⊆ S makes Σ_B m_k ≤ Σ_S m_k). "S ⊇ B" says ¬c_k for every k ∉ S, so the
    form is one conjunction ∧_{k∉S} ¬c_k ∧ (r - Σ_S m_k op 0) per subset S (the negations in normal
    form); None when that gives more than MAX_EXACT_SUBSETS conjunctions."""
    subs = _condition_forms(conds, False, cap, sign, grouped)
    if subs is None or _choices(subs) > MAX_EXACT_SUBSETS:
        return None
    # a term counts where no form of its negated condition is chosen: k ∈ S, c_k left free
    out = _per_choice(op, r, masses, subs, lambda c: -1 if c is None else 0)
    return out if len(out) <= cap else None


def _condition_forms(conds, positive, cap, sign, grouped):
    """The normal form of each condition (``positive``) or of its negation; None if one has none."""
    subs = [dnf(c, positive, cap, sign, grouped, True) for c in conds]
    return None if any(x is None for x in subs) else subs


def _choices(subs):
    """How many ways to choose, for every k, nothing or one conjunction of ``subs[k]``."""
    total = 1
    for x in subs:
        total *= 1 + len(x)
    return total


def _per_choice(op, r, masses, subs, weight):
    """One conjunction per way to choose, for every k, nothing (None) or one conjunction c of
    ``subs[k]``: ``r + Σ_k weight(choice_k)·m_k op 0`` and the chosen conjunctions."""
    out = []
    for chosen in itertools.product(*[[None] + x for x in subs]):
        f = sp.expand(r + sp.Add(*[weight(c) * m for m, c in zip(masses, chosen)]))
        for head in _heads(f, op):
            out.append(head + [a for c in chosen if c is not None for a in c])
    return out
