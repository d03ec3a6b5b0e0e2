"""What a notion is built from, declared as data so that a proof at small sizes can be lifted to every size.

Many notions have the form "for every pair of neighbouring databases (d, d'), the two output distributions
A(d), A(d') satisfy φ", over one neighbour relation: they are *pairwise*. For two such notions over the same
relation, the number of records and the data domain do not matter: A ⇒ B at every size iff φ_A ⇒ φ_B for
every pair of distributions. If moreover φ_B is *closed under post-processing* (a data-processing inequality
for the divergence that defines B) and A has a *dominating pair* (one pair (P₀, Q₀) satisfying φ_A such that
every pair satisfying φ_A is (K·P₀, K·Q₀) for a stochastic map K; Kairouz, Oh, Viswanath 2015 for ε-DP and
(ε, δ)-DP), then φ_A ⇒ φ_B for every pair iff φ_B holds on the dominating pair, a question about one table at
n = 1, |𝒟| = 2. Dually, if φ_B is *decided on coarsenings to k outputs* (a pair failing φ_B has a deterministic
merge of its outputs into k groups that fails it too: an event for ε-DP, (ε, δ)-DP and TV) and φ_A is closed under
post-processing, then φ_A ⇒ φ_B for every pair iff it holds for every pair with k outputs.

A :class:`Structure` records these facts with their citations. They are claims about the notion's body, and the
engine checks each one where it can (:mod:`symbolic.graph.structure_checks`): the pairwise form by evaluating the
body on tables and on their pairs of neighbouring rows, closure by applying random stochastic maps to tables at
their exact level, the dominating pair by exact linear programming.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

from symbolic.core.tables import MechTable

RELATIONS = ("replace one record", "all pairs", "one record")
"""The neighbour relations a pairwise notion may be declared over. "one record": the notion is defined at n = 1 only
(a randomiser of one user's input), where every two inputs are neighbours; it covers only itself."""


@dataclass(frozen=True)
class Structure:
    """How a notion is built. ``pairwise``: the neighbour relation (one of :data:`RELATIONS`) when the notion is
    "φ for every pair of neighbours", else None; ``bounds``: the divergence or family it bounds, in words;
    ``post_processing``: the citation of its closure under post-processing, or None when it is not closed (or not
    known to be); ``dominating``: a function of the notion's parameter values giving the dominating pair (two
    rows of exact numbers), with ``dominating_source`` its citation.

    >>> s = Structure("replace one record", "the largest log-ratio of two output probabilities", "Dwork, Roth 2014")
    >>> s.pairwise, s.closed
    ('replace one record', True)
    """

    pairwise: str | None
    bounds: str
    post_processing: str | None = None
    dominating: Callable | None = None
    dominating_source: str | None = None
    coarsening: int | None = None
    coarsening_reason: str | None = None

    def __post_init__(self):
        if self.pairwise is not None and self.pairwise not in RELATIONS:
            raise ValueError(f"unknown neighbour relation {self.pairwise!r}; known: {', '.join(RELATIONS)}")
        if self.coarsening is not None and (self.coarsening < 2 or not self.coarsening_reason):
            raise ValueError("a coarsening needs at least two outputs and the reason it decides the notion")

    @property
    def closed(self) -> bool:
        """Is closure under post-processing declared (with a citation)?"""
        return self.post_processing is not None


def neighbour_pairs(table: MechTable, relation: str):
    """The unordered pairs {d, d'} of databases of ``table`` that are neighbours under ``relation``.

    >>> t = MechTable(2, (0, 1), (0,), {d: (1,) for d in itertools.product((0, 1), repeat=2)})
    >>> len(list(neighbour_pairs(t, "replace one record"))), len(list(neighbour_pairs(t, "all pairs")))
    (4, 6)
    """
    for d, e in itertools.combinations(table.rows, 2):
        if relation in ("all pairs", "one record") or sum(x != y for x, y in zip(d, e)) == 1:
            yield d, e


def pair_table(p, q) -> MechTable:
    """The table of one record over two values whose rows are the distributions ``p`` and ``q``.

    >>> pair_table((1, 0), (0, 1)).rows
    {(0,): (1, 0), (1,): (0, 1)}
    """
    return MechTable(1, (0, 1), tuple(range(len(p))), {(0,): tuple(p), (1,): tuple(q)})


def covers(relation_a: str | None, relation_b: str | None) -> str | None:
    """Why every pair of neighbours under ``relation_b`` is a pair under ``relation_a``, at every size where both
    notions are defined; None when that is not so (or a notion is not pairwise).

    >>> covers("all pairs", "replace one record")
    "every pair under 'replace one record' is a pair under 'all pairs'"
    >>> covers("replace one record", "all pairs") is None
    True
    """
    if relation_a is None or relation_b is None:
        return None
    if relation_a == relation_b:
        return f"both are over '{relation_a}'"
    if relation_a == "all pairs" and relation_b != "one record":
        return f"every pair under '{relation_b}' is a pair under 'all pairs'"
    # a notion of one record is defined at n = 1 only: "A ⇒ B" with it would hold at every domain and output
    # space but not at every n, and chained with other all-size edges would say more than was shown
    return None


def merges(outputs: int, groups: int):
    """Every deterministic merge of ``outputs`` outputs into ``groups`` groups (some possibly empty), as the list of
    each output's group; up to renaming the groups.

    >>> sorted(merges(3, 2))
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    """
    def grow(prefix, used):
        if len(prefix) == outputs:
            yield tuple(prefix)
            return
        for g in range(min(used + 1, groups)):
            yield from grow(prefix + [g], max(used, g + 1))
    yield from grow([], 0)


def merged(p, assignment, groups: int) -> tuple:
    """The distribution ``p`` with output o merged into group ``assignment[o]``.

    >>> merged((1, 2, 3), (0, 1, 0), 2)
    (4, 2)
    """
    out = [0] * groups
    for x, g in zip(p, assignment):
        out[g] = out[g] + x
    return tuple(out)


__all__ = ["RELATIONS", "Structure", "covers", "merged", "merges", "neighbour_pairs", "pair_table"]
