"""Neighbour relations as values: which ordered pairs of databases a DP-type notion compares.

A DP-type definition is one inequality between the output laws of two databases, required for
every pair of a *neighbour relation*; the relation is what distinguishes bounded from unbounded
DP, group privacy, Blowfish or d_X-privacy. Each relation here is a frozen value whose
:meth:`~Relation.pairs` yields the ordered pairs it relates, as :class:`Pair` records
``(d, d2, index, distance)``, computed from n, the domain and the databases present (the keys of a
table). The keys are the same for an exact table and for a table of solver terms, so one notion
body written against a relation serves every neighbourhood in both readings.

Every relation here is symmetric: when (d, d2) is yielded, so is (d2, d).

>>> [(p.d, p.d2) for p in ReplaceOne().pairs(1, (0, 1))]
[((0,), (1,)), ((1,), (0,))]
>>> [(p.d, p.d2, p.distance) for p in Hamming(2).pairs(2, (0, 1)) if p.d == (0, 0)]
[((0, 0), (0, 1), 1), ((0, 0), (1, 0), 1), ((0, 0), (1, 1), 2)]
>>> [(p.d, p.d2) for p in AddRemove().pairs(1, (0, 1, 2))]
[((0,), (1,)), ((0,), (2,)), ((1,), (0,)), ((2,), (0,))]
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from symbolic.core.errors import InvalidParameter, InvalidSize, clip
from symbolic.core.tables import databases, replace


class Pair(NamedTuple):
    """One ordered pair of related databases. ``index``: the one record they differ in (None when
    they may differ in several); ``distance``: the number of records they differ in, or the
    metric's distance for :class:`Metric`.

    >>> pair = next(iter(Hamming(2).pairs(2, (0, 1))))
    >>> pair.d, pair.d2, pair.index, pair.distance, pair.text()
    ((0, 0), (0, 1), 1, 1, "i=2, d=(0, 0), d'=(0, 1)")"""

    d: tuple
    d2: tuple
    index: int | None
    distance: int

    def text(self) -> str:
        at = "" if self.index is None else f"i={self.index + 1}, "
        return f"{at}d={self.d}, d'={self.d2}"


def _rows(n, domain, rows):
    return list(rows) if rows is not None else databases(n, tuple(domain))


def hamming(d, d2) -> int:
    """The number of records in which two databases differ."""
    return sum(a != b for a, b in zip(d, d2))


class Relation:
    """A neighbour relation. Subclasses define :meth:`pairs` and :attr:`words`."""

    words = ""

    def pairs(self, n: int, domain: tuple, rows=None):
        """The ordered pairs of related databases among ``rows`` (default: all of 𝒟^n)."""
        raise NotImplementedError

    def of(self, table):
        """The pairs of a table's databases (an exact table or one of solver terms)."""
        return self.pairs(table.n, table.domain, table.rows)


@dataclass(frozen=True)
class ReplaceOne(Relation):
    """Bounded neighbours: d2 = d[i→v] for one record i and a value v ≠ d_i (the relation of ε-DP in
    Dwork, McSherry, Nissim, Smith (2006), with records as positions).

    >>> [(p.d, p.d2, p.index) for p in ReplaceOne().pairs(2, (0, 1)) if p.d == (0, 0)]
    [((0, 0), (1, 0), 0), ((0, 0), (0, 1), 1)]"""

    words = "replace one record"

    def pairs(self, n, domain, rows=None):
        present = set(_rows(n, domain, rows))
        for d in _rows(n, domain, rows):
            for i in range(n):
                for v in domain:
                    if v != d[i] and replace(d, i, v) in present:
                        yield Pair(d, replace(d, i, v), i, 1)

    def __str__(self):
        return "replace-one"


@dataclass(frozen=True)
class AddRemove(Relation):
    """Unbounded neighbours (Kifer, Machanavajjhala, SIGMOD 2011, Sec. 2): d2 is d with one record
    added or removed. Tables have a fixed number n of record slots, so absence is a value: ``absent``
    (⊥; default: the domain's first value) in a slot means no record there, and d ~ d2 when they
    differ in exactly one slot and that slot is ⊥ in one of them. For a mechanism that does not
    depend on the order of the records this is exactly adding or removing one record of a multiset
    of at most n records; ``n`` bounds the database size.

    >>> [(p.d, p.d2) for p in AddRemove(absent="-").pairs(1, ("-", "a", "b"))]
    [(('-',), ('a',)), (('-',), ('b',)), (('a',), ('-',)), (('b',), ('-',))]"""

    absent: object = None
    words = "add/remove one record (⊥ = absent)"

    def bottom(self, domain):
        if self.absent is None:
            return domain[0]
        if self.absent not in domain:
            raise InvalidParameter(f"AddRemove: the absent value {clip(self.absent)} is not in the domain "
                                   f"{clip(tuple(domain))}; give absent= one of the domain's values")
        return self.absent

    def pairs(self, n, domain, rows=None):
        bot = self.bottom(domain)
        for p in ReplaceOne().pairs(n, domain, rows):
            if bot in (p.d[p.index], p.d2[p.index]):
                yield p

    def __str__(self):
        return "add-remove" if self.absent is None else f"add-remove(⊥={self.absent!r})"


