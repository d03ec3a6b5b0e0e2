"""Hockey-stick sums in solver comparisons, rewritten into exactly equivalent piecewise-linear forms.

Notion bodies write Σ_o max(0, x_o) (``ops.max0``, a z3 term ``If(x > 0, x, 0)``) once; a
comparison ``Σ_i max0(x_i) + r ≤ b`` (or ``<``) over such a sum is one monolithic max for the
solver. Two exact rewrites of that comparison, chosen by where it stands in the query:

* **events** (anywhere): Σ_i max(0, x_i) = max over S ⊆ {1..k} of Σ_{i∈S} x_i (the maximum is
  attained at S = {i : x_i > 0}), so the comparison holds iff ``Σ_{i∈S} x_i + r ≤ b`` for every
  S: a conjunction of 2^k comparisons, no case split left. Under a negation (the negated
  conclusion) it becomes a disjunction of 2^k small cases, one per event, which the search
  splits into separate queries. Used when 2^k ≤ ``EVENT_LIMIT``.
* **bounds** (only at positive occurrences, i.e. under an even number of negations, as every
  hypothesis conjunct): the comparison holds iff there are m_i with m_i ≥ 0, m_i ≥ x_i and
  Σ m_i + r ≤ b (⇒: m_i = max(0, x_i); ⇐: Σ max(0, x_i) ≤ Σ m_i). The m_i are fresh unknowns of
  the satisfiability query, existential at top level because the occurrence is positive, so the
  query is equisatisfiable and every model restricted to the original unknowns is a model of the
  original query. Used for larger k.

Both hold for whatever terms x_i, r, b are (further max0 terms inside them keep their meaning),
so the rewrite needs no side conditions. Occurrences under anything but And, Or, Not, Implies
(a Boolean ``If``, an equality of Booleans) are rewritten only by the polarity-free event form.
Counterexamples are still re-verified exactly on the notion bodies (``verify.py``), not on these
terms.
"""
from __future__ import annotations

import itertools

import z3

EVENT_LIMIT = 16
AUX_PREFIX = "hockey!m"


def max0_arg(t):
    """x if ``t`` is the term If(x > 0, x, 0) (that is, max(0, x)), else None."""
    if not z3.is_app_of(t, z3.Z3_OP_ITE):
        return None
    c, a, e = t.children()
    if not _is_zero(e):
        return None
    if z3.is_app_of(c, z3.Z3_OP_GT) and c.arg(0).eq(a) and _is_zero(c.arg(1)):  # x > 0
        return a
    if z3.is_app_of(c, z3.Z3_OP_LT) and c.arg(1).eq(a) and _is_zero(c.arg(0)):  # 0 < x, as z3 builds x > 0
        return a
    return None


def _is_zero(t):
    return z3.is_rational_value(t) and t.numerator_as_long() == 0


def _summands(t):
    return list(t.children()) if z3.is_add(t) else [t]


def _split_side(t):
    """(arguments x_i of the max0 summands, the other summands) of a sum term."""
    xs, rest = [], []
    for s in _summands(t):
        x = max0_arg(s)
        (xs if x is not None else rest).append(x if x is not None else s)
    return xs, rest


class HockeyRewriter:
    """Rewrites the hockey-stick comparisons of formulas; one instance per encoding (fresh names)."""

    def __init__(self, event_limit=EVENT_LIMIT):
        self.event_limit = event_limit
        self.fresh = 0
        self.memo = {}

    def formula(self, t, polarity=1):
        """``t`` with its hockey-stick comparisons rewritten; polarity +1 positive, -1 negative,
        0 both/unknown. Python bools pass through."""
        if isinstance(t, bool):
            return t
        key = (t.get_id(), polarity)
        if key in self.memo:
            return self.memo[key][1]
        out = self._formula(t, polarity)
        self.memo[key] = (t, out)  # keep t alive so its id is not reused
        return out

    def _formula(self, t, pol):
        if z3.is_and(t):
            return z3.And([self.formula(c, pol) for c in t.children()])
        if z3.is_or(t):
            return z3.Or([self.formula(c, pol) for c in t.children()])
        if z3.is_not(t):
            return z3.Not(self.formula(t.arg(0), -pol))
        if z3.is_implies(t):
            return z3.Implies(self.formula(t.arg(0), -pol), self.formula(t.arg(1), pol))
        for op, small, big, strict in ((z3.Z3_OP_LE, 0, 1, False), (z3.Z3_OP_LT, 0, 1, True),
                                       (z3.Z3_OP_GE, 1, 0, False), (z3.Z3_OP_GT, 1, 0, True)):
            if z3.is_app_of(t, op):
                return self._compare(t, t.arg(small), t.arg(big), strict, pol)
        return t

    def _compare(self, t, small, big, strict, pol):
        xs, rest = _split_side(small)
        if not xs:
            return t

        def cmp(lhs_terms):
            lhs = z3.Sum(lhs_terms) if lhs_terms else z3.RealVal(0)
            return lhs < big if strict else lhs <= big

        if 2 ** len(xs) <= self.event_limit:
            return z3.And([cmp([x for x, keep in zip(xs, pick) if keep] + rest)
                           for pick in itertools.product((False, True), repeat=len(xs))])
        if pol != 1:
            return t
        ms = []
        for _ in xs:
            self.fresh += 1
            ms.append(z3.Real(f"{AUX_PREFIX}{self.fresh}"))
        return z3.And([m >= 0 for m in ms] + [m >= x for m, x in zip(ms, xs)] + [cmp(ms + rest)])
