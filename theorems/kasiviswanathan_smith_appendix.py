"""Kasiviswanathan and Smith (2008), Appendix A.2: the Gaussian example's density ratio, taken from the
engine's Gaussian mechanism (the densities the model validates) and set beside the ratio the source displays."""
from __future__ import annotations

import sympy as sp

from symbolic import gaussian
from symbolic.core.exact import exact
from symbolic.derive.closed_forms import N, SIGMA, Derivation, finish


def gaussian_ratio_ks(*, n=None, sigma=None) -> Derivation:
    """Kasiviswanathan and Smith (2008), Appendix A.2: Pr[A(x)=n | x=0^n] / Pr[A(x)=n | x=(1,0^{n-1})] for A(x) = Σx_i + N(0, σ²)
    (σ² = log(1/δ)/ε² is the variance): a ratio of densities at n.

    >>> d = gaussian_ratio_ks(); d.formula, d.extras["display_agrees"]
    (exp(-n/sigma**2 + 1/(2*sigma**2)), False)
    """
    subs = {N: None if n is None else exact(n, what="n"), SIGMA: None if sigma is None else exact(sigma, what="sigma")}
    # the databases 0^n and (1, 0^{n−1}) have counts 0 and 1: the mechanism's two laws, at the output n
    mech = gaussian()
    to_source = {s: SIGMA for s in mech.laws[0][1].free_symbols if s.name == "sigma"}
    f0, f1 = (mech.law((x,)).xreplace(to_source).subs(mech.y, N) for x in (0, 1))
    ratio = sp.simplify(sp.powsimp(f0 / f1))
    ratio = sp.exp(sp.expand(sp.log(ratio).expand(force=True)))
    displayed = sp.exp((-2 * N + 1) / (2 * SIGMA))
    quot = sp.simplify(displayed / ratio)
    agree = sp.solve(sp.Eq(sp.log(quot).expand(force=True), 0), SIGMA)
    steps = [("density of N(0, σ²) at n (the Gaussian mechanism's law at count 0)", f0),
             ("density of N(1, σ²) at n (its law at count 1)", f1),
             ("their ratio", ratio), ("the source's display", displayed),
             ("display / derived", quot), ("σ where they agree (n > 1/2)", sp.Tuple(*agree))]
    extras = {"displayed": displayed, "display_over_derived": quot,
              "display_agrees": sp.S.true if sp.simplify(quot - 1) == 0 else sp.S.false,
              "agree_at_sigma": sp.Tuple(*agree)}
    return finish("gaussian_ratio_ks", ratio,
                   "A(x) = Σ x_i + N(0, σ²); 'Pr[A(x)=n]' read as the density at n", steps, extras,
                   subs)
