"""The audit's HTML page (symbolic/report/html.py) built from a small synthetic audit document: the
summary counts, the counterexample's cells, MathML, inline SVG, no outside link, escaped strings."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from symbolic.core.errors import DPCheckError
from symbolic.report.html import audit_html, summary_counts
from symbolic.report.html_svg import inline_svg

HOSTILE = '<script>alert("x")</script><img src="https://evil.example/x.png" onerror="steal()">'


def _doc():
    proved = {"id": "Q-1", "kind": "prop", "source": "Q", "statement": "ε-DP ⇒ (ε,δ)-DP",
              "source_says": "holds", "verdict": "proved", "agrees_with_source": True, "as_source_says": True,
              "outcome": "as the source says", "bounds": {"n": 2, "domain": 2, "outputs": 2}, "seconds": 0.42,
              "counterexample": None, "verified_exactly": True, "formula": None, "reason": "within bounds",
              "minimal": None, "finding": None, "note": "the source proves it for every n", "vacuity": "satisfiable",
              "certificate": {"solver": "z3 4.13", "method": "CEGIS over populations", "second_solver": "cvc5 1.2",
                              "second_verdict": "unsat"},
              "witness": None, "parts": [], "explored": []}
    refuted = {"id": "Q-2", "kind": "prop", "source": "Q", "statement": "Bayesian privacy ⇒ ε-DP " + HOSTILE,
               "source_says": "holds", "verdict": "refuted", "agrees_with_source": False, "as_source_says": False,
               "outcome": "differs from the source (finding)",
               "bounds": {"n": 1, "domain": 2, "outputs": 2}, "seconds": 1.5,
               "counterexample": {"n": 1, "domain": 2, "outputs": 2,
                                  "mechanism": {"A": {"0": {"0": "3/4", "1": "1/4"}, "1": {"0": "1/8", "1": "7/8"}}},
                                  "population": {"P": {"0": "2/3", "1": "1/3"}},
                                  "parameters": {"E": "2", "eps": "log(2)"},
                                  "violated": "Pr[A(0)=0] ≤ E·Pr[A(1)=0]: 3/4 ≤ 1/4 " + HOSTILE,
                                  "implication": "Bayes ⇒ PureDP"},
               "verified_exactly": True, "formula": None, "reason": None, "minimal": True,
               "finding": "the source says holds; the run: refuted " + HOSTILE, "certificate": None,
               "vacuity": None, "witness": None,
               "parts": [{"implication": "Bayes ⇒ PureDP", "expected": "holds", "verdict": "refuted",
                          "seconds": 1.5, "outcome": "differs from the source (finding)", "sizes_proved": []}],
               "explored": []}
    derived = {"id": "R-3", "kind": "derive", "source": "R", "statement": "tight ε of randomized response",
               "source_says": "log(3)", "verdict": "derived", "agrees_with_source": True, "as_source_says": True,
               "outcome": "as the source says", "bounds": None, "seconds": 0.2, "counterexample": None,
               "verified_exactly": True, "formula": "log((1 + p)/(1 - p))", "reason": None, "minimal": None,
               "finding": None, "certificate": None, "vacuity": None, "witness": None, "parts": [], "explored": [],
               "derivation": {"assumptions": "0 < p < 1", "checks": ["p = 1/2: log(3)"], "ratio": "(1 + p)/(1 - p)"}}
    return {"tool": {"version": "0.1.0", "z3": "4.13", "sympy": "1.13"}, "claims": [proved, refuted, derived]}


class _Page(HTMLParser):
    """Elements, attributes and the text of every table cell, by the table's caption."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.tables, self.summary = [], [], {}, {}
        self._caption, self._cell, self._in_caption, self._table_id, self._row = None, None, False, None, None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)
        a = dict(attrs)
        if tag == "table":
            self._caption, self._table_id = "", a.get("id")
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""
            self._col = a.get("data-col")

    def handle_endtag(self, tag):
        if tag == "caption":
            self._in_caption = False
            while self._caption in self.tables:   # a table shown twice (a finding's counterexample): its copy apart
                self._caption += " (again)"
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append((self._col, self._cell.strip()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables.setdefault(self._caption, []).append([c for _, c in self._row])
            if self._table_id == "summary-table" and self._row[0][1]:
                self.summary[self._row[0][1].split()[0]] = {k: int(v) for k, v in self._row[1:] if k}
            self._row = None

    def handle_data(self, data):
        if self._in_caption:
            self._caption += data
        if self._cell is not None:
            self._cell += data


def _parse(page):
    p = _Page()
    p.feed(page)
    p.close()
    return p


@pytest.fixture(scope="module")
def page():
    return audit_html(_doc(), source_names={"Q": "A source with <b>markup</b>"})


def test_summary_counts_per_source_and_total(page):
    summary = _parse(page).summary
    assert summary["Q"] == {"claims": 2, "agree": 1, "findings": 1, "unknown": 0, "proved": 1, "refuted": 1,
                            "derived": 0}
    assert summary["R"] == {"claims": 1, "agree": 1, "findings": 0, "unknown": 0, "proved": 0, "refuted": 0,
                            "derived": 1}
    assert summary["all"]["claims"] == 3 and summary["all"]["findings"] == 1
    assert summary_counts(_doc()["claims"])["Q"]["refuted"] == 1


def test_counterexample_tables_carry_the_exact_entries(page):
    tables = _parse(page).tables
    mech = tables["mechanism A: Pr[A(d) = o]"]
    assert mech[0] == ["database d", "o = 0", "o = 1"]
    assert mech[1:] == [["0", "3/4", "1/4"], ["1", "1/8", "7/8"]]
    assert tables["population P (all other databases 0)"][1:] == [["0", "2/3"], ["1", "1/3"]]
    assert tables["parameters"][1:] == [["E", "2"], ["ε", "ln(2)"]]
    assert "violated:" in page and "3/4 ≤ 1/4" in page
    assert ["solver", "z3 4.13"] in tables["proof certificate"]
    assert "the source proves it for every n" in page
    assert ["second solver", "cvc5 1.2"] in tables["proof certificate"]


def test_findings_come_first_and_link_to_their_claim(page):
    p = _parse(page)
    assert page.index('id="findings"') < page.index('id="overview"') < page.index('id="claim-Q-2"')
    hrefs = [v for t, k, v in p.attrs if t == "a" and k == "href"]
    assert "#claim-Q-2" in hrefs
    ids = {v for _, k, v in p.attrs if k == "id"}
    assert {h[1:] for h in hrefs if h.startswith("#")} <= ids  # every anchor link lands


def test_formula_is_mathml_and_pictures_are_inline_svg(page):
    tags = _parse(page).tags
    assert "math" in tags and "mfrac" in tags  # (1 + p)/(1 - p) as a fraction
    assert "svg" in tags
    graph = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>*{color:red}</style>'
             '<g id="figure_1"><circle id="patch_1" r="4" cx="5" cy="5"/></g></svg>')  # matplotlib's ids
    with_graph = audit_html(_doc(), graph_svg=graph)
    assert 'id="graph-figure"' in with_graph and with_graph.count("<svg") == page.count("<svg") + 1
    parsed = _parse(with_graph)
    ids = [v for _, k, v in parsed.attrs if k == "id"]
    assert len(ids) == len(set(ids))  # the two pictures' ids kept apart
    assert parsed.tags.count("style") == 1  # the page's own; none from a picture


def test_no_external_url_and_no_script(page):
    p = _parse(page)
    links = [(t, k, v) for t, k, v in p.attrs if k in ("src", "href") or k.endswith(":href")]
    assert all(v.startswith("#") for _, _, v in links), links
    assert "script" not in p.tags and "img" not in p.tags
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "&lt;b&gt;markup&lt;/b&gt;" in page


def test_hostile_graph_svg_is_cleaned():
    hostile = ('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
               '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg" '
               'xmlns:xlink="http://www.w3.org/1999/xlink" onload="x()"><script>steal()</script>'
               '<a xlink:href="https://evil.example"><text>t</text></a><use xlink:href="#t"/></svg>')
    out = inline_svg(hostile, label="g")
    assert "script" not in out and "onload" not in out and "evil" not in out and "DOCTYPE" not in out
    assert 'href="#t"' in out


@pytest.mark.parametrize("bad", ["<svg", "<html></html>", 42])
def test_bad_graph_svg_is_a_clear_error(bad):
    with pytest.raises(DPCheckError):
        audit_html(_doc(), graph_svg=bad)


def test_a_document_without_claims_is_a_clear_error():
    with pytest.raises(DPCheckError, match="claims"):
        audit_html({"tool": {}})


def test_latex_markup_from_the_data_is_neutralised():
    doc = _doc()
    doc["claims"][2]["statement"] = r"level $\text{<b>x</b>} \href{https://latex-link.example}{y}$ shown"
    page = audit_html(doc)
    p = _parse(page)
    assert "math" in p.tags and "b" not in p.tags and "latex-link" not in page


def test_cli_audit_html_writes_the_page(monkeypatch, tmp_path, capsys):
    """`dpcheck audit T --html FILE --graph-svg G` writes the page from the run's records (the pool is
    replaced by canned records of the synthetic document: no solver runs)."""
    import theorems.cli.audit_workers
    from theorems.cli.main import main
    from theorems.registry import SOURCES

    def canned_pool(todo, profile, jobs, done, started=lambda cid: None):
        records = _doc()["claims"]
        for i, cid in enumerate(todo):
            done(cid, ("ok", ({**dict.fromkeys(theorems.cli.audit_workers.RECORD_KEYS), **records[i % 3], "id": cid,
                               "source": "T"}, "", None)))
    monkeypatch.setattr(theorems.cli.audit_workers, "run_pool", canned_pool)
    graph = tmp_path / "g.svg"
    graph.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>')
    out = tmp_path / "audit.html"
    main(["audit", "T", "--jobs", "1", "--quiet", "--html", str(out), "--graph-svg", str(graph)])
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    parsed = _parse(page)
    assert parsed.summary["T"]["claims"] >= 3 and parsed.summary["T"]["refuted"] >= 1
    assert "3/4" in parsed.tables["mechanism A: Pr[A(d) = o]"][1] and 'id="graph-figure"' in page
    assert SOURCES["T"].split(":")[0] in page and "math" in parsed.tags


def test_a_derived_enclosure_gets_the_certified_accounting_section_and_its_checks_are_escaped():
    run = {"id": "Q-9", "kind": "derived", "source": "Q", "statement": "a run", "source_says": "holds",
           "verdict": "derived", "agrees_with_source": True, "formula": "9/5",
           "derivation": {"assumptions": "1000 steps", "enclosure": "[1.82, 1.83]", "rdp_balle": "2.11",
                          "checks": ["upper end below 1.8283 " + HOSTILE]}}
    page = audit_html({"claims": [run]})
    start = page.index('<section id="accounting">')
    section = page[start:page.index("</section>", start)]
    assert "[1.82, 1.83]" in section and "rdp balle: 2.11" in section and 'href="#accounting"' in page
    assert "<script>" not in section and "&lt;script&gt;" in section
    assert 'id="accounting"' not in audit_html(_doc())       # no enclosure, no section
