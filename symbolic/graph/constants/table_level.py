"""The exact level of any notion on a numeric table: the least value of one parameter at which it holds.

For a notion B that gets weaker as its parameter b grows and a table T with rational entries, level_B(T) =
min { b in B's range : B(b) holds on T }. This works for any notion written over ``ops``, the user's own
included, with no formula known in advance:

1. The body is read as a margin (:class:`~symbolic.graph.constants.fit.MarginOps`) with b a symbol: every
   comparison becomes a polynomial in b (after clearing denominators) with rational coefficients.
2. Between two consecutive real roots of those polynomials no comparison changes its truth value, so neither
   does B. The roots are isolated exactly (rational intervals, refined until no two overlap), and B is
   evaluated exactly at each root and at a rational point of each gap between them, from the bottom of B's
   range up.
3. The level is the first root (or range end) where B holds, provided B fails on the gap below it; when B
   first holds inside a gap, not at its lower root, the level is that root as an infimum, not attained (a
   strict inequality); when B fails beyond the largest root, it fails at every b: no level.

Every statement rests on exact evaluation of the notion (:func:`~symbolic.graph.sampling.holds_exactly`); an
evaluation that cannot be decided exactly (an irrational root where a certified comparison stays undecided)
makes the answer unknown, never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import expr_text
from symbolic.core.tables import MechTable
from symbolic.graph.constants.attain import level_polynomials
from symbolic.graph.sampling import holds_exactly
from symbolic.notions.listed.readings import reading

MAX_ROOTS = 400      # more distinct roots than this: the level is reported unknown (say so, do not scan forever)


@dataclass(frozen=True)
class TableLevel:
    """The level of ``notion`` on one table: ``value`` (``oo`` when B holds at no value; None when unknown),
    ``attained`` (False: an infimum that B does not reach), ``checks`` (text, ok) and ``reason``.

    >>> from symbolic.notions.families.dp import PureDP
    >>> from symbolic.core.tables import MechTable
    >>> half = sp.Rational(1, 4)
    >>> t = MechTable(1, (0, 1), (0, 1), {(0,): (3 * half, half), (1,): (half, 3 * half)})
    >>> r = table_level(PureDP, t)
    >>> r.value, r.attained, r.ok
    (3, True, True)
    """

    notion: str
    parameter: str
    fixed: dict
    value: sp.Expr | None
    attained: bool = True
    checks: tuple = ()
    reason: str | None = None
    read_as: str | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None and all(ok for _, ok in self.checks)

    def text(self) -> str:
        fixed = "".join(f", {k} = {expr_text(v)}" for k, v in self.fixed.items())
        if self.value is None:
            head = f"{self.notion}: level of {self.parameter} unknown{fixed} ({self.reason})"
        elif self.value == sp.oo:
            head = f"{self.notion}: holds at no {self.parameter}{fixed}"
        else:
            word = "" if self.attained else " (an infimum: the notion holds above it, not at it)"
            head = f"{self.notion}: least {self.parameter} = {expr_text(self.value)}{fixed}{word}"
        read = [f"read as: {self.read_as}"] if self.read_as else []
        return "\n".join([head] + read + [f"check: {t}: {'ok' if ok else 'FAILED'}" for t, ok in self.checks])

    def to_json(self) -> dict:
        return {"notion": self.notion, "parameter": self.parameter,
                "fixed": {k: expr_text(v) for k, v in self.fixed.items()},
                "formula": None if self.value is None else expr_text(self.value),
                "latex": None if self.value is None else sp.latex(self.value), "attained": self.attained,
                "checks": [{"check": t, "ok": bool(ok)} for t, ok in self.checks], "reason": self.reason,
                "read_as": self.read_as, "ok": self.ok}


def _target(notion, target, fixed):
    names = [p.name for p in notion.params]
    if not names:
        raise InvalidParameter(f"{notion.name} has no parameter: it holds or not (`dpcheck eval`), it has no level")
    for k in fixed:
        if k not in names:
            raise InvalidParameter(f"{notion.name} has no parameter {k!r}; its parameters: {', '.join(names)}")
    free = [k for k in names if k not in fixed] if target is None else [target]
    if len(free) != 1 or free[0] not in names:
        raise InvalidParameter(f"{notion.name} has parameters {', '.join(names)}: give every one but the level's "
                               f"with --param (e.g. --param {names[-1]}=1/2)")
    return free[0], next(p for p in notion.params if p.name == free[0])


def _roots(polys, lo):
    """The distinct real roots above ``lo`` of the polynomials, in increasing order; None when there are too many."""
    roots = set()
    for p in polys:
        for r in p.real_roots():
            if lo is None or bool(r > lo):
                roots.add(r)
    if len(roots) > MAX_ROOTS:
        return None
    return sorted(roots, key=lambda r: sp.N(r, 30))


def _between(x, y):
    """A rational strictly between the real algebraic numbers x < y (``x`` None: below ``y``), checked by exact
    comparison; None when the comparison is not decided."""
    if x is None:
        return sp.floor(y) - 1
    if x.is_Rational and y.is_Rational:
        return (x + y) / 2
    for digits in (15, 30, 60, 120):
        q = sp.Rational(str(sp.N((x + y) / 2, digits)))
        try:
            if bool(x < q) and bool(q < y):
                return q
        except TypeError:   # a comparison sympy leaves undecided
            return None
    return None


def table_level(notion, table: MechTable, *, target: str | None = None, fixed: dict | None = None) -> TableLevel:
    """The exact least value of ``target`` (the one parameter of ``notion`` not in ``fixed``) at which ``notion``
    holds on the numeric ``table`` (see the module text).

    Total variation of binary randomized response with P(o = x) = 3/4:

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> q = sp.Rational(1, 4)
    >>> t = MechTable(1, (0, 1), (0, 1), {(0,): (3 * q, q), (1,): (q, 3 * q)})
    >>> table_level(find_notion("tv-privacy").notion, t).value
    1/2
    """
    fixed = {k: sp.sympify(v) for k, v in (fixed or {}).items()}
    name, spec = _target(notion, target, fixed)
    read = reading(notion, table.n, len(table.domain))   # relative to priors: for every prior
    base = dict(notion=notion.name, parameter=name, fixed=fixed, read_as=read.text)
    notion = read.notion
    lo = sp.sympify(spec.lower) if spec.lower is not None else None
    hi = sp.sympify(spec.upper) if spec.upper is not None else None

    def holds(v):
        return holds_exactly(notion, table, None, {**fixed, name: v})
    if lo is not None and not spec.lower_strict and holds(lo) is True:
        return TableLevel(value=lo, checks=((f"{notion.name} holds at {name} = {expr_text(lo)}, the least value of "
                                             f"its range", True),), **base)
    polys, why = level_polynomials(notion, table, name, fixed)
    if polys is None:
        return TableLevel(value=None, reason=why, **base)
    roots = _roots(polys, lo)
    if roots is None:
        return TableLevel(value=None, reason=f"more than {MAX_ROOTS} candidate values to test", **base)
    roots = [r for r in roots if hi is None or bool(r <= hi)]
    below = lo   # the last candidate at which B failed (None: B's range has no lower end)

    def undecided(v):
        return TableLevel(value=None, reason=f"{notion.name} at {name} = {expr_text(v)} is not decided exactly", **base)
    for r in roots:
        gap = _between(below, r)
        if gap is None:
            return TableLevel(value=None, reason=f"no rational point found between {expr_text(below)} and "
                                                 f"{expr_text(r)}", **base)
        got = holds(gap)
        if got is None:
            return undecided(gap)
        if got:
            if below is None:
                return TableLevel(value=None, reason=f"{notion.name} holds at every small {name}", **base)
            return _infimum(notion, name, below, gap, base)
        got = holds(r)
        if got is None:
            return undecided(r)
        if got:
            return _attained(notion, name, r, gap, base)
        below = r
    if below is None:
        return TableLevel(value=None, reason=f"{notion.name}'s conditions do not depend on {name}", **base)
    after = below + 1 if hi is None else _between(below, hi) if bool(below < hi) else None
    got = holds(after) if after is not None else False
    if got is None:
        return undecided(after)
    if got:
        return _infimum(notion, name, below, after, base)
    if hi is not None and not spec.upper_strict and bool(below < hi):
        got = holds(hi)
        if got is None:
            return undecided(hi)
        if got:
            return _attained(notion, name, hi, after, base, " (the end of its range)")
    where = f"every {name} above {expr_text(below)}" if hi is None else f"the rest of its range up to {expr_text(hi)}"
    return TableLevel(value=sp.oo, checks=((f"{notion.name} fails at every root where a condition changes and on "
                                            f"{where} (tested at {expr_text(hi if after is None else after)})",
                                            True),), **base)


def _attained(notion, name, value, gap, base, where=""):
    return TableLevel(value=value, checks=(
        (f"{notion.name} holds exactly at {name} = {expr_text(value)}{where}", True),
        (f"{notion.name} fails at {name} = {expr_text(gap)}, and no condition changes between there and "
         f"{expr_text(value)}", True)), **base)


def _infimum(notion, name, below, gap, base):
    return TableLevel(value=below, attained=False, checks=(
        (f"{notion.name} fails exactly at {name} = {expr_text(below)} and holds at {expr_text(gap)}, with no "
         f"condition changing in between", True),), **base)


__all__ = ["TableLevel", "table_level"]
