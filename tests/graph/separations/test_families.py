"""Separations by families: Rényi DP of order 2 stays at E = 2 on the tables (t, 1 − t), (t², 1 − t²) while
ε-DP, bounded range and free-lunch privacy grow without bound as t → 0; each requested level has a rational t
re-verified by exact evaluation, a tampered record is refused, and an implication gets no family."""
from __future__ import annotations

import sympy as sp

from symbolic.graph.separations.families import FAMILIES, family_separation, recheck_record
from symbolic.notions.listed.catalog import find_notion

RENYI = find_notion("renyi-dp")


def test_renyi_dp_is_separated_from_three_notions_by_one_family_at_two_levels():
    for target in ("pure-dp", "bounded-range", "free-lunch"):
        sep = family_separation(RENYI, find_notion(target), levels=(sp.Integer(50), sp.Integer(10 ** 6)))
        assert sep is not None and sep.verified and sep.source_E == 2, target
        (e1, t1, a1, b1), (e2, t2, a2, b2) = sep.at_levels
        assert (a1, b1, a2, b2) == (True, False, True, False) and 0 < t2 < t1 <= sp.Rational(1, 2)
        assert recheck_record(RENYI.notion, find_notion(target).notion, sep.to_json())


def test_the_source_level_is_checked_by_hand_on_the_listed_tables():
    """Σ p²/q over both orders at t: 1 + (1 − t)/(1 + t) and 1 + t − t², both at most 2; the ratio 1/t of the
    first output exceeds the requested level."""
    sep = family_separation(RENYI, find_notion("pure-dp"))
    for level, t, _, _ in sep.at_levels:
        p, q = (t, 1 - t), (t ** 2, 1 - t ** 2)
        assert sum(a * a / b for a, b in zip(p, q)) <= 2 and sum(b * b / a for a, b in zip(p, q)) <= 2
        assert p[0] / q[0] > level


def test_a_tampered_record_is_refused():
    sep = family_separation(RENYI, find_notion("pure-dp"))
    record = sep.to_json()
    lower = {**record, "source_level": "E = 3/2"}                     # A does not hold at 3/2 near t = 0
    assert not recheck_record(RENYI.notion, find_notion("pure-dp").notion, lower)
    entries = [{**e, "t": "1/2"} for e in record["at_levels"]]        # at t = 1/2 the ratio is 2: B holds at 10
    assert not recheck_record(RENYI.notion, find_notion("pure-dp").notion, {**record, "at_levels": entries})


def test_an_implication_gets_no_family():
    assert family_separation(find_notion("pure-dp"), RENYI) is None
    assert FAMILIES[0].table_at(sp.Rational(1, 4)).rows[(1,)] == (sp.Rational(1, 16), sp.Rational(15, 16))
