"""The exact level of any notion on a numeric table (symbolic.graph.constants.table_level): it agrees with the
closed-form levels of `derive level` on random tables, finds infima and 'no level', and serves a user's notion
through the command line."""
from __future__ import annotations

import json
import random

import pytest
import sympy as sp

from symbolic.api import E_SPEC, Notion
from symbolic.core.tables import MechTable
from symbolic.derive.level import derive_level
from symbolic.graph.constants.table_level import table_level
from symbolic.notions.listed.catalog import find_notion
from tests.cli.test_cli_frame import dpcheck, one_error_line


def _table(rng, outputs=3):
    rows = {}
    for d in ((0,), (1,)):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
    return MechTable(1, (0, 1), tuple(range(outputs)), rows)


def _doc(t):
    return {"n": t.n, "domain": list(t.domain), "outputs": list(t.outputs),
            "rows": {str(d[0]): [str(p) for p in r] for d, r in t.rows.items()}}


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_the_closed_form_levels(seed):
    t = _table(random.Random(seed))
    for key, level in (("pure-dp", "pure-dp"), ("tv-privacy", "total-variation"), ("renyi-dp", "renyi-2")):
        got = table_level(find_notion(key).notion, t)
        want = derive_level(level, _doc(t))
        expect = want.level_ratio if key != "tv-privacy" else want.formula
        assert got.ok and got.attained and sp.simplify(got.value - expect) == 0, (key, got.text(), expect)


def _strict(ops, A, P=None, *, E):
    # strict ratios, and a condition that always holds but changes its own comparison at E = 5 (a root above
    # the infimum, where the notion also holds: the level is still 3, not 5)
    ratios = [ops.lt(A.p(d, o), E * A.p(e, o)) for d in A.rows for e in A.rows for o in A.outputs if d != e]
    return ops.And(ratios + [ops.Or([ops.le(E, 5), ops.le(0, 1)])])


def test_an_infimum_and_no_level_are_said_plainly():
    t = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Rational(3, 4), sp.Rational(1, 4)),
                                     (1,): (sp.Rational(1, 4), sp.Rational(3, 4))})
    strict = Notion("StrictRatio", (E_SPEC,), _strict)
    got = table_level(strict, t)
    assert got.value == 3 and got.attained is False and "infimum" in got.text()
    zero = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Integer(0), sp.Integer(1))})
    assert table_level(find_notion("pure-dp").notion, zero).value == sp.oo


@pytest.mark.slow
def test_a_users_notion_by_the_command_line(tmp_path):
    (tmp_path / "mine.py").write_text(
        "from symbolic.api import Notion, E_SPEC\n"
        "def floor(ops, A, P=None, *, E):\n"
        "    return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)\n"
        "Floor = Notion('Floor', (E_SPEC,), floor)\n")
    (tmp_path / "t.json").write_text(json.dumps({"n": 1, "domain": [0, 1], "outputs": [0, 1],
                                                 "rows": {"0": ["4/5", "1/5"], "1": ["1/5", "4/5"]}}))
    code, out, err = dpcheck("derive", "level", f"{tmp_path / 'mine.py'}:Floor", "--mechanism", str(tmp_path / "t.json"),
                             "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["formula"] == "4" and doc["ok"] is True and doc["attained"] is True
    (tmp_path / "s.json").write_text(json.dumps({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
                                                 "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}))
    code, out, err = dpcheck("derive", "level", f"{tmp_path / 'mine.py'}:Floor", "--mechanism", str(tmp_path / "s.json"))
    assert code == 2 and "numeric" in one_error_line(err)


def test_a_listed_notion_without_a_closed_form_level_and_a_prior_notion(tmp_path):
    t = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Rational(3, 4), sp.Rational(1, 4)),
                                     (1,): (sp.Rational(1, 4), sp.Rational(3, 4))})
    lip = table_level(find_notion("lip").notion, t)
    assert lip.value == 3 and "for every prior" in lip.read_as
    (tmp_path / "t.json").write_text(json.dumps(_doc(t)))
    code, out, err = dpcheck("derive", "level", "lip", "--mechanism", str(tmp_path / "t.json"))
    assert code == 0 and "least E = 3" in out, err


@pytest.mark.parametrize("seed", range(4))
def test_hockey_stick_sums_are_cut_into_their_pieces(seed):
    # Σ_o max(0, p_o − E·q_o) ≤ δ: the margin is a sum of Max terms, a piecewise polynomial in E
    t = _table(random.Random(100 + seed), outputs=3)
    ev = table_level(find_notion("EventApprox").notion, t)
    assert ev.ok and ev.value == table_level(find_notion("pure-dp").notion, t).value
    delta = sp.Rational(1, 20)
    got = table_level(find_notion("approx-dp").notion, t, fixed={"delta": delta})
    assert got.ok and got.attained

    def hockey(E):
        return max(sum(max(0, p - E * q) for p, q in zip(t.rows[x], t.rows[y]))
                   for x in t.rows for y in t.rows if x != y)
    assert hockey(got.value) <= delta and (got.value == 1 or hockey(got.value) == delta)
