"""Published relations between listed notions: what the literature says about a pair, with the
citation and statement number, so the graph can say whether the engine agrees.

A :class:`Relation` with ``holds=True`` and a ``map`` states "A(a) ⇒ B(map(a))" (the map as
expressions in A's parameter names, read by the restricted parser); ``holds=False`` with a map states
that this map fails ("not at the same ε"); ``holds=False, qualitative=True`` (no map) states that A at
some level allows B at no level. Only maps written in the notions' own parameters are recorded.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Relation:
    source: str          # notion ID
    target: str          # notion ID
    holds: bool          # True: an implication (with ``map``); False: a separation
    map: dict | None     # B's parameter name -> expression text in A's parameters
    statement: str
    citation: str
    qualitative: bool = False  # a separation at every level of B, not only against one map

    def to_json(self) -> dict:
        return {"statement": self.statement, "citation": self.citation,
                "relation": "implies" if self.holds else "not-implies", "map": self.map,
                "qualitative": self.qualitative}


RELATIONS = (
    Relation("pure-dp", "approx-dp", True, {"E": "E", "delta": "0"},
             "ε-DP is (ε, 0)-DP", "Dwork, Kenthapadi, McSherry, Mironov, Naor (2006), Def. 1 with δ = 0"),
    Relation("approx-dp", "pure-dp", False, None,
             "(ε, δ)-DP with δ > 0 does not imply ε'-DP for any ε' (a mechanism may reveal a record with "
             "probability δ)", "Dwork, Roth, The algorithmic foundations of DP (2014), §2.3", qualitative=True),
    Relation("free-lunch", "pure-dp", True, {"E": "E"},
             "free-lunch privacy bounds every pair of databases, so in particular neighbours",
             "Kifer, Machanavajjhala, SIGMOD 2011, §2"),
    Relation("pure-dp", "free-lunch", False, {"E": "E"},
             "ε-DP does not imply free-lunch privacy at the same ε once n ≥ 2",
             "Kifer, Machanavajjhala, SIGMOD 2011, §2"),
)


def relations_by_pair(ids=None) -> dict:
    """(source, target) → Relation, for pairs among ``ids`` (all when None)."""
    return {(r.source, r.target): r for r in RELATIONS
            if ids is None or (r.source in ids and r.target in ids)}
