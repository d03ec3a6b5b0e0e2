"""The z3 side of the ops interface: notion bodies evaluated on z3 terms, and sympy → z3."""
from __future__ import annotations

import hashlib

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.ops import bounded_terms


class Z3Ops:
    """z3 terms. Comparisons build z3 Booleans; constants stay Python/sympy until mixed."""

    exact = False

    def __init__(self):
        import z3
        self.z3 = z3
        self._aux = 0
        self.side = []  # side constraints created by sqrt etc.
        self.signs = {}  # id of a divisor term -> (its positive form, ±1), set by the encoding
        self._split_memo = {}
        self.constants = {}  # exact constant -> its solver variable (see symbolic.solve.backends.constants)
        self.relaxations = {}  # (exp|log, id of the argument term) -> (its variable, the argument, kept alive)

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
        a, b = self.cleared(a, b)
        return a <= b

    def lt(self, a, b, why=None):
        a, b = self.cleared(a, b)
        return a < b

    def eq(self, a, b, why=None):
        a, b = self.cleared(a, b)
        return a == b

    def gt(self, a, b, why=None):
        a, b = self.cleared(a, b)
        return a > b

    def ge(self, a, b, why=None):
        a, b = self.cleared(a, b)
        return a >= b

    def cleared(self, a, b):
        """The two sides of a comparison with every division by a divisor of known sign (``signs``)
        multiplied out: both sides times the same positive product, so the comparison keeps its
        sense. Divisions by anything else stay as they are (guarded ≠ 0 by the encoding)."""
        a, b = self._t(a), self._t(b)
        if not self.signs:
            return a, b
        (na, da), (nb, db) = self._split(a), self._split(b)
        if not da and not db:
            return a, b
        lcm = _lcm([da, db])
        return self._times(na, lcm, da), self._times(nb, lcm, db)

    def _times(self, num, lcm, dens):
        """num · Π positive(atom)^(lcm - dens) over the atoms of ``lcm``."""
        for k, m in lcm.items():
            for _ in range(m - dens.get(k, 0)):
                num = num * self.signs[k][0]
        return num

    def _atoms(self, d):
        """The divisor atoms whose product is the z3 term ``d`` (None if one has no known sign)."""
        z3 = self.z3
        if d.get_id() in self.signs:
            return [d.get_id()]
        if z3.is_mul(d):
            out = []
            for c in d.children():
                sub = self._atoms(c)
                if sub is None:
                    return None
                out += sub
            return out
        return None

    def _split(self, t):
        """``t`` as (numerator, {atom id: power}) with t = numerator / Π positive(atom)^power; the
        numerator is ``t`` itself when nothing divides."""
        key = t.get_id()
        if key in self._split_memo:
            return self._split_memo[key][1]
        z3 = self.z3
        out = (t, {})
        if z3.is_div(t):
            atoms = self._atoms(t.arg(1))
            if atoms is not None:
                num, dens = self._split(t.arg(0))
                dens = dict(dens)
                for k in atoms:
                    dens[k] = dens.get(k, 0) + 1
                    num = num if self.signs[k][1] > 0 else -num
                out = (num, dens)
        elif z3.is_mul(t) or z3.is_add(t) or z3.is_sub(t) or t.decl().kind() == z3.Z3_OP_UMINUS or z3.is_app_of(t, z3.Z3_OP_ITE):
            kids = [self._split(c) for c in t.children()]
            if any(d for _, d in kids):
                out = self._combine(t, kids)
        self._split_memo[key] = (t, out)  # the term is kept alive so its id is not reused
        return out

    def _combine(self, t, kids):
        z3 = self.z3
        if z3.is_mul(t):
            dens, num = {}, None
            for _, d in kids:
                for k, m in d.items():
                    dens[k] = dens.get(k, 0) + m
            for c, (n, _) in zip(t.children(), kids):
                k = c.get_id()
                if dens.get(k, 0) > 0 and k in self.signs:  # an atom times its own reciprocal
                    dens[k] -= 1
                    n = z3.RealVal(self.signs[k][1])
                num = n if num is None else num * n
            return num, {k: m for k, m in dens.items() if m}
        if z3.is_app_of(t, z3.Z3_OP_ITE):
            lcm = _lcm([d for _, d in kids[1:]])
            return z3.If(t.arg(0), *(self._times(n, lcm, d) for n, d in kids[1:])), lcm
        lcm = _lcm([d for _, d in kids])
        terms = [self._times(n, lcm, d) for n, d in kids]
        if z3.is_add(t):
            return z3.Sum(terms), lcm
        if z3.is_sub(t):
            out = terms[0]
            for x in terms[1:]:
                out = out - x
            return out, lcm
        return -terms[0], lcm

    def And(self, xs):
        xs = bounded_terms(xs, "And")
        if any(x is False for x in xs):
            return self.z3.BoolVal(False)
        xs = [x for x in xs if x is not True]
        return self.z3.And(xs) if xs else self.z3.BoolVal(True)

    def Or(self, xs):
        xs = bounded_terms(xs, "Or")
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
        return self.z3.If(self.gt(x, 0), x, self.z3.RealVal(0))

    def sqrt(self, x):
        self._aux += 1
        s = self.z3.Real(f"sqrt_{self._aux}")
        self.side.append(self.z3.And(s >= 0, s * s == self._t(x)))
        return s

    def constant(self, value):
        """The solver's variable for the exact irrational number ``value`` (log 3, e^(1/5), π): one per
        distinct constant, confined by a side constraint to a certified rational enclosure of it, its sign
        recorded when the enclosure excludes 0 (:mod:`symbolic.solve.backends.constants` says why this is sound)."""
        from symbolic.solve.backends.constants import enclose_constant
        if value in self.constants:
            return self.constants[value]
        box = enclose_constant(value)
        z3 = self.z3
        c = z3.Real(f"const[{value}]")
        lo, hi = (z3.RealVal(f"{x.p}/{x.q}") for x in (box.lower, box.upper))
        self.side.append(z3.And(lo <= c, c <= hi))
        if box.lower > 0 or box.upper < 0:
            self.signs[c.get_id()] = (c, 1) if box.lower > 0 else (-c, -1)
        self.constants[value] = c
        return c

    def relaxed(self, function: str, arg, label: str = ""):
        """The solver's variable for ``function`` (exp or log) of the solver term ``arg``, which may range:
        confined between Taylor bounds of the order in force, true at every value of ``arg``
        (:mod:`symbolic.solve.backends.constants` says why this is sound)."""
        from symbolic.solve.backends.constants import Relaxation, record, relaxation_order
        key = (function, arg.get_id())
        if key in self.relaxations:
            return self.relaxations[key][0]
        z3, k = self.z3, relaxation_order()
        text = arg.sexpr()
        name = f"{function}[{text}]" if len(text) <= 200 else f"{function}[#{hashlib.sha1(text.encode()).hexdigest()}]"
        t = z3.Real(name)
        x, u = (t, arg) if function == "exp" else (arg, t)    # x = e^u
        below, mirror = _taylor(z3, u, k), _taylor(z3, -u, k)
        self.side.append(z3.And(x > 0, x >= below, z3.Implies(mirror > 0, x * mirror <= 1)))
        self.relaxations[key] = (t, arg)
        record((function, label or text), Relaxation(function, label or text, k))
        return t


