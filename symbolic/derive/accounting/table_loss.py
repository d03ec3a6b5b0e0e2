"""One step's privacy loss when the mechanism is a finite table of one record over two values (absent V,
present x), under Poisson sampling at rate q: the law with the record is (1 − q)·M(V) + q·M(x), against M(V),
in both orders. Its loss takes finitely many values log(a_o/b_o); each is compared with a grid point in ball
arithmetic (a ratio of exactly 1 is the loss 0, decided exactly), and the masses are exact numbers enclosed in
balls. An output the second law never gives has loss +∞ (its mass ends beyond every grid point); one the first
law never gives carries no mass of it.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.certified import flint_module, precision
from symbolic.derive.accounting.loss_laws import WORKING_BITS


def _ball(x):
    fl = flint_module()
    return fl.arb(str(sp.N(x, 80))) if not x.is_Rational else fl.arb(fl.fmpq(int(x.p), int(x.q)))


@dataclass(frozen=True)
class TableStepLoss:
    """``absent``, ``present``: the rows M(V), M(x) (exact sympy numbers); ``rate``: q as (numerator,
    denominator); ``order``: "remove" (the mixture first) or "add" (M(V) first).

    >>> s = TableStepLoss((sp.Rational(3, 4), sp.Rational(1, 4)), (sp.Rational(1, 4), sp.Rational(3, 4)), (1, 2), "remove")
    >>> [str(x) for x in s.tails(0)]
    ['0.500000000000000', '0.250000000000000']
    """

    absent: tuple
    present: tuple
    rate: tuple
    order: str

    def _pairs(self):
        q = sp.Rational(*self.rate)
        mix = tuple((1 - q) * a + q * b for a, b in zip(self.absent, self.present))
        return tuple(zip(mix, self.absent)) if self.order == "remove" else tuple(zip(self.absent, mix))

    def _above(self, l) -> list:
        """Per output: is its loss above ``l``? (first law's mass 0: never counted)."""
        out = []
        for a, b in self._pairs():
            if a == 0:
                out.append(False)
            elif b == 0:
                out.append(True)
            elif a == b:
                out.append(l < 0)
            else:
                loss = (_ball(a) / _ball(b)).log()
                if loss > l:
                    out.append(True)
                elif loss < l:
                    out.append(False)
                else:
                    raise ArithmeticError("a loss value could not be told from a grid point at the working precision")
        return out

    def tails(self, l):
        fl = flint_module()
        with precision(WORKING_BITS):
            x = fl.arb(l)
            first, second = fl.arb(0), fl.arb(0)
            for (a, b), above in zip(self._pairs(), self._above(x)):
                if above:
                    first += _ball(a)
                    second += _ball(b)
            return first, second

    def infinite_mass(self):
        """The first law's mass where the second's is 0 (loss +∞), a ball."""
        fl = flint_module()
        total = fl.arb(0)
        for a, b in self._pairs():
            if b == 0 and a != 0:
                total += _ball(a)
        return total

    def cdf(self, l):
        return 1 - self.tails(l)[0]

    @property
    def lowest(self):
        """The least finite loss over the outputs the first law gives (a ball), or None when every such output has
        loss +∞."""
        fl = flint_module()
        with precision(WORKING_BITS):
            losses = [(_ball(a) / _ball(b)).log() for a, b in self._pairs() if a != 0 and b != 0]
            if not losses:
                return None
            low = losses[0].lower()
            for v in losses[1:]:
                if v.lower() < low:
                    low = v.lower()
            return low


__all__ = ["TableStepLoss"]
