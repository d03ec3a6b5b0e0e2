"""One claim of the audit as an HTML section: its facts, proof certificate, parts, counterexample
tables and derived formula. Reads the claim's record of the JSON document (DESIGN.md's contract);
every string from it is escaped, formulas become MathML (:mod:`symbolic.report.html_math`).
"""
from __future__ import annotations

import json
import re

from symbolic.core.errors import DPCheckError
from symbolic.core.math_text import tidy_text
from symbolic.report.html_layout import agreement_word, esc, is_undecided, math_html
from symbolic.report.html_math import latex_mathml, math_or_code
from symbolic.report.second_solver import limit_words, undecided_lines

_ANCHOR = re.compile(r"[^A-Za-z0-9_.-]")
# how a certificate's keys read on the page (the JSON keeps its names)
CERTIFICATE_LABELS = {"vacuous_at": "witness of the hypotheses found among", "second_solver": "second solver",
                      "second_verdict": "second solver's verdict", "second_limit": "what left cvc5 undecided",
                      "second_undecided": "queries cvc5 left undecided"}


def anchor(claim_id) -> str:
    """The page anchor of a claim: ``claim-`` and its ID with anything unusual replaced by ``_``."""
    return "claim-" + _ANCHOR.sub("_", str(claim_id))


def verdict_badge(verdict) -> str:
    v = str(verdict or "none")
    return f'<span class="verdict v-{_ANCHOR.sub("_", v)}">{esc(v)}</span>'


def agrees_badge(agrees, doc: dict | None = None) -> str:
    """Whether a record reads as its source says: yes, no (a definite verdict that differs), undecided
    (no definite verdict, when ``doc`` is given), n/a (no source verdict)."""
    word = agreement_word(doc, agrees) if doc is not None else {True: "yes", False: "no", None: ""}[agrees]
    css = {"yes": "agree", "no": "differ", "undecided": "undecided"}
    return f'<span class="{css[word]}">{word}</span>' if word else '<span class="muted">n/a</span>'


def agrees_of(doc: dict):
    """Whether a record reads as the source says: its ``as_source_says`` (a compound claim judged part
    by part) when the record has one, else ``agrees_with_source``; None for no source or no verdict."""
    said = doc.get("as_source_says")
    return said if said is not None else doc.get("agrees_with_source")


def sizes_text(b) -> str:
    """``n=…, |𝒟|=…, |𝒪|=…`` of a bounds record, or empty."""
    if not isinstance(b, dict):
        return ""
    return ", ".join(f"{k}={esc(b[key])}" for k, key in (("n", "n"), ("|𝒟|", "domain"), ("|𝒪|", "outputs"))
                     if key in b)


