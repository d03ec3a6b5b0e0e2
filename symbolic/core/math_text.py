"""Formulas printed as mathematics: one printer for every place a formula or a notion instance is shown.

Three forms of one sympy expression:

- :func:`math_text`: one line of Unicode for the terminal and plain-text reports: ``E²`` not ``E**2``,
  ``2E`` and ``E·δ`` not ``2*E`` and ``E*delta``, ``ln`` for the natural logarithm, ``e^ε`` for
  ``exp(eps)``, ``√(1 − p)``, ``−`` for minus, and the parameters' names as their letters (``eps`` is ε,
  ``delta`` δ, ``rho`` ρ, ``mu`` μ, ``alpha`` α, ``sigma`` σ);
- :func:`math_latex`: LaTeX for math mode, with the same letters (``\\varepsilon``, ``\\delta``);
- :func:`tidy_text`: the same conventions applied to text that already holds formulas in sympy's
  syntax (a counterexample's violated comparison, a recorded map ``E = E**2``), for display only;
- :func:`math_fragments`: prose with TeX-style exponents and indices (a source's statement such as
  ``e^{kε} Pr[A(x')∈S]``) cut into text and the superscripts and subscripts that HTML and LaTeX set.

Text in records (JSON) keeps sympy's syntax, which programs read back; only what is displayed is tidied.

>>> import sympy as sp
>>> E, p, eps, delta = sp.symbols("E p eps delta")
>>> math_text(E**2), math_text(2*E + 1), math_text(sp.log((1 + 2*p)/(1 - p))), math_text(sp.exp(eps))
('E²', '2E + 1', 'ln((2p + 1)/(1 − p))', 'e^ε')
>>> math_text(delta*(E**2 + 1)/(E*(E - 1))), math_text(sp.sqrt(delta))
('δ(E² + 1)/(E(E − 1))', '√δ')
>>> math_latex(sp.exp(eps) - 1)
'e^{\\\\varepsilon} - 1'
>>> tidy_text("E = E**2; violated at 2*E*delta")
'E = E²; violated at 2E·δ'
"""
from __future__ import annotations

import re

import sympy as sp
from sympy.printing.str import StrPrinter

# the parameters' names and the letters they stand for
LETTERS = {"eps": "ε", "epsilon": "ε", "delta": "δ", "rho": "ρ", "mu": "μ", "alpha": "α", "sigma": "σ",
           "lam": "λ", "lambda": "λ", "gamma": "γ", "beta": "β", "tau": "τ", "theta": "θ", "pi": "π",
           "eps0": "ε₀", "Phi": "Φ"}
_LATEX_LETTERS = {"eps": r"\varepsilon", "epsilon": r"\varepsilon", "eps0": r"\varepsilon_0", "lam": r"\lambda",
                  "Phi": r"\Phi"}
_SUPERSCRIPT = str.maketrans("0123456789-+()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺⁽⁾ⁿ")
_SUPER_CHARS = set("0123456789-n")


def superscript(text: str) -> str | None:
    """``text`` in superscript characters, or None when one of its characters has none.

    >>> superscript("2"), superscript("-1"), superscript("k")
    ('²', '⁻¹', None)
    """
    return text.translate(_SUPERSCRIPT) if text and set(text) <= _SUPER_CHARS else None


class _UnicodePrinter(StrPrinter):
    """sympy's one-line printer with the conventions of :func:`math_text`."""

    def _print_Symbol(self, expr):
        return LETTERS.get(expr.name, expr.name)

    def _print_Pow(self, expr, rational=False):
        base, exp = expr.as_base_exp()
        if exp == sp.Rational(1, 2):
            return "√" + self._atom(base)
        if exp.is_negative and exp.is_number:
            return "1/" + self._atom(base ** -exp)
        if base == sp.E:
            return "e^" + self._atom(exp)
        b = self._atom(base)
        sup = superscript(self._print(exp)) if (exp.is_Integer or exp.is_Symbol) else None
        return b + sup if sup else f"{b}^{self._atom(exp)}"

    def _print_exp(self, expr):
        return "e^" + self._atom(expr.args[0])

    def _print_Exp1(self, expr):   # Euler's number: "E" is the privacy level e^ε
        return "e"

    def _print_log(self, expr):
        return f"ln({self._print(expr.args[0])})"

    def _print_Abs(self, expr):
        return f"|{self._print(expr.args[0])}|"

    def _print_Piecewise(self, expr):
        pieces = []
        for value, cond in expr.args:
            pieces.append(self._print(value) + ("" if cond is sp.true else f" if {self._print(cond)}"))
        if expr.args[-1][1] is sp.true and len(pieces) > 1:
            pieces[-1] += " otherwise"
        return "{" + "; ".join(pieces) + "}"

    def _print_Relational(self, expr):
        op = {"<=": "≤", ">=": "≥", "<": "<", ">": ">", "!=": "≠", "==": "="}.get(expr.rel_op, expr.rel_op)
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"

    def _print_Infinity(self, expr):
        return "∞"

    def _print_NegativeInfinity(self, expr):
        return "−∞"

    def _print_Max(self, expr):
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Min(self, expr):
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Mul(self, expr):
        plain = super()._print_Mul(expr)
        numer, denom = sp.fraction(expr)
        if denom == 1:
            return plain
        numer, denom = -numer, -denom           # −2p/(p − 1) is shown as 2p/(1 − p): fewer minus signs
        top = self._atom(numer) if numer.is_Add else self._print(numer)
        flipped = f"{top}/{self._atom(denom)}"
        return flipped if flipped.count("-") < plain.count("-") else plain

    def _atom(self, expr) -> str:
        text = self._print(expr)
        simple = ((expr.is_Atom and not (expr.is_Rational and not expr.is_Integer))
                  or isinstance(expr, (sp.Function, sp.Abs)) or (expr.is_Pow and not expr.exp.is_negative))
        return text if simple and not text.startswith("-") else f"({text})"


