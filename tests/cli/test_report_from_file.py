"""`dpcheck audit --from FILE` (issue 27, section 3): rendering from a file is not checking. Field types
and each record's consistency are checked (exit 2 naming the record and field), every counterexample is
re-verified exactly (exit 1 when one fails), every document says where it comes from, and the command
says what it wrote. No solver runs here: the record below is T-P4.converse as `dpcheck check --json`
wrote it."""
import copy
import json

import pytest

from theorems.cli.main import main

RECORD = json.loads('''{"id": "T-P4.converse", "kind": "\u21cf", "source": "T", "source_says": "not implied", "verdict": "refuted", "agrees_with_source": true, "bounds": {"n": 2, "domain": 2, "outputs": 2}, "seconds": 1.479, "counterexample": {"n": 2, "domain": 2, "outputs": 2, "mechanism": {"A": {"0,0": {"0": "0", "1": "1"}, "0,1": {"0": "0", "1": "1"}, "1,0": {"0": "0", "1": "1"}, "1,1": {"0": "1", "1": "0"}}}, "population": {"P": {"0,0": "1"}}, "parameters": {"E": "2", "eps": "log(2)"}, "violated": "PureDP(E): i=1, d=(0, 1), d'=(1, 1), o=1: Pr[A(d)=o]=1 > E\u00b7Pr[A(d')=o]=2\u00b70", "implication": "DataPointInterventionDPFor(E) \u21cf PureDP(E)", "tables": {"A": {"n": 2, "domain": [0, 1], "outputs": [0, 1], "rows": {"0,0": ["0", "1"], "0,1": ["0", "1"], "1,0": ["0", "1"], "1,1": ["1", "0"]}}}}, "verified_exactly": true, "formula": null, "minimal": true, "finding": null, "finding_explanation": null, "as_source_says": true, "outcome": "as the source says", "certificate": null, "vacuity": null, "witness": null, "parts": [{"implication": "DataPointInterventionDPFor(E) \u21cf PureDP(E)", "expected": "fails", "verdict": "refuted", "seconds": 1.403, "as_source_says": true, "outcome": "as the source says", "sizes_proved": []}, {"implication": "DataPointInterventionDPFor(E) \u21cf PureDP(E) [the source's example]", "expected": "fails", "verdict": "refuted", "seconds": 0.075, "as_source_says": true, "outcome": "as the source says", "sizes_proved": []}]}''')
RUN = {"date": "2025-01-02T03:04:05+00:00", "profile": "quick", "seconds": 12.5}


