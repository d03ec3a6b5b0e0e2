"""Two number types behind one interface: exact sympy values and z3 terms.

Notions, constructions and causal queries are written once against an ``ops`` object,
so the same code gives (a) an exact truth value on concrete tables and (b) a z3
constraint on unknown tables. Arithmetic uses Python's ``+``, ``-``, ``*`` directly
(both number types support them); comparisons and connectives go through ``ops``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .errors import DPCheckError


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


class Z3Ops:
    """z3 terms. Comparisons build z3 Booleans; constants stay Python/sympy until mixed."""

    exact = False

    def __init__(self):
        import z3
        self.z3 = z3
        self._aux = 0
        self.side = []  # side constraints created by sqrt etc.

    def num(self, x):
        return to_z3(x, {}, self)

    def sum(self, xs):
        xs = [x for x in xs if not (isinstance(x, (int, sp.Integer)) and x == 0)]
        if not xs:
            return self.z3.RealVal(0)
        return self.z3.Sum([self._t(x) for x in xs])

    def _t(self, x):
        if isinstance(x, (int, sp.Basic)):
            return to_z3(x, {}, self)
        return x

    @staticmethod
    def _lit(x):
        return x is True or x is False

    def le(self, a, b, why=None):
        return self._t(a) <= self._t(b)

    def lt(self, a, b, why=None):
        return self._t(a) < self._t(b)

    def eq(self, a, b, why=None):
        return self._t(a) == self._t(b)

    def gt(self, a, b, why=None):
        return self._t(a) > self._t(b)

    def ge(self, a, b, why=None):
        return self._t(a) >= self._t(b)

    def And(self, xs):
        xs = list(xs)
        if any(x is False for x in xs):
            return self.z3.BoolVal(False)
        xs = [x for x in xs if x is not True]
        return self.z3.And(xs) if xs else self.z3.BoolVal(True)

    def Or(self, xs):
        xs = list(xs)
        if any(x is True for x in xs):
            return self.z3.BoolVal(True)
        xs = [x for x in xs if x is not False]
        return self.z3.Or(xs) if xs else self.z3.BoolVal(False)

    def Not(self, x):
        if self._lit(x):
            return not x
        return self.z3.Not(x)

    def Implies(self, a, b):
        return self.Or([self.Not(a), b])

    def If(self, c, a, b):
        return self.z3.If(c, self._t(a), self._t(b))

    def max0(self, x):
        x = self._t(x)
        return self.z3.If(x > 0, x, self.z3.RealVal(0))

    def sqrt(self, x):
        self._aux += 1
        s = self.z3.Real(f"sqrt_{self._aux}")
        self.side.append(self.z3.And(s >= 0, s * s == self._t(x)))
        return s


def to_z3(expr, env: dict, ops: "Z3Ops | None" = None):
    """Translate a sympy expression (rationals, symbols in ``env``, + * ^int, sqrt) to z3."""
    import z3
    expr = sp.sympify(expr)
    if expr.is_Rational:
        return z3.RealVal(f"{expr.p}/{expr.q}") if expr.q != 1 else z3.RealVal(int(expr.p))
    if expr.is_Symbol:
        if expr.name not in env:
            raise DPCheckError(f"symbol {expr} has no solver variable")
        return env[expr.name]
    if expr.is_Add:
        return z3.Sum([to_z3(a, env, ops) for a in expr.args])
    if expr.is_Mul:
        out = None
        for a in expr.args:
            t = to_z3(a, env, ops)
            out = t if out is None else out * t
        return out
    if expr.is_Pow:
        base, e = expr.args
        if e.is_Integer:
            b = to_z3(base, env, ops)
            k = int(e)
            if k == 0:
                return z3.RealVal(1)
            out = b
            for _ in range(abs(k) - 1):
                out = out * b
            return out if k > 0 else 1 / out
        if e == sp.Rational(1, 2) and ops is not None:
            return ops.sqrt(to_z3(base, env, ops))
        if e == -sp.Rational(1, 2) and ops is not None:
            return 1 / ops.sqrt(to_z3(base, env, ops))
    raise DPCheckError(f"cannot give {expr} to the solver: only polynomial/rational terms and sqrt")
