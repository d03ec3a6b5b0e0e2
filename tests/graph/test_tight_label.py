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


def test_a_proved_map_that_is_not_the_least_is_not_tight():
    loose = PairResult("pure-dp", "tv-privacy", "implies", "delta = (E**2 - 1)/(E**2 + 1)")
    got = tightness.tighten(loose, find_notion("pure-dp"), find_notion("tv-privacy"), N1, graph_settings(3))
    assert got.tight is False and "not the least" in got.extra["tightness"]["text"]


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
