"""The z3 side of the ops interface: sympy terms translated exactly, √ through a side constraint,
a hockey-stick maximum, and a clear refusal of what polynomial arithmetic cannot state."""
import pytest
import sympy as sp
import z3

from symbolic.core.errors import DPCheckError, Transcendental
from symbolic.solve.backends.z3_ops import Z3Ops, to_z3

x, y = sp.symbols("x y")


def _value(term, **values):
    s = z3.Solver()
    env = {k: z3.Real(k) for k in values}
    s.add([env[k] == z3.RealVal(str(v)) for k, v in values.items()])
    t = term(env)
    s.add(z3.Real("out") == t)
    assert s.check() == z3.sat
    v = s.model().eval(z3.Real("out"), model_completion=True)
    return sp.Rational(v.numerator_as_long(), v.denominator_as_long())


def test_rational_terms_translate_exactly():
    expr = (3 * x - y) ** 2 / (x + 1) - sp.Rational(7, 3)
    got = _value(lambda env: to_z3(expr, env), x=sp.Rational(1, 2), y=sp.Rational(5, 4))
    assert got == expr.subs({x: sp.Rational(1, 2), y: sp.Rational(5, 4)})


def test_square_root_is_a_side_constraint_and_max0_clips_at_zero():
    ops = Z3Ops()
    s = z3.Solver()
    r = to_z3(sp.sqrt(x), {"x": z3.RealVal(9)}, ops)
    s.add(ops.side)
    s.add(r != 3)
    assert s.check() == z3.unsat            # the only non-negative square root of 9
    m = ops.max0(z3.RealVal(-2))
    assert z3.simplify(m) == 0


def test_what_the_solver_cannot_state_is_refused_with_the_reason():
    with pytest.raises(Transcendental, match="exp"):
        to_z3(sp.exp(x), {"x": z3.Real("x")})
    with pytest.raises(DPCheckError, match="no solver variable"):
        to_z3(x + y, {"x": z3.Real("x")})