def text_with_math(text) -> str:
    """Escaped text in which ``$…$`` spans are shown as MathML (left as text when unreadable), and the rest
    as prose that holds mathematics (:func:`~symbolic.report.html_layout.math_html`)."""
    parts = str(text).split("$")
    if len(parts) % 2 == 0:  # an unpaired $: all text
        return math_html(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 and part.strip():
            try:
                out.append(latex_mathml(part))
                continue
            except DPCheckError:
                part = f"${part}$"
        out.append(math_html(part) if part else "")
    return "".join(out)


def _scalar(x) -> bool:
    return x is None or isinstance(x, (str, int, float, bool))


def _grid(caption, rows: dict, row_head: str, col_head: str) -> str:
    """A table: one row per key of ``rows`` (a dict of dicts of exact entries), one column per key
    of the inner dicts, in order of first appearance."""
    cols = list(dict.fromkeys(k for r in rows.values() for k in r))
    head = "".join(f'<th scope="col">{esc(col_head)} {esc(c)}</th>' for c in cols)
    body = "".join(f'<tr><th scope="row">{esc(d)}</th>'
                   + "".join(f'<td class="num">{esc(r.get(c, ""))}</td>' for c in cols) + "</tr>"
                   for d, r in rows.items())
    return (f'<table class="cx"><caption>{esc(caption)}</caption><thead><tr><th scope="col">{esc(row_head)}</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>")


def _pairs(caption, values: dict, key_head: str, value_head: str) -> str:
    body = "".join(f'<tr><th scope="row">{esc(k)}</th><td class="num">{esc(v)}</td></tr>' for k, v in values.items())
    return (f'<table class="cx"><caption>{esc(caption)}</caption><thead><tr><th scope="col">{esc(key_head)}</th>'
            f'<th scope="col">{esc(value_head)}</th></tr></thead><tbody>{body}</tbody></table>')


def mechanism_tables(name, table) -> str:
    """A mechanism of a counterexample as tables: rows are databases, columns outputs. A mechanism
    given per first output (a composition) or a kernel gives one table per part."""
    if isinstance(table, dict) and table and all(isinstance(r, dict) and all(map(_scalar, r.values()))
                                                 for r in table.values()):
        return _grid(f"mechanism {name}: Pr[{name}(d) = o]", table, "database d", "o =")
    if isinstance(table, dict) and table and all(map(_scalar, table.values())):
        return _pairs(f"kernel {name}", table, "output", "probability")
    if isinstance(table, dict) and table:
        return "".join(mechanism_tables(f"{name} {part}", sub) for part, sub in table.items())
    return f"<p>mechanism {esc(name)}: <code>{esc(json.dumps(table, ensure_ascii=False))}</code></p>"


def instance_html(cx: dict, *, title: str) -> str:
    """The tables of a counterexample (or a vacuity witness): sizes, mechanisms, populations,
    parameters and the violated inequality."""
    out = [f'<div class="instance"><h4>{esc(title)}</h4>',
           f"<p>at {sizes_text(cx)}"
           + (f"; claim part: <span class=\"impl\">{math_html(cx['implication'])}</span>" if cx.get("implication") else "")
           + "</p>"]
    for name, table in (cx.get("mechanism") or {}).items():
        out.append(mechanism_tables(name, table))
    for name, pop in (cx.get("population") or {}).items():
        if isinstance(pop, dict):
            out.append(_pairs(f"population {name} (all other databases 0)", pop, "database", "probability"))
    if cx.get("parameters"):
        out.append(_pairs("parameters", {tidy_text(k): tidy_text(v) for k, v in cx["parameters"].items()},
                          "name", "value"))
    if cx.get("violated"):
        out.append(f'<p class="violated"><strong>violated:</strong> {math_html(cx["violated"])}</p>')
    out.append("</div>")
    return "".join(out)


def certificate_html(cert) -> str:
    if not isinstance(cert, dict):
        return ""
    order = ["solver", "method", "second_solver", "second_verdict"]
    keys = order + [k for k in cert if k not in order]
    rows = "".join(f'<tr><th scope="row">{esc(CERTIFICATE_LABELS.get(k, k.replace("_", " ")))}</th>'
                   f"<td>{_certificate_cell(k, cert.get(k))}</td></tr>" for k in keys)
    return f'<table class="cert"><caption>proof certificate</caption><tbody>{rows}</tbody></table>'


def _certificate_cell(key, value) -> str:
    """A certificate's value on the page; the second solver's limits in words (a count: the same on every
    machine; a time limit: not), each undecided query on its own line."""
    if key == "second_limit" and isinstance(value, str):
        return esc(f"{value}: {limit_words(value)}")
    if key == "second_undecided":
        lines = undecided_lines({"second_undecided": value})
        if lines or isinstance(value, list):
            return "<ul>" + "".join(f"<li>{esc(line)}</li>" for line in lines) + "</ul>"
        return esc(value)
    return math_html(value)


def parts_html(parts) -> str:
    if not parts:
        return ""
    rows = []
    for p in parts:
        sizes = "; ".join(f"({esc(s.get('n'))},{esc(s.get('domain'))},{esc(s.get('outputs'))})"
                          for s in p.get("sizes_proved") or ())
        rows.append(f"<tr><td>{math_html(p.get('implication'))}</td><td>{esc(p.get('expected'))}</td>"
                    f"<td>{verdict_badge(p.get('verdict'))}</td><td>{esc(p.get('outcome'))}</td>"
                    f"<td class=\"num\">{esc(p.get('seconds'))}</td>"
                    f"<td>{sizes}</td></tr>")
    return ('<table class="parts"><caption>parts</caption><thead><tr><th>implication</th><th>expected</th>'
            '<th>verdict</th><th>reading</th><th>seconds</th><th>sizes proved (n,|𝒟|,|𝒪|)</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def derivation_html(doc) -> str:
    """The derived formula (MathML) with its assumptions, further derived values and checks."""
    der = doc.get("derivation") if isinstance(doc.get("derivation"), dict) else {}
    if doc.get("formula") is None and not der:
        return ""
    out = ['<div class="derivation">']
    if doc.get("formula") is not None:
        out.append(f'<p class="formula">formula: {math_or_code(doc["formula"], latex=doc.get("latex"))}</p>')
    if der.get("assumptions"):
        out.append(f"<p>assumptions: {esc(tidy_text(der['assumptions']))}</p>")
    rows = []
    for key, value in der.items():
        if key in ("assumptions", "checks") or key.endswith("latex"):
            continue
        latex = der.get(f"{key}_latex")
        rows.append(f'<tr><th scope="row">{esc(key.replace("_", " "))}</th>'
                    f"<td>{math_or_code(value, latex=latex if isinstance(latex, str) else None)}</td></tr>")
    if rows:
        out.append('<table class="extras"><caption>derived values</caption><tbody>' + "".join(rows) + "</tbody></table>")
    if der.get("checks"):
        out.append("<ul class=\"checks\">" + "".join(f"<li>{esc(tidy_text(c))}</li>" for c in der["checks"]) + "</ul>")
    out.append("</div>")
    return "".join(out)


def claim_html(doc: dict) -> str:
    """The section of one claim record."""
    cid = doc.get("id")
    facts = [("source says", esc(doc.get("source_says"))),
             ("as the source says", agrees_badge(agrees_of(doc), doc)
              + (f' <span class="muted">({esc(doc["outcome"])})</span>' if doc.get("outcome") else "")),
             ("sizes (bounds)", sizes_text(doc.get("bounds")) or '<span class="muted">none</span>'),
             ("seconds", esc(doc.get("seconds")))]
    if doc.get("verdict") == "refuted":
        facts.append(("re-verified exactly", agrees_badge(doc.get("verified_exactly"))))
        facts.append(("minimal among sizes searched", "yes" if doc.get("minimal") else "not known"))
    if doc.get("vacuity"):
        facts.append(("vacuity", esc(doc["vacuity"])))
    if doc.get("explored"):
        facts.append(("explored", f"also proved at {len(doc['explored'])} larger size(s)"))
    if doc.get("reason"):
        facts.append(("reason", esc(doc["reason"])))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    kinds = " is-finding" * bool(doc.get("finding")) + " is-undecided" * is_undecided(doc)
    out = [f'<section class="claim entry{kinds}" id="{esc(anchor(cid))}">',
           f'<h3><a class="self" href="#{esc(anchor(cid))}">{esc(cid)}</a> <span class="kind">{esc(doc.get("kind"))}'
           f"</span> {verdict_badge(doc.get('verdict'))}</h3>",
           f'<p class="statement">{text_with_math(doc.get("statement") or "")}</p>']
    if doc.get("finding"):
        out.append(f'<p class="finding-text"><strong>Finding:</strong> {text_with_math(doc["finding"])}</p>')
    elif doc.get("note") or doc.get("finding_explanation"):
        note = doc.get("note") or doc["finding_explanation"]
        out.append(f'<p class="note"><strong>Note:</strong> {text_with_math(note)}</p>')
    out.append(f'<dl class="facts">{dl}</dl>')
    out.append(certificate_html(doc.get("certificate")))
    out.append(derivation_html(doc))
    out.append(parts_html(doc.get("parts")))
    if isinstance(doc.get("counterexample"), dict):
        out.append(instance_html(doc["counterexample"], title="counterexample"))
    if isinstance(doc.get("witness"), dict):
        out.append("<details><summary>exact witness that the hypotheses hold together</summary>"
                   + instance_html(doc["witness"], title="witness") + "</details>")
    out.append("</section>")
    return "".join(out)
