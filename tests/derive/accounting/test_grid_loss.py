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


def test_delta_of_a_grid_distribution_is_its_formula():
    fl = flint_module()
    g = GridLoss(fl.fmpz_poly([UNIT // 2, UNIT // 2]), 0, 1, 0, "upper")     # half at loss 0, half at 1/2
    d = delta_at(g, fl.fmpq(1, 4))
    with mp.workdps(40):
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


def test_a_window_moves_its_tails_to_the_safe_side_and_keeps_their_mass():
    from symbolic.derive.accounting.grid_loss import TAIL_UNITS, _windowed
    fl = flint_module()
    poly = fl.fmpz_poly([3, 0, UNIT - 8, 0, 0, 5])          # tails of 3 and 5 units, each below TAIL_UNITS
    assert 5 <= TAIL_UNITS
    up, off, inf = _windowed(poly, 10, 0, "upper")
    assert inf == 5 and up.coeffs() == [UNIT - 5] and off == 12         # the low tail moved up onto the first kept
    assert int(up(1)) + inf == UNIT
    lo, off_lo, inf_lo = _windowed(poly, 10, 0, "lower")
    assert inf_lo == 0 and lo.coeffs() == [UNIT - 3] and off_lo == 12   # the high tail moved down, the low dropped


def test_the_reverse_order_is_enclosed_too():
    from symbolic.derive.accounting.run import Stage, chains
    q, eps = F(1, 4), F(1, 20)
    up, lo = chains((Stage("gaussian", F(1), q, 1),), 12, "upper"), chains((Stage("gaussian", F(1), q, 1),), 12, "lower")
    with mp.workdps(40):
        qq, e = mp.mpf(1) / 4, mp.mpf(1) / 20
        y = mp.log((mp.e ** -e - 1 + qq) / qq) + mp.mpf(1) / 2   # N(0, 1) against the mixture: loss −L > ε below y
        want = mp.ncdf(y) - mp.e ** e * ((1 - qq) * mp.ncdf(y) + qq * mp.ncdf(y - 1))
        want = str(want)
    fl = flint_module()
    at = fl.fmpq(1, 20)
    assert delta_at(lo["add"], at).upper() <= fl.arb(want) * (1 + fl.arb(10) ** -20)
    assert delta_at(up["add"], at).lower() >= fl.arb(want) * (1 - fl.arb(10) ** -20)
