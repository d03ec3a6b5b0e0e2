"""Jupyter renderings of results: ``_repr_html_`` and ``_repr_latex_`` on verdicts, claim results,
derived levels and graph pairs. Each says the verdict and its content, and escapes user text."""
import html

import pytest
import sympy as sp

from symbolic.api import (E, E_SPEC, ApproxDP, ClaimResult, Counterexample, Derived, Notion, PairResult, Param,
                          Proved, PureDP, Refuted, Settings, Sizes, Unknown, Vacuous, check, check_implies,
                          derive_level, implication_claim, mechanism_from_json, uniform)

FAST = Settings(second_solver=False)


def _floor(ops, A, P=None, *, E):
    return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)


# a user's notion whose name holds HTML and LaTeX specials
Floor = Notion("Floor<b>&_%", (E_SPEC,), _floor, summary="every output has probability ≥ 1/(1+E)")


@pytest.fixture(scope="module")
def refuted_result():
    return check_implies(PureDP(E.symbol), Floor(E.symbol), sizes=Sizes(1, 2, 2), settings=FAST)


def test_refuted_html_shows_the_counterexample_tables_and_escapes(refuted_result):
    v = refuted_result.verdict
    assert isinstance(v, Refuted) and v.verified_exactly
    out = v._repr_html_()
    assert ">refuted<" in out and "verified exactly" in out
    tab = v.counterexample.mechanisms["A"]
    tab = tab.table() if hasattr(tab, "table") else tab
    for d, row in tab.rows.items():
        assert f"<th>{','.join(map(str, d))}</th>" + "".join(f"<td>{p}</td>" for p in row) in out
    for k, val in v.counterexample.parameters.items():
        assert f"{k} = {val}" in out
    assert "Floor&lt;b&gt;&amp;_%" in out and "Floor<b>" not in out


def test_refuted_latex_names_sizes_parameters_and_escapes(refuted_result):
    v = refuted_result.verdict
    out = v._repr_latex_()
    assert out.startswith("$") and out.endswith("$")
    assert r"\text{refuted" in out and r"n=1, |\mathcal D|=2, |\mathcal O|=2" in out
    assert rf"\mathrm{{E}} = {sp.latex(v.counterexample.parameters['E'])}" in out
    assert r"\begin{array}" in out


def test_hand_made_refutation_lists_exact_probabilities_and_population():
    mech = mechanism_from_json({"n": 1, "domain": [0, 1], "outputs": ["<o>", "x"],
                                "rows": {"0": ["3/4", "1/4"], "1": ["1/3", "2/3"]}})
    cx = Counterexample(Sizes(1, 2, 2), {"A": mech}, {"P": uniform(n=1, domain=(0, 1))}, {"E": sp.Integer(2)},
                        "PureDP(2) fails", "X ⇒ PureDP(2)")
    out = Refuted(cx, verified_exactly=False, minimal=True, note="a <note>")._repr_html_()
    for p in ("3/4", "1/4", "1/3", "2/3", "1/2"):
        assert f"<td>{p}</td>" in out
    assert "<th>&lt;o&gt;</th>" in out and "a &lt;note&gt;" in out and "NOT verified exactly" in out
    assert "population P" in out and "mechanism A" in out
    latex = Refuted(cx, verified_exactly=False, minimal=True)._repr_latex_()
    assert "not verified exactly" in latex and r"\frac{3}{4}" in latex and r"\text{<o>}" in latex


def test_proved_latex_and_html_state_the_bounds():
    v = Proved(Sizes(2, 2, 2), (Sizes(1, 2, 2), Sizes(2, 2, 2)), vacuity="satisfiable")
    assert v._repr_latex_() == r"$\text{proved within } n\le 2, |\mathcal D|\le 2, |\mathcal O|\le 2$"
    out = v._repr_html_()
    assert ">proved<" in out and "n ≤ 2, |𝒟| ≤ 2, |𝒪| ≤ 2" in out and "2 sizes" in out and "witness" in out


