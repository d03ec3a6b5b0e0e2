"""The graph held to `check`'s standard: a separation only where B fails at every level, counterexamples
re-verified exactly (never a constant flag), composed maps tried before a pair keeps only refuted
maps, inference equal to direct decision (a property over random small sets of notions), literature
disagreements stated, trivial refutations flagged, and a cache whose records are checked on reading."""
from __future__ import annotations

import copy
import json
import textwrap

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from symbolic.core.verdicts import Sizes
from symbolic.graph.cache import PairCache, pair_key
from symbolic.graph.infer import by_composition, by_transitivity, compose_general, separation_upward
from symbolic.graph.literature import Relation, relations_by_pair
from symbolic.graph.maps import ParameterMap, claim_params
from symbolic.graph.pair import PairResult, _prove_map, confirm, decide_pair, with_literature
from symbolic.graph.recheck import parse_map, recheck
from symbolic.graph.sampling import sample_counterexample
from symbolic.graph.sweep import run_graph
from symbolic.graph.user import load_user_notion
from symbolic.notions.listed.catalog import find_notion
from symbolic.solve.backends.settings import Settings

FAST = Settings(budget=20.0, second_solver=False)
N1 = Sizes(1, 2, 2)
POOL = ("pure-dp", "approx-dp", "free-lunch", "tv-privacy", "bounded-range", "f-dp")


@pytest.fixture(scope="module")
def direct():
    """Every ordered pair of the pool decided directly (no inference), as ``run_graph``'s workers do."""
    lit = relations_by_pair()
    return {(a, c): decide_pair(find_notion(a), find_notion(c), N1, FAST, lit.get((a, c)))
            for a in POOL for c in POOL if a != c}


def _refuted(r) -> set:
    return set(r.extra.get("refuted_maps") or ())


_PROVED = {}


def _proved_directly(a, c, map_text) -> bool:
    """Whether the engine proves A ⇒ C(map) directly at n = 1 (memoised: the pool is fixed)."""
    if (a, c, map_text) not in _PROVED:
        ai, ci = find_notion(a), find_notion(c)
        params = claim_params(ai.notion)
        values = parse_map(map_text, [p.name for p in params])
        pmap = ParameterMap(values, "test", map_text)
        hyp = (ai.notion(*(p.symbol for p in params)),)
        _PROVED[(a, c, map_text)] = _prove_map(ai, ci, pmap, params, hyp, N1, FAST) is not None
    return _PROVED[(a, c, map_text)]


def _not_refuted_by_candidates(a, c, map_text) -> bool:
    """No candidate table refutes A ⇒ C(map) by exact evaluation (a direct proof can take minutes:
    bounded range ⇒ TV at (E − 1)/(E + 1) takes z3 about 25 s; the one that is fast is proved below)."""
    ai, ci = find_notion(a), find_notion(c)
    params = claim_params(ai.notion)
    pmap = ParameterMap(parse_map(map_text, [p.name for p in params]), "test", map_text)
    return sample_counterexample(ai, ci, pmap, params, N1, "composed") is None


def test_only_a_separation_is_not_implies_and_every_counterexample_is_rechecked(direct):
    for (a, c), r in direct.items():
        if r.relation == "not-implies":
            assert r.qualitative and r.verified_exactly is True, (a, c)
            assert recheck(find_notion(a).notion, find_notion(c).notion, r.counterexample, r.extra["fails_at"])
        if r.extra.get("refuted_maps"):
            assert r.relation in ("unknown", "implies") or r.qualitative, (a, c)
    # δ = 0 refuted for free-lunch → TV: B holds at some level on the counterexample, so no separation
    r = direct[("free-lunch", "tv-privacy")]
    assert r.relation == "unknown" and _refuted(r) == {"delta = 0"} and r.extra["trivial"] is True


def test_composed_maps_are_tried_before_a_pair_keeps_only_refuted_maps():
    g = run_graph(["free-lunch", "pure-dp", "tv-privacy"], sizes=N1, settings=FAST)
    rel = {(p.source, p.target): p for p in g.pairs}
    r = rel[("free-lunch", "tv-privacy")]
    assert r.relation == "implies" and r.map == "delta = (E - 1)/(E + 1)"
    assert r.extra["map_source"] == "composition via pure-dp" and r.extra["refuted_maps"] == ["delta = 0"]
    assert _proved_directly("free-lunch", "tv-privacy", r.map)
    assert not [s for s in g.diagram().separations if s[:2] == ("free-lunch", "tv-privacy")]


