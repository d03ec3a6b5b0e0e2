"""The implication graph: pairs decided by the engine, separations re-checked here in exact
arithmetic, the Hasse diagram, the cache, local processes, a Dask cluster, a user's notion."""
from __future__ import annotations

import json
import textwrap

import pytest
import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.verdicts import Sizes
from symbolic.graph.hasse import diagram, dot_text, render_svg
from symbolic.graph.literature import RELATIONS, relations_by_pair
from symbolic.graph.pair import decide_pair
from symbolic.graph.sweep import run_graph
from symbolic.graph.user import load_user_notion
from symbolic.model.mechanism import Mechanism
from symbolic.notions.listed.catalog import find_notion, notion_catalog
from symbolic.solve.backends.effort import units
from symbolic.solve.backends.settings import Settings

FAST = Settings(effort=units(20), second_solver=False)
S = Sizes(2, 2, 2)


def _mechanism(doc):
    """A counterexample's mechanism "A" from the pair's JSON, rebuilt from its exact strings."""
    rows = doc["mechanism"]["A"]
    n = doc["n"]
    table = {tuple(int(x) for x in k.split(",")): {int(o): sp.Rational(p) for o, p in row.items()}
             for k, row in rows.items()}
    return Mechanism.from_table(table, n=n)


def test_a_proved_map():
    r = decide_pair(find_notion("pure-dp"), find_notion("approx-dp"), S, FAST, relations_by_pair()[("pure-dp", "approx-dp")])
    assert r.relation == "implies" and r.map == "E = E, delta = 0"
    assert r.certificate is not None and r.agrees_with_literature is True


def test_a_qualitative_separation_rechecked_by_hand():
    r = decide_pair(find_notion("approx-dp"), find_notion("pure-dp"), S, FAST, relations_by_pair()[("approx-dp", "pure-dp")])
    assert r.relation == "not-implies" and r.qualitative and r.verified_exactly
    assert r.agrees_with_literature is True
    m = _mechanism(r.counterexample)
    params = {k: sp.Rational(v) for k, v in r.counterexample["parameters"].items() if not k.startswith("eps")}
    # approx-dp at the counterexample's own (E, δ): every neighbour pair's hockey-stick sum ≤ δ
    dbs = [d for d, _ in m.rows]
    for d in dbs:
        for i in range(m.n):
            for v in m.domain:
                d2 = d[:i] + (v,) + d[i + 1:]
                if d2 != d:
                    hs = sum(max(0, m.prob(d, o) - params["E"] * m.prob(d2, o)) for o in m.outputs)
                    assert hs <= params["delta"]
    # pure DP at no level: some output has positive probability on one neighbour and zero on the other
    assert any(m.prob(d, o) > 0 and m.prob(d[:i] + (v,) + d[i + 1:], o) == 0
               for d in dbs for i in range(m.n) for v in m.domain for o in m.outputs)


def test_a_refuted_map_then_a_coarser_one_proved():
    r = decide_pair(find_notion("pure-dp"), find_notion("free-lunch"), S, FAST, None)
    # at n = 2 the same level fails (exact check below) and the group-privacy level E² is proved
    assert r.relation == "implies" and r.map == "E = E**2" and r.extra["refuted_map"] == "E = E"
    cx = r.extra["map_counterexample"]
    m = _mechanism(cx)
    E = sp.Rational(cx["parameters"]["E"])
    dbs = [d for d, _ in m.rows]
    ratios = [m.prob(x, o) / m.prob(y, o) for x in dbs for y in dbs for o in m.outputs if m.prob(y, o) > 0]
    assert max(ratios) > E
    neighbours = [(x, y) for x in dbs for y in dbs if sum(a != b for a, b in zip(x, y)) == 1]
    assert all(m.prob(x, o) <= E * m.prob(y, o) for x, y in neighbours for o in m.outputs)


def test_no_map_is_unknown_with_the_reason():
    from symbolic.notions.base import Notion, ParamSpec
    from symbolic.notions.info import NotionInfo
    t = ParamSpec("t", lower=0, lower_strict=True, meaning="a level with no least value")
    body = lambda ops, A, P=None, *, t: ops.And(ops.le(A.p(d, o), (1 + t) * A.p(d, o)) for d in A.rows
                                                for o in A.outputs)
    open_level = NotionInfo("open-level", Notion("OpenLevel", (t,), body), "none", "polynomial", "test", "x")
    r = decide_pair(find_notion("pure-dp"), open_level, Sizes(1, 2, 2), FAST, None)
    assert r.relation == "unknown" and "no parameter map" in r.reason


