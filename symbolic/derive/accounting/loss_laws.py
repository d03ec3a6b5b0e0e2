"""The privacy loss of one step of a run, as a law on the line whose distribution function is enclosed in balls.

A step is the dominating pair of a mechanism of sensitivity 1 under Poisson sampling at rate q (add/remove
one record; Zhu, Dong, Wang 2022, Prop. 30 for the Gaussian and the Laplace mechanism): the law with the record,
M = (1 − q)·N₀ + q·N₁ with N₀, N₁ the noise around 0 and 1, against N₀, in both orders. The likelihood ratio
M/N₀ = 1 − q + q·N₁/N₀ is non-decreasing in the output y for both noises, so the loss L(y) = log(M(y)/N₀(y))
has the distribution function F(l) = Pr[Y ≤ y*(l)] with y*(l) = sup{y : L(y) ≤ l}: one inversion and one
noise distribution function, each a ball (python-flint's Arb), per point. The reverse order has loss −L under
N₀: F(l) = Pr_N₀[Y ≥ y*(−l)] (the loss is continuous in y except at the Laplace plateaus, which the sup
places on the right side).
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.certified import flint_module, precision

WORKING_BITS = 192


@dataclass(frozen=True)
class StepLoss:
    """One step's loss law in one order. ``noise``: "gaussian" (scale = σ) or "laplace" (scale = b); ``rate``
    q in (0, 1] (a fraction as (numerator, denominator)); ``order``: "remove" (M against N₀, the loss L under M)
    or "add" (N₀ against M, the loss −L under N₀).

    >>> s = StepLoss("gaussian", (1, 1), (1, 100), "remove")
    >>> float(s.cdf(0).mid()) < 0.7 < 0.99 < float(s.cdf(1).mid())
    True
    """

    noise: str
    scale: tuple
    rate: tuple
    order: str

    def _arb(self, frac):
        fl = flint_module()
        return fl.arb(frac[0]) / frac[1]

    def _noise_cdf(self, t, shift):
        """Pr[N_shift ≤ t] for the noise centred at ``shift`` (0 or 1)."""
        fl = flint_module()
        s = self._arb(self.scale)
        z = (t - shift) / s
        if self.noise == "gaussian":
            return (-z / fl.arb(2).sqrt()).erfc() / 2
        if z < 0:
            return z.exp() / 2
        if z >= 0:
            return 1 - (-z).exp() / 2
        return fl.arb(0).union(fl.arb(1))    # the ball straddles 0: the whole range (never at the working bits)

    def _inverse(self, l):
        """y*(l) = sup{y : L(y) ≤ l} as (kind, ball): kind "none" (no y: F = 0), "all" (every y: F = 1) or "at"."""
        q = self._arb(self.rate)
        inner = l.exp() - 1 + q
        if inner <= 0:
            return "none", None
        u = (inner / q).log()      # the log of N₁/N₀ at y*
        s = self._arb(self.scale)
        if self.noise == "gaussian":
            return "at", s * s * u + self._arb((1, 2))
        b_u = s * u                # Laplace: log N₁/N₀ = (|y| − |y − 1|)/b, which is −1/b for y ≤ 0 and 1/b for y ≥ 1
        if b_u < -1:
            return "none", None
        if b_u >= 1:
            return "all", None
        if b_u > -1 and b_u < 1:
            return "at", (b_u + 1) / 2
        raise ArithmeticError("a Laplace plateau could not be told from the loss at the working precision")

    def _remove_cdf(self, l):
        kind, y = self._inverse(l)
        if kind == "none":
            return flint_module().arb(0)
        if kind == "all":
            return flint_module().arb(1)
        q = self._arb(self.rate)
        return (1 - q) * self._noise_cdf(y, 0) + q * self._noise_cdf(y, 1)

    def cdf(self, l):
        """F(l) = Pr[loss ≤ l] for a dyadic or integer ``l``, as a ball."""
        fl = flint_module()
        with precision(WORKING_BITS):
            x = fl.arb(l)
            if self.order == "remove":
                return self._remove_cdf(x)
            kind, y = self._inverse(-x)
            if kind == "none":
                return fl.arb(1)
            if kind == "all":
                return fl.arb(0)
            # Pr_N₀[loss −L ≤ l] = Pr_N₀[L ≥ −l] = Pr_N₀[Y ≥ y*(−l)] for a loss continuous at −l
            return 1 - self._noise_cdf(y, 0)

    def tails(self, l):
        """(Pr_first[loss > l], Pr_second[loss > l]) as balls: the two laws' masses above ``l``, so that the step's
        hockey-stick divergence at e^l is their first minus e^l times their second."""
        fl = flint_module()
        with precision(WORKING_BITS):
            x = fl.arb(l)
            q = self._arb(self.rate)
            if self.order == "remove":       # first M, second N₀, loss L: above l is y > y*(l)
                kind, y = self._inverse(x)
                if kind == "none":
                    return fl.arb(1), fl.arb(1)
                if kind == "all":
                    return fl.arb(0), fl.arb(0)
                n0 = self._noise_cdf(y, 0)
                return 1 - ((1 - q) * n0 + q * self._noise_cdf(y, 1)), 1 - n0
            kind, y = self._inverse(-x)       # first N₀, second M, loss −L: above l is L < −l, y below y*(−l)
            if kind == "none":
                return fl.arb(0), fl.arb(0)
            if kind == "all":
                return fl.arb(1), fl.arb(1)
            n0 = self._noise_cdf(y, 0)
            return n0, (1 - q) * n0 + q * self._noise_cdf(y, 1)

    @property
    def lowest(self):
        """The infimum of the loss (a ball), or None when it is unbounded below."""
        fl = flint_module()
        if self.order == "remove" and self.rate[0] != self.rate[1]:
            return (1 - self._arb(self.rate)).log()
        return None


__all__ = ["StepLoss"]