@dataclass(frozen=True)
class AllPairs(Relation):
    """Every pair of distinct databases (free-lunch privacy; a local randomiser's inputs).

    >>> [(p.d, p.d2, p.distance) for p in AllPairs().pairs(2, (0, 1)) if p.d == (0, 0)]
    [((0, 0), (0, 1), 1), ((0, 0), (1, 0), 1), ((0, 0), (1, 1), 2)]
    """

    words = "all pairs"

    def pairs(self, n, domain, rows=None):
        rs = _rows(n, domain, rows)
        for d in rs:
            for d2 in rs:
                if d != d2:
                    k = hamming(d, d2)
                    idx = next(i for i in range(n) if d[i] != d2[i]) if k == 1 else None
                    yield Pair(d, d2, idx, k)

    def __str__(self):
        return "all-pairs"


@dataclass(frozen=True)
class Hamming(Relation):
    """Databases that differ in at least one and at most ``k`` records (groups of size k; Dwork,
    Roth (2014), Thm. 2.2). ``Hamming(1)`` is :class:`ReplaceOne`.

    >>> from symbolic.api import randomized_response
    >>> sorted(p.distance for p in Hamming(2).of(randomized_response(2, n=2).table()) if p.d == (0, 0))
    [1, 1, 2]
    """

    k: int = 1

    def __post_init__(self):
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InvalidParameter(f"Hamming: group size k={clip(self.k)} must be a whole number ≥ 1")

    @property
    def words(self):
        return f"differ in at most {self.k} records"

    def pairs(self, n, domain, rows=None):
        for p in AllPairs().pairs(n, domain, rows):
            if p.distance <= self.k:
                yield p

    def __str__(self):
        return f"hamming≤{self.k}"


def _graph_edges(graph, domain):
    """The policy graph's edges as a set of frozensets of two domain values."""
    if graph == "line":
        return {frozenset(e) for e in zip(domain, domain[1:])}
    if graph == "complete":
        return {frozenset(e) for e in itertools.combinations(domain, 2)}
    edges = set()
    for e in graph:
        e = tuple(e)
        if len(e) != 2 or e[0] == e[1]:
            raise InvalidParameter(f"PolicyGraph: edge {clip(e)} must be two different domain values")
        edges.add(frozenset(e))
    return edges


@dataclass(frozen=True)
class Constraint:
    """A publicly known constraint Q on the database (Blowfish's I_Q): ``holds(d)`` says whether d
    meets it; ``name`` says what it is (listings, notion names)."""

    name: str
    holds: Callable = field(compare=True)

    def __str__(self):
        return self.name


def count_constraint(value, count: int) -> Constraint:
    """Q: exactly ``count`` records hold ``value`` (a count query whose answer is public)."""
    return Constraint(f"#{value!r}={count}", lambda d: sum(x == value for x in d) == count)


@dataclass(frozen=True)
class PolicyGraph(Relation):
    """Blowfish neighbours (He, Machanavajjhala, Ding, SIGMOD 2014, Sec. 3-4) for a policy whose
    secrets are the values of each record, discriminated along the edges of a graph G on the domain,
    and whose constraint Q restricts the databases (I_Q).

    ``graph``: ``"line"`` (each value joined to the next in domain order; the default),
    ``"complete"`` (every two values: ε-DP), or a collection of value pairs. With no constraint,
    d ~ d2 when they differ in one record whose two values are joined in G. With a constraint Q,
    d, d2 ∈ I_Q are neighbours when T(d, d2), the set of discriminated secret pairs
    {(i, d_i, d2_i) : d_i ≠ d2_i, {d_i, d2_i} ∈ G}, is non-empty and minimal: no d3 ∈ I_Q has
    ∅ ≠ T(d, d3) ⊊ T(d, d2), nor T(d, d3) = T(d, d2) with fewer changed records
    ({i : d_i ≠ d3_i} ⊊ {i : d_i ≠ d2_i}). (Our reading of the paper's Def. 4.2; without Q it
    reduces to the one-record relation above.) Pairs are yielded in both orders, as the
    definition compares both.

    On the line graph of the values 0, 1, 2 a record may move to a next value only:

    >>> [(p.d, p.d2) for p in PolicyGraph().pairs(1, (0, 1, 2))]
    [((0,), (1,)), ((1,), (0,)), ((1,), (2,)), ((2,), (1,))]
    """

    graph: object = "line"
    constraint: Constraint | None = None

    @property
    def words(self):
        g = self.graph if isinstance(self.graph, str) else "given"
        q = "" if self.constraint is None else f", databases with {self.constraint}"
        return f"policy graph ({g}) on the values of one record{q}"

    def pairs(self, n, domain, rows=None):
        edges = _graph_edges(self.graph, tuple(domain))
        rs = _rows(n, domain, rows)
        if self.constraint is None:
            for p in ReplaceOne().pairs(n, domain, rs):
                if frozenset((p.d[p.index], p.d2[p.index])) in edges:
                    yield p
            return
        iq = [d for d in rs if self.constraint.holds(d)]

        def secrets(a, b):
            return frozenset((i, a[i], b[i]) for i in range(n) if a[i] != b[i] and frozenset((a[i], b[i])) in edges)

        def changed(a, b):
            return frozenset(i for i in range(n) if a[i] != b[i])

        def minimal(a, b):
            t, c = secrets(a, b), changed(a, b)
            for e in iq:
                te = secrets(a, e)
                if te and (te < t or (te == t and changed(a, e) < c)):
                    return False
            return True

        related = {(a, b) for a in iq for b in iq if a != b and secrets(a, b) and minimal(a, b)}
        for a in iq:
            for b in iq:
                if (a, b) in related or (b, a) in related:
                    k = hamming(a, b)
                    idx = next(i for i in range(n) if a[i] != b[i]) if k == 1 else None
                    yield Pair(a, b, idx, k)

    def __str__(self):
        g = self.graph if isinstance(self.graph, str) else "{" + ",".join(
            "-".join(map(str, sorted(e, key=repr))) for e in sorted(_graph_edges(self.graph, ()), key=repr)) + "}"
        return f"G={g}" + ("" if self.constraint is None else f",Q={self.constraint}")


