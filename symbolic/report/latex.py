"""The audit as a LaTeX document, for papers: the summary per source, one row per claim, the findings,
and every counterexample as tables (mechanism rows, population, parameters, the violated inequality).

Built from the same JSON records as the HTML page (:mod:`symbolic.report.html`), so the two cannot
disagree. The output is plain ASCII: LaTeX's special characters are escaped and the Unicode the
records use (ε, ⇒, 𝒟, ≤, …) becomes math macros, so ``pdflatex`` compiles it as is with the
packages ``booktabs``, ``longtable``, ``amsmath`` and ``amssymb``; a character without a macro is
written as its code point, never dropped.
"""
from __future__ import annotations

import re

from symbolic.report.html import SUMMARY_COLUMNS, _claims, is_finding, summary_counts
from symbolic.core.math_text import math_fragments
from symbolic.report.html_claim import agrees_of
from symbolic.report.html_layout import agreement_word
from symbolic.report.html_math import formula_latex

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "%": r"\%",
            "_": r"\_", "^": r"\^{}", "~": r"\~{}", "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}

_MATH = {
    "±": r"\pm", "·": r"\cdot", "×": r"\times", "−": "-", "Δ": r"\Delta", "Σ": r"\Sigma", "Ω": r"\Omega",
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ζ": r"\zeta",
    "η": r"\eta", "θ": r"\theta", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi",
    "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "φ": r"\varphi", "χ": r"\chi", "ψ": r"\psi",
    "ω": r"\omega", "‖": r"\|", "ℓ": r"\ell", "ℰ": r"\mathcal{E}", "𝒟": r"\mathcal{D}", "𝒪": r"\mathcal{O}",
    "𝒫": r"\mathcal{P}", "𝒳": r"\mathcal{X}", "𝒴": r"\mathcal{Y}", "ℝ": r"\mathbb{R}", "←": r"\leftarrow",
    "→": r"\rightarrow", "↔": r"\leftrightarrow", "↦": r"\mapsto", "⇏": r"\nRightarrow", "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow", "∀": r"\forall", "∃": r"\exists", "∈": r"\in", "∉": r"\notin", "∘": r"\circ",
    "√": r"\surd", "∞": r"\infty", "∣": r"\mid", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "≈": r"\approx",
    "≠": r"\neq", "≤": r"\leq", "≥": r"\geq", "≡": r"\equiv", "⊥": r"\bot", "⊆": r"\subseteq", "∪": r"\cup",
    "∩": r"\cap", "∑": r"\sum", "∏": r"\prod", "⟨": r"\langle", "⟩": r"\rangle", "⌈": r"\lceil", "⌉": r"\rceil",
    "⌊": r"\lfloor", "⌋": r"\rfloor", "²": "^{2}", "³": "^{3}", "⁴": "^{4}", "¹": "^{1}", "ⁿ": "^{n}",
    "⁻": "^{-}", "₀": "_{0}", "₁": "_{1}", "₂": "_{2}", "ᵢ": "_{i}",
}
_TEXT = {"§": r"\S{}", "…": r"\ldots{}", "—": "---", "–": "--", "“": "``", "”": "''", "‘": "`", "’": "'",
         "é": r"\'e", "ü": r'\"u', "ö": r'\"o', "ä": r'\"a', "\u00a0": "~"}
_BAR = re.compile(r"(.)\u0304")   # a combining macron: x̄


def tex(text) -> str:
    """Any text as LaTeX source in ASCII (see the module text); None as empty."""
    if text is None:
        return ""
    res, bar = [], False
    for ch in _BAR.sub(lambda m: "\0" + m.group(1), str(text)):   # "\0" marks a letter that carries a bar
        if ch == "\0":
            bar = True
            continue
        if bar:
            res.append(r"$\bar{" + (_SPECIAL.get(ch) or _MATH.get(ch) or ch) + "}$")
            bar = False
        elif ch in _SPECIAL:
            res.append(_SPECIAL[ch])
        elif ch in _MATH:
            res.append(f"${_MATH[ch]}$")
        elif ch in _TEXT:
            res.append(_TEXT[ch])
        elif ord(ch) > 127:
            res.append(r"\texttt{[U+%04X]}" % ord(ch))
        else:
            res.append(ch)
    return "".join(res).replace("$$", "")   # adjacent math pieces join into one


