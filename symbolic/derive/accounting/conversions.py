"""The accountants' route for a Gaussian run: its Rényi DP at whole orders α (the subsampled Gaussian's level,
certified, times the steps; Rényi levels add, Mironov 2017, Prop. 1), converted to (ε, δ)-DP by Mironov (2017,
Prop. 3: ε = ε_α + log(1/δ)/(α − 1)) and by Balle et al. (2020, Thm. 21: ε = ε_α + log((α − 1)/α) −
(log δ + log α)/(α − 1)), each minimised over the orders. Every quantity is a ball and the upper end is kept,
so each converted ε is itself a valid guarantee; set beside the run's certified enclosure it shows what the
conversion costs."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.certified import Ball, flint_module, precision
from symbolic.core.errors import InvalidParameter
from symbolic.derive.operations.subsampled_gaussian import subsampled_gaussian_renyi

ORDERS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 32, 48, 64)
CONVERSIONS = {"Mironov 2017, Prop. 3": lambda e, a, d: e + (1 / d).log() / (a - 1),
               "Balle et al. 2020, Thm. 21": lambda e, a, d: e + ((a - 1) / a).log() - (d.log() + a.log()) / (a - 1)}


def _rdp_upper(stages, alpha: int):
    """The run's Rényi level at ``alpha``: the sum over the stages of steps × the subsampled Gaussian's, a ball."""
    fl = flint_module()
    total = fl.arb(0)
    for s in stages:
        r = subsampled_gaussian_renyi(sp.Rational(s.rate.numerator, s.rate.denominator),
                                      sp.Rational(s.scale.denominator, s.scale.numerator), alpha)
        lo, hi = r.enclosure
        total += fl.arb(fl.fmpq(int(hi.p), int(hi.q))) * s.steps
    return total


def rdp_conversions(stages, delta: Fraction, orders=ORDERS) -> list:
    """[(conversion, ε upper bound as a Fraction, the best order)] for a run of Gaussian stages at ``delta``.

    >>> from symbolic.derive.accounting.run import Stage
    >>> got = rdp_conversions((Stage("gaussian", Fraction(1), Fraction(1, 10), 4),), Fraction(1, 10 ** 5), (2, 8))
    >>> [name for name, _, _ in got], got[1][1] < got[0][1]
    (['Mironov 2017, Prop. 3', 'Balle et al. 2020, Thm. 21'], True)
    """
    if any(s.noise != "gaussian" or s.rate >= 1 for s in stages):
        raise InvalidParameter("the RDP conversions are computed for Gaussian runs on subsamples (rate below 1)")
    fl = flint_module()
    with precision(128):
        d = fl.arb(fl.fmpq(delta.numerator, delta.denominator))
        levels = {a: _rdp_upper(stages, a) for a in orders}
        out = []
        for name, conv in CONVERSIONS.items():
            best = None
            for a in orders:
                end = Ball.from_arb(conv(levels[a], fl.arb(a), d)).upper()
                value = Fraction(int(end.p), int(end.q))
                if best is None or value < best[0]:
                    best = (value, a)
            out.append((name, best[0], best[1]))
        return out


__all__ = ["ORDERS", "rdp_conversions"]