@pytest.mark.parametrize("cls", [Unknown, Vacuous])
def test_reasons_are_escaped(cls):
    reason = "time-out <5 s> & 100% of x_1 {spent}"
    v = cls(reason)
    out = v._repr_html_()
    assert f">{v.name}<" in out and html.escape(reason) in out and "<5 s>" not in out
    latex = v._repr_latex_()
    assert r"100\% of x\_1 \{spent\}" in latex and v.name in latex


def test_vacuous_names_its_sizes():
    v = Vacuous("hypotheses contradict", Sizes(1, 2, 3))
    assert "n = 1, |𝒟| = 2, |𝒪| = 3" in v._repr_html_()
    assert r"n=1, |\mathcal D|=2, |\mathcal O|=3" in v._repr_latex_()


def test_derived_renders_its_formula():
    x = sp.Symbol("x", positive=True)
    f = sp.log(1 + x) / 2
    v = Derived(f, "x > 0 & <small>", (("at x=1", True), ("at x=2", False)))
    assert sp.latex(f) in v._repr_latex_() and r"x > 0 \& <small>" in v._repr_latex_()
    out = v._repr_html_()
    assert html.escape(str(f)) in out and "x &gt; 0 &amp; &lt;small&gt;" in out and "1 of 2" in out
    text = Derived("<fact>", "exact")
    assert r"\text{<fact>}" in text._repr_latex_() and "&lt;fact&gt;" in text._repr_html_()


def test_claim_result_shows_statement_verdict_and_time():
    delta = Param("delta", lower=0, upper=1)
    res = check(implication_claim(PureDP(E.symbol), ApproxDP(E.symbol, delta.symbol), params=(E, delta),
                                  sizes=Sizes(1, 2, 2)), FAST)
    assert isinstance(res, ClaimResult) and isinstance(res.verdict, Proved)
    out = res._repr_html_()
    assert "PureDP(E) ⇒ ApproxDP(E, δ)" in out and ">proved<" in out and "1 part," in out
    latex = res._repr_latex_()
    assert latex.count("$") == 2 and r"\text{proved within } n\le 1" in latex and "ApproxDP(E, δ)" in latex


def test_claim_result_escapes_a_refuted_statement(refuted_result):
    out = refuted_result._repr_html_()
    assert "Floor&lt;b&gt;" in out and "Floor<b>" not in out and ">refuted<" in out
    assert r"Floor<b>\&\_\%" in refuted_result._repr_latex_()


def test_level_derivation_renders_formula_and_assumptions():
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
           "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    d = derive_level("pure-dp", doc)
    latex = d._repr_latex_()
    assert latex.startswith(r"$\varepsilon = ") and sp.latex(d.formula) in latex and "1/2 < p < 1" in latex
    out = d._repr_html_()
    assert ">derived<" in out and html.escape(str(d.formula)) in out and "1/2 &lt; p &lt; 1" in out
    assert f"{len(d.checks)} of {len(d.checks)}" in out


def test_level_derivation_infinite():
    d = derive_level("pure-dp", {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [1, 0], "1": [0, 1]}})
    assert d._repr_latex_() == r"$\varepsilon = \infty$"
    assert "infinite:" in d._repr_html_() and "&gt; 0" in d._repr_html_()


def test_pair_result_renders_relation_and_escapes():
    r = PairResult("pure-dp", "my<notion>", "implies", map="E ↦ E, δ = 0", tight=True)
    out = r._repr_html_()
    assert "my&lt;notion&gt;" in out and "⇒" in out and ">implies<" in out and "(tight)" in out
    assert r._repr_latex_() == r"$\text{pure-dp} \Rightarrow \text{my<notion>}$"
    u = PairResult("a_b", "c", "unknown", reason="time-out <5 s>")
    assert "time-out &lt;5 s&gt;" in u._repr_html_() and r"\text{a\_b}" in u._repr_latex_()
    n = PairResult("a", "b", "not-implies", verified_exactly=True, qualitative=True)
    assert r"\not\Rightarrow" in n._repr_latex_() and "qualitative" in n._repr_html_()
