"""Two number types behind one interface: exact sympy values and z3 terms.

Notions, constructions and causal queries are written once against an ``ops`` object,
so the same code gives (a) an exact truth value on concrete tables and (b) a z3
constraint on unknown tables. Arithmetic uses Python's ``+``, ``-``, ``*`` directly
(both number types support them); comparisons and connectives go through ``ops``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp
from sympy.polys.polyerrors import NotAlgebraic

from symbolic.core.certified import MAX_BITS, CertifiedUnavailable, NotEnclosable, certified_sign
from symbolic.core.errors import DPCheckError


class UndecidedComparison(DPCheckError):
    """An exact comparison whose sign sympy cannot settle (symbolic leftovers).

    >>> import sympy as sp
    >>> ExactOps().le(sp.Symbol("x"), 1)
    Traceback (most recent call last):
    ...
    symbolic.core.ops.UndecidedComparison: cannot decide the sign of 1 - x: it still has symbols
    """


def exact_sign(x) -> int:
    """Sign of an exact real number (rational, algebraic or transcendental), decided rigorously.

    Rationals are read exactly. Other numbers are enclosed in certified intervals
    (:mod:`symbolic.core.certified`) at increasing precision until the interval excludes 0; when it
    never does (a zero in disguise such as log 6 − log 2 − log 3), 0 is returned only if sympy
    proves the number is zero (``simplify`` to 0, or minimal polynomial t for an algebraic number),
    else :class:`UndecidedComparison`. No verdict rests on a float."""
    x = sp.sympify(x)
    if x.is_Rational:
        return int(x.p > 0) - int(x.p < 0)
    if x.free_symbols:
        raise UndecidedComparison(f"cannot decide the sign of {x}: it still has symbols")
    if x.has(sp.zoo, sp.oo, -sp.oo, sp.nan) or x.is_real is False:
        raise UndecidedComparison(f"{x} is not a finite real number (an expression divides by zero here?)")
    try:
        s = certified_sign(x)
    except (CertifiedUnavailable, NotEnclosable) as e:
        raise UndecidedComparison(f"cannot decide the sign of {x}: {e}") from None
    if s is not None:
        return s
    if _provably_zero(x):
        return 0
    raise UndecidedComparison(f"cannot decide the sign of {x}: it is 0 to {MAX_BITS} bits but not provably 0")


def _provably_zero(x) -> bool:
    """Is ``x`` exactly 0 by a symbolic argument (never by a numeric tolerance)?"""
    if sp.simplify(x) == 0:
        return True
    if x.is_algebraic and not x.has(sp.Function):
        t = sp.Symbol("_t")
        try:
            return sp.minimal_polynomial(x, t) == t
        except (NotAlgebraic, NotImplementedError, ValueError):
            return False
    return False


def _text(x) -> str:
    from symbolic.core.exact import expr_text
    return expr_text(sp.sympify(x))


@dataclass
class ExactOps:
    """Exact evaluation in sympy. Comparisons return Python bools.

    ``trace`` records the reasons of failed comparisons (most recent last), which is how a
    counterexample says which instance of a notion it violates.
    """

    trace: list = field(default_factory=list)
    plain: list = field(default_factory=list)   # failed comparisons that came without a reason, as text
    exact = True

    def reason(self):
        """Why the evaluation failed: the first recorded reason; else the first failed comparison that
        had none (a user's notion written without ``why=``), said as such; else None."""
        if self.trace:
            return self.trace[0]
        return f"first failed comparison (the notion gives no reason): {self.plain[0]}" if self.plain else None

    def num(self, x):
        return sp.sympify(x)

    def sum(self, xs):
        return sp.Add(*list(xs))

    def _cmp(self, a, b, ok, why, op):
        res = ok(exact_sign(sp.sympify(b) - sp.sympify(a)))
        if not res and why is not None:
            self.trace.append(why() if callable(why) else why)
        elif not res and len(self.plain) < 1:
            self.plain.append(f"{_text(a)} {op} {_text(b)} is false")
        return res

    def le(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s >= 0, why, "≤")

    def lt(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s > 0, why, "<")

    def eq(self, a, b, why=None):
        return self._cmp(a, b, lambda s: s == 0, why, "=")

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
