"""Two number types behind one interface: exact sympy values and z3 terms.

Notions, constructions and causal queries are written once against an ``ops`` object,
so the same code gives (a) an exact truth value on concrete tables and (b) a z3
constraint on unknown tables. Arithmetic uses Python's ``+``, ``-``, ``*`` directly
(both number types support them); comparisons and connectives go through ``ops``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.errors import DPCheckError


class UndecidedComparison(DPCheckError):
    """An exact comparison whose sign sympy cannot settle (symbolic leftovers)."""


def exact_sign(x) -> int:
    """Sign of an exact real number (rational or algebraic), decided exactly."""
    x = sp.sympify(x)
    if x.is_Rational:
        return int(x.p > 0) - int(x.p < 0)
    if x.free_symbols:
        raise UndecidedComparison(f"cannot decide the sign of {x}: it still has symbols")
    if x.has(sp.zoo, sp.oo, -sp.oo, sp.nan) or x.is_real is False:
        raise UndecidedComparison(f"{x} is not a finite real number (an expression divides by zero here?)")
    for cand in (x, sp.nsimplify(x), sp.simplify(x)):
        if cand.is_zero:
            return 0
        if cand.is_positive:
            return 1
        if cand.is_negative:
            return -1
    v = sp.N(x, 60)
    if abs(v) > sp.Float("1e-45"):
        return 1 if v > 0 else -1
    if sp.minimal_polynomial(x, sp.Symbol("_t")).subs(sp.Symbol("_t"), 0) == 0:
        return 0
    raise UndecidedComparison(f"cannot decide the sign of {x}")


@dataclass
class ExactOps:
    """Exact evaluation in sympy. Comparisons return Python bools.

    ``trace`` records the reasons of failed comparisons (most recent last), which is how a
    counterexample says which instance of a notion it violates.
    """

    trace: list = field(default_factory=list)
    exact = True

    def num(self, x):
        return sp.sympify(x)

    def sum(self, xs):
        return sp.Add(*list(xs))

    def _cmp(self, a, b, ok, why):
        res = ok(exact_sign(sp.sympify(b) - sp.sympify(a)))
        if not res and why is not None:
            self.trace.append(why() if callable(why) else why)
        return res

    def le(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s >= 0, why)

    def lt(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s > 0, why)

    def eq(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s == 0, why)

    def gt(self, a, b, why=None):
        return self.lt(b, a, why)

    def ge(self, a, b, why=None):
        return self.le(b, a, why)

    def And(self, xs):
        return all(xs)

    def Or(self, xs):
        return any(xs)

    def Not(self, x):
        return not x

    def Implies(self, a, b):
        return (not a) or b

    def If(self, c, a, b):
        return a if c else b

    def max0(self, x):
        return x if exact_sign(x) > 0 else sp.Integer(0)

    def sqrt(self, x):
        return sp.sqrt(x)
