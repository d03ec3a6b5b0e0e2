"""A notion evaluated with some numbers left as symbols: the result is a formula, not a truth value.

:class:`FormulaOps` is the third number type behind the ``ops`` interface of :mod:`symbolic.core.ops`.
Numbers are sympy expressions that may contain symbols (for instance the probabilities of a belief
left free while the mechanism's table is fixed). A comparison whose two sides differ by a number
is decided at once, exactly, as :class:`~symbolic.core.ops.ExactOps` decides it; one that still has
symbols becomes an atom :class:`Cmp` ``f op 0``. Connectives fold truth values and otherwise build
:class:`Junction` and :class:`Negation` nodes. A maximum with 0 or an ``If`` over a condition that
still has symbols becomes a fresh symbol, recorded with what it stands for (``maxima``, ``choices``),
so that the reader of the formula can split on it exactly. Nothing is approximated.

>>> import sympy as sp
>>> b = sp.Symbol("b")
>>> ops = FormulaOps()
>>> ops.And([ops.le(0, b), ops.le(b, 1), ops.le(0, 1)])
Junction(kind='and', parts=(Cmp(f=b, op='>='), Cmp(f=1 - b, op='>=')))
>>> ops.Or([ops.lt(2, 1), ops.le(b, 2 * b)]) == Cmp(b, ">=")
True
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.ops import exact_sign


class Unreadable(Exception):
    """A part of the notion the formula cannot state (a square root of a term with symbols)."""


@dataclass(frozen=True)
class Cmp:
    """The atom ``f op 0``: ``op`` one of ``>``, ``>=``, ``==``; ``f`` a sympy expression with symbols."""

    f: sp.Expr
    op: str

    def __str__(self):
        return f"{self.f} {self.op} 0"


def satisfied(value, op) -> bool:
    """Whether the number ``value op 0`` holds (``op`` one of ``>``, ``>=``, ``==``)."""
    return value > 0 if op == ">" else (value >= 0 if op == ">=" else value == 0)


@dataclass(frozen=True)
class Junction:
    """All (``kind`` "and") or some (``kind`` "or") of ``parts`` hold."""

    kind: str
    parts: tuple


@dataclass(frozen=True)
class Negation:
    part: object


def _join(kind, xs):
    unit = kind == "and"          # True is the unit of "and", False the unit of "or"
    parts = []
    for x in xs:
        if isinstance(x, bool):
            if x != unit:
                return x          # False absorbs "and", True absorbs "or"
            continue
        parts.append(x)
    if not parts:
        return unit
    return parts[0] if len(parts) == 1 else Junction(kind, tuple(parts))


def linear_in(f, keys):
    """(coefficients, rest) with the expanded ``f`` = rest + Σ_k c_k·keys[k], where neither rest nor any
    c_k contains a key (f is linear in the keys); None when f is not."""
    f = sp.expand(f)
    coeffs = [f.coeff(k) for k in keys]
    rest = sp.expand(f - sum(c * k for c, k in zip(coeffs, keys)))
    ks = set(keys)
    if rest.free_symbols & ks or any(c.free_symbols & ks for c in coeffs):
        return None
    return coeffs, rest


def subset_sums(rest, parts):
    """rest + Σ_{k ∈ S} parts[k] for every subset S of the parts, in a fixed order (S = ∅ first). A sum
    of a maximum with 0: Σ_k max(0, part_k) = max over S of Σ_{k∈S} part_k. ``rest`` and the parts are
    expanded, so each sum is too (sympy's addition collects like terms)."""
    return [sp.Add(rest, *(p for p, on in zip(parts, chosen) if on))
            for chosen in itertools.product((False, True), repeat=len(parts))]


def _numeric(x) -> bool:
    return isinstance(x, (int, sp.Expr)) and not isinstance(x, bool)


@dataclass
class FormulaOps:
    """Exact where the numbers are numbers, a formula where they have symbols (see the module)."""

    maxima: dict = field(default_factory=dict)    # symbol -> u, standing for max(0, u)
    choices: dict = field(default_factory=dict)   # symbol -> (condition, then, otherwise)
    trace: list = field(default_factory=list)
    exact = False

    def num(self, x):
        return sp.sympify(x)

    def sum(self, xs):
        return sp.Add(*[sp.sympify(x) for x in xs])

    def atom(self, f, op, expanded=False):
        """The atom ``f op 0``, or its truth value when f is a number (``expanded``: f is a sum of
        expanded terms already, so sympy's own addition has expanded it)."""
        f = sp.sympify(f) if expanded else sp.expand(sp.sympify(f))
        if not f.free_symbols:
            return satisfied(exact_sign(f), op)
        return Cmp(f, op)

    def le(self, a, b, why=None):
        return self.atom(sp.sympify(b) - sp.sympify(a), ">=")

    def lt(self, a, b, why=None):
        return self.atom(sp.sympify(b) - sp.sympify(a), ">")

    def eq(self, a, b, why=None):
        return self.atom(sp.sympify(b) - sp.sympify(a), "==")

    def gt(self, a, b, why=None):
        return self.lt(b, a, why)

    def ge(self, a, b, why=None):
        return self.le(b, a, why)

    def And(self, xs):
        return _join("and", xs)

    def Or(self, xs):
        return _join("or", xs)

    def Not(self, x):
        return (not x) if isinstance(x, bool) else (x.part if isinstance(x, Negation) else Negation(x))

    def Implies(self, a, b):
        return self.Or([self.Not(a), b])

    def If(self, c, a, b):
        if isinstance(c, bool):
            return a if c else b
        if not (_numeric(a) and _numeric(b)):
            return self.Or([self.And([c, a]), self.And([self.Not(c), b])])
        s = sp.Dummy(f"if{len(self.choices)}")
        self.choices[s] = (c, sp.sympify(a), sp.sympify(b))
        return s

    def max0(self, x):
        x = sp.sympify(x)
        if not x.free_symbols:
            return x if exact_sign(x) > 0 else sp.Integer(0)
        s = sp.Dummy(f"max{len(self.maxima)}")
        self.maxima[s] = x
        return s

    def sqrt(self, x):
        x = sp.sympify(x)
        if x.free_symbols:
            raise Unreadable(f"the square root of {x}, which still has symbols")
        return sp.sqrt(x)
