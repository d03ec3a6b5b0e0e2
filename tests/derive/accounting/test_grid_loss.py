"""The discretised losses bound the true ones from their side: masses rounded outward survive every product
(integer checks), tails moved only to the safe side, δ(ε) of a grid distribution exact against its formula."""
from __future__ import annotations

from fractions import Fraction as F

import mpmath as mp

from symbolic.core.certified import flint_module
from symbolic.derive.accounting.dots import connect_the_dots
from symbolic.derive.accounting.grid_loss import UNIT_BITS, GridLoss, discretise, multiply, power
from symbolic.derive.accounting.loss_laws import StepLoss
from symbolic.derive.accounting.profile import crossing, delta_at, float_profile

UNIT = 1 << UNIT_BITS
mp.mp.dps = 40


def test_delta_of_a_grid_distribution_is_its_formula():
    fl = flint_module()
    g = GridLoss(fl.fmpz_poly([UNIT // 2, UNIT // 2]), 0, 1, 0, "upper")     # half at loss 0, half at 1/2
    d = delta_at(g, fl.fmpq(1, 4))
    want = (1 - mp.e ** mp.mpf(-0.25)) / 2
    assert d.rad() < 10 ** -30 and abs(mp.mpf(d.mid().str(40, radius=False)) - want) < mp.mpf(10) ** -30
    assert abs(float_profile(g)(0.25) - float(want)) < 1e-12
    assert abs(crossing([float_profile(g)], float(want)) - 0.25) < 1e-9


def test_products_keep_the_mass_on_their_side():
    for side, make in (("upper", lambda s: connect_the_dots(s, 9)), ("lower", lambda s: discretise(s, 9, "lower"))):
        a = make(StepLoss("gaussian", (1, 1), (1, 4), "remove"))
        b = make(StepLoss("laplace", (2, 1), (1, 3), "add"))
        ab = multiply(a, b)
        if side == "upper":
            assert a.total >= UNIT and b.total >= UNIT and ab.total * UNIT >= a.total * b.total
        else:
            assert a.total <= UNIT and b.total <= UNIT and ab.total * UNIT <= a.total * b.total


def test_the_upper_and_lower_bounds_of_five_steps_bracket_each_other():
    step = StepLoss("gaussian", (1, 1), (1, 10), "remove")
    up, lo = power(connect_the_dots(step, 10), 5), power(discretise(step, 10, "lower"), 5)
    fl = flint_module()
    for eps in (fl.fmpq(1, 10), fl.fmpq(1, 2), fl.fmpq(1)):
        assert delta_at(lo, eps).upper() <= delta_at(up, eps).lower()
