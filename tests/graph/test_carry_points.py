"""A table carried from n to n + 1 records is re-verified at every point its record was checked at, not only
the first: a record whose table attains the map at one point of A's parameters and not at another is not
carried."""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.carry import lifted_attainment
from symbolic.graph.constants.fit import Shape
from symbolic.notions.listed.catalog import find_notion

E = sp.Symbol("E", real=True)
RR = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}


@dataclass(frozen=True)
class _Previous:
    """What the carry reads of the map at fewer records."""
    formula: object
    attained_by: dict
    sizes: Sizes
    tight: bool = True


def _carry(points):
    pure, tv = find_notion("pure-dp").notion, find_notion("tv-privacy").notion
    spec = next(p for p in tv.params if p.name == "delta")
    previous = _Previous((E - 1) / (E + 1), {"kind": "rational", "level": "exact", "reverified": True,
                                             "mechanism": RR, "at": points[0], "verified_at": points}, Sizes(1, 2, 2))
    return lifted_attainment(previous, pure, tv, "delta", spec, lambda p: {}, Shape(2, 2, 2), Sizes(2, 2, 2), [E])


def test_a_table_attaining_the_map_at_its_point_is_carried():
    record, text = _carry([{"E": "3"}])     # randomized response at 3/4: ε-DP at E = 3 and TV exactly 1/2
    assert record is not None and record["found_by"] == "lifted from n=1" and len(record["mechanism"]["rows"]) == 4


def test_a_table_that_fails_at_a_later_point_is_not_carried():
    for points in ([{"E": "3"}, {"E": "2"}], [{"E": "2"}, {"E": "3"}]):   # at E = 2 the table is not even ε-DP
        record, text = _carry(points)
        assert record is None and "does not attain" in text, points
