"""Densities and mass functions (symbolic.model.continuous, symbolic.model.real_line): validation refuses what
is not a probability law, with one line; totals are computed exactly piece by piece."""
import pytest
import sympy as sp

from symbolic.core.errors import InvalidDistribution, InvalidParameter, InvalidSize, ParseError
from symbolic.model.continuous import (continuous_from_json, discrete_gaussian, discrete_laplace, gaussian,
                                       is_continuous_document, laplace)
from symbolic.model.param_space import ParamRange
from symbolic.model.line_cuts import pieces
from symbolic.model.real_line import Signs, Undecided, integral, series, total

LAPLACE = {"kind": "density", "outputs": "reals", "domain": [0, 1], "params": {"b": "b>0"},
           "density": {"0": "exp(-abs(y)/b)/(2*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}}
Y = sp.Symbol("y", real=True)
B = sp.Symbol("b", positive=True)
POS_B = Signs((ParamRange("b", sp.Integer(0), True),))


def test_the_factories_give_normalised_laws_checked_exactly():
    for make in (laplace, gaussian, discrete_laplace):
        m = make()
        assert m.checks and all("total mass 1 (exact)" in c for c in m.checks), m.checks
        assert m.fix({m.params[0].name: 2}).params == ()
    dg = discrete_gaussian()
    assert all("normalised by its total" in c for c in dg.checks)


def test_a_file_is_read_as_data_and_recognised():
    m = continuous_from_json(LAPLACE)
    assert is_continuous_document(LAPLACE) and not is_continuous_document({"n": 1, "rows": {}})
    assert m.outputs == "reals" and m.databases == ((0,), (1,))
    assert sp.simplify(m.law((1,)).subs(B, 1).subs(Y, 1) - sp.Rational(1, 2)) == 0


@pytest.mark.parametrize("density, error, words", [
    ({"0": "exp(-abs(y)/b)/(3*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}, InvalidDistribution, "total mass 2/3, not 1"),
    ({"0": "y*exp(-abs(y)/b)/(2*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}, InvalidDistribution, "is negative at y = -4"),
    ({"0": "exp(y)", "1": "exp(-abs(y-1)/b)/(2*b)"}, InvalidDistribution, "infinite total mass"),
    ({"0": "__import__('os').system('x')", "1": "1"}, ParseError, "unexpected character"),
    ({"0": "exp(-abs(y)/b)/(2*b)"}, InvalidDistribution, "database 1 has no density"),
    ({"0": "exp(-abs(z)/b)/(2*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}, ParseError, "unknown name 'z'"),
])
def test_a_law_that_is_not_a_probability_law_is_refused_with_one_line(density, error, words):
    with pytest.raises(error) as e:
        continuous_from_json({**LAPLACE, "density": density})
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("change, error, words", [
    ({"outputs": "complex"}, InvalidSize, '"outputs"'),
    ({"kind": "mass"}, InvalidSize, "goes with"),
    ({"extra": 1}, InvalidSize, "unknown key"),
    ({"params": {"y": "y>0"}}, InvalidParameter, "output variable"),
    ({"domain": [0, 0.5]}, InvalidSize, "distinct integers"),
    ({"normalise": "yes"}, InvalidSize, "true or false"),
])
def test_a_malformed_file_is_refused(change, error, words):
    with pytest.raises(error) as e:
        continuous_from_json({**LAPLACE, **change})
    assert words in str(e.value)


def test_normalise_divides_by_the_total_and_a_float_is_refused():
    doc = {**LAPLACE, "normalise": True, "density": {"0": "exp(-abs(y)/b)", "1": "exp(-abs(y-1)/b)"}}
    m = continuous_from_json(doc)
    assert sp.simplify(m.law((0,)) - sp.exp(-sp.Abs(Y) / B) / (2 * B)) == 0
    with pytest.raises(Exception) as e:
        continuous_from_json({**LAPLACE, "density": {"0": 0.5, "1": "1"}})
    assert "expression in y as text" in str(e.value)


def test_pieces_split_at_the_abs_kinks_and_integrals_are_closed_forms():
    p, q = sp.exp(-sp.Abs(Y) / B) / (2 * B), sp.exp(-sp.Abs(Y - 1) / B) / (2 * B)
    pcs = pieces([p, q], Y, POS_B)
    assert [(pc.lo, pc.hi) for pc in pcs] == [(-sp.oo, 0), (0, 1), (1, sp.oo)]
    assert sp.simplify(sum(total(pc.exprs[0], Y, pc, POS_B) for pc in pcs)) == 1
    # ∫_0^∞ e^(−y²/2) dy = √(π/2); ∫_0^1 e^(2y) dy = (e² − 1)/2; a growing term diverges
    assert sp.simplify(integral(sp.exp(-Y ** 2 / 2), Y, 0, sp.oo, POS_B) - sp.sqrt(sp.pi / 2)) == 0
    assert sp.simplify(integral(sp.exp(2 * Y), Y, 0, 1, POS_B) - (sp.E ** 2 - 1) / 2) == 0
    assert integral(sp.exp(Y), Y, 0, sp.oo, POS_B) == sp.oo
    with pytest.raises(Undecided):
        integral(sp.exp(Y ** 3), Y, 0, 1, POS_B)


def test_series_over_the_integers():
    k = sp.Symbol("y", integer=True)
    # Σ_{y≥0} e^(−y) = 1/(1 − 1/e); a Gaussian-type term stays a Sum
    assert sp.simplify(series(sp.exp(-k), k, 0, sp.oo, POS_B) - 1 / (1 - sp.exp(-1))) == 0
    assert series(sp.exp(-k ** 2), k, 1, sp.oo, POS_B).has(sp.Sum)
    assert series(sp.exp(k), k, 0, sp.oo, POS_B) == sp.oo
