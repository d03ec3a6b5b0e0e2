"""Formulas for the HTML report: MathML made from LaTeX, with everything from the data made safe.

A formula reaches the page by one of two roads: LaTeX text (converted by the latex2mathml library),
or a formula in sympy's text form, read by the restricted parser of :mod:`symbolic.core.exact`
(never ``sympify``: the text is data) and printed as LaTeX by sympy. Either way the MathML is
rebuilt element by element from a fixed list of MathML presentation elements and attributes, with
every text escaped: a ``\\text{<b>…</b>}`` or ``\\href{…}`` in the data cannot put markup or a link
on the page.

>>> formula_mathml("(E - 1)/(E + 1)").startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')
True
>>> "<b>" in latex_mathml(r"\\text{<b>bold</b>}")
False
>>> formula_mathml("Max(a, b)") is None   # not read by the restricted parser: shown as text
True
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.math_text import tidy_text
from symbolic.core.exact import parse_expr

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

_ELEMENTS = frozenset("""math mrow mi mn mo ms mtext mspace mfrac msqrt mroot msub msup msubsup munder mover
    munderover mtable mtr mtd mstyle mpadded mphantom menclose merror semantics annotation mmultiscripts
    mprescripts none""".split())
_ATTRIBUTES = frozenset("""display displaystyle mathvariant stretchy fence separator lspace rspace form
    columnalign columnspacing rowspacing rowalign linethickness accent accentunder movablelimits symmetric
    largeop minsize maxsize width height depth scriptlevel notation encoding""".split())
_VOID = frozenset({"mspace", "none", "mprescripts"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FUNCTIONS = {"exp", "log", "sqrt"}
MAX_LATEX_CHARS = 4000


class _MathMLRebuilder(HTMLParser):
    """Re-emit only the allowed MathML elements and attributes; every text and value escaped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.open = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in _ELEMENTS:
            return
        kept = "".join(f' {k}="{html.escape(v or "", quote=True)}"' for k, v in attrs if k in _ATTRIBUTES)
        if tag == "math":
            kept = f' xmlns="{MATHML_NS}"' + kept
        self.out.append(f"<{tag}{kept}>")
        if tag in _VOID:
            self.out.append(f"</{tag}>")
        else:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in _ELEMENTS and tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in self.open:  # close what is open down to it; stray end tags are dropped
            while self.open:
                last = self.open.pop()
                self.out.append(f"</{last}>")
                if last == tag:
                    break

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{t}>" for t in reversed(self.open))


def clean_mathml(markup: str) -> str:
    """``markup`` with only MathML presentation elements and attributes kept, texts escaped."""
    rebuilder = _MathMLRebuilder()
    rebuilder.feed(markup)
    return rebuilder.result()


def latex_mathml(latex: str, *, display: bool = False) -> str:
    """The MathML of the LaTeX text ``latex`` (latex2mathml), made safe by :func:`clean_mathml`.

    >>> latex_mathml(r"\\frac{1}{2}").count("<mfrac>")
    1
    """
    from latex2mathml.converter import convert
    if not isinstance(latex, str) or len(latex) > MAX_LATEX_CHARS:
        raise DPCheckError(f"a LaTeX formula of the report is not text of at most {MAX_LATEX_CHARS} characters")
    try:
        markup = convert(latex, display="block" if display else "inline")
    except Exception as e:  # noqa: BLE001 -- the library's own errors on malformed LaTeX
        raise DPCheckError(f"latex2mathml could not read the formula {latex[:60]!r}: {type(e).__name__}") from e
    return clean_mathml(markup)


def formula_latex(text: str) -> str | None:
    """LaTeX for a formula in sympy's text form, read by the restricted parser; None when that parser
    does not read it (sums, maxima, piecewise forms: the page shows those as text).

    >>> formula_latex("log(E)/2")
    '\\\\frac{\\\\log{\\\\left(E \\\\right)}}{2}'
    """
    if not isinstance(text, str) or not text.strip():
        return None
    names = {n: sp.Symbol(n) for n in _NAME.findall(text) if n not in _FUNCTIONS}
    try:
        return sp.latex(parse_expr(text, names, what="formula"))
    except (DPCheckError, RecursionError, ValueError, TypeError):
        return None


def formula_mathml(text: str, *, display: bool = False) -> str | None:
    """MathML of a formula in sympy's text form (see :func:`formula_latex`), or None."""
    latex = formula_latex(text)
    if latex is None:
        return None
    try:
        return latex_mathml(latex, display=display)
    except DPCheckError:
        return None


def math_or_code(text, *, latex: str | None = None, display: bool = False) -> str:
    """HTML for a formula: MathML from ``latex`` when given and readable, else from ``text`` read as a
    sympy formula, else ``text`` tidied as mathematics (:func:`~symbolic.core.math_text.tidy_text`) and
    escaped."""
    if latex:
        try:
            return latex_mathml(latex, display=display)
        except DPCheckError:
            pass
    mathml = formula_mathml(text, display=display) if isinstance(text, str) else None
    return mathml if mathml is not None else f'<span class="math-text">{html.escape(tidy_text(str(text)))}</span>'
