"""Tables: mechanisms and populations as plain arrays over an abstract number type.

A :class:`MechTable` holds, for each database d in 𝒟^n, one number per output; the
numbers may be sympy expressions (exact evaluation) or solver terms (z3). A
:class:`PopTable` holds one number per database. Notions and constructions are written
against these views once, and work for both number types.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from symbolic.core.errors import InvalidSize, clip


def database_key(d) -> str:
    """A database as the text that keys it in table files: its values joined by commas ("0,1"); anything
    that is not a tuple as ``str``.

    >>> database_key((0, 1)), database_key("x")
    ('0,1', 'x')
    """
    return ",".join(map(str, d)) if isinstance(d, tuple) else str(d)


def databases(n: int, domain: tuple) -> list[tuple]:
    """All of 𝒟^n in lexicographic order."""
    return list(itertools.product(domain, repeat=n))


def replace_record(d: tuple, i: int, v) -> tuple:
    """d[i→v]: the database ``d`` with record ``i`` (0-based) set to ``v``, the neighbour that ε-DP and
    every built-in notion over "replace one record" compares ``d`` with. A table's ``neighbours()``
    yields every ``(i, d, v)`` with ``v ≠ d[i]``, so a notion of one's own never builds neighbours by hand:

    >>> replace_record((0, 1, 0), 1, 2)
    (0, 2, 0)
    >>> from symbolic.api import randomized_response
    >>> A = randomized_response(3).table()
    >>> [(d, replace_record(d, i, v)) for i, d, v in A.neighbours()]
    [((0,), (1,)), ((1,), (0,))]
    """
    return d[:i] + (v,) + d[i + 1:]


replace = replace_record   # the engine's short name


@dataclass(frozen=True, eq=False)
class MechTable:
    """A mechanism 𝒟^n → Δ(𝒪) as a table of numbers (exact or symbolic)."""

    n: int
    domain: tuple
    outputs: tuple
    rows: dict  # db -> tuple of numbers, aligned with outputs

    def p(self, d, o) -> Any:
        return self.rows[d][self.outputs.index(o)]

    @property
    def dbs(self):
        return list(self.rows.keys())

    def neighbours(self):
        """(i, d, v) for every index, database and replacement value (v ≠ d_i)."""
        for d in self.rows:
            for i in range(self.n):
                for v in self.domain:
                    if v != d[i]:
                        yield i, d, v


@dataclass(frozen=True, eq=False)
class PopTable:
    """A population: a joint distribution over 𝒟^n as a table of numbers."""

    n: int
    domain: tuple
    probs: dict  # db -> number

    def p(self, d):
        return self.probs[d]

    def marginal(self, ops, i, v):
        """Pr[D_i = v]."""
        return ops.sum(q for d, q in self.probs.items() if d[i] == v)

    def marginal_rest(self, ops, i, rest):
        """Pr[D_{-i} = rest] where rest is d with position i removed."""
        return ops.sum(q for d, q in self.probs.items() if d[:i] + d[i + 1:] == rest)


def check_sizes(n=None, domain=None, outputs=None):
    """Each given size is a whole number ≥ 1, else :class:`InvalidSize` says which."""
    for name, v in (("n", n), ("domain size", domain), ("outputs", outputs)):
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidSize(f"{name}={clip(v)} must be a whole number")
        if v < 1:
            raise InvalidSize(f"{name}={clip(v)} must be at least 1")
