"""One step under sampling m of n without replacement (replace one record): an upper bound on its curve.

Let (P, Q) be the base mechanism's pair (the noise around 1 against the noise around 0, sensitivity 1 under
replace-one; symmetric for the Gaussian and the Laplace noise) and γ = m/n. Neighbours D, D′ differ in record
i; a batch without i gives the law M₀, one with i gives M₁ (with D) or M₁′ (with D′), and any two of M₀, M₁,
M₁′ are replace-one neighbours. For e^ε′ ≥ 1, advanced joint convexity (Balle, Barthe, Gaboardi 2018,
Theorem 2) and joint convexity give

    H_{e^ε′}((1 − γ)M₀ + γM₁ ‖ (1 − γ)M₀ + γM₁′) ≤ γ·δ_{P,Q}(log(1 + (e^ε′ − 1)/γ)) = H_{e^ε′}(A ‖ Q),

with A = (1 − γ)Q + γP; for e^ε′ < 1 the identity H_x(X ‖ Y) = 1 − x + x·H_{1/x}(Y ‖ X) turns that into
H_x(Q ‖ A). The larger of H(A ‖ Q) and H(Q ‖ A) at every x is therefore an upper bound in both orders; it is
convex (a maximum of two curves), so connect the dots makes from it a dominating pair that composes
(Zhu, Dong, Wang 2022). The pair (A, Q) is itself attained by a pair of databases (record i contributes 1 in
D and 0 in D′, every other record 0), so the two orders of the Poisson step stay the lower bound.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.certified import flint_module, precision
from symbolic.derive.accounting.loss_laws import WORKING_BITS


@dataclass(frozen=True)
class SymmetricStep:
    """The upper curve max(H(A ‖ Q), H(Q ‖ A)) of one step, read by :func:`~.dots.connect_the_dots`; ``remove``
    and ``add`` are the step's two orders (:class:`~.loss_laws.StepLoss`).

    >>> from symbolic.derive.accounting.loss_laws import StepLoss
    >>> r, a = (StepLoss("gaussian", (1, 1), (1, 10), o) for o in ("remove", "add"))
    >>> p, q = SymmetricStep(r, a).tails(1)
    >>> x = flint_module().arb(1).exp()
    >>> bool((p - x * q).upper() >= max((u - x * v).upper() for u, v in (r.tails(1), a.tails(1))))
    True
    """

    remove: object
    add: object

    def tails(self, l):
        """The two tails of the order whose δ at e^l has the larger upper end (its δ bounds both orders')."""
        with precision(WORKING_BITS):
            x = flint_module().arb(l).exp()
            got = [s.tails(l) for s in (self.remove, self.add)]
            return max(got, key=lambda pq: (pq[0] - x * pq[1]).upper())

    def cdf(self, l):
        """A ball holding both orders' distribution functions at ``l`` (the grid spans both losses)."""
        with precision(WORKING_BITS):
            return self.remove.cdf(l).union(self.add.cdf(l))

    @property
    def lowest(self):
        ends = [s.lowest for s in (self.remove, self.add)]
        if any(e is None for e in ends):
            return None
        return min(ends, key=lambda e: e.lower())


__all__ = ["SymmetricStep"]
