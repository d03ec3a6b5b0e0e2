"""The certified enclosure of a run's ε(δ) and δ(ε): it contains values computed independently (a one-step closed
form, a two-step integral, both in 40-digit arithmetic), it is narrow, and the published run lands where the
libraries' bounds put it."""
from __future__ import annotations

from fractions import Fraction as F

import mpmath as mp
import pytest

from symbolic.derive.accounting.run import Stage, account



def _gaussian_delta_one(eps, q, sigma=1):
    """δ(ε) of one Poisson-subsampled Gaussian step, the order with the record first: the closed form of the
    hockey-stick divergence at the threshold y* where the loss crosses ε (Φ̄ the normal tail)."""
    eps, q, s = (x if isinstance(x, mp.mpf) else mp.mpf(F(x).numerator) / F(x).denominator for x in (eps, q, sigma))
    inner = mp.e ** eps - 1 + q
    if inner <= 0:
        return 1 - mp.e ** eps
    y = s ** 2 * mp.log(inner / q) + mp.mpf(1) / 2
    tail = lambda t: mp.ncdf(-t)
    return (1 - q) * tail(y / s) + q * tail((y - 1) / s) - mp.e ** eps * tail(y / s)


def _gaussian_delta_two(eps, q):
    """δ(ε) of two steps: E over the first step's output y (under the mixture) of the one-step δ at ε − L(y)."""
    q = mp.mpf(q.numerator) / q.denominator
    L = lambda y: mp.log(1 - q + q * mp.e ** (y - mp.mpf(1) / 2))
    dens = lambda y: (1 - q) * mp.npdf(y) + q * mp.npdf(y - 1)
    e = mp.mpf(eps.numerator) / eps.denominator
    return mp.quad(lambda y: dens(y) * _gaussian_delta_one(e - L(y), q), [-12, -2, 0, 1, 2, 4, 12])


@pytest.mark.parametrize("steps, exact", [(1, _gaussian_delta_one),
                                          pytest.param(2, _gaussian_delta_two, marks=pytest.mark.slow)])
def test_the_enclosure_of_delta_contains_the_independently_computed_value(steps, exact):
    q, eps = F(1, 4), F(1, 2)
    r = account((Stage("gaussian", F(1), q, steps),), epsilon=eps, precision=F(1, 10 ** 4))
    lo, hi = r.delta
    with mp.workdps(30):
        want = exact(eps, q)
        assert mp.mpf(lo.numerator) / lo.denominator <= want <= mp.mpf(hi.numerator) / hi.denominator
    assert hi - lo < F(1, 1000) * hi


@pytest.mark.slow
def test_the_published_run_is_enclosed_within_the_libraries_bounds_and_the_claims_are_decided():
    run = (Stage("gaussian", F(1), F(1, 100), 1000),)
    proved = account(run, delta=F(1, 10 ** 5), claim=("eps", F(183, 100)))
    lo, hi = proved.epsilon
    assert hi <= F("1.8283") and lo >= F("1.7783") and hi - lo <= F(1, 100)
    assert proved.claim["verdict"] == "proved"
    refuted = account(run, delta=F(1, 10 ** 5), claim=("eps", F(175, 100)))
    assert refuted.claim["verdict"] == "refuted" and refuted.claim["witness"]["hockey_stick_lower"]
