"""The frame of the audit's HTML page: the run's banner, the table of contents, the filters, and prose
that holds mathematics.

The filters need no script. Three radio buttons (all claims, findings, undecided) sit before the page's
``main`` element, and CSS hides the entries (claim sections and rows of the claims table) that the
checked button leaves out: ``#filter-findings:checked ~ main .entry:not(.is-finding)``. A claim is
*undecided* when its verdict is not definite (unknown, vacuous, not run, or a counterexample that
failed re-verification): the page says "undecided" there, never "no", which is kept for a definite
verdict that differs from the source.
"""
from __future__ import annotations

import html
import re

from symbolic.core.math_text import math_fragments
from symbolic.report.html_math import MATHML_NS

UNDECIDED = ("unknown", "vacuous", "not run", "none")

FILTERS = (("all", "all claims"), ("findings", "findings"), ("undecided", "undecided"))

FILTER_CSS = """
input.filter { position: absolute; opacity: 0; pointer-events: none; }
nav.toc label { display: inline-block; margin: 0 .3rem .3rem 0; padding: .1rem .6rem; border: 1px solid var(--line);
                border-radius: .8rem; cursor: pointer; }
#filter-all:checked ~ nav.toc label[for="filter-all"],
#filter-findings:checked ~ nav.toc label[for="filter-findings"],
#filter-undecided:checked ~ nav.toc label[for="filter-undecided"] { background: var(--ink); color: #fff; }
#filter-findings:checked ~ main .entry:not(.is-finding),
#filter-undecided:checked ~ main .entry:not(.is-undecided) { display: none; }
#filter-findings:checked ~ main .when-all, #filter-undecided:checked ~ main .when-all { display: none; }
nav.toc { border: 1px solid var(--line); border-radius: .4rem; padding: .4rem 1rem; margin: 1rem 0; }
nav.toc ol { margin: .2rem 0; padding-left: 1.3rem; columns: 2; }
.banner { border: 1px solid #9a6700; background: #fff8c5; border-radius: .4rem; padding: .5rem 1rem; }
.banner.complete { border-color: var(--line); background: var(--soft); }
.undecided { color: #9a6700; font-weight: 600; }
.math-text sup, .math-text sub { font-size: .75em; }
"""


def esc(value) -> str:
    """Any value as escaped HTML text (None as an empty string)."""
    return "" if value is None else html.escape(str(value), quote=True)


def is_undecided(doc: dict) -> bool:
    """Is the record's verdict not definite (unknown, vacuous, not run, or not re-verified)?"""
    return str(doc.get("verdict") or "none") in UNDECIDED or doc.get("verified_exactly") is False


def agreement_word(doc: dict, agrees) -> str:
    """The word for whether a record reads as its source says: "yes", "no", "undecided" (no definite
    verdict to compare), or "" (no source verdict).

    >>> agreement_word({"verdict": "unknown"}, False), agreement_word({"verdict": "refuted"}, False)
    ('undecided', 'no')
    """
    if is_undecided(doc):
        return "undecided"
    return {True: "yes", False: "no", None: ""}[agrees]


_BASE = re.compile(r"([A-Za-z0-9εδρμαλσγπℓΦ]+|[)\]|])$")


def _mathml_script(base: str, kind: str, script: str) -> str:
    """MathML of ``base`` with a superscript or subscript: ``<msup>``/``<msub>``, the script's words and
    numbers as identifiers and numbers, everything escaped."""
    def tokens(s):
        out = []
        for tok in re.findall(r"\d+(?:/\d+)?|[A-Za-zεδρμαλσγπℓΦ∞]|\S", s):
            tag = "mn" if tok[0].isdigit() else "mi" if tok.isalpha() or tok == "∞" else "mo"
            out.append(f"<{tag}>{esc(tok)}</{tag}>")
        return "".join(out)
    tag = "msup" if kind == "sup" else "msub"
    return (f'<math xmlns="{MATHML_NS}"><{tag}><mrow>{tokens(base)}</mrow><mrow>{tokens(script)}</mrow></{tag}>'
            "</math>")


def math_html(text) -> str:
    """Prose that holds mathematics as HTML: operator syntax tidied, and each ``x^{…}`` / ``x_{…}`` set
    as MathML (``<msup>`` / ``<msub>`` of the word or bracket it follows), everything else escaped.

    >>> math_html("e^{kε} <b>")
    '<span class="math-text"><math xmlns="http://www.w3.org/1998/Math/MathML"><msup><mrow><mi>e</mi></mrow><mrow><mi>k</mi><mi>ε</mi></mrow></msup></math> &lt;b&gt;</span>'
    """
    if text is None:
        return ""
    pieces, out, base = math_fragments(str(text)), [], ""
    for i, (kind, s) in enumerate(pieces):
        if kind == "text":
            script_next = i + 1 < len(pieces) and pieces[i + 1][0] != "text"
            m = _BASE.search(s) if script_next else None
            out.append(esc(s[:m.start()] if m else s))
            base = m.group(1) if m else ""      # the word or bracket the script belongs to
        else:
            out.append(_mathml_script(base, kind, s))
            base = ""
    return '<span class="math-text">' + "".join(out) + "</span>"


def banner_html(provenance, claims) -> str:
    """The run's banner: where the verdicts come from (date, profile, wall time, or the file they were
    rendered from) and, when the run was cut short, how many claims did not run."""
    not_run = [d.get("id") for d in claims if d.get("verdict") == "not run"]
    lines = [esc(provenance) if provenance else "no run record: the date, profile and wall time are not known"]
    if not_run:
        lines.append(f"{len(not_run)} of {len(claims)} claims did not run (the run was stopped): "
                     + esc(", ".join(map(str, not_run[:12])) + (" …" if len(not_run) > 12 else "")))
    rendered = bool(provenance) and str(provenance).startswith("rendered from")
    complete = provenance and not not_run and not rendered
    return (f'<div class="banner{" complete" if complete else ""}" id="run-banner" role="note">'
            + "<br>".join(f"<strong>{line}</strong>" if i == 0 else line for i, line in enumerate(lines)) + "</div>")


def filter_inputs() -> str:
    """The radio buttons the filters' CSS reads (placed before ``main``; their labels are in the TOC)."""
    return "".join(f'<input class="filter" type="radio" name="filter" id="filter-{key}"'
                   f'{" checked" if key == "all" else ""} aria-label="show {esc(words)}">' for key, words in FILTERS)


def toc_html(sections) -> str:
    """The table of contents: ``sections`` is a list of (anchor id, title), then the filters' labels."""
    items = "".join(f'<li><a href="#{esc(ident)}">{esc(title)}</a></li>' for ident, title in sections)
    labels = "".join(f'<label for="filter-{key}">{esc(words)}</label>' for key, words in FILTERS)
    return (f'<nav class="toc" id="toc" aria-label="contents"><strong>Contents</strong><ol>{items}</ol>'
            f'<div class="filters"><span class="muted">show: </span>{labels}</div></nav>')
