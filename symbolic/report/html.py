"""The audit as one self-contained HTML page: :func:`audit_html`.

The page is built from the audit's JSON document (``{"tool": {...}, "claims": [...]}``, the contract
of DESIGN.md; a bare list of claim records is read too) and nothing else: no solver runs here. It
needs no network: CSS is inline, pictures are inline SVG (a matplotlib chart of the verdicts per
source, and the implication graph when its SVG is given), formulas are MathML made from LaTeX by
the latex2mathml library. There is no script on the page; every string from the data is escaped.

Reading order: the summary (counts per source and the chart), the findings (each linked to its
claim), an overview table, then every claim in full, grouped by source.
"""
from __future__ import annotations

from symbolic.core.errors import DPCheckError
from symbolic.report.html_claim import agrees_badge, agrees_of, anchor, claim_html, esc, sizes_text, verdict_badge
from symbolic.report.html_svg import VERDICT_COLOURS, inline_svg, verdict_chart_svg

SUMMARY_COLUMNS = ("claims", "agree", "findings", "unknown", "proved", "refuted", "derived")
OPTIONAL_COLUMNS = ("vacuous", "not run")

CSS = """
:root { --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --soft: #f6f8fa; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
       max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 1px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
.muted, .tool { color: var(--muted); }
table { border-collapse: collapse; margin: .6rem 0; }
th, td { border: 1px solid var(--line); padding: .2rem .55rem; text-align: left; vertical-align: top; }
thead th, tbody th { background: var(--soft); }
caption { text-align: left; font-weight: 600; padding: .2rem 0; white-space: nowrap; }
td.num { text-align: right; font-family: ui-monospace, monospace; }
table.summary td { text-align: right; }
tr.total td, tr.total th { font-weight: 700; }
.verdict { display: inline-block; padding: 0 .5rem; border-radius: .7rem; color: #fff; font-size: .85em;
           font-weight: 600; background: #9e9e9e; }
%VERDICT_CSS%
.agree { color: #2e7d32; font-weight: 600; } .differ { color: #ad1457; font-weight: 700; }
.kind { color: var(--muted); font-size: .8em; font-weight: 400; }
section.claim { border: 1px solid var(--line); border-radius: .4rem; padding: .3rem 1rem .6rem; margin: 1rem 0; }
section.claim h3 { margin: .4rem 0; } a.self { color: inherit; text-decoration: none; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .4rem 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.finding-text, ul.findings li { background: #fce4ec; border-left: 4px solid #ad1457; padding: .3rem .6rem; }
.note { background: var(--soft); border-left: 4px solid var(--line); padding: .3rem .6rem; }
ul.findings { list-style: none; padding: 0; } ul.findings li { margin: .4rem 0; }
.instance { border-left: 4px solid #c62828; padding-left: .8rem; margin: .6rem 0; }
.violated { font-family: ui-monospace, monospace; font-size: .9em; }
.impl { font-family: ui-monospace, monospace; }
.formula math { font-size: 1.3em; margin-left: .3rem; }
.formula math, table.extras math { math-style: normal; } /* fractions full size, as in display */
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .9em; }
"""


def _verdict_css() -> str:
    return "\n".join(f".v-{v.replace(' ', '_')} {{ background: {c}; }}" for v, c in VERDICT_COLOURS.items())


def _claims(doc) -> list:
    claims = doc.get("claims") if isinstance(doc, dict) else doc
    if not isinstance(claims, list) or not all(isinstance(c, dict) for c in claims):
        raise DPCheckError("the audit document has no list of claim records under \"claims\"; "
                           "give the file `dpcheck audit --json FILE` wrote")
    return claims


def is_finding(doc: dict) -> bool:
    """A claim record is a finding when it carries a finding: the run generates one exactly when a
    definite verdict differs from the source."""
    return bool(doc.get("finding"))


def summary_counts(claims) -> dict:
    """{source: {column: number}} for the summary columns (and vacuous / not run), in order of first
    appearance of each source."""
    out = {}
    for d in claims:
        row = out.setdefault(str(d.get("source")), dict.fromkeys(SUMMARY_COLUMNS + OPTIONAL_COLUMNS, 0))
        row["claims"] += 1
        row["agree"] += agrees_of(d) is True
        row["findings"] += is_finding(d)
        if d.get("verdict") in row and d.get("verdict") not in ("claims", "agree", "findings"):
            row[d["verdict"]] += 1
    return out


