"""The z3 side of the ops interface: notion bodies evaluated on z3 terms, and sympy → z3."""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError


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
