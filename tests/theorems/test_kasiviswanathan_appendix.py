"""Kasiviswanathan and Smith (2008), Appendix A.2: the derived Gaussian density ratio against scipy, and
the source's display against it."""
from __future__ import annotations

import pytest
import sympy as sp

from symbolic.derive.closed_forms import N, SIGMA
from theorems.kasiviswanathan_smith_appendix import gaussian_ratio_ks


def _f(expr, subs):
    return float(sp.N(expr.subs(subs), 30))


def test_gaussian_ratio_against_scipy():
    from scipy.stats import norm
    d = gaussian_ratio_ks()
    for n, s in [(5, 2.0), (10, 3.0), (3, 0.7)]:
        want = norm.pdf(n, loc=0, scale=s) / norm.pdf(n, loc=1, scale=s)   # scale = standard deviation
        assert _f(d.formula, {N: n, SIGMA: sp.nsimplify(s)}) == pytest.approx(want, rel=1e-10)
        shown = _f(d.extras["displayed"], {N: n, SIGMA: sp.nsimplify(s)})
        assert shown != pytest.approx(want, rel=1e-3)                      # the display uses σ for σ²
    assert d.extras["display_agrees"] == sp.S.false
    assert d.extras["agree_at_sigma"] == sp.Tuple(1)
    assert sp.simplify(d.formula - sp.exp((1 - 2 * N) / (2 * SIGMA ** 2))) == 0
