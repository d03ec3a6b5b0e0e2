"""The audit as LaTeX: escaping, Unicode as macros (ASCII output), counterexample tables, and a document
pdflatex compiles (where pdflatex is installed; `.ci/run` installs it)."""
import json
import shutil
import subprocess

import pytest

from symbolic.api import audit_latex
from symbolic.report.latex import tex
from theorems.cli.main import main


@pytest.mark.parametrize("text, latex", [
    ("a_b & c% $d# {e}", r"a\_b \& c\% \$d\# \{e\}"),
    ("ε-DP ⇒ (ε,δ)-DP", r"$\varepsilon$-DP $\Rightarrow$ ($\varepsilon$,$\delta$)-DP"),
    ("∀ d ~ d′", r"$\forall$ d \~{} d\texttt{[U+2032]}"),
    ("x̄ ≤ 𝒟", r"$\bar{x}$ $\leq$ $\mathcal{D}$"),
    ("≤≥", r"$\leq\geq$"),
])
def test_text_becomes_ascii_latex(text, latex):
    assert tex(text) == latex and tex(text).isascii()


REFUTED = {"id": "X-2", "source": "X", "kind": "⇏", "statement": "A ⇏ B", "source_says": "holds",
           "verdict": "refuted", "agrees_with_source": False, "verified_exactly": True,
           "finding": "False: the counterexample below", "bounds": {"n": 1, "domain": 2, "outputs": 2},
           "counterexample": {"n": 1, "domain": 2, "outputs": 2, "mechanism": {"A": {"0": {"0": "1/3", "1": "2/3"},
                                                                                   "1": {"0": "1", "1": "0"}}},
                              "population": {"P": {"0": "1"}}, "parameters": {"E": "2", "eps": "log(2)"},
                              "violated": "PureDP(E): Pr[A(d)=o]=1 > E·Pr[A(d')=o]=2·0", "implication": "A ⇏ B"}}


def test_document_has_summary_findings_and_counterexample_tables():
    text = audit_latex({"tool": {"version": "9"}, "claims": [REFUTED]}, source_names={"X": "a source"})
    assert text.isascii() and text.startswith(r"\documentclass")
    assert r"\item \textbf{X-2} False: the counterexample below" in text
    assert "1/3 & 2/3" in text and "1 & 0" in text                 # mechanism rows, outputs as columns
    assert "population P" in text and "E $=$ 2" in text
    assert text.count(r"\begin{longtable}") == text.count(r"\end{longtable}") >= 4


def _audit_file(tmp_path, capsys):
    assert main(["check", "T-APPB", "--budget", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(doc))
    return path


def test_audit_from_json_writes_latex_and_html(tmp_path, capsys):
    src = _audit_file(tmp_path, capsys)
    out, page = tmp_path / "audit.tex", tmp_path / "audit.html"
    assert main(["audit", "--from", str(src), "--latex", str(out), "--html", str(page)]) == 0
    text = out.read_text()
    assert r"\paragraph{T-APPB}" in text and "StrongAdversaryDPFor" in text
    assert "T-APPB" in page.read_text()


@pytest.mark.parametrize("content, message", [
    ('{"claims": 3}', "not an audit document"),
    ("[1, 2", "is not JSON"),
])
def test_audit_from_bad_file_is_one_line(tmp_path, capsys, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert main(["audit", "--from", str(bad), "--latex", str(tmp_path / "x.tex")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed (.ci/run installs it)")
def test_pdflatex_compiles_the_document(tmp_path, capsys):
    src = _audit_file(tmp_path, capsys)
    out = tmp_path / "audit.tex"
    assert main(["audit", "--from", str(src), "--latex", str(out)]) == 0
    (tmp_path / "x.tex").write_text(audit_latex({"tool": {}, "claims": [REFUTED]}))
    for name in ("audit.tex", "x.tex"):
        p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout[-2000:]
        assert (tmp_path / name.replace(".tex", ".pdf")).stat().st_size > 1000


def test_markdown_has_findings_and_counterexample_tables_from_the_same_records():
    from symbolic.api import audit_markdown
    md = audit_markdown({"claims": [REFUTED]})
    assert "## Findings" in md and "- **X-2** False: the counterexample below" in md
    assert "| 0 | 1/3 | 2/3 |" in md and "| 1 | 1 | 0 |" in md
    assert "Parameters: E = 2, ε = ln(2)" in md
    rows = [line for line in md.splitlines() if line.startswith("| X-2 ")]
    assert len(rows) == 1 and rows[0].count(" | ") == 6     # seven cells: no "|" split the row
