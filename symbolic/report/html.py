"""The audit as one self-contained HTML page: :func:`audit_html`.

The page is built from the audit's JSON document (``{"tool": {...}, "claims": [...]}``, the contract
of DESIGN.md; a bare list of claim records is read too) and nothing else: no solver runs here. It
needs no network: CSS is inline, pictures are inline SVG (a matplotlib chart of the verdicts per
source, and the implication graph when its SVG is given), formulas are MathML made from LaTeX by
the latex2mathml library. There is no script on the page; every string from the data is escaped.

Reading order: the run's banner, a table of contents with the filters (all claims, findings,
undecided; CSS only, see :mod:`symbolic.report.html_layout`), the summary (counts per source and the
chart), the findings (each with its statement, its counterexample as tables and one sentence of
explanation), the implication graph when given, an overview table, then every claim in full, grouped by
source.
"""
from __future__ import annotations

import re

from symbolic.core.errors import DPCheckError
from symbolic.core.math_text import tidy_text
from symbolic.report.html_claim import (agrees_badge, agrees_of, anchor, claim_html, esc, instance_html, sizes_text,
                                        text_with_math, verdict_badge)
from symbolic.report.html_layout import (FILTER_CSS, banner_html, filter_inputs, is_undecided, math_html,
                                         toc_html)
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
.graphs { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.graphs figure { overflow-x: auto; max-width: 100%; margin: 0; }
.graphs figure svg { max-width: none; }   /* drawn at its own size: labels stay legible, the box scrolls */
ul.findings .explanation { margin: .2rem 0; }
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


def _first_sentence(text) -> str:
    text = str(text or "").strip()
    end = next((i + 1 for i, ch in enumerate(text) if ch == "." and (i + 1 == len(text) or text[i + 1] == " ")
                and not text[max(0, i - 3):i].lower().endswith(("e.g", "i.e", "cf", "eq", "def", "thm"))), len(text))
    return text[:end]


def _findings_html(claims) -> str:
    """Each finding: its claim and verdict, the source's statement, one sentence of explanation, the
    counterexample as tables, and the whole record of the finding folded away."""
    found = [d for d in claims if is_finding(d)]
    if not found:
        return '<p class="muted">No findings: every verdict is as the source says.</p>'
    items = []
    for d in found:
        why = _first_sentence(d.get("finding_explanation") or d["finding"])
        cx = instance_html(d["counterexample"], title="counterexample") if isinstance(d.get("counterexample"), dict) \
            else ""
        items.append(f'<li class="entry is-finding"><a href="#{esc(anchor(d.get("id")))}">{esc(d.get("id"))}</a> '
                     f"{verdict_badge(d.get('verdict'))} <span class=\"statement\">{text_with_math(d.get('statement') or '')}</span>"
                     f'<p class="explanation">{text_with_math(why)}</p>{cx}'
                     f"<details><summary>the finding in full</summary>{text_with_math(d['finding'])}</details></li>")
    return '<ul class="findings">' + "".join(items) + "</ul>"


def _enclosures_html(claims) -> str:
    """The certified accounting: each derived claim whose derivation states an enclosure, as a row with the run,
    the proved interval, the other numbers it was set beside and its checks."""
    rows = []
    for d in _enclosed(claims):
        der = d["derivation"]
        others = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in der.items()
                           if k not in ("assumptions", "checks", "enclosure") and not k.endswith("latex"))
        checks = "".join(f"<li>{esc(tidy_text(c))}</li>" for c in der.get("checks") or ())
        rows.append(f'<tr class="{_entry_class(d)}"><th scope="row"><a href="#{esc(anchor(d.get("id")))}">'
                    f'{esc(d.get("id"))}</a></th><td>{esc(tidy_text(der.get("assumptions") or ""))}</td>'
                    f'<td class="num">{esc(der["enclosure"])}</td><td>{esc(others)}</td>'
                    f'<td><ul class="checks">{checks}</ul></td></tr>')
    return ('<p>Each interval is proved on both sides: the upper end by a dominating pair composed in exact '
            'arithmetic, the lower end by a certified event whose hockey-stick divergence exceeds δ.</p>'
            '<table class="overview"><thead><tr><th>ID</th><th>run</th><th>certified ε</th><th>beside it</th>'
            f'<th>checks</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _enclosed(claims) -> list:
    return [d for d in claims if isinstance(d.get("derivation"), dict) and d["derivation"].get("enclosure")]


def _entry_class(d) -> str:
    return "entry" + " is-finding" * is_finding(d) + " is-undecided" * is_undecided(d)


def _overview_html(claims) -> str:
    rows = "".join(
        f'<tr class="{_entry_class(d)}"><th scope="row"><a href="#{esc(anchor(d.get("id")))}">{esc(d.get("id"))}</a></th>'
        f"<td>{esc(d.get('kind'))}</td><td>{text_with_math(d.get('statement') or '')}</td><td>{esc(d.get('source_says'))}</td>"
        f"<td>{verdict_badge(d.get('verdict'))}</td><td>{agrees_badge(agrees_of(d), d)}</td>"
        f"<td>{sizes_text(d.get('bounds'))}</td><td class=\"num\">{esc(d.get('seconds'))}</td></tr>" for d in claims)
    return ('<table class="overview"><thead><tr><th>ID</th><th>kind</th><th>statement</th><th>source says</th>'
            f"<th>verdict</th><th>as the source says</th><th>sizes</th><th>seconds</th></tr></thead><tbody>{rows}"
            "</tbody></table>")


def _figure(svg: str, caption: str, ident: str) -> str:
    return f'<figure id="{ident}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


_DECIDED_AT = re.compile(r"decided at (n=\d+, \|D\|=\d+, \|O\|=\d+)")


def graph_caption(svg: str, what: str) -> str:
    """The caption of a graph picture: what it shows and the sizes its legend names (``dpcheck graph``
    writes them there), or a warning that the picture does not say them."""
    m = _DECIDED_AT.search(svg)
    where = (f"decided at {m.group(1)}: an equivalence (≡) or a dashed edge holds at these sizes only, a solid "
             "edge at every size") if m else "the picture does not say at which sizes its relations were decided"
    return f"{what}, {where}."


def _graph_section(graph_svg: str, separations_svg: str | None) -> list:
    figures = [_figure(inline_svg(graph_svg, label="implication graph", prefix="graph-"),
                       graph_caption(graph_svg, "The implication graph between the notions (Hasse diagram)"),
                       "graph-figure")]
    if separations_svg:
        figures.append(_figure(inline_svg(separations_svg, label="separations", prefix="separations-"),
                               graph_caption(separations_svg, "The separations: A ⊣ B where an exact table "
                                             "satisfies A at some level and B at none"), "separations-figure"))
    return ['<section id="graph"><h2>Implication graph</h2><div class="graphs">', *figures, "</div></section>"]


def audit_html(doc, *, graph_svg: str | None = None, separations_svg: str | None = None,
               source_names: dict | None = None, title: str = "dpcheck audit", provenance: str | None = None) -> str:
    """The HTML page of an audit's JSON document ``doc`` (parsed JSON, as ``dpcheck audit --json``
    writes it); ``provenance``: the banner's line saying where the verdicts come from (the run's date,
    profile and wall time, or the file they were rendered from). ``graph_svg``: the implication graph as
    SVG text, inlined when given (scripts and outside links removed), and ``separations_svg`` beside it.
    ``source_names``: {source letter: a longer name} for the summary.

    >>> page = audit_html({"tool": {"version": "0"}, "claims": [{"id": "X-1", "source": "X",
    ...     "statement": "A => B <script>", "verdict": "proved", "agrees_with_source": True}]})
    >>> "<script>" in page, "A =&gt; B &lt;script&gt;" in page, page.count("<svg") >= 1, 'id="toc"' in page
    (False, True, True, True)
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
    sections = [("summary", "Summary"), ("findings", "Findings")] + ([("graph", "Implication graph")] if graph_svg else []) \
        + ([("accounting", "Certified accounting")] if _enclosed(claims) else []) + [("overview", "All claims")] \
        + [(f"source-{anchor(s)}", f"Source {s}" + (f": {names[s]}" if s in names else "")) for s in counts]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(title)}</title>", "<style>", CSS.replace("%VERDICT_CSS%", _verdict_css()) + FILTER_CSS,
             "</style></head><body>", f"<h1>{esc(title)}</h1>", banner_html(provenance, claims),
             '<p class="tool">' + ", ".join(f"{esc(k)} {esc(v)}" for k, v in tool.items()) + "</p>",
             filter_inputs(), toc_html(sections), "<main>",
             '<section id="summary" class="when-all"><h2>Summary</h2>', _summary_html(counts, names),
             _figure(chart, "Verdicts per source (drawn by matplotlib).", "verdict-chart") if chart else "",
             "</section>", '<section id="findings"><h2>Findings</h2>', _findings_html(claims), "</section>"]
    if graph_svg is not None:
        parts += _graph_section(graph_svg, separations_svg)
    if _enclosed(claims):
        parts += ['<section id="accounting"><h2>Certified accounting</h2>', _enclosures_html(claims), "</section>"]
    parts += ['<section id="overview"><h2>All claims</h2>', _overview_html(claims), "</section>"]
    for s in counts:
        heading = esc(s) + (f": {esc(names[s])}" if s in names else "")
        parts.append(f'<section class="source" id="source-{esc(anchor(s))}"><h2>Source {heading}</h2>')
        parts += [claim_html(d) for d in claims if str(d.get("source")) == s]
        parts.append("</section>")
    parts.append("</main></body></html>\n")
    return "\n".join(parts)