def _math_inner(text: str) -> str:
    """Characters set inside a math-mode superscript or subscript."""
    out = []
    for ch in text:
        if ch in _MATH:
            out.append(_MATH[ch] + (" " if _MATH[ch][-1].isalpha() else ""))
        elif ch in _SPECIAL:
            out.append(_SPECIAL[ch] if ch not in "{}" else "")
        elif ord(ch) > 127:
            out.append(r"\text{[U+%04X]}" % ord(ch))
        else:
            out.append(ch)
    return "".join(out).strip()


def tex_math(text) -> str:
    """Prose that holds mathematics as LaTeX: :func:`tex`, with operator syntax tidied and ``^{…}`` /
    ``_{…}`` set as math superscripts and subscripts (never as text carets).

    >>> print(tex_math("e^{kε} and E**2"))
    e$^{k\\varepsilon}$ and E$^{2}$
    """
    if text is None:
        return ""
    parts = []
    for kind, piece in math_fragments(str(text)):
        if kind == "text":
            parts.append(tex(piece))
        else:
            parts.append(f"${'^' if kind == 'sup' else '_'}{{{_math_inner(piece)}}}$")
    return "".join(parts).replace("$$", "")


def _table(spec: str, head: list, rows: list, caption: str = "") -> list:
    out = [r"\begin{longtable}{" + spec + "}"]
    if caption:
        out.append(r"\caption*{" + tex(caption) + r"}\\")
    out += [r"\toprule", " & ".join(head) + r" \\", r"\midrule", r"\endhead"]
    out += [" & ".join(r) + r" \\" for r in rows]
    out += [r"\bottomrule", r"\end{longtable}"]
    return out


def _summary(claims, names) -> list:
    counts = summary_counts(claims)
    cols = list(SUMMARY_COLUMNS)
    rows = [[tex(s) + (f" ({tex(names[s])})" if s in names else "")] + [str(r[c]) for c in cols]
            for s, r in counts.items()]
    rows.append([r"\textbf{all}"] + [str(sum(r[c] for r in counts.values())) for c in cols])
    return _table("l" + "r" * len(cols), ["source"] + [tex(c) for c in cols], rows)


def _overview(claims) -> list:
    rows = []
    for d in claims:
        said = agrees_of(d)
        b = d.get("bounds") if isinstance(d.get("bounds"), dict) else {}
        sizes = ",".join(str(b[k]) for k in ("n", "domain", "outputs") if k in b)
        rows.append([tex(d.get("id")), tex_math(d.get("statement")), tex(d.get("source_says")), tex(d.get("verdict")),
                     {"": "--", "no": r"\textbf{no}"}.get(agreement_word(d, said), agreement_word(d, said)), tex(sizes),
                     tex(d.get("seconds"))])
    return _table(r"l p{5.2cm} p{2cm} l l l r", ["ID", "statement", "source says", "verdict", "as said",
                                                   r"$n,|\mathcal{D}|,|\mathcal{O}|$", "s"], rows)


def _grid(name, table) -> list:
    """A mechanism of a counterexample: rows are databases, columns outputs (a family or kernel: one
    table per part)."""
    if isinstance(table, dict) and table and all(isinstance(r, dict) and not any(isinstance(v, dict) for v in r.values())
                                                 for r in table.values()):
        cols = list(dict.fromkeys(k for r in table.values() for k in r))
        rows = [[tex(db)] + [tex(r.get(c, "")) for c in cols] for db, r in table.items()]
        return _table("l" + "r" * len(cols), ["$d$"] + [f"$o={tex(c)}$" for c in cols], rows,
                      f"mechanism {name}: Pr[{name}(d) = o]")
    if isinstance(table, dict) and table and not any(isinstance(v, dict) for v in table.values()):
        return _table("lr", ["output", "probability"], [[tex(k), tex(v)] for k, v in table.items()], f"kernel {name}")
    if isinstance(table, dict):
        return [line for part, sub in table.items() for line in _grid(f"{name} {part}", sub)]
    return [r"\texttt{" + tex(table) + "}"]


