"""The one-pass exact evaluation (``Notion.fast``, :mod:`symbolic.core.fast_exact`) against the notion
bodies evaluated with sympy: same verdict and same reason text, on random small rational tables
(ties and 10^-30 nudges frequent), on the counting table at a ratio exactly E and at E ± 10^-30, with
one common denominator and with one denominator per row; a symbolic entry or an irrational parameter
falls back to the body. Timings are in ``bench/bench.py --eval``, not here."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from symbolic.api import ApproxDP, PureDP, explain
from symbolic.core import fast_exact
from symbolic.core.tables import MechTable, databases
from symbolic.model.mechanism import Mechanism
from symbolic.model.table_file import mechanism_from_json
from theorems.cli.main import main

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from counting import counting_doc  # noqa: E402

R = sp.Rational
TINY = R(1, 10 ** 30)


def both(inst, tab):
    fast = inst.notion.fast(tab, **inst.param_values())
    slow = explain(inst, tab, arithmetic="sympy")
    assert explain(inst, tab) == (fast if fast is not None else slow)
    return fast, slow


@st.composite
def rational_tables(draw):
    n, k, m = draw(st.integers(1, 3)), draw(st.integers(2, 3)), draw(st.integers(1, 3))
    dom = tuple(range(k))
    rows = {}
    for d in databases(n, dom):
        D = draw(st.sampled_from((1, 2, 3, 4, 6, 7)))
        cuts = sorted(draw(st.lists(st.integers(0, D), min_size=m - 1, max_size=m - 1)))
        row = [R(b - a, D) for a, b in zip([0] + cuts, cuts + [D])]
        if m > 1 and draw(st.booleans()) and row[0] >= TINY:  # move mass by 10^-30
            row[0] -= TINY
            row[1] += TINY
        rows[d] = tuple(row)
    return MechTable(n, dom, tuple(range(m)), rows)


PARAM_E = st.sampled_from([R(1), R(3, 2), R(2), R(3), R(4), R(2) + TINY, R(2) - TINY, R(3) - TINY, R(7, 3)])
PARAM_DELTA = st.sampled_from([R(0), TINY, R(1, 6), R(1, 4), R(1, 3) - TINY, R(1, 2), R(1)])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rational_tables(), PARAM_E, PARAM_DELTA, st.booleans(), st.sampled_from([0, 1, 2, 6]))
def test_fast_agrees_with_sympy_body(tab, E, delta, per_row, first_block):
    old, old_block = fast_exact.MAX_LCM_BITS, fast_exact.FIRST_BLOCK
    fast_exact.MAX_LCM_BITS = 0 if per_row else old  # 0: one denominator per row
    fast_exact.FIRST_BLOCK = first_block  # blocks of databases read in order: small ones exercise the split
    try:
        fast_exact._VIEWS.clear()
        for inst in (PureDP(E), ApproxDP(E, delta)):
            fast, slow = both(inst, tab)
            assert fast is not None and fast == slow, (inst, fast, slow)
        view = fast_exact.int_view(tab)
        assert view.dens is None if not per_row else (view.dens is not None or view.L == 1)
    finally:
        fast_exact.MAX_LCM_BITS, fast_exact.FIRST_BLOCK = old, old_block
        fast_exact._VIEWS.clear()


@pytest.mark.parametrize("n, k, first_block", [(1, 2, 6), (3, 3, 0), (3, 3, 1), (4, 2, 2), (5, 2, 6), (2, 4, 1)])
def test_slices_are_exactly_the_neighbour_pairs(n, k, first_block, monkeypatch):
    """Every (x, x[i→v]) pair is produced once, by index arithmetic, over the blocks in order."""
    monkeypatch.setattr(fast_exact, "FIRST_BLOCK", first_block)
    dom = tuple(range(k))
    dbs = databases(n, dom)
    view = fast_exact.IntView(n, k, (list(range(k ** n)),), None, 1)
    got = []
    for a, j in fast_exact._blocks(view):
        for i in range(n):
            for u in range(k):
                for v in range(k):
                    if u != v:
                        for sx, sy in fast_exact.neighbour_slices(view, i, u, v, a, j):
                            xs, ys = view.cols[0][sx], view.cols[0][sy]
                            assert len(xs) == len(ys)
                            got += [(dbs[x], i, dom[v], dbs[y]) for x, y in zip(xs, ys)]
    want = [(d, i, w, d[:i] + (w,) + d[i + 1:]) for d in dbs for i in range(n) for w in dom if w != d[i]]
    assert sorted(got) == sorted(want) and len(got) == len(want)
    assert all(view.database(x, dom) == dbs[x] for x in range(k ** n))


def counting(n):
    return mechanism_from_json(counting_doc(n)).table()


@pytest.mark.parametrize("n", [1, 3, 5])
@pytest.mark.parametrize("E, holds", [(R(2), True), (R(2) + TINY, True), (R(2) - TINY, False), (R(3, 2), False)])
def test_counting_table_ties(n, E, holds):
    tab = counting(n)
    fast, slow = both(PureDP(E), tab)
    assert fast == slow and fast[0] is holds
    fast, slow = both(ApproxDP(E, 0), tab)
    assert fast == slow and fast[0] is holds
    fast, slow = both(ApproxDP(E, TINY), tab)  # at E = 2 - 10^-30 the excess is 10^-30/(n+2) < δ
    assert fast == slow and fast[0] is bool(E > R(3, 2))


def test_reason_text_is_the_body_text():
    tab = Mechanism.from_table({(0,): ["3/4", "1/4"], (1,): ["1/4", "3/4"]}, outputs=(0, 1)).table()
    assert explain(PureDP(2), tab) == (False, "i=1, d=(0,), d'=(1,), o=0: Pr[A(d)=o]=3/4 > E·Pr[A(d')=o]=2·1/4")
    assert explain(PureDP(2), tab, arithmetic="sympy") == explain(PureDP(2), tab)


def test_symbolic_entry_falls_back_to_sympy():
    s = sp.sqrt(2) / 4
    tab = MechTable(1, (0, 1), (0, 1), {(0,): (s, 1 - s), (1,): (R(1, 4), R(3, 4))})
    assert fast_exact.int_view(tab) is None and PureDP.fast(tab, E=R(2)) is None
    assert explain(PureDP(2), tab) == explain(PureDP(2), tab, arithmetic="sympy")
    assert explain(PureDP(3), tab)[0] is True
    rational = counting(2)
    assert PureDP.fast(rational, E=sp.sqrt(3)) is None  # an irrational parameter: the body decides
    assert explain(PureDP(sp.sqrt(3)), rational) == explain(PureDP(sp.sqrt(3)), rational, arithmetic="sympy")


def test_rows_not_in_lexicographic_order_fall_back():
    rows = {(1,): (R(1, 4), R(3, 4)), (0,): (R(3, 4), R(1, 4))}
    tab = MechTable(1, (0, 1), (0, 1), rows)
    assert fast_exact.int_view(tab) is None
    assert explain(PureDP(2), tab) == explain(PureDP(2), tab, arithmetic="sympy")


def test_explain_refuses_unknown_arithmetic():
    with pytest.raises(Exception, match="arithmetic"):
        explain(PureDP(2), counting(1), arithmetic="float")


def test_cli_eval_beyond_the_old_file_limit(tmp_path, capsys):
    f = tmp_path / "c13.json"
    f.write_text(json.dumps(counting_doc(13)))  # 8192 databases: over the old limit of 4096
    assert main(["eval", "PureDP", "--mechanism", str(f), "--param", "E=2"]) == 0
    assert main(["eval", "PureDP", "--mechanism", str(f), "--param", "E=19999/10000"]) == 0  # "fails" is definite
    out = capsys.readouterr().out
    assert "PureDP(2): holds" in out and "o=1: Pr[A(d)=o]=2/15 > E·Pr[A(d')=o]=19999/10000·1/15" in out
    # no one-pass reading: the sympy limit still applies
    assert main(["eval", "FreeLunchPrivacy", "--mechanism", str(f), "--param", "E=2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "at most 4096 databases" in err[0]