def test_a_composed_map_must_stay_in_the_middle_notions_range():
    # E ↦ 1/E leaves [1, ∞) for E > 1: pure DP ⇒ B(1/E) says nothing, so nothing is composed
    pd, fl = find_notion("pure-dp").notion, find_notion("free-lunch").notion
    assert compose_general("E = 1/E", "E = E", pd, fl) is None
    assert compose_general("E = E**2", "E = E**2", pd, fl) == "E = E**4"


USER = '''
from sympy import Rational
from symbolic import E_SPEC, Notion

def slack():
    return Rational(1, 10)

def additive(ops, A, P=None, *, E):
    pairs = [(d, d[:i] + (v,) + d[i + 1:]) for i, d, v in A.neighbours()]
    return ops.And(ops.le(ops.sum(ops.max0(A.p(d, o) - E * A.p(e, o)) for o in A.outputs), slack())
                   for d, e in pairs)

AdditiveDP = Notion("AdditiveDP", (E_SPEC,), additive)
'''


def test_a_users_notion_is_not_separated_by_a_refuted_map(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(textwrap.dedent(USER))
    info = load_user_notion(f"{f}:AdditiveDP")
    r = decide_pair(info, find_notion("approx-dp"), N1, FAST, None)
    assert r.relation == "unknown" and _refuted(r) == {"E = E, delta = 0"} and r.verified_exactly is True
    params = claim_params(info.notion)
    E = params[0].symbol
    proved = _prove_map(info, find_notion("approx-dp"), ParameterMap({"E": E, "delta": sp.Rational(1, 10)}, "user",
                                                                     "E = E, delta = 1/10"),
                        params, (info.notion(E),), N1, FAST)
    assert proved is not None


def test_verified_exactly_is_computed_from_the_record(direct):
    pd, ad = find_notion("pure-dp").notion, find_notion("approx-dp").notion
    sep = direct[("approx-dp", "pure-dp")]
    assert confirm(ad, pd, sep).verified_exactly is True
    forged = dict(sep.counterexample, mechanism={"A": {k: {o: "1/2" for o in row}
                                                       for k, row in sep.counterexample["mechanism"]["A"].items()}})
    bad = confirm(ad, pd, PairResult("approx-dp", "pure-dp", "not-implies", counterexample=forged,
                                     verified_exactly=True, qualitative=True, extra=sep.extra))
    assert bad.relation == "unknown" and bad.verified_exactly is False
    off = copy.deepcopy(sep.counterexample)
    row = next(iter(off["mechanism"]["A"].values()))
    row[next(iter(row))] = "2"            # a row that no longer sums to 1
    assert recheck(ad, pd, off, sep.extra["fails_at"]) is False


def test_literature_disagreement_states_both_sides(direct):
    sep = direct[("approx-dp", "pure-dp")]
    says = Relation("approx-dp", "pure-dp", True, {"E": "E^2"}, "a made-up statement", "nobody (2099)")
    r = with_literature(sep, says, 1)
    assert r.agrees_with_literature is False
    d = r.extra["literature_disagreement"]
    assert "made-up statement" in d["literature"] and "no level" in d["engine"]
    from theorems.cli.commands.graph import _literature_word
    assert _literature_word(r) == "disagrees"
    assert _literature_word(with_literature(direct[("pure-dp", "free-lunch")],
                                            relations_by_pair()[("pure-dp", "free-lunch")], 1)) == "not compared"
    # a recorded implication whose map the engine refuted (only) disagrees too
    un = direct[("free-lunch", "tv-privacy")]
    r = with_literature(un, Relation("free-lunch", "tv-privacy", True, {"delta": "0"}, "x", "y"), 1)
    assert r.agrees_with_literature is False


def test_a_map_refutation_never_travels_as_a_separation(direct):
    un = direct[("free-lunch", "tv-privacy")]
    fake = PairResult("free-lunch", "tv-privacy", "not-implies", map=un.map, counterexample=un.counterexample,
                      verified_exactly=True, qualitative=False, extra=un.extra)
    done = {("free-lunch", "pure-dp"): direct[("free-lunch", "pure-dp")], ("free-lunch", "tv-privacy"): fake}
    assert separation_upward(find_notion("pure-dp"), "tv-privacy", done, ["free-lunch"]) is None


@hsettings(max_examples=20, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(POOL), min_size=3, max_size=5, unique=True))
def test_inference_equals_direct_decision(direct, chosen):
    for a in chosen:
        for c in chosen:
            if a == c:
                continue
            done = {k: v for k, v in direct.items() if k != (a, c) and k[0] in chosen and k[1] in chosen}
            t = by_transitivity(a, c, done, chosen)
            if t is not None:
                assert direct[(a, c)].relation == "implies" and t.map not in _refuted(direct[(a, c)]), (a, c)
            s = separation_upward(find_notion(a), c, done, chosen)
            if s is not None:
                assert direct[(a, c)].relation == "not-implies" and s.qualitative, (a, c)
    done = {k: v for k, v in direct.items() if k[0] in chosen and k[1] in chosen}
    for (a, c), r in by_composition(dict(done), {x: find_notion(x) for x in chosen}).items():
        assert direct[(a, c)].relation != "not-implies" and r.map not in _refuted(direct[(a, c)]), (a, c)
        assert _not_refuted_by_candidates(a, c, r.map), (a, c, r.map)