def _finish(text: str) -> str:
    """Multiplication as juxtaposition after a number or before a bracket, else a centred dot; minus signs."""
    text = re.sub(r"(?<![\w.√^/])(\d+)\*(?=[^\d\s])", r"\1", text)     # 2*E → 2E, 2*(…) → 2(…); not √5·E
    text = re.sub(r"(?<=[\w)²³⁴⁵⁶⁷⁸⁹¹⁰ⁿ|])\*(?=\()", "", text)       # E*(E − 1) → E(E − 1)
    text = text.replace("*", "·")
    text = re.sub(r"(?<![\w)\]|²³⁴⁵⁶⁷⁸⁹¹⁰ⁿ])-", "−", text)           # a leading or unary minus
    return text.replace(" - ", " − ")


def math_text(expr) -> str:
    """One line of Unicode for a sympy expression (or a number, or a relation); see the module text.
    Text is taken as holding formulas in sympy's syntax (:func:`tidy_text`).

    >>> import sympy as sp
    >>> p = sp.Symbol("p")
    >>> math_text(sp.Piecewise((sp.log((1 - p)/(2*p)), p <= sp.Rational(1, 3)), (sp.log(-2*p/(p - 1)), True)))
    '{ln((1 − p)/(2p)) if p ≤ 1/3; ln(2p/(1 − p)) otherwise}'
    """
    if isinstance(expr, str):
        return tidy_text(expr)
    return _finish(_UnicodePrinter({"order": None}).doprint(sp.sympify(expr)))


def math_latex(expr) -> str:
    """LaTeX (math mode) for a sympy expression, the parameters' names as their letters.

    >>> import sympy as sp
    >>> print(math_latex(sp.Symbol("delta") / sp.Symbol("eps")))
    \\frac{\\delta}{\\varepsilon}
    """
    expr = sp.sympify(expr)
    names = {s: _LATEX_LETTERS[s.name] for s in expr.free_symbols
             if isinstance(s, sp.Symbol) and s.name in _LATEX_LETTERS}
    return sp.latex(expr, symbol_names=names, ln_notation=True)


_POWER = re.compile(r"\*\*(?:\(([^()]*)\)|(-?\w+))")


def _power(m) -> str:
    word = m.group(1) or m.group(2)
    sup = superscript(word)
    return sup if sup else (f"^({word})" if m.group(1) else f"^{word}")


def tidy_text(text: str) -> str:
    """Text that holds formulas in sympy's syntax, with the conventions of :func:`math_text`: powers
    (``**2`` → ``²``, ``**k`` → ``^k``), multiplication, minus signs and the parameters' letters. Only
    formula syntax is touched: words, numbers and punctuation stay as they are.

    >>> tidy_text("PureDP(E) ⇒ ApproxDP(E**2, 2*delta)")
    'PureDP(E) ⇒ ApproxDP(E², 2δ)'
    """
    text = _POWER.sub(_power, str(text))
    text = re.sub(r"\bexp\(", "e^(", text)
    text = re.sub(r"\blog\(", "ln(", text)
    text = re.sub(r"\bsqrt\(", "√(", text)
    text = re.sub(r"\b(" + "|".join(sorted(LETTERS, key=len, reverse=True)) + r")\b",
                  lambda m: LETTERS[m.group(1)], text)
    return _finish(text) if "*" in text or " - " in text else text


_FRAGMENT = re.compile(r"([\^_])(\{([^{}]*)\}|([A-Za-z0-9εδρμαλσγ∞]+))")


def math_fragments(text: str) -> list:
    """Prose cut into ``("text", s)``, ``("sup", s)`` and ``("sub", s)`` pieces: ``^{…}`` and ``_{…}`` (or a
    single word after ``^`` / ``_``) are the superscripts and subscripts of what precedes them. Operator
    syntax is tidied first (:func:`tidy_text`), so ``E**2`` is already ``E²``.

    >>> math_fragments("Pr ≤ e^{kε}·q and p_{-i}(a), e^ε-1")
    [('text', 'Pr ≤ e'), ('sup', 'kε'), ('text', '·q and p'), ('sub', '-i'), ('text', '(a), e'), ('sup', 'ε'), ('text', '-1')]
    """
    out, pos = [], 0
    text = tidy_text(text)
    for m in _FRAGMENT.finditer(text):
        if m.start() == 0 or text[m.start() - 1].isspace():
            continue   # a caret or underscore that follows nothing is text
        if m.start() > pos:
            out.append(("text", text[pos:m.start()]))
        out.append(("sup" if m.group(1) == "^" else "sub", m.group(3) if m.group(3) is not None else m.group(4)))
        pos = m.end()
    if pos < len(text):
        out.append(("text", text[pos:]))
    return out

