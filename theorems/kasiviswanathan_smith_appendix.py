"""Kasiviswanathan and Smith (2008), Appendix A.2: the Gaussian example's density ratio, derived by sympy
from the two normal densities and set beside the ratio the source displays."""
from __future__ import annotations

import sympy as sp
import sympy.stats as st

from symbolic.core.exact import exact
from symbolic.derive.closed_forms import N, SIGMA, Derivation, finish


def gaussian_ratio_ks(*, n=None, sigma=None) -> Derivation:
    """Kasiviswanathan and Smith (2008), Appendix A.2: Pr[A(x)=n | x=0^n] / Pr[A(x)=n | x=(1,0^{n-1})] for A(x) = Σx_i + N(0, σ²)
    (σ² = log(1/δ)/ε² is the variance): a ratio of densities at n.

    >>> d = gaussian_ratio_ks(); d.formula, d.extras["display_agrees"]
    (exp(-n/sigma**2 + 1/(2*sigma**2)), False)
    """
    subs = {N: None if n is None else exact(n, what="n"), SIGMA: None if sigma is None else exact(sigma, what="sigma")}
    z = sp.Symbol("z", real=True)
    f0 = st.density(st.Normal("Z0", 0, SIGMA))(z)
    f1 = st.density(st.Normal("Z1", 1, SIGMA))(z)
    ratio = sp.simplify(sp.powsimp(f0.subs(z, N) / f1.subs(z, N)))
    ratio = sp.exp(sp.expand(sp.log(ratio).expand(force=True)))
    displayed = sp.exp((-2 * N + 1) / (2 * SIGMA))
    quot = sp.simplify(displayed / ratio)
    agree = sp.solve(sp.Eq(sp.log(quot).expand(force=True), 0), SIGMA)
    steps = [("density of N(0, σ²) at n", f0.subs(z, N)), ("density of N(1, σ²) at n", f1.subs(z, N)),
             ("their ratio", ratio), ("the source's display", displayed),
             ("display / derived", quot), ("σ where they agree (n > 1/2)", sp.Tuple(*agree))]
    extras = {"displayed": displayed, "display_over_derived": quot,
              "display_agrees": sp.S.true if sp.simplify(quot - 1) == 0 else sp.S.false,
              "agree_at_sigma": sp.Tuple(*agree)}
    return finish("gaussian_ratio_ks", ratio,
                   "A(x) = Σ x_i + N(0, σ²); 'Pr[A(x)=n]' read as the density at n", steps, extras,
                   subs)
