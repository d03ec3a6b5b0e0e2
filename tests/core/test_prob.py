import pytest
import sympy as sp
from fractions import Fraction

from symbolic.core.errors import FloatNotAllowed, InvalidDistribution, ParseError, DPCheckError
from symbolic.core.exact import exact, parse_expr, parse_number
from symbolic.core.prob import Dist, Kernel


def test_dist_exact_and_symbolic():
    p = sp.Symbol("p")
    d = Dist({0: p, 1: 1 - p})           # undecided symbolic conditions pass
    assert d[0] == p and d[2] == 0
    assert Dist({"a": "1/3", "b": Fraction(2, 3)})["b"] == sp.Rational(2, 3)


@pytest.mark.parametrize("row, words", [
    ({0: "1/2", 1: "1/3"}, "sums to 5/6"),
    ({0: -1, 1: 2}, "negative"),
])
def test_dist_rejects_bad_rows(row, words):
    with pytest.raises(InvalidDistribution, match=words):
        Dist(row)


def test_float_rejected_with_advice():
    with pytest.raises(FloatNotAllowed, match="Rational"):
        Dist({0: 0.5, 1: 0.5})
    with pytest.raises(FloatNotAllowed):
        exact(sp.Float(0.25))


def test_symbolic_definitely_false_raises():
    p = sp.Symbol("p", positive=True)
    with pytest.raises(InvalidDistribution):
        Dist({0: p, 1: 1 + p})  # sums to 1 + 2p, definitely not 1 since p > 0


def test_kernel_aligns_outputs():
    k = Kernel({0: {"a": 1}, 1: {"a": "1/2", "b": "1/2"}})
    assert k.outputs == ("a", "b") and k[0]["b"] == 0


def test_parse_number_and_expr():
    assert parse_number("0.125") == sp.Rational(1, 8)
    assert parse_number("-6/4") == sp.Rational(-3, 2)
    with pytest.raises(ParseError):
        parse_number("1/0")
    with pytest.raises(ParseError):
        parse_number("1e3")
    E = sp.Symbol("E")
    assert parse_expr("exp(2)*E - 1", {"E": E}) == sp.exp(2) * E - 1


@pytest.mark.parametrize("evil", ["__import__('os').system('true')", "E.__class__", "lambda: 1", "a;b"])
def test_parse_expr_rejects_code(evil):
    with pytest.raises(DPCheckError):
        parse_expr(evil, {"E": sp.Symbol("E")})