def _summary_html(counts, names) -> str:
    cols = list(SUMMARY_COLUMNS) + [c for c in OPTIONAL_COLUMNS if any(r[c] for r in counts.values())]
    total = {c: sum(r[c] for r in counts.values()) for c in cols}
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in cols)

    def row(label, r, cls=""):
        return (f'<tr{cls}><th scope="row">{label}</th>'
                + "".join(f'<td data-col="{esc(c)}">{r[c]}</td>' for c in cols) + "</tr>")
    body = "".join(row(esc(s) + (f' <span class="muted">{esc(names[s])}</span>' if s in names else ""), r)
                   for s, r in counts.items())
    body += row("all sources", total, ' class="total"')
    return (f'<table class="summary" id="summary-table"><caption>claims per source</caption><thead><tr>'
            f'<th scope="col">source</th>{head}</tr></thead><tbody>{body}</tbody></table>')


def _findings_html(claims) -> str:
    found = [d for d in claims if is_finding(d)]
    if not found:
        return '<p class="muted">No findings: every verdict is as the source says.</p>'
    items = []
    for d in found:
        text = d["finding"]
        items.append(f'<li><a href="#{esc(anchor(d.get("id")))}">{esc(d.get("id"))}</a> '
                     f"{verdict_badge(d.get('verdict'))} {esc(text)}</li>")
    return '<ul class="findings">' + "".join(items) + "</ul>"


def _overview_html(claims) -> str:
    rows = "".join(
        f'<tr><th scope="row"><a href="#{esc(anchor(d.get("id")))}">{esc(d.get("id"))}</a></th>'
        f"<td>{esc(d.get('kind'))}</td><td>{esc(d.get('source_says'))}</td><td>{verdict_badge(d.get('verdict'))}</td>"
        f"<td>{agrees_badge(agrees_of(d))}</td><td>{sizes_text(d.get('bounds'))}</td>"
        f"<td class=\"num\">{esc(d.get('seconds'))}</td></tr>" for d in claims)
    return ('<table class="overview"><thead><tr><th>ID</th><th>kind</th><th>source says</th><th>verdict</th>'
            f"<th>agrees</th><th>sizes</th><th>seconds</th></tr></thead><tbody>{rows}</tbody></table>")


def _figure(svg: str, caption: str, ident: str) -> str:
    return f'<figure id="{ident}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def audit_html(doc, *, graph_svg: str | None = None, source_names: dict | None = None,
               title: str = "dpcheck audit", provenance: str | None = None) -> str:
    """The HTML page of an audit's JSON document ``doc`` (parsed JSON, as ``dpcheck audit --json``
    writes it); ``provenance``: a line under the title saying where the verdicts come from.
    ``graph_svg``: the implication graph as SVG text, inlined when given (scripts and
    outside links removed). ``source_names``: {source letter: a longer name} for the summary.

    >>> page = audit_html({"tool": {"version": "0"}, "claims": [{"id": "X-1", "source": "X",
    ...     "statement": "A => B <script>", "verdict": "proved", "agrees_with_source": True}]})
    >>> "<script>" in page, "A =&gt; B &lt;script&gt;" in page, page.count("<svg") >= 1
    (False, True, True)
    """
    claims = _claims(doc)
    names = {str(k): str(v) for k, v in (source_names or {}).items()}
    tool = doc.get("tool") if isinstance(doc, dict) and isinstance(doc.get("tool"), dict) else {}
    counts = summary_counts(claims)
    chart_counts = {s + (f" {names[s][:28]}" if s in names else ""): {v: sum(d.get("verdict") == v for d in claims
                                                                        if str(d.get("source")) == s)
                                                                   for v in {d.get("verdict") for d in claims}}
                    for s in counts}
    chart = verdict_chart_svg(chart_counts) if claims else ""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(title)}</title>", "<style>", CSS.replace("%VERDICT_CSS%", _verdict_css()),
             "</style></head><body>", f"<h1>{esc(title)}</h1>",
             f'<p class="provenance" id="provenance"><strong>{esc(provenance)}</strong></p>' if provenance else "",
             '<p class="tool">' + ", ".join(f"{esc(k)} {esc(v)}" for k, v in tool.items()) + "</p>",
             '<section id="summary"><h2>Summary</h2>', _summary_html(counts, names),
             _figure(chart, "Verdicts per source (drawn by matplotlib).", "verdict-chart") if chart else "",
             "</section>", '<section id="findings"><h2>Findings</h2>', _findings_html(claims), "</section>"]
    if graph_svg is not None:
        parts += ['<section id="graph"><h2>Implication graph</h2>',
                  _figure(inline_svg(graph_svg, label="implication graph", prefix="graph-"),
                          "The implication graph between the notions.", "graph-figure"), "</section>"]
    parts += ['<section id="overview"><h2>All claims</h2>', _overview_html(claims), "</section>"]
    for s in counts:
        heading = esc(s) + (f": {esc(names[s])}" if s in names else "")
        parts.append(f'<section class="source" id="source-{esc(anchor(s))}"><h2>Source {heading}</h2>')
        parts += [claim_html(d) for d in claims if str(d.get("source")) == s]
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