def test_each_inference_rule_fires_on_the_pool(direct):
    assert by_transitivity("free-lunch", "approx-dp", direct, POOL) is not None
    assert separation_upward(find_notion("f-dp"), "pure-dp", direct, ["approx-dp"]) is not None
    new = by_composition(dict(direct), {x: find_notion(x) for x in POOL})
    assert {("free-lunch", "tv-privacy"), ("bounded-range", "tv-privacy"), ("f-dp", "tv-privacy")} <= set(new)


def _record(cache, key):
    return json.loads(cache._path(key).read_text(encoding="utf-8"))


def test_a_cache_record_edited_by_hand_is_not_reported(tmp_path):
    ids = ["pure-dp", "approx-dp"]
    first = run_graph(ids, sizes=N1, settings=FAST, cache_dir=tmp_path)
    cache, lit = PairCache(tmp_path), relations_by_pair()
    a, b = find_notion("pure-dp"), find_notion("approx-dp")
    key = pair_key(a, b, N1, FAST, lit.get(("pure-dp", "approx-dp")))
    rec = _record(cache, key)
    assert rec["pair"]["relation"] == "implies" and cache.get(key) is not None
    seconds = dict(rec, pair=dict(rec["pair"], seconds=12345.0))   # consistent, but not what was written
    cache._path(key).write_text(json.dumps(seconds), encoding="utf-8")
    assert cache.get(key) is None
    rec["pair"]["relation"] = "not-implies"           # edited by hand: the digest no longer matches
    cache._path(key).write_text(json.dumps(rec), encoding="utf-8")
    assert cache.get(key) is None
    back = pair_key(b, a, N1, FAST, lit.get(("approx-dp", "pure-dp")))
    sep = _record(cache, back)
    assert sep["pair"]["relation"] == "not-implies" and cache.get(back) is not None
    sep["pair"]["relation"] = "implies"               # a separation turned into an implication: nothing to re-verify
    cache._path(back).write_text(json.dumps(sep), encoding="utf-8")
    assert cache.get(back) is None
    again = run_graph(ids, sizes=N1, settings=FAST, cache_dir=tmp_path)
    assert again.cached == 0 and [p.relation for p in again.pairs] == [p.relation for p in first.pairs]
    # a forged record with a matching digest still has to re-verify: an implication turned into a
    # separation carrying the other direction's witness fails the exact check and is recomputed
    witness = cache.get(back)
    forged = dict(rec["pair"], relation="not-implies", qualitative=True, counterexample=witness["counterexample"],
                  fails_at={"E": "1", "delta": "0"})
    cache.put(key, forged)
    assert cache.get(key) is None
    # a record copied under another key is refused
    other = pair_key(a, b, Sizes(1, 2, 3), FAST, lit.get(("pure-dp", "approx-dp")))
    cache._path(other).parent.mkdir(parents=True, exist_ok=True)
    cache._path(other).write_text(cache._path(back).read_text(encoding="utf-8"), encoding="utf-8")
    assert cache.get(other) is None


