"""An interval's exact ends still enclose the value when it is read beyond the magnitudes kept exactly: a tiny
value's ends are rounded outward (0 or ±2^-131072), a huge one is refused in one line, and an ordinary one is
read exactly. Checked against the value itself by ball arithmetic, apart from the code that reads the ends."""
import pytest
import sympy as sp

from symbolic.core import certified as C
from symbolic.core.errors import OutOfRange

TINY = sp.exp(-10 ** 6)                     # about 10^-434295, far below 2^-131072
VALUES = [TINY, -TINY, 1 + TINY, 1 - TINY, TINY * sp.Rational(3, 2) - TINY / 2, sp.Rational(1, 3), -sp.pi,
          sp.exp(-1000), sp.Integer(0)]


@pytest.mark.parametrize("value", VALUES, ids=[str(i) for i in range(len(VALUES))])
@pytest.mark.parametrize("bits", [64, 256, 1536])
def test_the_ends_read_enclose_the_value(value, bits):
    b = C.enclose(value, bits)
    lo, hi = b.lower(), b.upper()
    assert lo.is_Rational and hi.is_Rational and lo <= hi
    assert max(abs(lo.p).bit_length(), lo.q.bit_length(), abs(hi.p).bit_length(), hi.q.bit_length()) <= 2 ** 17 + 64
    with C.precision(4096):   # the value against the ends: exact rationals beside a fresh ball of the value
        assert C.le(lo, value) is True or lo == value
        assert C.le(value, hi) is True or hi == value


def test_a_tiny_value_is_read_within_two_units_of_the_smallest_magnitude_kept():
    unit = sp.Rational(1, 2 ** 131072)   # the midpoint and the radius each rounded outward to 0 or this
    b = C.enclose(TINY, 128)
    assert -unit <= b.lower() <= 0 < b.upper() <= 2 * unit


def test_a_huge_value_is_refused_in_one_line():
    with pytest.raises(OutOfRange, match="beyond the magnitudes dpcheck computes with exactly"):
        C.enclose(sp.exp(10 ** 6), 64).upper()