def test_an_unshared_parameter_goes_to_its_least_level():
    r = decide_pair(find_notion("Noninterference"), find_notion("pure-dp"), Sizes(1, 2, 2), FAST, None)
    assert r.relation == "implies" and r.map == "E = 1"          # no dependence on the input is 0-DP
    r = decide_pair(find_notion("pure-dp"), find_notion("tv-privacy"), Sizes(1, 2, 2), FAST, None)
    # δ = 0 refuted, but TV privacy holds at some level on the counterexample: no separation, a trivial refutation
    assert r.relation == "unknown" and r.map == "delta = 0" and not r.qualitative
    assert r.extra["refuted_maps"] == ["delta = 0"] and r.extra["trivial"] is True and r.verified_exactly is True


def test_literature_relations_name_listed_notions():
    ids = {i.id for i in notion_catalog()}
    for rel in RELATIONS:
        assert rel.source in ids and rel.target in ids, rel
        assert (rel.map is None) == (not rel.holds and rel.qualitative)


@pytest.mark.slow
def test_hasse_diagram_merges_equivalent_notions_and_reduces():
    g = run_graph(["pure-dp", "approx-dp", "free-lunch", "Bayesian0DP"], sizes=S, settings=FAST, jobs=2)
    d = g.diagram()
    # at n = 2 the three imply each other, pure-dp reaching the other two only at level E²
    assert d.classes == (("pure-dp", "free-lunch", "Bayesian0DP"), ("approx-dp",))
    assert d.node_label(0).startswith("pure-dp ≈ free-lunch ≈ Bayesian0DP\n") and "pure-dp⇒free-lunch: E = E²" in d.node_label(0)
    assert [(i, j) for i, j, _ in d.edges] == [(0, 1)]
    one = run_graph(["pure-dp", "free-lunch"], sizes=Sizes(1, 2, 2), settings=FAST).diagram()
    assert one.node_label(0) == "pure-dp ≡ free-lunch"      # at n = 1 they are the same notion
    assert "->" in dot_text(d) and "arrowhead=tee" in dot_text(d, separations=True)
    doc = g.to_json()
    assert set(doc) >= {"notions", "sizes", "pairs"} and len(doc["pairs"]) == 12
    keys = {"from", "to", "relation", "map", "tight", "certificate", "counterexample", "verified_exactly",
            "literature_says", "agrees_with_literature", "reason", "seconds"}
    assert all(keys <= set(p) for p in doc["pairs"])
    json.dumps(doc)


def test_render_with_graphviz_and_without(monkeypatch):
    g = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=FAST)
    svg, how = render_svg(g.diagram())
    assert svg.lstrip().startswith("<") and "svg" in svg[:400]
    monkeypatch.setattr("shutil.which", lambda name: None)
    svg2, how2 = render_svg(g.diagram())
    assert how2 == "networkx+matplotlib" and "<svg" in svg2


def test_cache_recomputes_only_what_changed(tmp_path):
    first = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=FAST, cache_dir=tmp_path)
    again = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=FAST, cache_dir=tmp_path)
    assert first.cached == 0 and again.cached == 2
    assert [p.to_json() for p in again.pairs] == [p.to_json() for p in first.pairs]
    bigger = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 3), settings=FAST, cache_dir=tmp_path)
    assert bigger.cached == 0


def test_processes_give_the_same_answers():
    one = run_graph(["pure-dp", "approx-dp", "free-lunch"], sizes=Sizes(1, 2, 2), settings=FAST)
    two = run_graph(["pure-dp", "approx-dp", "free-lunch"], sizes=Sizes(1, 2, 2), settings=FAST, jobs=2)
    assert [(p.source, p.target, p.relation, p.qualitative) for p in one.pairs] == \
           [(p.source, p.target, p.relation, p.qualitative) for p in two.pairs]


@pytest.mark.slow   # starts a Dask cluster (4 s); the process pool is tested above
def test_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c) as client:
        g = run_graph(["pure-dp", "approx-dp"], sizes=Sizes(1, 2, 2), settings=FAST, dask_address=client)
    assert [p.relation for p in g.pairs] == ["implies", "not-implies"]


USER = '''
from symbolic import E_SPEC, Notion

def floor(ops, A, P=None, *, E):
    return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)

Floor = Notion("Floor", (E_SPEC,), floor, summary="every output has probability at least 1/(1+E)")

def crash(ops, A, P=None, *, E):
    raise ZeroDivisionError("boom")

Crash = Notion("Crash", (E_SPEC,), crash)
NotANotion = 3
'''