def _taylor(z3, u, k: int):
    """Σ_{j ≤ k} u^j/j! as a z3 term (Horner form)."""
    out = z3.RealVal(1)
    for j in range(k, 0, -1):
        out = 1 + u * out / j
    return out


def _lcm(dens):
    """The least common multiple of divisor products given as {atom id: power}."""
    out = {}
    for d in dens:
        for k, m in d.items():
            out[k] = max(out.get(k, 0), m)
    return out


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
    value = _numeric_value(expr, env) if ops is not None else None
    if value is not None:
        return _constant(value, ops)
    if ops is not None and isinstance(expr, (sp.exp, sp.log)) and all(s.name in env for s in expr.free_symbols):
        return ops.relaxed(type(expr).__name__, to_z3(expr.args[0], env, ops), str(expr.args[0]))
    funcs = sorted({type(f).__name__ for f in expr.atoms(sp.Function)})
    if funcs or expr.is_number:
        from symbolic.core.errors import Transcendental
        ranging = sorted(s.name for s in expr.free_symbols if s.name in env)
        if ranging:
            raise Transcendental(f"{expr} needs {', '.join(funcs) or 'an irrational power'} of "
                                 f"{', '.join(ranging)}, which is not a number here: the solver's polynomial "
                                 f"arithmetic cannot state it over a range; give {', '.join(ranging)} a numeric "
                                 f"value to decide it by certified intervals")
        raise Transcendental(f"{expr} needs {', '.join(funcs) or 'an irrational constant'}, which the solver's "
                             f"polynomial arithmetic cannot state; give numeric parameter values to decide it by "
                             f"certified intervals")
    raise DPCheckError(f"cannot give {expr} to the solver: only polynomial/rational terms and sqrt")


def _numeric_value(expr, env):
    """The number a node polynomial arithmetic cannot write (exp, log, π, a root) is once every parameter in it
    is a number (a z3 numeral in ``env``); None while one is a solver variable."""
    from symbolic.solve.backends.constants import numeric_value
    value = numeric_value(expr, env)
    return value if value is not None and value.is_number else None


def _constant(value, ops):
    """The exact number ``value`` as a solver term: exact when sympy finds it rational or algebraic
    (log(1) = 0, e^(log(2)/2) = √2), else the enclosed variable of :meth:`Z3Ops.constant`."""
    from symbolic.solve.backends.constants import is_transcendental_atom
    if value.is_Rational or value.is_Add or value.is_Mul or (value.is_Pow and not is_transcendental_atom(value)):
        return to_z3(value, {}, ops)
    return ops.constant(value)   # enclose_constant refuses what is not a finite real number
