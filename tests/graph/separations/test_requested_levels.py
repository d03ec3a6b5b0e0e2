"""`dpcheck graph --at-level`: a family separation's explicit tables at the levels asked for, each re-verified
exactly; levels that are not numbers above 1 are refused with one line; the JSON summary counts the pairs."""
from __future__ import annotations

import json

import sympy as sp

from symbolic.core.exact import parse_expr
from symbolic.graph.separations.families import Family
from symbolic.graph.sampling import holds_exactly
from symbolic.notions.listed.catalog import find_notion
from tests.cli.test_cli_frame import dpcheck


def test_the_requested_levels_have_their_tables(tmp_path):
    path = tmp_path / "g.json"
    code, out, err = dpcheck("graph", "--notions", "renyi-dp,pure-dp", "--n", "1", "--no-cache",
                             "--at-level", "50,1000000", "--json", str(path))
    assert code == 0, err
    doc = json.loads(path.read_text())
    sep = next(p for p in doc["pairs"] if p.get("separation") == "family")
    assert [e["E"] for e in sep["at_levels"]] == ["50", "1000000"]
    family = Family("record", tuple(tuple(r) for r in sep["family_rows"]), "0<t<=1", sp.Integer(0))
    for entry in sep["at_levels"]:      # checked again here from the record's text
        table = family.table_at(parse_expr(entry["t"]))
        assert holds_exactly(find_notion("renyi-dp").notion, table, None, {"E": sp.Integer(2)}) is True
        assert holds_exactly(find_notion("pure-dp").notion, table, None, {"E": parse_expr(entry["E"])}) is False
    summary = doc["summary"]
    assert (summary["pairs"], summary["definite"], summary["unknown"]) == (2, 2, 0)
    assert summary["separations_by_kind"] == {"family of tables": 1}


def test_levels_that_are_not_numbers_above_one_are_refused():
    for bad in ("1/2", "abc", "__import__('os')", "1e400"):
        code, out, err = dpcheck("graph", "--notions", "renyi-dp,pure-dp", "--n", "1", "--no-cache",
                                 "--at-level", bad)
        assert code == 2 and "--at-level" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, bad
