"""`graph --tight` calls an edge tight only when an exact table attaining its map was re-verified: every tight
edge's attaining table is checked here again from its text, apart from the code that found it (A holds at
the point, B holds at the map's value there and fails just below it); a proved map that is not the least is
not tight; and an attaining record that was not re-verified makes no edge tight."""
from __future__ import annotations

import pytest
import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import parse_expr
from symbolic.core.tables import MechTable
from symbolic.core.verdicts import Sizes
from symbolic.graph.constants import derivation, tightness
from symbolic.graph.pair import PairResult
from symbolic.graph.recheck import parse_map
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.sweep import graph_settings, run_graph
from symbolic.notions.listed.catalog import find_notion

N1 = Sizes(1, 2, 2)


@pytest.fixture(scope="module")
def tightened():
    g = run_graph(["pure-dp", "tv-privacy", "free-lunch"], sizes=N1, settings=graph_settings(3))
    return tightness.tighten_graph(g, graph_settings(3)).pairs


def _table(doc):
    m = doc["mechanism"]
    rows = {(int(k),): tuple(parse_expr(x) for x in r) for k, r in m["rows"].items()}
    return MechTable(m["n"], tuple(m["domain"]), tuple(m["outputs"]), rows)


def test_every_tight_edge_has_an_attaining_table_that_checks_again(tightened):
    tight = [p for p in tightened if p.tight]
    assert len(tight) >= 3
    for p in tight:
        a, b = find_notion(p.source).notion, find_notion(p.target).notion
        att = p.extra["tightness"]["derived"]["attained_by"]
        assert att["level"] == "exact" and att["reverified"] is True
        point = {k: parse_expr(v) for k, v in att["at"].items()}
        table = _table(att)
        values = {k: sp.sympify(v).subs({sp.Symbol(n, real=True): x for n, x in point.items()})
                  for k, v in parse_map(p.map, list(point)).items()}
        assert holds_exactly(a, table, None, point) is True, p
        assert holds_exactly(b, table, None, values) is True, p
        target = [q.name for q in b.params][-1]
        below = dict(values, **{target: values[target] - sp.Rational(1, 10 ** 6)})
        assert holds_exactly(b, table, None, below) is False, (p, below)


def test_a_proved_map_that_is_not_the_least_gives_way_to_the_tight_one_within_its_scope():
    # proved within bounds: the tight map, proved and attained at the same sizes, replaces it
    loose = PairResult("pure-dp", "tv-privacy", "implies", "delta = (E**2 - 1)/(E**2 + 1)")
    got = tightness.tighten(loose, find_notion("pure-dp"), find_notion("tv-privacy"), N1, graph_settings(3))
    assert got.tight is True and got.map == "delta = (E - 1)/(E + 1)"
    assert got.extra["former_map"]["map"] == loose.map and got.extra["scope"] == "within bounds"
    # proved at every size, and the tight map's proof lifts too (a dominating pair of ε-DP): it keeps that scope
    every = PairResult("pure-dp", "tv-privacy", "implies", loose.map,
                       extra={"scope": "all sizes", "all_sizes": {"reduction": "r"}})
    got = tightness.tighten(every, find_notion("pure-dp"), find_notion("tv-privacy"), N1, graph_settings(3))
    assert got.tight is True and got.extra["scope"] == "all sizes"
    assert got.extra["all_sizes"]["reduction"] == "pure-dp: dominating pair, 2 outputs"


def test_a_map_proved_at_every_size_keeps_its_place_when_the_tight_one_is_proved_at_the_sizes_only():
    # bounded range ⇒ Rényi: no argument lifts a proof at |O| = 2 to every size, so E = E stays and the tight
    # (E + 1)²/(4E) is only named
    edge = PairResult("bounded-range", "renyi-dp", "implies", "E = E",
                      extra={"scope": "all sizes", "all_sizes": {"reduction": "a chain"}})
    got = tightness.tighten(edge, find_notion("bounded-range"), find_notion("renyi-dp"), N1, graph_settings(3))
    assert got.tight is False and got.map == "E = E" and "not the least" in got.extra["tightness"]["text"]
    E = sp.Symbol("E", positive=True)
    named = sp.sympify(got.extra["tightness"]["derived"]["map"].split("=", 1)[1], locals={"E": E})
    assert sp.simplify(named - (E + 1) ** 2 / (4 * E)) == 0


def test_a_supremum_not_attained_is_said_with_the_family_that_approaches_it():
    # ε-bounded range ⇒ ε-DP: E is the least map, but a table reaching ratio E would need ratio 1 elsewhere
    edge = PairResult("bounded-range", "pure-dp", "implies", "E = E")
    got = tightness.tighten(edge, find_notion("bounded-range"), find_notion("pure-dp"), N1, graph_settings(3))
    sup = got.extra["tightness"]["derived"]["supremum"]
    assert got.tight is False and "supremum" in got.extra["tightness"]["text"]
    # checked again here from the record: the table at E = 3 and its t
    rows = sup["family_rows"]
    point = {"E": sp.Integer(3), "t": parse_expr(sup["checked"]["t"])}
    table = MechTable(1, (0, 1), (0, 1), {(d,): tuple(parse_expr(x, point) for x in r) for d, r in enumerate(rows)})
    assert sum(table.rows[(0,)]) == 1 and sum(table.rows[(1,)]) == 1
    assert holds_exactly(find_notion("bounded-range").notion, table, None, {"E": sp.Integer(3)}) is True
    assert holds_exactly(find_notion("pure-dp").notion, table, None, {"E": sp.Rational(299, 100)}) is False


def test_an_attaining_record_not_re_verified_makes_no_edge_tight(monkeypatch):
    unverified = {"kind": "rational", "at": {"E": "3"}, "level": "exact", "reverified": False,
                  "mechanism": {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"],
                                                                                      "1": ["1/4", "3/4"]}}}
    monkeypatch.setattr(tightness, "ATTAINING", {})
    monkeypatch.setattr(derivation, "attain", lambda *a, **k: (unverified, "", [], None))

    def no_derivation(*a, **k):
        raise DPCheckError("the full derivation is not asked here")
    monkeypatch.setattr(derivation, "derive_map", no_derivation)
    edge = PairResult("pure-dp", "tv-privacy", "implies", "delta = (E - 1)/(E + 1)")
    got = tightness.tighten(edge, find_notion("pure-dp"), find_notion("tv-privacy"), N1, graph_settings(3))
    assert got.tight is False


def test_a_family_approaching_another_value_shows_no_supremum():
    from symbolic.graph.constants.supremum import supremum_family
    E = sp.Symbol("E", real=True)
    br, pure = find_notion("bounded-range"), find_notion("pure-dp")
    assert supremum_family(br, pure, E) is not None
    assert supremum_family(br, pure, E / 2) is None       # the family's pure level tends to E, not E/2
    assert supremum_family(br, pure, E ** 2) is None