def test_a_users_notion_in_the_graph(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(textwrap.dedent(USER))
    g = run_graph([f"{f}:Floor", "pure-dp"], sizes=Sizes(1, 2, 2), settings=FAST)
    rel = {(p.source, p.target): p for p in g.pairs}
    assert rel[("pure-dp", "Floor")].relation == "not-implies" and rel[("pure-dp", "Floor")].verified_exactly
    assert rel[("Floor", "pure-dp")].relation in ("implies", "not-implies")
    crashed = run_graph([f"{f}:Crash", "pure-dp"], sizes=Sizes(1, 2, 2), settings=FAST)
    assert all(p.relation == "unknown" and "ZeroDivisionError" in p.reason for p in crashed.pairs)


@pytest.mark.parametrize("spec, message", [
    ("missing.py:Floor", "no such file"), ("{dir}/mine.py:Nope", "defines no .Nope.; notions there: Crash, Floor"),
    ("{dir}/mine.py:NotANotion", "not a Notion"), ("{dir}/bad.py:X", "failed to import"),
    ("{dir}/mine.py:1x", "not a Python name")])
def test_bad_user_files_are_one_line_errors(tmp_path, spec, message):
    (tmp_path / "mine.py").write_text(textwrap.dedent(USER))
    (tmp_path / "bad.py").write_text("raise RuntimeError('broken file')\n")
    with pytest.raises(DPCheckError, match=message) as e:
        load_user_notion(spec.format(dir=tmp_path))
    assert "\n" not in str(e.value)


def test_bad_graph_requests():
    with pytest.raises(DPCheckError, match="did you mean"):
        run_graph(["pure-dp", "puredpp"], sizes=S)
    with pytest.raises(DPCheckError, match="at least two"):
        run_graph(["pure-dp"], sizes=S)
    with pytest.raises(DPCheckError, match="named twice"):
        run_graph(["pure-dp", "PureDP"], sizes=S)


def test_a_transcendental_pair_is_refuted_by_exact_evaluation():
    r = decide_pair(find_notion("mi-dp"), find_notion("tv-privacy"), Sizes(1, 2, 2), FAST, None)
    # the map δ = 0 is refuted (trivially: TV privacy at δ = 1 holds everywhere), which is no separation
    assert r.relation == "unknown" and r.extra["refuted_maps"] == ["delta = 0"] and r.extra["trivial"]
    assert r.verified_exactly and r.extra["found_by"].startswith("exact evaluation")
    cx = r.counterexample
    m = _mechanism(cx)
    level = sp.Rational(cx["parameters"]["E"])
    (x, _), (y, _) = m.rows
    # δ = 0 total variation fails: the two rows differ ...
    assert any(m.prob(x, o) != m.prob(y, o) for o in m.outputs)
    # ... while ε-MI-DP holds: the mutual information under priors on a grid stays below log E (floating point,
    # an independent sanity check)
    import math
    p = [float(m.prob(x, o)) for o in m.outputs]
    q = [float(m.prob(y, o)) for o in m.outputs]

    def info(b):
        mix = [b * pi + (1 - b) * qi for pi, qi in zip(p, q)]
        return sum(w * sum(ri * math.log(ri / mi) for ri, mi in zip(r, mix) if ri > 0) for w, r in ((b, p), (1 - b, q)))
    assert max(info(k / 200) for k in range(201)) <= math.log(float(level)) + 1e-9


def test_transitive_reduction_on_a_chain():
    from symbolic.graph.pair import PairResult as R
    pairs = [R(x, y, "implies", "E = E") for x, y in (("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("a", "d"),
                                                      ("b", "d"))]
    d = diagram(["a", "b", "c", "d"], pairs + [R("d", "a", "not-implies", qualitative=True)])
    assert [(d.node_label(i), d.node_label(j)) for i, j, _ in d.edges] == [("a", "b"), ("b", "c"), ("c", "d")]
    assert d.separations == (("d", "a", True),)


def test_a_false_coarser_map_is_not_accepted():
    from symbolic.graph.maps import claim_params, parameter_map
    from symbolic.graph.pair import _prove_map
    a, b = find_notion("pure-dp"), find_notion("free-lunch")
    pmap = parameter_map(a, b)
    params = claim_params(a.notion)
    hyp = (a.notion(*(p.symbol for p in params)),)
    assert _prove_map(a, b, pmap, params, hyp, S, FAST) is None          # E ↦ E fails at n = 2


def test_pairs_inferred_by_transitivity_and_by_a_travelling_separation():
    g = run_graph(["pure-dp", "free-lunch", "approx-dp"], sizes=Sizes(1, 2, 2), settings=FAST)
    rel = {(p.source, p.target): p for p in g.pairs}
    t = rel[("free-lunch", "approx-dp")]
    assert t.relation == "implies" and t.map == "E = E, delta = 0" and t.extra["map_source"] == "transitivity via pure-dp"
    g = run_graph(["approx-dp", "f-dp", "pure-dp"], sizes=Sizes(1, 2, 2), settings=FAST)
    rel = {(p.source, p.target): p for p in g.pairs}
    s = rel[("f-dp", "pure-dp")]
    assert s.relation == "not-implies" and s.qualitative and s.extra["map_source"] == "separation via approx-dp"
    # the witness, read back exactly: f-dp holds at the parameters shown and pure DP at no level (a zero
    # against a positive entry)
    from symbolic.graph.infer import holds_exactly, table_of
    tab, pop = table_of(s.counterexample)
    vals = {k: sp.Rational(v) for k, v in s.counterexample["parameters"].items()}
    assert holds_exactly(find_notion("f-dp").notion, tab, pop, vals)
    assert any(tab.p(d, o) > 0 and tab.p(e, o) == 0 for d in tab.rows for e in tab.rows for o in tab.outputs)


def test_a_travelling_separation_is_rechecked_not_trusted():
    # a fabricated "approx-dp ⇒ free-lunch" must not carry approx-dp's witness over: the witness is
    # evaluated exactly on free-lunch first, and fails there
    from symbolic.graph.infer import separation_upward
    from symbolic.graph.pair import PairResult as R
    sep = decide_pair(find_notion("approx-dp"), find_notion("pure-dp"), Sizes(1, 2, 2), FAST, None)
    assert sep.qualitative
    fake = {("approx-dp", "free-lunch"): R("approx-dp", "free-lunch", "implies", "E = E"),
            ("approx-dp", "pure-dp"): sep}
    assert separation_upward(find_notion("free-lunch"), "pure-dp", fake, ["approx-dp"]) is None


def test_composition_of_level_keeping_maps():
    from symbolic.graph.infer import compose
    assert compose("gamma = E", "E = gamma, delta = 0") == "E = E, delta = 0"
    assert compose("E = E**2", "E = E") is None
    assert compose("E = 1", "gamma = E") == "gamma = 1"


def test_an_implication_under_a_side_condition_stays_out_of_the_order():
    from symbolic.graph.pair import PairResult as R
    pairs = [R("a", "b", "implies", "E = E"), R("b", "a", "implies", "E = E**2", extra={"assuming": ["full-support prior"]})]
    d = diagram(["a", "b"], pairs)
    assert d.classes == (("a",), ("b",)) and [(i, j) for i, j, _ in d.edges] == [(0, 1)]
    assert d.conditional == ((1, 0, "E = E**2 (if full-support prior)"),)
    assert "style=dotted" in dot_text(d)


def test_edges_that_hold_at_every_size_are_solid_and_the_others_dashed():
    from symbolic.graph.pair import PairResult as R
    every = {"scope": "all sizes", "all_sizes": {"reduction": "r", "argument": ["x"]}}
    pairs = [R("a", "b", "implies", "E = E", extra=every), R("b", "c", "implies", "E = E", extra={"scope": "within bounds"}),
             R("a", "c", "implies", "E = E")]
    d = diagram(["a", "b", "c"], pairs)
    assert d.every_size == ((0, 1),)
    dot = dot_text(d)
    assert 'n0 -> n1 [label="E = E", style=solid];' in dot and 'n1 -> n2 [label="E = E", style=dashed];' in dot
    assert "solid: holds at every size" in dot


def test_an_ad_hoc_implication_needs_a_parameter_map():
    from symbolic.core.errors import DPCheckError
    from symbolic.graph.maps import implication_with_map
    from symbolic.notions.base import Notion, ParamSpec
    t = ParamSpec("t", lower=0, lower_strict=True)
    open_level = Notion("OpenLevel", (t,), lambda ops, A, P=None, *, t: ops.And([]))
    claim, text = implication_with_map(find_notion("pure-dp").notion, find_notion("approx-dp"), sizes=Sizes(1, 2, 2))
    assert text == "E = E, delta = 0" and str(claim.parts[0]) == "PureDP(E) ⇒ ApproxDP(E, 0)"
    with pytest.raises(DPCheckError, match="no parameter map from PureDP's parameters to OpenLevel's"):
        implication_with_map(find_notion("pure-dp").notion, open_level, sizes=Sizes(1, 2, 2))
