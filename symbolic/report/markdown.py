"""The audit as Markdown: the claims table, then the findings and every counterexample as tables.

Built from the same JSON records as the HTML page and the LaTeX document. Every string from the data
is HTML-escaped, as the HTML page escapes it (Markdown renderers pass raw HTML through, so a statement
``<script>`` would otherwise run in the reader's browser); a ``|`` inside a cell is escaped so that no
statement (``|𝒟|``) can split a row, and a backtick so that none can open a code span.
"""
from __future__ import annotations

import html

from symbolic.report.html import _claims, is_finding
from symbolic.core.math_text import math_fragments
from symbolic.report.html_claim import agrees_of
from symbolic.report.html_layout import agreement_word
from symbolic.report.second_solver import limit_words, undecided_lines

HEAD = ("ID", "kind", "source says", "verdict", "agrees", "sizes", "seconds")


def text(value) -> str:
    """A string from the data on one line, safe in Markdown: HTML escaped (``<`` as ``&lt;``), backticks
    escaped; None as empty.

    >>> print(text("A <script>alert(1)</script> & `x`"))
    A &lt;script&gt;alert(1)&lt;/script&gt; &amp; \\`x\\`
    """
    return "" if value is None else html.escape(" ".join(str(value).split()), quote=False).replace("`", "\\`")


def math_md(value) -> str:
    """Prose that holds mathematics, safe in Markdown: operator syntax tidied (no ``*`` for Markdown to
    read as emphasis), ``^{…}`` and ``_{…}`` as ``<sup>`` and ``<sub>``, the rest as :func:`text`.

    >>> print(math_md("PureDP(E**2*delta): e^{kε} <"))
    PureDP(E²·δ): e<sup>kε</sup> &lt;
    """
    if value is None:
        return ""
    tags = {"sup": "<sup>{}</sup>", "sub": "<sub>{}</sub>", "text": "{}"}
    safe = lambda s: html.escape(s, quote=False).replace("`", "\\`")
    return "".join(tags[kind].format(safe(s)) for kind, s in math_fragments(" ".join(str(value).split())))


def cell(value) -> str:
    """A table cell: one line, HTML escaped, ``|`` escaped, None as empty."""
    return text(value).replace("|", "\\|")


def _table(head, rows) -> list:
    return (["| " + " | ".join(map(cell, head)) + " |", "|" + "---|" * len(head)]
            + ["| " + " | ".join(map(cell, r)) + " |" for r in rows])


def _sizes(b) -> str:
    return ",".join(str(b[k]) for k in ("n", "domain", "outputs") if k in b) if isinstance(b, dict) else ""


def claims_rows(claims) -> list:
    return [(d.get("id"), d.get("kind"), d.get("source_says"), d.get("verdict"), agreement_word(d, agrees_of(d)),
             _sizes(d.get("bounds")), "" if d.get("seconds") is None else f"{d['seconds']:.2f}") for d in claims]


def counterexample_markdown(cx: dict) -> list:
    """The lines of one counterexample: sizes, each mechanism (databases × outputs), populations,
    parameters and the violated inequality."""
    out = [f"At n={text(cx.get('n'))}, |𝒟|={text(cx.get('domain'))}, |𝒪|={text(cx.get('outputs'))}"
           + (f"; part: {math_md(cx['implication'])}" if cx.get("implication") else "") + ".", ""]
    for name, table in (cx.get("mechanism") or {}).items():
        if isinstance(table, dict) and all(isinstance(r, dict) for r in table.values()) and \
                not any(isinstance(v, dict) for r in table.values() for v in r.values()):
            cols = list(dict.fromkeys(k for r in table.values() for k in r))
            out += [f"Mechanism {text(name)}: Pr[{text(name)}(d) = o]", ""]
            out += _table(["d"] + [f"o={c}" for c in cols], [[d] + [r.get(c, "") for c in cols]
                                                             for d, r in table.items()]) + [""]
        else:
            out += [f"Mechanism {text(name)}: {text(table)}", ""]
    for name, pop in (cx.get("population") or {}).items():
        if isinstance(pop, dict):
            out += [f"Population {text(name)} (all other databases 0)", ""] + _table(["database", "probability"],
                                                                              list(pop.items())) + [""]
    if cx.get("parameters"):
        out += ["Parameters: " + ", ".join(f"{math_md(k)} = {math_md(v)}" for k, v in cx["parameters"].items()), ""]
    if cx.get("violated"):
        out += [f"Violated: {math_md(cx['violated'])}", ""]
    return out


def second_solver_markdown(claims) -> list:
    """The lines of the proofs cvc5 did not confirm: for each, the limit that left it so and each undecided
    query with its stages' limits (a count: the same on every machine; a time limit: not).

    >>> rec = {"id": "X-2", "verdict": "proved", "certificate": {"second_verdict": "unknown", "second_limit": "resource",
    ...        "second_undecided": [{"query": "q 1", "limit": "resource", "stages": [{"stage": "linearisation", "limit": "resource"}]}]}}
    >>> print("\\n".join(second_solver_markdown([rec])))
    <BLANKLINE>
    ## Proofs the second solver did not confirm
    <BLANKLINE>
    - **X-2** ended by a count (the same on every machine)
      - q 1: ended by a count (the same on every machine); stages: linearisation: resource
    """
    out = []
    for d in claims:
        cert = d.get("certificate")
        if d.get("verdict") != "proved" or not isinstance(cert, dict) or cert.get("second_verdict") != "unknown":
            continue
        limit = cert.get("second_limit")
        out.append(f"- **{cell(d.get('id'))}** " + (f"ended by {text(limit_words(limit))}" if isinstance(limit, str)
                                                    else "(no limit recorded)"))
        out += [f"  - {text(line)}" for line in undecided_lines(cert)]
    return ["", "## Proofs the second solver did not confirm", ""] + out if out else []


def audit_markdown(doc, *, provenance: str | None = None) -> str:
    """Markdown of an audit's JSON document (or its list of claim records): the table of claims, the
    findings, the counterexamples; ``provenance``: a line at the top saying where the verdicts come from.

    >>> md = audit_markdown([{"id": "X-1", "kind": "⇒", "source_says": "|𝒟| = 2", "verdict": "proved",
    ...                       "agrees_with_source": True, "bounds": {"n": 1, "domain": 2, "outputs": 2}}])
    >>> print(md.splitlines()[2])
    | X-1 | ⇒ | \\|𝒟\\| = 2 | proved | yes | 1,2,2 |  |
    """
    claims = _claims(doc if isinstance(doc, dict) else {"claims": doc})
    out = ([f"**{text(provenance)}**", ""] if provenance else []) + _table(HEAD, claims_rows(claims))
    found = [d for d in claims if is_finding(d)]
    if found:
        out += ["", "## Findings", ""] + [f"- **{cell(d.get('id'))}** {math_md(d['finding'])}"
                                          for d in found]
    out += second_solver_markdown(claims)
    refuted = [d for d in claims if isinstance(d.get("counterexample"), dict)]
    if refuted:
        out += ["", "## Counterexamples"]
        for d in refuted:
            out += ["", f"### {text(d.get('id'))}", "", math_md(d.get("statement")), ""]
            out += counterexample_markdown(d["counterexample"])
    return "\n".join(out).rstrip() + "\n"
