"""The levels of the Poisson-subsampled Gaussian that sampling does not improve: pure DP, zCDP and μ-GDP.

P = N(0, 1), Q = N(μ, 1), M = (1 − q)·P + q·Q (with the record), the pair (M, P) in both orders.

- **Pure DP: ∞.** The loss log(1 − q + q·e^(μy − μ²/2)) of M against P grows without bound in y.
- **zCDP: ρ = μ²/2, not attained.** For α > 1, x ↦ x^α and x ↦ x^(1−α) are convex, so
  ∫ M^α P^(1−α) ≤ 1 − q + q·e^((α−1)αμ²/2) and ∫ P^α M^(1−α) ≤ 1 − q + q·e^((α−1)αμ²/2): D_α ≤ αμ²/2 in both
  orders. And ∫ M^α P^(1−α) ≥ q^α·∫ Q^α P^(1−α), so D_α/α ≥ μ²/2 + log(q)/(α − 1), which tends to μ²/2.
- **μ-GDP: μ, attained.** Hockey-stick divergences are jointly convex, so for e^ε ≥ 1 each order's is at most
  q·H_{e^ε}(Q ‖ P) ≤ δ_μ(ε) (Dong, Roth, Su 2022, Cor. 2.13). For μ′ < μ: H_{e^ε}(M ‖ P) ≥ q·δ_μ(ε + log(1/q)),
  whose Gaussian tail in ε is wider than δ_μ′'s, so it exceeds δ_μ′(ε) at some ε: no μ′ < μ holds. A certified
  ε where it does for μ′ = (99/100)·μ is the check.

k runs compose: ρ adds (kμ²/2), μ adds in squares (√k·μ; the lower bound holds with q^k for all k steps).
"""
from __future__ import annotations

import mpmath as mp
import sympy as sp

from symbolic.core.certified import arb_of, flint_module, is_less_equal, precision

LIMIT_NOTIONS = ("pure-dp", "zcdp", "gaussian-dp")
WITNESS_BITS = 512


def subsampled_gaussian_limit(notion: str, q, mu, k: int = 1) -> tuple:
    """(value, steps, checks) of ``notion`` for k runs of the Poisson-subsampled Gaussian (rate ``q``, shift ``mu``).

    >>> value, _, checks = subsampled_gaussian_limit("zcdp", sp.Rational(1, 100), sp.Integer(1))
    >>> value, all(ok for _, ok in checks)
    (1/2, True)
    """
    q, mu = sp.Rational(q), sp.nsimplify(mu)
    if notion == "pure-dp":
        return sp.oo, ("the loss log(1 − q + q·e^(μy − μ²/2)) of the sampled law against N(0, 1) grows without "
                       "bound in y: no ε holds",), (_unbounded_check(q, mu),)
    if notion == "zcdp":
        return k * mu ** 2 / 2, (
            "convexity of x^α and x^(1−α) bounds D_α by αμ²/2 in both orders, so ρ ≤ μ²/2",
            "the record's own term q^α·∫ N(μ)^α N(0)^(1−α) gives D_α/α ≥ μ²/2 + log(q)/(α − 1) → μ²/2: ρ = μ²/2, a "
            "supremum over the orders, not attained; sampling does not lower it",
            *((f"ρ adds under composition: {k} runs give {k}·μ²/2",) if k > 1 else ())), (_order_check(q, mu),)
    return sp.sqrt(k) * mu, (
        "joint convexity bounds each order's δ(ε) by q·δ_μ(ε) ≤ δ_μ(ε) for ε ≥ 0: μ-GDP holds",
        "the record's own term gives δ(ε) ≥ q·δ_μ(ε + log(1/q)), a Gaussian tail wider than any δ_μ′ with μ′ < μ: "
        "μ is the least, and sampling does not lower it",
        *((f"μ adds in squares under composition, and the lower bound holds with q^{k}: √{k}·μ",) if k > 1 else ())), \
        (_tail_check(q ** k, sp.sqrt(k) * mu, "q" if k == 1 else f"q^{k}"),)


def _unbounded_check(q, mu):
    with precision(256):
        y = (100 + mu ** 2 / 2 - sp.log(q) + 1) / mu
        yb, qb, mb = (arb_of(x) for x in (y, q, mu))
        loss = (1 - qb + qb * (mb * yb - mb * mb / 2).exp()).log()
        return (f"at y = {sp.N(y, 6)} the loss exceeds 100 (certified)", bool(loss > 100))


def _order_check(q, mu, alpha=64):
    from symbolic.derive.operations.subsampled_gaussian import subsampled_gaussian_renyi
    r = subsampled_gaussian_renyi(q, mu, alpha)
    lo, hi = r.enclosure
    below = alpha * mu ** 2 / 2 + alpha * sp.log(q) / (alpha - 1)
    ok = is_less_equal(below, hi) is True and is_less_equal(lo, alpha * mu ** 2 / 2) is True
    return (f"at α = {alpha} the certified D_α ∈ [{sp.Float(lo, 10)}, {sp.Float(hi, 10)}] lies within "
            f"[αμ²/2 + α·log(q)/(α − 1), αμ²/2] = [{sp.N(below, 10)}, {sp.N(alpha * mu ** 2 / 2, 10)}]", ok)


def _delta(mu, eps):
    """δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) as a ball."""
    fl = flint_module()
    phi = lambda x: (-x / fl.arb(2).sqrt()).erfc() / 2
    return phi(-eps / mu + mu / 2) - eps.exp() * phi(-eps / mu - mu / 2)


def _tail_check(q, mu, name):
    """A certified ε where q·δ_μ(ε + log(1/q)) > δ_μ′(ε) for μ′ = (99/100)·μ (a power of two, proposed in
    60-digit floating point)."""
    lower_mu = sp.Rational(99, 100) * mu
    with mp.workdps(60):
        m, m2, qq = mp.mpf(sp.N(mu, 60)), mp.mpf(sp.N(lower_mu, 60)), mp.mpf(sp.N(q, 60))
        d = lambda u, e: mp.ncdf(-e / u + u / 2) - mp.e ** e * mp.ncdf(-e / u - u / 2)
        eps = next((e for e in (2 ** j for j in range(24)) if qq * d(m, e + mp.log(1 / qq)) > 2 * d(m2, e)), None)
    if eps is None:
        return ("no ε below 2^24 shows μ′ = 0.99·μ failing", False)
    with precision(WITNESS_BITS):
        mb, m2b, qb, e = (arb_of(x) for x in (mu, lower_mu, q, sp.Integer(eps)))
        ok = qb * _delta(mb, e + (1 / qb).log()) > _delta(m2b, e)
    return (f"at ε = {eps}, {name}·δ_μ(ε + log(1/{name})) > δ_μ′(ε) for μ = {sp.N(mu, 10)} and μ′ = (99/100)·μ "
            f"(certified): μ′ is not a level", bool(ok))


__all__ = ["LIMIT_NOTIONS", "subsampled_gaussian_limit"]