def l1_positions(d, d2, domain) -> int:
    """Σ_i |pos(d_i) − pos(d2_i)|, pos the place of a value in the domain's order (the metric |x − x'|
    on an integer line when the domain is 0..k−1)."""
    return sum(abs(domain.index(a) - domain.index(b)) for a, b in zip(d, d2))


_METRICS = {
    "l1": l1_positions,
    "hamming": lambda d, d2, domain: hamming(d, d2),
    "discrete": lambda d, d2, domain: int(d != d2),
}


@dataclass(frozen=True)
class Metric(Relation):
    """Every pair of distinct databases, with its distance under an integer metric (d_X-privacy,
    Chatzikokolakis, Andrés, Bordenabe, Palamidessi, PETS 2013): ``name`` is ``"l1"`` (Σ of value
    distances in domain order; default), ``"hamming"`` or ``"discrete"``, or any name with
    ``distance(d, d2, domain)`` a function giving a whole number ≥ 0 (a pseudometric is allowed:
    distance 0 between distinct databases asks for equal output laws).

    >>> [(p.d2, p.distance) for p in Metric().pairs(1, (0, 1, 2)) if p.d == (0,)]
    [((1,), 1), ((2,), 2)]
    """

    name: str = "l1"
    distance: Callable | None = None

    @property
    def words(self):
        return f"all pairs, at {self.name} distance"

    def _fn(self):
        if self.distance is not None:
            return self.distance
        if self.name not in _METRICS:
            raise InvalidParameter(f"Metric: unknown metric {clip(self.name)}; use one of {sorted(_METRICS)} "
                                   f"or give distance=")
        return _METRICS[self.name]

    def pairs(self, n, domain, rows=None):
        fn = self._fn()
        domain = tuple(domain)
        for p in AllPairs().pairs(n, domain, rows):
            k = fn(p.d, p.d2, domain)
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                raise InvalidParameter(f"Metric {self.name}: distance({p.d}, {p.d2}) = {clip(k)} must be a "
                                       f"whole number ≥ 0")
            yield Pair(p.d, p.d2, p.index, k)

    def __str__(self):
        return f"d={self.name}"


def at_dataset(dataset, n: int, domain: tuple) -> tuple:
    """The fixed dataset of a notion relative to one database (individual DP): ``dataset`` as a
    tuple, or (first value,)·n when None; an error if it is not a database of these sizes."""
    if dataset is None:
        return (tuple(domain)[0],) * n
    d = tuple(dataset) if isinstance(dataset, (tuple, list)) else (dataset,)
    if len(d) != n or any(v not in domain for v in d):
        raise InvalidSize(f"the fixed dataset {clip(d)} is not a database of n={n} values from {clip(tuple(domain))}")
    return d


def level_pairs(notion_id: str, dbs, n: int, domain, what: str = "table") -> list:
    """The ordered pairs of databases a level is the largest over: every pair of inputs for local DP
    (one record, n = 1) and free-lunch privacy, else the neighbours of "replace one record".

    >>> level_pairs("pure-dp", [(0,), (1,)], 1, (0, 1)), level_pairs("free-lunch", [(0,), (1,)], 1, (0, 1))
    ([((0,), (1,)), ((1,), (0,))], [((0,), (1,)), ((1,), (0,))])
    """
    if notion_id in ("local-dp", "free-lunch"):
        if notion_id == "local-dp" and n != 1:
            raise InvalidSize(f"local-dp compares the inputs of a one-record randomizer (n = 1); this {what} has "
                              f"n = {n}: use pure-dp (neighbours) or free-lunch (every pair of databases)")
        return [(d, e) for d in dbs for e in dbs if d != e]
    return [(d, replace(d, i, v)) for d in dbs for i in range(n) for v in domain if v != d[i]]
