"""Two number types behind one interface: exact sympy values and z3 terms.

Notions, constructions and causal queries are written once against an ``ops`` object,
so the same code gives (a) an exact truth value on concrete tables and (b) a z3
constraint on unknown tables. Arithmetic uses Python's ``+``, ``-``, ``*`` directly
(both number types support them); comparisons and connectives go through ``ops``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice

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


MAX_TERMS = 10 ** 7   # terms of one ops.And / ops.Or: the largest tables searched have 8192 cells, and one call of
                      # the solver's library over a longer list is a long step no limit of the caller can stop


class TooManyTerms(DPCheckError):
    """An ``ops.And`` or ``ops.Or`` over more than :data:`MAX_TERMS` terms, refused before it is built."""


def bounded_terms(xs, what: str) -> list:
    """The terms of ``xs`` as a list, at most :data:`MAX_TERMS` of them (never more are read), else
    :class:`TooManyTerms`.

    >>> import itertools
    >>> bounded_terms(itertools.repeat(True), "And")
    Traceback (most recent call last):
    ...
    symbolic.core.ops.TooManyTerms: ops.And over more than 10,000,000 terms; refused
    """
    if not (isinstance(xs, (list, tuple)) and len(xs) <= MAX_TERMS):
        xs = list(islice(xs, MAX_TERMS + 1))
    if len(xs) > MAX_TERMS:
        raise TooManyTerms(f"ops.{what} over more than {MAX_TERMS:,} terms; refused")
    return list(xs)


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
    if x.has(sp.tanh, sp.sinh, sp.cosh, sp.coth) and sp.simplify(x.rewrite(sp.exp)) == 0:
        return True   # simplify alone does not see tanh(a/2) = (e^a − 1)/(e^a + 1)
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


class Truth:
    """The truth value of an exact comparison or connective, with why it has that value.

    It behaves as a bool (``if``, ``not``, ``all``, ``==``, its repr) and keeps ``why``: a function that
    says which comparison made it true or false (None when no single one does, as for an ``And`` that
    holds). So the reason of a failed notion names the comparison whose failure made the whole body
    false, never the condition of an ``If`` or one alternative of an ``Or`` that holds.

    >>> ops = ExactOps()
    >>> t = ops.And([ops.le(1, 2), ops.le(3, ops.If(ops.lt(5, 1), 5, 2))])
    >>> t, t.why()
    (False, '3 ≤ 2 is false')
    """

    __slots__ = ("value", "why")

    def __init__(self, value: bool, why=None):
        self.value, self.why = bool(value), why

    def __bool__(self):
        return self.value

    def __eq__(self, other):
        return self.value == (bool(other) if isinstance(other, Truth) else other)

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return repr(self.value)

    def __reduce__(self):   # pickled (to a worker process, say) as the plain bool
        return bool, (self.value,)


def _why_of(x):
    return getattr(x, "why", None) if isinstance(x, Truth) else None


@dataclass
class ExactOps:
    """Exact evaluation in sympy. Comparisons and connectives return :class:`Truth` values (bools
    that remember which comparison decided them).

    ``trace`` records the reasons of failed comparisons (most recent last), which is how a
    counterexample says which instance of a notion it violates. ``undefined``: reasons in ``trace``
    that rest on a conditional probability that is not defined (a zero normaliser, which the notion
    settles by a convention); a witness shown to a user is chosen, where possible, so that its
    reason is not among them.
    """

    trace: list = field(default_factory=list)
    plain: list = field(default_factory=list)   # failed comparisons that came without a reason, as text
    undefined: list = field(default_factory=list)
    last: object = field(default=None, repr=False)   # the most recent comparison or connective's value
    exact = True

    def reason(self):
        """Why the evaluation failed: the first recorded reason that rests on defined conditionals only
        (else the first recorded reason); else, for a notion written without ``why=``, the comparison whose
        failure made the last (outermost) connective false, said as such; else the first failed
        comparison; else None."""
        if self.trace:
            return next((r for r in self.trace if r not in self.undefined), self.trace[0])
        why = _why_of(self.last) if self.last is not None and not self.last else None
        if why is not None:
            return f"the comparison that fails (the notion gives no reason): {why()}"
        return f"first failed comparison (the notion gives no reason): {self.plain[0]}" if self.plain else None

    def defined_reason(self) -> bool:
        """Does the reason of the failure rest only on defined conditionals (see ``undefined``)?"""
        r = self.reason()
        return r is None or r not in self.undefined

    def _out(self, value, why=None):
        self.last = Truth(value, why)
        return self.last

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
        return self._out(res, lambda: f"{_text(a)} {op} {_text(b)} is {'true' if res else 'false'}")

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
        for x in xs:
            if not x:
                return self._out(False, _why_of(x))
        return self._out(True)

    def Or(self, xs):
        falses = []
        for x in xs:
            if x:
                return self._out(True, _why_of(x))
            falses.append(_why_of(x))
        whys = [w for w in falses if w is not None]
        return self._out(False, (lambda: " and ".join(w() for w in whys)) if whys else None)

    def Not(self, x):
        return self._out(not x, _why_of(x))

    def Implies(self, a, b):
        return self._out(True, _why_of(a)) if not a else self._out(bool(b), _why_of(b))

    def If(self, c, a, b):
        return a if c else b

    def max0(self, x):
        return x if exact_sign(x) > 0 else sp.Integer(0)

    def sqrt(self, x):
        return sp.sqrt(x)
