"""The reports say which limit left each of the second solver's undecided queries so: a count (the same on
every machine) or a time limit (machine-dependent), in the terminal text, the Markdown, the HTML page and
the audit's summary; a malformed record (from `audit --from`) is passed over, never a crash."""
from __future__ import annotations

from dataclasses import replace

import pytest

from symbolic.report.html import audit_html
from symbolic.report.html_claim import certificate_html
from symbolic.report.markdown import audit_markdown
from symbolic.report.second_solver import limit_counts, undecided, undecided_lines
from theorems.cli.commands.audit import unconfirmed_lines


def _cert(limit="time", query="PureDP(E) ⇒ X at n=2, query 4", stages=(("substitution", "time"),
                                                                       ("linearisation", "resource"))):
    return {"solver": "z3", "second_solver": "cvc5 1.4.2", "second_verdict": "unknown",
            "second_checked": "3/30 queries unsat", "second_reason": f"{query}: cvc5: …", "second_limit": limit,
            "second_undecided": [{"query": query, "limit": limit,
                                  "stages": [{"stage": s, "limit": x} for s, x in stages]}]}


def _record(cid, cert, verdict="proved"):
    return {"id": cid, "kind": "⇒", "source": "T", "statement": "s", "source_says": "holds", "verdict": verdict,
            "agrees_with_source": True, "bounds": {"n": 2, "domain": 2, "outputs": 3}, "seconds": 1.0,
            "certificate": cert, "parts": []}


DOCS = [_record("T-P4", _cert()), _record("K-3.3.5", _cert("resource", stages=(("linearisation", "resource"),))),
        _record("T-P1", {"second_verdict": "unsat", "second_solver": "cvc5"})]


def test_each_undecided_query_is_shown_with_its_limit_in_words():
    time_line, = undecided_lines(DOCS[0]["certificate"])
    assert "query 4: ended by a time limit (machine-dependent" in time_line
    assert "stages: substitution: time, linearisation: resource" in time_line
    count_line, = undecided_lines(DOCS[1]["certificate"])
    assert "ended by a count (the same on every machine)" in count_line
    assert undecided_lines(DOCS[2]["certificate"]) == []


def test_markdown_lists_the_unconfirmed_proofs_by_limit():
    md = audit_markdown(DOCS)
    section = md.split("## Proofs the second solver did not confirm", 1)[1]
    assert "**T-P4** ended by a time limit (machine-dependent" in section
    assert "**K-3.3.5** ended by a count (the same on every machine)" in section
    assert "T-P1" not in section


def test_the_html_certificate_names_the_limit_of_each_undecided_query():
    cell = certificate_html(DOCS[0]["certificate"])
    assert "what left cvc5 undecided" in cell and "time: a time limit (machine-dependent" in cell
    assert "<li>PureDP(E) ⇒ X at n=2, query 4: ended by a time limit" in cell
    page = audit_html({"claims": DOCS})
    assert "queries cvc5 left undecided" in page and "the same on every machine" in page


def test_the_audit_summary_counts_the_unconfirmed_proofs_by_limit():
    lines = unconfirmed_lines(DOCS)
    assert lines[0] == ("  not confirmed by cvc5: 1 ended by a count (the same on every machine), 1 ended by a time "
                        "limit (machine-dependent: a faster machine may decide it)")
    assert lines[1].startswith("    T-P4: time: PureDP(E) ⇒ X at n=2, query 4 (substitution: time, linearisation: ")
    assert lines[2].startswith("    K-3.3.5: resource:")
    assert limit_counts(DOCS) == {"time": 1, "resource": 1} and unconfirmed_lines(DOCS[2:]) == []


@pytest.mark.parametrize("bad", ["garbage", [1, {"query": 3}, {"query": "q", "limit": "time", "stages": "x"}],
                                 {"query": "q"}, None])
def test_a_malformed_record_is_passed_over(bad):
    cert = {**_cert(), "second_undecided": bad, "second_limit": ["not", "text"]}
    assert all(isinstance(q, str) for q, _, _ in undecided(cert))
    doc = [_record("X-1", cert)]
    assert "X-1" in audit_markdown(doc) and "X-1" in audit_html({"claims": doc})
    assert unconfirmed_lines(doc)[1].startswith("    X-1:")


def test_labels_from_the_record_are_escaped():
    cert = _cert(query="<script>alert(1)</script>")
    assert "<script>" not in certificate_html(cert) and "<script>" not in audit_markdown([_record("X", cert)])


def test_the_terminal_text_of_a_proof_shows_its_undecided_queries():
    from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    from symbolic.report.results import claim_json, result_text
    res = check_implies(PureDP(E.symbol), PureDP(E.symbol ** 2), sizes=Sizes(1, 2, 2),
                        settings=Settings(second_solver=False))
    assert res.verdict.name == "proved"
    res = replace(res, verdict=replace(res.verdict, certificate={**res.verdict.certificate, **_cert()}))
    text = result_text(res)
    assert "second solver: cvc5 1.4.2: unknown (3/30 queries unsat)" in text
    assert "    undecided: PureDP(E) ⇒ X at n=2, query 4: ended by a time limit (machine-dependent" in text
    assert claim_json(res)["certificate"]["second_undecided"] == _cert()["second_undecided"]
