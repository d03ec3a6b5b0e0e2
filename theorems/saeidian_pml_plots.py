"""Figures for Saeidian et al. (2023), drawn with the engine's :func:`symbolic.report.plots.plot_curves`.

- :func:`plot_prop12_bound`: Proposition 12, sup_{p∈[λ,1-λ]} sup_y ℓ(X_i→y) against λ for several ε
  (the formula of :func:`theorems.saeidian_pml_closed_forms.laplace_count_pml`), with the DP level ε dotted.
- :func:`plot_ex33_bound`: Example 3.3, the Chernoff bound -log(1 - e^{-n KL(k/n‖p)}) against n
  for several p at a fixed fraction k/n, on a log scale, as the source's Figure 1.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.derive.closed_forms import EPS, LAM
from symbolic.report.plots import plot_curves
from theorems.saeidian_pml_closed_forms import laplace_count_pml
from theorems.saeidian_pml_derivations import numeric_chernoff_bound


def plot_prop12_bound(path, eps_values=(0.1, 0.5, 1.0, 2.0), points: int = 200) -> Path:
    """Write the Proposition 12 bound against λ ∈ (0, 1/2] for each ε in ``eps_values``; return the path."""
    if not eps_values or any(e <= 0 for e in eps_values):
        raise InvalidParameter(f"eps_values={eps_values!r} must be non-empty and positive")
    f = sp.lambdify((EPS, LAM), laplace_count_pml().formula, "math")
    lams = [0.5 * (i + 1) / points for i in range(points)]
    return plot_curves(path, [(f"ε = {e}", lams, [f(e, l) for l in lams], e) for e in eps_values],
                       xlabel="λ (p ∈ [λ, 1-λ])", ylabel="sup ℓ(X_i → y)",
                       title="Laplace counting query: PML bound (dotted: DP ε)")


def plot_ex33_bound(path, p_values=(0.1, 0.2, 0.3, 0.4), fraction=0.5,
                    n_values=range(10, 201, 5)) -> Path:
    """Write the Example 3.3 Chernoff leakage bound against n for each p (k = fraction·n); return the path."""
    n_values = list(n_values)
    if not (0 < fraction < 1) or any(not (0 < p < fraction) for p in p_values) or not n_values:
        raise InvalidParameter(
            f"need 0 < p < fraction < 1 and some n; got p_values={p_values!r}, fraction={fraction!r}")
    return plot_curves(path, [(f"p = {p}", n_values, [numeric_chernoff_bound(n, fraction, p) for n in n_values])
                              for p in p_values],
                       xlabel="n", ylabel="bound on ℓ(X → y)  [nats]",
                       title=f"Deterministic threshold query, k = {fraction}·n", logy=True)