def _write(tmp_path, claims, run=RUN, name="a.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"tool": {"version": "0"}, **({"run": run} if run else {}), "claims": claims}))
    return str(path)


def test_from_file_says_where_the_documents_come_from(tmp_path, capsys):
    src = _write(tmp_path, [RECORD])
    md, html, tex = (str(tmp_path / f"a.{x}") for x in ("md", "html", "tex"))
    assert main(["audit", "--from", src, "--markdown", md, "--html", html, "--latex", tex]) == 0
    out = capsys.readouterr().out
    top = f"rendered from {src}; proofs not re-run; 1 of 1 counterexamples re-verified"
    assert top in out and "run of 2025-01-02T03:04:05+00:00, profile quick, wall time 12.5 s" in out
    assert f"wrote LaTeX {tex}, Markdown {md}, HTML {html}" in out
    assert top in open(md).read().splitlines()[0]
    assert top in open(html).read() and top.replace("_", "\\_") in open(tex).read()


def test_a_file_without_a_run_record_says_so(tmp_path, capsys):
    assert main(["audit", "--from", _write(tmp_path, [RECORD], run=None), "--markdown", str(tmp_path / "a.md")]) == 0
    assert "run of an unrecorded date, profile not recorded" in (tmp_path / "a.md").read_text()


def test_a_tampered_counterexample_is_not_rendered_as_verified(tmp_path, capsys):
    bad = copy.deepcopy(RECORD)
    bad["counterexample"]["mechanism"]["A"]["1,1"] = {"0": "0", "1": "1"}   # now A is constant: no violation
    md = tmp_path / "a.md"
    assert main(["audit", "--from", _write(tmp_path, [bad]), "--markdown", str(md)]) == 1
    captured = capsys.readouterr()
    assert "T-P4.converse: its counterexample" in captured.err and "fails exact re-verification" in captured.err
    assert "0 of 1 counterexamples re-verified (failed: T-P4.converse)" in md.read_text()


@pytest.mark.parametrize("edit, words", [
    (lambda r: r.update(agrees_with_source=False), '"agrees_with_source": False, but its verdict'),
    (lambda r: r.update(outcome="differs from the source"), '"outcome"'),
    (lambda r: r.update(counterexample=None), "is refuted but has no counterexample"),
    (lambda r: r.update(verdict="proved"), "is proved but has a counterexample"),
    (lambda r: r.update(seconds="NaN"), 'field "seconds" is \'NaN\''),
    (lambda r: r.update(seconds=-1), 'field "seconds" is -1; it needs a number (finite, 0 or more)'),
    (lambda r: r.update(parts=5), 'field "parts" is 5; it needs a list'),
    (lambda r: r["parts"][0].update(verdict=3), 'field "parts" entry 1 field "verdict"'),
    (lambda r: r.update(verdict="maybe"), 'field "verdict" is \'maybe\''),
    (lambda r: r.update(agrees_with_source="yes"), 'field "agrees_with_source"'),
])
def test_inconsistent_or_mistyped_records_are_refused(tmp_path, capsys, edit, words):
    rec = copy.deepcopy(RECORD)
    edit(rec)
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"claims": [rec]}, allow_nan=True))
    assert main(["audit", "--from", str(path), "--markdown", str(tmp_path / "a.md")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "T-P4.converse" in err and words in err, err
    assert not (tmp_path / "a.md").exists()


def test_a_mistyped_run_record_is_refused(tmp_path, capsys):
    src = _write(tmp_path, [RECORD], run={"seconds": "soon"})
    assert main(["audit", "--from", src, "--markdown", str(tmp_path / "a.md")]) == 2
    assert '"run" field "seconds"' in capsys.readouterr().err


def test_markdown_escapes_html(tmp_path, capsys):
    rec = copy.deepcopy(RECORD)
    md = tmp_path / "a.md"
    run = dict(RUN, date="<script>alert(1)</script>", profile="<img src=x onerror=alert(1)>")
    assert main(["audit", "--from", _write(tmp_path, [rec], run=run),
                 "--markdown", str(md)]) == 0
    text = md.read_text()
    assert "<script>" not in text and "<img" not in text
    assert "&lt;script&gt;" in text and "&lt;img src=x" in text


@pytest.mark.parametrize("edit, words", [
    (lambda r: r.update(source_says="implied"), '"source_says": \'implied\', but the catalogue says \'not implied\''),
    (lambda r: r.update(statement="anything"), '"statement"'),
    (lambda r: [p.update(expected="holds") for p in r["parts"]], "part 1 is"),
    (lambda r: r["parts"].pop(), "part 2 is missing"),
    (lambda r: r.update(id="T-P4"), "\"kind\": '⇏', but the catalogue says '⇒'"),
    (lambda r: r.update(id="Z-9"), "'Z-9' is not in the catalogue"),
])
def test_what_a_source_says_is_read_from_the_catalogue_not_the_file(tmp_path, capsys, edit, words):
    """An edited source_says or part expectation would turn a finding into agreement (or back): what a
    source says is the catalogue's fact, and a record that differs from it is refused."""
    rec = copy.deepcopy(RECORD)
    edit(rec)
    if rec["parts"] and rec["parts"][0]["expected"] == "holds":   # keep the record consistent in itself
        rec["parts"] = [dict(p, as_source_says=False, outcome="differs from the source") for p in rec["parts"]]
        rec.update(agrees_with_source=False, as_source_says=False, outcome="differs from the source")
    assert main(["audit", "--from", _write(tmp_path, [rec]), "--markdown", str(tmp_path / "a.md")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and words in err, err


def test_the_violated_sentence_is_the_re_verifications_not_the_files(tmp_path, capsys):
    rec = copy.deepcopy(RECORD)
    rec["counterexample"]["violated"] = "PureDP(E): nothing at all is violated"
    md = tmp_path / "a.md"
    assert main(["audit", "--from", _write(tmp_path, [rec]), "--markdown", str(md)]) == 0
    text = md.read_text()
    assert "nothing at all" not in text and RECORD["counterexample"]["violated"].split(":")[0] in text
    assert "Pr[A(d)=o]=1 &gt; E·Pr[A(d')=o]=2·0" in text or "Pr[A(d)=o]=1 > E·Pr[A(d')=o]=2·0" in text, text


def test_the_audit_json_keeps_the_run(tmp_path):
    from theorems.cli.io import output
    doc = json.loads(output([RECORD], run=RUN))
    assert doc["run"] == RUN and doc["claims"] == [RECORD]


@pytest.mark.parametrize("claim_id", ["K-3.3.2", "S-PROP5"])
def test_a_counterexample_of_a_proof_step_is_re_verified_with_the_steps_parameters(tmp_path, capsys, claim_id):
    """A claim proved through steps refutes in a step, whose parameters are the step's own (K-3.3.2's δ,
    none at all for S-PROP5), not the claim's. Read back from a file, the counterexample was re-verified
    with the claim's parameters and failed ("parameter E has no value", a δ left symbolic): a verified
    finding rendered as unverified. Each step is now matched with its parameters."""
    assert main(["check", claim_id, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["claims"][0]
    assert record["verdict"] == "refuted" and record["verified_exactly"] is True
    md = tmp_path / "a.md"
    assert main(["audit", "--from", _write(tmp_path, [record]), "--markdown", str(md)]) == 0
    assert "1 of 1 counterexamples re-verified" in md.read_text()