def counterexample_latex(cx: dict) -> list:
    """The lines of one counterexample record: its sizes, tables, parameters and violated inequality."""
    out = [f"At $n={tex(cx.get('n'))}$, $|\\mathcal{{D}}|={tex(cx.get('domain'))}$, "
           f"$|\\mathcal{{O}}|={tex(cx.get('outputs'))}$" + (f"; part: {tex_math(cx['implication'])}." if cx.get("implication")
                                                             else ".")]
    for name, table in (cx.get("mechanism") or {}).items():
        out += _grid(name, table)
    for name, pop in (cx.get("population") or {}).items():
        if isinstance(pop, dict):
            out += _table("lr", ["database", "probability"], [[tex(k), tex(v)] for k, v in pop.items()],
                          f"population {name} (all other databases 0)")
    if cx.get("parameters"):
        out.append("Parameters: " + ", ".join(f"{tex(k)} $=$ {tex(v)}" for k, v in cx["parameters"].items()) + ".")
    if cx.get("violated"):
        out.append(r"\par\noindent Violated: " + tex_math(cx["violated"]))
    return out


def _formula(doc) -> list:
    if doc.get("formula") is None:
        return []
    latex = doc.get("latex") or formula_latex(doc["formula"])
    return [r"\[ " + latex + r" \]" if latex and latex.isascii() else tex_math(doc["formula"])]


def audit_latex(doc, *, source_names: dict | None = None, title: str = "dpcheck audit",
                provenance: str | None = None) -> str:
    """A complete LaTeX document (``pdflatex`` compiles it) from an audit's JSON document ``doc``;
    ``provenance``: a line under the title saying where the verdicts come from (e.g. "rendered from
    FILE; proofs not re-run; …").

    >>> text = audit_latex({"tool": {"version": "0"}, "claims": [{"id": "X-1", "source": "X", "kind": "⇒",
    ...     "statement": "A_1 ⇒ B & 50%", "verdict": "proved", "agrees_with_source": True}]})
    >>> "A$_{1}$ $\\\\Rightarrow$ B \\\\& 50\\\\%" in text, text.isascii()
    (True, True)
    """
    claims, names = _claims(doc), source_names or {}
    version = (doc.get("tool") or {}).get("version", "?") if isinstance(doc, dict) else "?"
    out = [r"\documentclass{article}", r"\usepackage{booktabs,longtable,amsmath,amssymb}",
           r"\usepackage[margin=2cm]{geometry}", r"\begin{document}",
           r"\section*{" + tex(title) + "}"]
    if provenance:
        out += [r"\noindent\textbf{" + tex(provenance) + "}", ""]
    cxs = [d for d in claims if isinstance(d.get("counterexample"), dict)]
    ok = sum(d.get("verified_exactly") is True for d in cxs)
    out += [tex(f"dpcheck {version}: {len(claims)} claims. Proofs hold within the sizes shown; "
                + ("every counterexample was" if ok == len(cxs) else f"{ok} of {len(cxs)} counterexamples were")
                + " re-verified in exact rational arithmetic."), "", r"\subsection*{Summary}"]
    out += _summary(claims, names)
    found = [d for d in claims if is_finding(d)]
    out.append(r"\subsection*{Findings}")
    out += ([r"\begin{itemize}"] + [r"\item \textbf{" + tex(d.get("id")) + "} " + tex_math(d["finding"]) for d in found]
            + [r"\end{itemize}"]) if found else ["No findings: every verdict is as the source says."]
    out += [r"\subsection*{Claims}"] + _overview(claims)
    refuted = [d for d in claims if isinstance(d.get("counterexample"), dict)]
    derived = [d for d in claims if d.get("formula") is not None]
    if refuted:
        out.append(r"\subsection*{Counterexamples}")
        for d in refuted:
            out += [r"\paragraph{" + tex(d.get("id")) + "}", tex_math(d.get("statement")), ""]
            out += counterexample_latex(d["counterexample"]) + [""]
    if derived:
        out.append(r"\subsection*{Derived formulas}")
        for d in derived:
            out += [r"\paragraph{" + tex(d.get("id")) + "}", tex_math(d.get("statement"))] + _formula(d) + [""]
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"
