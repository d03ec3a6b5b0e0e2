"""Exact finite distributions and kernels with sympy entries.

Validation at construction follows a three-valued rule (as sympy.stats does): a condition
that is *definitely false* raises; one that cannot be decided because it involves symbolic
parameters passes. Floats are rejected.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Mapping

import sympy as sp

from symbolic.core.errors import InvalidDistribution
from symbolic.core.exact import exact


def _definitely_negative(x: sp.Expr) -> bool:
    if x.is_number:
        return bool(x < 0)
    return x.is_negative is True


def _definitely_nonzero(x: sp.Expr) -> bool:
    x = sp.simplify(x)
    if x.is_number:
        return x != 0
    return x.is_zero is False


def _rational_row(entries):
    """The row as sympy Rationals when every entry is already one (the common case: no parsing,
    no simplification needed); else None."""
    if all(isinstance(p, sp.Rational) for p in entries):
        return tuple(entries)
    return None


def check_row(probs, *, what: str):
    """Validate one row of probabilities; return the exact entries."""
    fast = _rational_row(probs)
    if fast is None:
        entries = tuple(exact(p, what=f"{what}[{j}]") for j, p in enumerate(probs))
        fast = _rational_row(entries)
    if fast is not None:
        for j, p in enumerate(fast):
            if p.p < 0:
                raise InvalidDistribution(f"{what}[{j}] = {p} is negative; probabilities must be >= 0")
        total = sum((Fraction(int(p.p), int(p.q)) for p in fast), Fraction(0))
        if total != 1:
            raise InvalidDistribution(
                f"{what} sums to {sp.Rational(total.numerator, total.denominator)}, not 1; "
                f"entries {', '.join(map(str, fast))}")
        return fast
    for j, p in enumerate(entries):
        if _definitely_negative(p):
            raise InvalidDistribution(
                f"{what}[{j}] = {p} is negative; probabilities must be >= 0")
    total = sp.Add(*entries)
    if _definitely_nonzero(total - 1):
        raise InvalidDistribution(
            f"{what} sums to {sp.simplify(total)}, not 1; entries {', '.join(map(str, entries))}")
    return entries


@dataclass(frozen=True)
class Dist:
    """A distribution on a finite, ordered set of outcomes.

    >>> Dist.uniform((0, 1))
    Dist({0: 1/2, 1: 1/2})
    """

    outcomes: tuple
    probs: tuple

    def __init__(self, mapping: Mapping[Hashable, Any] | None = None, *, outcomes=None, probs=None,
                 what: str = "distribution"):
        if mapping is not None:
            outcomes, probs = tuple(mapping.keys()), tuple(mapping.values())
        outcomes, probs = tuple(outcomes), tuple(probs)
        if len(outcomes) != len(probs):
            raise InvalidDistribution(f"{what}: {len(outcomes)} outcomes but {len(probs)} probabilities")
        if len(set(outcomes)) != len(outcomes):
            raise InvalidDistribution(f"{what}: repeated outcomes {outcomes}")
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "probs", check_row(probs, what=what))

    @classmethod
    def point(cls, outcomes, at) -> "Dist":
        return cls(outcomes=outcomes, probs=[1 if o == at else 0 for o in outcomes])

    @classmethod
    def uniform(cls, outcomes) -> "Dist":
        outcomes = tuple(outcomes)
        return cls(outcomes=outcomes, probs=[sp.Rational(1, len(outcomes))] * len(outcomes))

    def __getitem__(self, o):
        try:
            return self.probs[self.outcomes.index(o)]
        except ValueError:
            return sp.Integer(0)

    def items(self):
        return zip(self.outcomes, self.probs)

    def support(self):
        return tuple(o for o, p in self.items() if p != 0)

    def subs(self, values) -> "Dist":
        return Dist(outcomes=self.outcomes, probs=[sp.sympify(p.subs(values)) if p.free_symbols else p
                                                   for p in self.probs])

    def __repr__(self):
        inner = ", ".join(f"{o!r}: {p}" for o, p in self.items())
        return f"Dist({{{inner}}})"


@dataclass(frozen=True)
class Kernel:
    """A conditional distribution (Markov kernel): each input maps to a :class:`Dist`.

    >>> Kernel({0: {"a": 1}, 1: {"a": "1/2", "b": "1/2"}}).outputs
    ('a', 'b')
    """

    rows: tuple  # ((input, Dist), ...)
    outputs: tuple

    def __init__(self, rows: Mapping[Hashable, Any], *, outputs=None, what: str = "kernel"):
        items = []
        seen = []
        for x, row in rows.items():
            d = row if isinstance(row, Dist) else Dist(row, what=f"{what} row {x!r}")
            items.append((x, d))
            for o in d.outcomes:
                if o not in seen:
                    seen.append(o)
        outs = tuple(outputs) if outputs is not None else tuple(seen)
        missing = [o for o in seen if o not in outs]
        if missing:
            raise InvalidDistribution(f"{what}: outputs {missing} not in declared outputs {outs}")
        items = [(x, Dist(outcomes=outs, probs=[d[o] for o in outs], what=f"{what} row {x!r}"))
                 for x, d in items]
        object.__setattr__(self, "rows", tuple(items))
        object.__setattr__(self, "outputs", outs)

    @property
    def inputs(self):
        return tuple(x for x, _ in self.rows)

    def __getitem__(self, x) -> Dist:
        for k, d in self.rows:
            if k == x:
                return d
        raise KeyError(x)

    def prob(self, x, o):
        return self[x][o]

    def __repr__(self):
        inner = ", ".join(f"{x!r}: {dict(zip(d.outcomes, d.probs))}" for x, d in self.rows)
        return f"Kernel({{{inner}}})"


def violated_event(outputs, p, q, E, delta=0, *, names=("p(S)", "q(S)")) -> str:
    """The event that breaks p(S) ≤ E·q(S) + δ the most, S = {o : p(o) > E·q(o)}, with both sides in
    exact numbers: what a counterexample of an (ε, δ) notion shows. ``p``, ``q``: the two rows' entries
    aligned with ``outputs``; ``names``: how the two sides are written.

    >>> violated_event((0, 1, 2), ("1/2", "1/4", "1/4"), ("1/8", "1/8", "3/4"), 2, sp.Rational(1, 10))
    'the event S={0} has p(S)=1/2 > E·q(S)+δ=2·1/8+1/10=7/20'
    """
    from symbolic.core.math_text import math_text
    from symbolic.core.ops import exact_sign
    p, q = [sp.sympify(x) for x in p], [sp.sympify(x) for x in q]
    E, delta = sp.sympify(E), sp.sympify(delta)
    event = [i for i in range(len(p)) if exact_sign(p[i] - E * q[i]) > 0]
    ps, qs = sp.Add(*(p[i] for i in event)), sp.Add(*(q[i] for i in event))
    a, b = names
    m = math_text
    slack = f"+δ={m(E)}·{m(qs)}+{m(delta)}" if delta != 0 else f"={m(E)}·{m(qs)}"
    return (f"the event S={{{', '.join(str(outputs[i]) for i in event)}}} has {a}={m(ps)} > E·{b}{slack}"
            f"={m(E * qs + delta)}")
