"""The accountants' route for a Gaussian run: its Rényi DP at whole orders α (the subsampled Gaussian's level,
certified, times the steps; Rényi levels add, Mironov 2017, Prop. 1), converted to (ε, δ)-DP by Mironov (2017,
Prop. 3: ε = ε_α + log(1/δ)/(α − 1)) and by Balle et al. (2020, Thm. 21: ε = ε_α + log((α − 1)/α) −
(log δ + log α)/(α − 1)), each minimised over the orders. Every quantity is a ball and the upper end is kept,
so each converted ε is itself a valid guarantee; set beside the run's certified enclosure it shows what the
conversion costs.

A run without sampling (rate 1) of Gaussian stages is ρ-zCDP with ρ = Σ T/(2σ²) exactly (Bun, Steinke 2016), and
converts by Bun and Steinke (2016, Prop. 1.3: ε = ρ + 2√(ρ log(1/δ))) and by Canonne, Kamath and Steinke (2020,
Cor. 13: ε = αρ + log((α − 1)/α) − (log δ + log α)/(α − 1) at any real α > 1, here a rational α near the best,
found in floating point; the bound holds at whichever α is taken)."""
from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from symbolic.core.certified import Ball, flint_module, precision
from symbolic.core.errors import InvalidParameter
from symbolic.derive.operations.subsampled_gaussian import subsampled_gaussian_renyi

ORDERS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 32, 48, 64)


def _balle(eps, alpha, delta):
    """(α, ε)-RDP ⇒ (ε + log((α − 1)/α) − (log δ + log α)/(α − 1), δ)-DP (Balle et al. 2020, Thm. 21); Canonne,
    Kamath and Steinke's Cor. 13 is the same bound, for ρ-zCDP at ε = αρ."""
    return eps + ((alpha - 1) / alpha).log() - (delta.log() + alpha.log()) / (alpha - 1)


CONVERSIONS = {"Mironov 2017, Prop. 3": lambda e, a, d: e + (1 / d).log() / (a - 1),
               "Balle et al. 2020, Thm. 21": _balle}


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


def _bun_steinke(rho, alpha, delta):
    return rho + 2 * (rho * (1 / delta).log()).sqrt()


def _canonne_kamath_steinke(rho, alpha, delta):
    return _balle(alpha * rho, alpha, delta)


def _best_order(rho: float, delta: float) -> Fraction:
    """A rational α > 1 near the minimiser of the Canonne–Kamath–Steinke bound (golden section on log(α − 1))."""
    f = lambda t: ((1 + math.exp(t)) * rho + math.log(math.exp(t) / (1 + math.exp(t)))
                   - (math.log(delta) + math.log(1 + math.exp(t))) / math.exp(t))
    lo, hi = -20.0, 20.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(a) <= f(b):
            hi = b
        else:
            lo = a
    return 1 + Fraction(f"{math.exp((lo + hi) / 2):.6g}")


def zcdp_conversions(stages, delta: Fraction) -> list:
    """[(conversion, ε upper bound as a Fraction, the order α or None)] for a run of Gaussian stages without
    sampling, from its exact ρ.

    >>> from symbolic.derive.accounting.run import Stage
    >>> got = zcdp_conversions((Stage("gaussian", Fraction(4), Fraction(1), 16),), Fraction(1, 10 ** 5))
    >>> [name.split(",")[0] for name, _, _ in got], got[1][1] < got[0][1]
    (['Bun', 'Canonne'], True)
    """
    if any(s.noise != "gaussian" or s.rate != 1 for s in stages):
        raise InvalidParameter("the zCDP conversions are computed for Gaussian runs without sampling (rate 1)")
    rho = sum(Fraction(s.steps) / (2 * s.scale ** 2) for s in stages)
    alpha = _best_order(float(rho), float(delta))
    fl = flint_module()
    out = []
    with precision(128):
        r = fl.arb(fl.fmpq(rho.numerator, rho.denominator))
        d = fl.arb(fl.fmpq(delta.numerator, delta.denominator))
        a = fl.arb(fl.fmpq(alpha.numerator, alpha.denominator))
        for name, conv in (("Bun, Steinke 2016, Prop. 1.3", _bun_steinke),
                           ("Canonne, Kamath, Steinke 2020, Cor. 13", _canonne_kamath_steinke)):
            end = Ball.from_arb(conv(r, a, d)).upper()
            out.append((name, Fraction(int(end.p), int(end.q)), None if name.startswith("Bun") else alpha))
    return out


def rdp_conversions(stages, delta: Fraction, orders=ORDERS) -> list:
    """[(conversion, ε upper bound as a Fraction, the best order)] for a run of Gaussian stages at ``delta``.

    >>> from symbolic.derive.accounting.run import Stage
    >>> got = rdp_conversions((Stage("gaussian", Fraction(1), Fraction(1, 10), 4),), Fraction(1, 10 ** 5), (2, 8))
    >>> [name for name, _, _ in got], got[1][1] < got[0][1]
    (['Mironov 2017, Prop. 3', 'Balle et al. 2020, Thm. 21'], True)
    """
    if any(s.noise != "gaussian" or s.rate >= 1 or s.sampling != "poisson" for s in stages):
        raise InvalidParameter("the RDP conversions are computed for Gaussian runs on Poisson subsamples (rate below "
                               "1; a run without sampling takes the zCDP conversions)")
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


def accountant_conversions(stages, delta: Fraction) -> list:
    """[(route, conversion, ε, α)]: the zCDP conversions for a run without sampling, else the RDP ones.

    >>> from symbolic.derive.accounting.run import Stage
    >>> [row[0] for row in accountant_conversions((Stage("gaussian", Fraction(2), Fraction(1), 4),), Fraction(1, 100))]
    ['zCDP', 'zCDP']
    """
    if all(s.rate == 1 for s in stages):
        return [("zCDP", n, e, a) for n, e, a in zcdp_conversions(stages, delta)]
    return [("RDP", n, e, a) for n, e, a in rdp_conversions(stages, delta)]


__all__ = ["ORDERS", "accountant_conversions", "rdp_conversions", "zcdp_conversions"]
