"""`dpcheck derive map A B`: tight constants between notions, each with its proof and attaining table.

The expected constants are the literature's, computed by hand in the comments and compared with
sympy; the attaining tables are also checked independently through `derive_level`."""
import json

import pytest
import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.derive.level import derive_level
from symbolic.graph.constants.derivation import MapDerivation, derive_map
from symbolic.graph.constants.growth import growth_summary
from symbolic.graph.constants.attain import exact_table, level_is_exactly
from symbolic.graph.constants.fit import Shape, as_rational, fit_rational, recognise
from symbolic.notions.listed.catalog import find_notion
from symbolic.solve.backends.settings import Settings
from tests.cli.test_cli_frame import dpcheck, one_error_line

E, delta = sp.Symbol("E", real=True), sp.Symbol("delta", real=True)
FAST = Settings(second_solver=False)
CONTRACT = {"formula", "latex", "assumptions", "attained_by", "proof", "sizes", "checks"}


def same(text, expr):
    return sp.simplify(sp.sympify(text, locals={"E": E, "delta": delta}) - expr) == 0


@pytest.mark.slow
def test_pure_dp_to_tv_by_the_console_script():
    # binary randomized response P(o = x) = E/(E+1) is E-DP and its TV distance is (E-1)/(E+1)
    # (Kairouz, Oh, Viswanath 2015): no E-DP table does worse at n = 1
    code, out, err = dpcheck("derive", "map", "pure-dp", "tv-privacy", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert CONTRACT <= set(doc)
    assert same(doc["formula"], (E - 1) / (E + 1)) and doc["tight"] is True
    assert doc["proof"]["claim"].startswith("PureDP") and doc["sizes"] == {"n": 1, "domain": 2, "outputs": 2}
    att = doc["attained_by"]
    assert att["kind"] == "symbolic" and att["level"] == "exact"
    # the attaining table, read back as a user's mechanism: its tight TV is the formula
    d = derive_level("total-variation", att["mechanism"])
    assert d.ok and same(str(d.formula), (E - 1) / (E + 1))
    assert all(c["ok"] for c in doc["checks"])


@pytest.mark.slow   # the same level in closed form for every order: tests/derive/test_curve_claims.py
def test_pure_dp_to_renyi_2_tight_level():
    # D_2 of randomized response: Σ p²/q = (E/(E+1))²·(E+1) + (1/(E+1))²·(E+1)/E = (E² − E + 1)/E
    d = derive_map(find_notion("pure-dp"), find_notion("renyi-dp"), settings=FAST)
    assert d.tight and same(str(d.formula), (E ** 2 - E + 1) / E)
    lv = derive_level("renyi-2", d.attained_by["mechanism"])
    assert same(str(lv.level_ratio), (E ** 2 - E + 1) / E)


@pytest.mark.slow   # over 6 s on 2 cores; `pytest -m slow` and the self-test run it
def test_text_output_and_level_of_approx_dp_in_two_parameters():
    # (ε, δ)-DP to TV: (E − 1 + 2δ)/(E + 1) (Kairouz, Oh, Viswanath 2015, Thm. 2's TV corollary)
    d = derive_map(find_notion("approx-dp"), find_notion("tv-privacy"), settings=FAST)
    assert same(str(d.formula), (E - 1 + 2 * delta) / (E + 1)) and d.tight
    assert d.attained_by["level"] == "exact" and "E" in d.attained_by["at"] and "delta" in d.attained_by["at"]
    assert "best delta" in d.text() and "proof:" in d.text()


def test_no_finite_level_is_reported_honestly():
    # Rényi DP bounds no ratio: the search's levels run away, and no formula is made up
    d = derive_map(find_notion("renyi-dp"), find_notion("pure-dp"), settings=FAST)
    assert d.formula is None and d.proof is None and d.attained_by is None and not d.tight
    assert "no finite map" in d.reason


def test_fit_and_rounding_are_exact():
    pts = [((sp.Integer(e),), sp.Rational(e - 1, e + 1)) for e in range(2, 8)]
    assert sp.simplify(fit_rational(pts, [E]) - (E - 1) / (E + 1)) == 0
    assert fit_rational(pts[:3], [E]) is None  # no points to spare: no claim
    assert as_rational(0.33333333333) == sp.Rational(1, 3) and as_rational(3.14159265358979) is None
    f, _ = recognise([((sp.Integer(e),), float(sp.sqrt(e + 1))) for e in range(2, 9)], [E])
    assert sp.simplify(f - sp.sqrt(E + 1)) == 0


def test_exact_level_of_a_table():
    tv = find_notion("tv-privacy").notion
    spec = tv.params[0]
    t = exact_table(Shape(1, 2, 2), [[sp.Rational(3, 4), sp.Rational(1, 4)], [sp.Rational(1, 4), sp.Rational(3, 4)]])
    assert level_is_exactly(tv, "delta", spec, t, {}, sp.Rational(1, 2)) == "exact"
    assert level_is_exactly(tv, "delta", spec, t, {}, sp.Rational(501, 1000)) == "within 1%"
    assert level_is_exactly(tv, "delta", spec, t, {}, sp.Rational(1, 3)) is None  # TV 1/2 > 1/3: B fails


def _run(f, n):
    return MapDerivation("a", "b", "E", {}, f, (), Sizes(n, 2, 2), ())


def test_growth_wording():
    assert "stops changing at n=2" in growth_summary([_run(E, 1), _run(E ** 2, 2), _run(E ** 2, 3)])
    assert "changes at every step" in growth_summary([_run(E, 1), _run(E ** 2, 2), _run(E ** 3, 3)])
    assert "same at every size" in growth_summary([_run(E, 1), _run(E, 2)], ())
    assert "unknown at n = 2" in growth_summary([_run(E, 1), _run(None, 2)])
    assert "not reached" in growth_summary([_run(E, 1)], (2, 3))


@pytest.mark.parametrize("args, words", [
    (("derive", "map", "pure-dp"), "two notions"),
    (("derive", "map", "pure-dp", "StatisticalNondisclosure"), "no every-prior form"),
    (("derive", "map", "SemanticPrivacy", "pure-dp", "--n", "2"), "only at n = 1"),
    (("derive", "map", "pure-dp", "no-such-notion"), "no-such-notion"),
    (("derive", "map", "pure-dp", "tv-privacy", "--n", "2", "--max-n", "3"), "not both"),
    (("derive", "map", "pure-dp", "tv-privacy", "--mechanism", "x.json"), "--mechanism"),
    (("derive", "map", "pure-dp", "approx-dp", "--target", "gamma"), "gamma"),
    (("derive", "epsilon", "randomized-response", "--n", "2"), "derive map"),
])
def test_bad_input_is_one_line(args, words):
    code, out, err = dpcheck(*args)
    assert code == 2 and words in one_error_line(err)


@pytest.mark.slow
def test_growth_of_three_pairs_by_the_console_script():
    # group privacy (Dwork, Roth 2014, Thm 2.2): k = 2 records cost E², reached once n = 2;
    # local DP over whole databases: E^n (n records changed one at a time); TV stays (E-1)/(E+1)
    expect = {("pure-dp", "group-dp"): [E, E ** 2, E ** 2], ("pure-dp", "local-dp"): [E, E ** 2, E ** 3],
              ("pure-dp", "tv-privacy"): [(E - 1) / (E + 1)] * 3}
    words = {("pure-dp", "group-dp"): "stops changing at n=2", ("pure-dp", "local-dp"): "changes at every step",
             ("pure-dp", "tv-privacy"): "same at every size"}
    for (a, b), fs in expect.items():
        # a budget far above the work (the default 60 s per size is a user's limit, not part of the question)
        code, out, err = dpcheck("derive", "map", a, b, "--max-n", "3", "--budget", "1200", "--json", timeout=3600)
        assert code == 0, err
        g = json.loads(out)["growth"]
        assert [same(t, f) for t, f in zip(g["formulas"], fs)] == [True] * 3, (a, b, g["formulas"])
        assert words[(a, b)] in g["summary"]
        assert all(r["tight"] and r["proof"] and r["attained_by"] for r in g["runs"])


@pytest.mark.slow
def test_renyi_by_the_console_script_with_the_second_solver():
    # the default settings: cvc5 re-decides the proof's queries (it may time out: the z3 proof stands)
    code, out, err = dpcheck("derive", "map", "pure-dp", "renyi-dp", "--json", timeout=600)
    assert code == 0, err
    doc = json.loads(out)
    assert same(doc["formula"], (E ** 2 - E + 1) / E) and doc["tight"]
    assert doc["proof"]["solver"].startswith("z3") and doc["proof"]["second_verdict"] in ("unsat", "unknown")


@pytest.mark.slow
def test_bounded_range_and_unbounded_dp():
    # ε-DP ⇒ 2ε-BR (Durfee, Rogers 2019); unbounded ε-DP ⇒ 2ε bounded DP when a value can be replaced by
    # another non-absent one (|𝒟| = 3: remove then add)
    br = derive_map(find_notion("pure-dp"), find_notion("bounded-range"), settings=FAST)
    assert br.tight and same(str(br.formula), E ** 2)
    ub = derive_map(find_notion("unbounded-dp"), find_notion("pure-dp"), sizes=Sizes(1, 3, 2), settings=FAST)
    assert ub.tight and same(str(ub.formula), E ** 2)


# the search's best float table for ε-DP ⇒ group privacy at n = 2, E = 3 (as `derive map --max-n 3` found it)
GROUP_FLOAT = [[0.9751846622978505, 0.024815337702149352], [0.9255539868935652, 0.07444601310643484],
               [0.9255539868935572, 0.07444601310644267], [0.7766619606807793, 0.22333803931922067]]


def _group_attain(monkeypatch=None):
    from symbolic.graph.constants import derivation as conversion
    from symbolic.graph.constants.fit import Estimate
    a, b = find_notion("pure-dp").notion, find_notion("group-dp").notion
    est = Estimate({"E": sp.Integer(3)}, 8.999999999995023, GROUP_FLOAT, ())
    return conversion.attain(a, b, "E", lambda point: {}, E ** 2, [est], Shape(2, 2, 2), [E])


def test_tight_needs_an_exact_attaining_table_read_back_from_its_text():
    # the table: P(0|00) = 3/4, P(0|01) = P(0|10) = 1/4, P(0|11) = 1/12 is 3-DP with group level 9
    a, b = find_notion("pure-dp").notion, find_notion("group-dp").notion
    rows = {"0,0": ["3/4", "1/4"], "0,1": ["1/4", "3/4"], "1,0": ["1/4", "3/4"], "1,1": ["1/12", "11/12"]}
    from symbolic.graph.constants.attain import reverify
    assert reverify(a, b, "E", b.params[0], rows, Shape(2, 2, 2), {}, {"E": sp.Integer(3)}, sp.Integer(9))
    assert not reverify(a, b, "E", b.params[0], rows, Shape(2, 2, 2), {}, {"E": sp.Integer(3)}, sp.Integer(8))
    # one entry 3·10⁻¹⁷ off (the row no longer sums to 1): not a table, never tight
    off = dict(rows, **{"1,1": ["1/12", "11/12 - 3/100000000000000000"]})
    assert not reverify(a, b, "E", b.params[0], off, Shape(2, 2, 2), {}, {"E": sp.Integer(3)}, sp.Integer(9))
    # from the float table, the snapped table is exact: rational entries, rows summing to exactly 1
    att, reason, checks = _group_attain()
    assert att["level"] == "exact" and att["reverified"] is True and att["found_by"].startswith("snapped")
    for row in att["mechanism"]["rows"].values():
        assert all(sp.Rational(p) >= 0 for p in row) and sum(sp.Rational(p) for p in row) == 1
    proved = {"method": "x"}
    d = MapDerivation("PureDP", "GroupDP", "E", {}, E ** 2, (), Sizes(2, 2, 2), (), proof=proved, attained_by=att)
    assert d.tight
    for unchecked in ({**att, "reverified": False}, {**att, "level": "within 1%"}):
        assert not MapDerivation("PureDP", "GroupDP", "E", {}, E ** 2, (), Sizes(2, 2, 2), (), proof=proved,
                                 attained_by=unchecked).tight


def test_a_table_only_within_one_percent_is_near_attaining_not_tight(monkeypatch):
    monkeypatch.setattr("symbolic.graph.constants.derivation.snapped_tables", lambda *a, **k: iter(()))
    att, reason, checks, near = _group_attain()
    assert att is None and "near-attaining" in reason and not all(ok for _, ok in checks)
    low, high = (sp.sympify(x) for x in near["level_between"])
    assert high == 9 and 9 - sp.Rational(8, 100) <= low < 9 and sp.sympify(near["gap"]) == 9 - low
    d = MapDerivation("PureDP", "GroupDP", "E", {}, E ** 2, (), Sizes(2, 2, 2), (), proof={"method": "x"},
                      attained_by=att, near_attained_by=near)
    assert not d.tight and "near-attaining" in d.text() and d.to_json()["near_attained_by"]["gap"] == near["gap"]


@pytest.mark.slow
def test_a_map_in_the_square_root_of_E():
    """ε-DP ⇒ (ε/2, δ)-DP: randomized response's hockey stick at e^(ε/2) is δ = (E − √E)/(E + 1), irrational at
    E = 2, 3, …; the second pass samples E = u² and fits in u. Proved, and attained by randomized response."""
    d = derive_map(find_notion("pure-dp"), find_notion("approx-dp"), target="delta", fix={"E": "sqrt(E)"},
                   settings=FAST)
    Ep = sp.Symbol("E", positive=True)
    assert sp.simplify(d.formula.xreplace({sp.Symbol("E", real=True): Ep}) - (Ep - sp.sqrt(Ep)) / (Ep + 1)) == 0
    assert d.tight and d.attained_by["kind"] == "symbolic" and d.proof is not None
    assert all(sp.sqrt(sp.sympify(p["E"])).is_Rational for p in d.attained_by["verified_at"])


def test_a_fitted_map_that_leaves_the_targets_range_says_where_it_holds():
    """ε-DP ⇒ (log 2, δ)-DP: the search samples E ≥ 2 and fits δ = (E − 2)/(E + 1), negative below E = 2; the
    map is stated with that condition (the proof says nothing where δ < 0), not for every E ≥ 1."""
    d = derive_map(find_notion("pure-dp"), find_notion("approx-dp"), target="delta", fix={"E": "2"}, settings=FAST)
    assert same(str(d.formula), (E - 2) / (E + 1))
    assert d.assumptions[-1] == "0 ≤ (E - 2)/(E + 1) ≤ 1"
    assert "only where" in d.proof.get("where", "")


@pytest.mark.slow
def test_a_users_own_notion_in_derive_map(tmp_path):
    """A notion the user wrote (FILE.py:NAME, ε-DP by hand) takes part in `derive map` as in `implies` and
    `graph`: its tight TV constant is randomized response's (E − 1)/(E + 1), proved and attained."""
    path = tmp_path / "mine.py"
    path.write_text("from symbolic import E_SPEC, Notion\n"
                    "HandDP = Notion('HandDP', (E_SPEC,), lambda ops, A, P=None, *, E: ops.And(\n"
                    "    ops.le(A.p(d, o), E * A.p(d2, o)) for d in A.rows for d2 in A.rows for o in A.outputs))\n")
    code, out, err = dpcheck("derive", "map", f"{path}:HandDP", "tv-privacy", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["from"] == "HandDP" and same(doc["formula"], (E - 1) / (E + 1)) and doc["tight"] is True


def test_derive_map_on_a_range_of_the_source_parameter():
    """ε-DP ⇒ (log 2, δ)-DP: for E ≤ 2 every ε-DP table is (log 2, 0)-DP, so δ = 0 there; for E ≥ 2 the map is
    (E − 2)/(E + 1) with no range condition left over. An assumption on a name A does not have is one line."""
    low = derive_map(find_notion("pure-dp"), find_notion("approx-dp"), target="delta", fix={"E": "2"},
                     settings=FAST, assume=("E<=2",))
    assert low.formula == 0 and low.assumptions == ("1 ≤ E ≤ 2",) and low.proof is not None
    high = derive_map(find_notion("pure-dp"), find_notion("approx-dp"), target="delta", fix={"E": "2"},
                      settings=FAST, assume=("E>=2",))
    assert same(str(high.formula), (E - 2) / (E + 1)) and high.assumptions == ("2 ≤ E",) and high.tight
    code, out, err = dpcheck("derive", "map", "pure-dp", "approx-dp", "--target", "delta", "--param", "E=2",
                             "--assume", "x>=2")
    assert code == 2 and one_error_line(err) and "not a parameter of PureDP" in err


# ---- notions relative to priors or beliefs, read as "for every prior" (symbolic.notions.listed.readings)
def test_local_information_privacy_both_ways_at_one_record():
    # every prior: LIP's level is free-lunch privacy's, which is ε-DP's at n = 1
    there = derive_map(find_notion("pure-dp"), find_notion("lip"), settings=FAST)
    back = derive_map(find_notion("lip"), find_notion("pure-dp"), settings=FAST)
    for d in (there, back):
        assert d.tight and same(str(d.formula), E) and any("for every prior" in r for r in d.readings)
    # the proof of the first is the solver's, on LIP under a prior the claim quantifies (not the closed form)
    assert "LocalInformationPrivacy(" in there.proof["claim"] and "EveryPrior" not in there.proof["claim"]
    assert "EveryPrior" in back.proof["claim"]


@pytest.mark.slow
def test_semantic_privacy_on_its_statistical_difference_scale_both_ways():
    # Kasiviswanathan–Smith's two-point step: posterior shift (√r − 1)/(√r + 1) for a likelihood ratio r
    eps = sp.Symbol("eps", real=True)
    back = derive_map(find_notion("SemanticPrivacy"), find_notion("pure-dp"), settings=FAST, assume=("eps<1",))
    assert back.tight and sp.simplify(back.formula - ((1 + eps) / (1 - eps)) ** 2) == 0
    assert "TwoPointSemanticPrivacy" in back.readings[0]
    code, out, err = dpcheck("derive", "map", "SemanticPrivacy", "pure-dp")   # ε ≥ 1 allows every table
    assert code == 0 and "best E = oo" in out, err


@pytest.mark.slow   # 15 s: the square-root fit samples twice
def test_pure_dp_to_semantic_privacy_in_the_square_root_of_E():
    d = derive_map(find_notion("pure-dp"), find_notion("SemanticPrivacy"), settings=FAST)
    assert d.tight and sp.simplify(d.formula - (sp.sqrt(E) - 1) / (sp.sqrt(E) + 1)) == 0


@pytest.mark.slow   # 30-45 s each at n = 2
@pytest.mark.parametrize("key, formula", [("bayesian-dp", E ** 2), ("inferential-privacy", E ** 2),
                                          ("pufferfish", E ** 2), ("membership-privacy", E), ("lip", E ** 2),
                                          ("StrongAdversaryDP", E)])
def test_prior_notions_at_two_records(key, formula):
    # correlated priors let a change of one record's value hide a change of the other: E² at n = 2
    d = derive_map(find_notion("pure-dp"), find_notion(key), sizes=Sizes(2, 2, 2), settings=FAST)
    assert d.tight and sp.simplify(d.formula - formula) == 0


def test_membership_privacy_bounds_no_dp_level():
    # positive membership privacy is one-sided: a table revealing absence outright is allowed
    d = derive_map(find_notion("membership-privacy"), find_notion("pure-dp"), settings=FAST)
    assert d.formula == sp.oo and d.tight and d.attained_by["level"].startswith("none")


def test_without_a_closed_form_each_value_is_bracketed_by_certified_numbers(monkeypatch):
    # recognition switched off: ε-DP ⇒ TV then has no formula, and (E − 1)/(E + 1) must lie in each interval
    from symbolic.graph.constants import derivation as conversion
    monkeypatch.setattr(conversion, "recognise", lambda pts, syms, **k: (None, "switched off"))
    monkeypatch.setattr(conversion, "in_square_root", lambda *a: (None, a[-2], "switched off"))
    monkeypatch.setattr(conversion, "fit_quadratic", lambda *a: None)
    d = derive_map(find_notion("pure-dp"), find_notion("tv-privacy"), settings=FAST)
    assert d.formula is None and not d.tight and len(d.brackets) == 3
    for b in d.brackets:
        true = (b.at["E"] - 1) / (b.at["E"] + 1)
        assert b.lower is not None and b.upper is not None and b.lower <= true <= b.upper
        assert b.upper - b.lower < sp.Rational(1, 10 ** 5) and b.table is not None
    doc = d.to_json()
    assert doc["formula"] is None and len(doc["certified_intervals"]) == 3 and "certified:" in d.text()


def test_an_estimate_below_the_constant_gets_no_upper_end(monkeypatch):
    # a search that reports 90% of what it found: the proof of the upper end must fail, and only the
    # certified lower end (an exact table's level) is kept
    from dataclasses import replace as _replace
    from symbolic.graph.constants import derivation as conversion
    real = conversion.search
    monkeypatch.setattr(conversion, "search", lambda *a, **k: _replace(real(*a, **k), value=real(*a, **k).value * 0.9))
    monkeypatch.setattr(conversion, "recognise", lambda pts, syms, **k: (None, "switched off"))
    monkeypatch.setattr(conversion, "in_square_root", lambda *a: (None, a[-2], "switched off"))
    monkeypatch.setattr(conversion, "fit_quadratic", lambda *a: None)
    d = derive_map(find_notion("pure-dp"), find_notion("tv-privacy"), settings=FAST)
    for b in d.brackets:
        true = (b.at["E"] - 1) / (b.at["E"] + 1)
        assert b.upper is None and "refuted" in b.why and b.lower <= true
        assert "no upper end proved" in b.text("delta")


def test_the_float_level_is_the_least_root_on_a_plateau():
    # Bayesian DP for every prior at n = 2: conditions whose guard fails give a margin of exactly 0, so the least
    # margin is 0 on a whole stretch once the others hold; the level is where it starts (the largest ratio, 3.4)
    from symbolic.graph.constants.fit import level
    from symbolic.notions.listed.readings import reading
    b = reading(find_notion("bayesian-dp").notion, 2, 2).notion
    rows = [[0.95, 0.05], [0.91, 0.09], [0.91, 0.09], [0.83, 0.17]]
    assert abs(level(b, "E", b.params[0], rows, Shape(2, 2, 2), {}) - 0.17 / 0.05) < 1e-9


@pytest.mark.slow   # 8-12 s: eight sample points before the quadratic fit has enough
def test_a_map_that_is_the_root_of_a_quadratic(tmp_path):
    # a user's notion whose level enters as E² − E + 1: from ε-DP the tight level solves b² − b + 1 = E
    (tmp_path / "quad.py").write_text(
        "from symbolic.api import Notion, E_SPEC\n"
        "def quad(ops, A, P=None, *, E):\n"
        "    return ops.And(ops.le(A.p(d, o), (E * E - E + 1) * A.p(e, o))\n"
        "                   for d in A.rows for e in A.rows if d != e for o in A.outputs)\n"
        "Quadratic = Notion('Quadratic', (E_SPEC,), quad)\n")
    code, out, err = dpcheck("derive", "map", "pure-dp", f"{tmp_path / 'quad.py'}:Quadratic", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert same(doc["formula"], (1 + sp.sqrt(4 * E - 3)) / 2) and doc["tight"] is True
