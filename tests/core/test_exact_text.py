"""Exact numbers stay exact in re-verification and in every text the tool writes: nsimplify rounds a
rational near a simpler number to that number (99999999999999997/10^17 to 1), so it must never stand
between a verdict and its numbers."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.exact import show, to_fraction
from symbolic.core.tables import MechTable
from symbolic.report.results import mech_json, num
from symbolic.solve.queries.verify import _check_row

NEAR_ONE = sp.Rational(10 ** 17 - 3, 10 ** 17)
BIG = sp.Rational(12379559, 15940000)


def test_a_row_that_sums_to_just_below_one_is_no_distribution():
    problems = []
    _check_row([NEAR_ONE, sp.Integer(0)], "row A(0)", problems)
    assert problems and "not 1" in problems[0]
    ok = []
    _check_row([sp.sqrt(2) / 2, 1 - sp.sqrt(2) / 2], "row A(1)", ok)
    assert ok == []


def test_numbers_are_written_as_they_are():
    assert num(NEAR_ONE) == "99999999999999997/100000000000000000"
    assert num(BIG) == "12379559/15940000"
    assert show(Fraction(10 ** 17 - 3, 10 ** 17)) == "99999999999999997/100000000000000000"
    assert to_fraction(NEAR_ONE) == Fraction(10 ** 17 - 3, 10 ** 17)
    tab = MechTable(1, (0, 1), (0, 1), {(0,): (BIG, 1 - BIG), (1,): (sp.Integer(1), sp.Integer(0))})
    assert mech_json(tab)["0"] == {"0": "12379559/15940000", "1": "3560441/15940000"}
