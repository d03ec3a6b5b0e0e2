"""An enclosure is printed with only the digits it supports (symbolic.derive.continuous.values.enclosure_text):
the decimal shown is one every point of the enclosure rounds to, or the enclosure itself with its ends rounded
outward; the radius is rounded up; a tiny value is written in scientific notation, not as 0.000…. ρ of ε-DP at
ε = 1/10 was printed 0.00499584 beside ± 1.5E-9 (the last digit's half-unit, 5·10⁻⁹, larger than the radius),
and randomized response's ρ as 0.5493061443341 though its lower end rounds to …340."""
from __future__ import annotations

import json
import re
from fractions import Fraction

from hypothesis import example, given, settings as hsettings, strategies as st
import sympy as sp

from symbolic.derive.continuous.values import decimal_down, decimal_up, enclosure_text

NUMBER = r"-?\d+(?:\.\d+)?(?:e[+-]\d+)?"


def read(text):
    return sp.Rational(Fraction(text))


def places(text) -> int:
    """The power of ten of a printed decimal's last digit."""
    mantissa, _, exp = text.partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return int(exp or 0) - decimals


def supported(printed, lo, hi):
    """Every point of [lo, hi] rounds to the printed decimal (its rounding interval contains the enclosure),
    or the printed interval contains the enclosure; and the printed radius is at least the true one."""
    m = re.fullmatch(rf"(?:({NUMBER})|\[({NUMBER}), ({NUMBER})\]) \(± ({NUMBER})", printed)
    assert m, printed
    value, a, b, radius = m.groups()
    assert read(radius) >= (hi - lo) / 2
    if value is not None:
        half = sp.Rational(10) ** places(value) / 2
        return read(value) - half <= lo and hi < read(value) + half
    return read(a) <= lo and hi <= read(b)


def rationals(max_exp=40):
    return st.builds(lambda m, e: sp.Rational(m) * sp.Rational(10) ** e,
                     st.integers(-10 ** 18, 10 ** 18), st.integers(-max_exp, 5))


@given(rationals(), st.integers(0, 10 ** 12), st.integers(-40, 2))
@example(sp.Rational(549306144334038238, 10 ** 18), 93791, -18)       # RR's ρ: the lower end rounds to …340
@example(sp.Rational(4995836, 10 ** 9), 3, -9)                          # ρ at ε = 1/10
@example(sp.Rational(-1, 10 ** 30), 2, -30)                             # an enclosure of 0
@example(sp.Integer(95), 50, -1)                                        # [95, 100]: 1.0e+02, not 100
@hsettings(max_examples=400, deadline=None)
def test_every_printed_digit_is_supported(lo, width, scale):
    hi = lo + sp.Rational(width) * sp.Rational(10) ** scale
    assert supported(enclosure_text(lo, hi), lo, hi)


@given(rationals(), st.integers(1, 25))
@hsettings(max_examples=300, deadline=None)
def test_ends_are_rounded_outward(x, digits):
    down, up = read(decimal_down(x, digits)), read(decimal_up(x, digits))
    assert down <= x <= up and up - down <= abs(x) * sp.Rational(10) ** (1 - digits)


def test_a_tiny_value_is_written_in_scientific_notation():
    lo = sp.Rational(1230835983642704, 10 ** 40)
    text = enclosure_text(lo, lo + sp.Rational(1, 10 ** 40))
    assert text.startswith("1.2308359836427e-25") and "± 5.0e-41" in text and not text.startswith("0.0")


def test_the_map_from_pure_dp_to_zcdp_prints_supported_digits(capsys):
    from theorems.cli.main import main
    assert main(["derive", "map", "pure-dp", "zcdp", "--param", "eps=1/10", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["values"][0]
    lo, hi = read_exact(row["lower"]), read_exact(row["upper"])
    assert supported(row["decimal"][:-1], lo, hi)


def read_exact(text):
    return sp.Rational(text)
