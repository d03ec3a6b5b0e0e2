"""Every report shows formulas as mathematics: whatever sympy syntax a record holds (``E**2``,
``2*delta``, ``log(…)``, ``^{…}`` in a source's statement), no report's visible text has Python's
operator syntax, and TeX-style exponents are set (MathML in HTML, <sup> in Markdown, math mode in LaTeX),
not printed as carets."""
import re
from html.parser import HTMLParser

from symbolic.report.html import audit_html
from symbolic.report.latex import audit_latex
from symbolic.report.markdown import audit_markdown

SYNTAX = re.compile(r"\*\*|[\w)]\*[\w(]")


def _doc():
    cx = {"n": 1, "domain": 2, "outputs": 2, "population": None,
          "mechanism": {"A": {"0": {"0": "1/2", "1": "1/2"}, "1": {"0": "13/144", "1": "131/144"}}},
          "parameters": {"E": "2", "eps": "log(2)", "delta": "1/10"},
          "violated": "ApproxDP(E**2, 2*delta): i=1: Pr[A(d)=o]=1/2 > E*Pr[A(d')=o]=4*13/144",
          "implication": "TwoPointSemanticPrivacy(E/2 - 1/2) ⇒ ApproxDP(E**2, 2*delta)"}
    refuted = {"id": "Z-1", "kind": "⇒", "source": "Z", "statement": "Theorem: (e^{3ε}-1)-SP ⇒ 2ε-DP, p_{-i} ≈_{2ε} p",
               "source_says": "holds", "verdict": "refuted", "agrees_with_source": False, "as_source_says": False,
               "bounds": {"n": 1, "domain": 2, "outputs": 2}, "seconds": 0.5, "counterexample": cx,
               "verified_exactly": True, "minimal": True,
               "finding": "the run: TwoPointSemanticPrivacy(E/2 - 1/2) ⇒ PureDP(E**2) is refuted at E**2*delta",
               "finding_explanation": "False for every ε > 0. The factor is E**2.",
               "parts": [{"implication": cx["implication"], "expected": "holds", "verdict": "refuted", "seconds": 0.5}]}
    derived = {"id": "Z-2", "kind": "derive", "source": "Z", "statement": "tight level", "source_says": "log(3)",
               "verdict": "derived", "agrees_with_source": True, "bounds": None, "seconds": 0.1,
               "formula": "Piecewise((log((1 - p)/(2*p)), p <= 1/3), (log(2*p/(1 - p)), True))", "parts": [],
               "derivation": {"assumptions": "E > 1 and 0 < delta*E**2 < 1",
                              "checks": ["the truncated geometric mechanism attains RP = E**2 for R_1",
                                         "engine: PureDP(E) ⇒ BRP(R_1→O) in prog_status(E**2): proved"]}}
    unknown = {"id": "Z-3", "kind": "⇒", "source": "Z", "statement": "PureDP(E) ⇒ PureDP(E**2/2)",
               "source_says": "holds", "verdict": "unknown", "agrees_with_source": False, "bounds": None,
               "seconds": 1.0, "reason": "effort limit", "parts": []}
    return {"tool": {"version": "0"}, "claims": [refuted, derived, unknown]}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.chunks, self._skip = [], False

    def handle_starttag(self, tag, attrs):
        self._skip = tag in ("style", "svg")

    def handle_endtag(self, tag):
        if tag in ("style", "svg"):
            self._skip = False

    def handle_data(self, data):
        if not self._skip:
            self.chunks.append(data)


def test_no_report_shows_python_operator_syntax():
    page = audit_html(_doc())
    visible = _Text()
    visible.feed(page)
    shown = " ".join(visible.chunks)
    markdown, latex = audit_markdown(_doc()), audit_latex(_doc())
    unbolded = re.sub(r"\*\*Z-\d\*\*", "", markdown)   # Markdown's own bold IDs
    for name, text in (("HTML", shown), ("Markdown", unbolded), ("LaTeX", latex)):
        assert not SYNTAX.search(text), (name, SYNTAX.search(text).group(0), text[max(0, SYNTAX.search(text).start() - 80):][:160])
    assert "E²" in shown and "2δ" in shown
    assert "<msup><mrow><mi>e</mi></mrow><mrow><mn>3</mn><mi>ε</mi></mrow></msup>" in page   # MathML, set
    assert "<msub><mrow><mi>p</mi></mrow><mrow><mo>-</mo><mi>i</mi></mrow></msub>" in page
    assert "E²" in markdown and "<sup>3ε</sup>" in markdown
    assert r"$^{3\varepsilon}$" in latex and r"\^{}" not in latex
    assert "undecided" in shown and "undecided" in markdown and "undecided" in latex
