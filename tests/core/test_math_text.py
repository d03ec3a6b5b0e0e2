"""The printer of formulas: what it shows is mathematics, never Python's operator syntax, and it keeps
the expression's meaning (the shown text, read back with the letters undone, is the same expression)."""
import re

import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic.core.exact import parse_expr
from symbolic.core.math_text import LETTERS, math_latex, math_text, tidy_text

E, p, delta, eps = sp.symbols("E p delta eps")
ATOMS = [E, p, delta, sp.Integer(2), sp.Rational(1, 3), sp.Integer(-1)]


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS))
    a, b = draw(expressions(depth=depth - 1)), draw(expressions(depth=depth - 1))
    op = draw(st.sampled_from(["add", "sub", "mul", "div", "pow", "log", "sqrt"]))
    if op == "div" and b == 0:
        op = "add"
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
            "pow": lambda: a ** draw(st.integers(2, 4)), "log": lambda: sp.log(E + a ** 2 + 1),
            "sqrt": lambda: sp.sqrt(a ** 2 + 1)}[op]()


def _read_back(text):
    """The shown text in the restricted parser's syntax: letters to names, juxtaposition to ``*``."""
    back = {v: k for k, v in LETTERS.items() if k in ("delta", "eps")}
    text = text.replace("−", "-").replace("·", "*").replace("ln(", "log(").replace("√", "sqrt")
    text = re.sub("[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+", lambda m: "^(" + m.group(0).translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")) + ")",
                  text)
    for letter, name in back.items():
        text = text.replace(letter, name)
    text = re.sub(r"sqrt(\w+)", r"sqrt(\1)", text)
    text = re.sub(r"(\d|\))(?=[A-Za-z(])", r"\1*", text)    # 2E → 2*E, (…)(…) → (…)*(…)
    text = re.sub(r"([A-Za-z])(?=\()", lambda m: m.group(1) if m.group(1) in "gt" else m.group(1) + "*", text)
    return text


@settings(max_examples=60, deadline=None)
@given(expressions())
def test_the_shown_formula_has_no_python_syntax_and_means_the_same(expr):
    shown = math_text(expr)
    assert "**" not in shown and "*" not in shown and "eps" not in shown and "delta" not in shown
    assert not re.search(r"\d\s*-|\s-\s|^-", shown), shown     # minus is the minus sign
    names = {"E": E, "p": p, "delta": delta, "eps": eps}
    assert sp.simplify(parse_expr(_read_back(shown), names) - expr) == 0, (expr, shown)


@settings(max_examples=60, deadline=None)
@given(expressions())
def test_tidy_text_removes_operator_syntax_from_sympys_text(expr):
    shown = tidy_text(f"map: B = {expr}")
    assert "**" not in shown and "*" not in shown and shown.startswith("map: B = ")


def test_latex_uses_the_letters_and_the_natural_log():
    assert math_latex(sp.log(E) / eps) == r"\frac{\ln{\left(E \right)}}{\varepsilon}"
    assert r"\delta" in math_latex(delta + 1) and "δ" not in math_latex(delta + 1)