def test_the_key_covers_helpers_in_the_users_file_and_every_effort_setting(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(textwrap.dedent(USER))
    pd = find_notion("pure-dp")
    k1 = pair_key(load_user_notion(f"{f}:AdditiveDP"), pd, N1, FAST, None)
    f.write_text(textwrap.dedent(USER).replace("Rational(1, 10)", "Rational(1, 20)"))    # only the helper the body calls
    k2 = pair_key(load_user_notion(f"{f}:AdditiveDP"), pd, N1, FAST, None)
    assert k1 != k2
    k3 = pair_key(pd, find_notion("approx-dp"), N1, FAST, None)
    k4 = pair_key(pd, find_notion("approx-dp"), N1, Settings(budget=20.0, second_solver=False, cegis_rounds=7), None)
    k5 = pair_key(pd, find_notion("approx-dp"), N1, Settings(budget=20.0, second_solver=False, stop_at=1.0), None)
    assert k3 != k4 and k3 == k5


def test_a_forged_record_with_its_digest_recomputed_is_refused_when_it_contradicts_itself(tmp_path):
    """The digest is no signature (anyone can recompute it): a record is also refused when it contradicts
    itself, and its literature columns are computed afresh, never read."""
    run_graph(["pure-dp", "approx-dp"], sizes=N1, settings=FAST, cache_dir=tmp_path)
    cache, lit = PairCache(tmp_path), relations_by_pair()
    a, b = find_notion("pure-dp"), find_notion("approx-dp")
    key = pair_key(a, b, N1, FAST, lit.get(("pure-dp", "approx-dp")))
    honest = cache.get(key)
    assert honest["relation"] == "implies"
    # an "implies" under a false map, carrying the exact table that refutes that very map
    rr = {"n": 1, "domain": 2, "outputs": 2, "population": None, "parameters": {"E": "2"},
          "mechanism": {"A": {"0": {"0": "2/3", "1": "1/3"}, "1": {"0": "1/3", "1": "2/3"}}}}
    forged = dict(honest, map="E = 1, delta = 0", map_counterexample=rr, map_fails_at={"E": "3/2", "delta": "0"},
                  refuted_map="E = 3/2, delta = 0", refuted_maps=["E = 3/2, delta = 0"])
    cache.put(key, forged)
    assert cache.get(key) is None
    # the same record without its counterexample reads (nothing in it to contradict)
    cache.put(key, honest)
    assert cache.get(key) is not None
    # an implication carrying a separating counterexample
    cache.put(key, dict(honest, counterexample=rr))
    assert cache.get(key) is None
    # a map listed both as proved and as refuted
    cache.put(key, dict(honest, refuted_maps=[honest["map"]]))
    assert cache.get(key) is None
    # the literature columns of a record are recomputed, not trusted
    said = dict(honest, agrees_with_literature=not honest["agrees_with_literature"],
                literature_disagreement={"literature": "forged", "engine": "forged"})
    cache.put(key, said)
    back = cache.get(key)
    assert back["agrees_with_literature"] == honest["agrees_with_literature"]
    assert back.get("literature_disagreement") == honest.get("literature_disagreement")
    assert back["literature_says"] == honest["literature_says"]


def test_a_notions_key_is_the_same_in_two_processes_and_reads_dpcheck_s_own_files(tmp_path):
    """The key is read from source text, never from a memory address (so a second run finds the first's
    records), and dpcheck's own files count wherever dpcheck is installed (in site-packages too)."""
    import subprocess
    import sys
    from symbolic.graph import cache as cache_module
    code = ("from symbolic.graph.cache import notion_fingerprint; from symbolic.notions.listed.catalog import "
            "find_notion; print(notion_fingerprint(find_notion('pure-dp').notion))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0].strip()) == 64
    own = str(cache_module.ENGINE / "notions" / "base.py")
    assert cache_module._own(own) and not cache_module._own(json.__file__)
