"""PNG plots of derived closed forms (matplotlib's Agg canvas; no pyplot, no global state).

- :func:`plot_prop12_bound`: S-PROP12, sup_{p∈[λ,1-λ]} sup_y ℓ(X_i→y) against λ for several ε
  (the formula of :func:`symbolic.derive.closed_forms.laplace_count_pml`), with the DP level ε dotted.
- :func:`plot_ex33_bound`: S-EX33, the Chernoff bound -log(1 - e^{-n KL(k/n‖p)}) against n
  for several p at a fixed fraction k/n, on a log scale, as the source's Figure 1.

Floats are fine here: plots are never verdicts.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from symbolic.derive.closed_forms import EPS, LAM, laplace_count_pml, numeric_chernoff_bound
from symbolic.core.errors import InvalidParameter


def _save(fig: Figure, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig).print_png(str(path))
    return path


def plot_prop12_bound(path, eps_values=(0.1, 0.5, 1.0, 2.0), points: int = 200) -> Path:
    """Write the S-PROP12 bound against λ ∈ (0, 1/2] for each ε in ``eps_values``; return the path."""
    if not eps_values or any(e <= 0 for e in eps_values):
        raise InvalidParameter(f"eps_values={eps_values!r} must be non-empty and positive")
    f = sp.lambdify((EPS, LAM), laplace_count_pml().formula, "math")
    lams = [0.5 * (i + 1) / points for i in range(points)]
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    for e in eps_values:
        line, = ax.plot(lams, [f(e, l) for l in lams], label=f"ε = {e}")
        ax.axhline(e, color=line.get_color(), linestyle=":", linewidth=0.8)
    ax.set_xlabel("λ (p ∈ [λ, 1-λ])")
    ax.set_ylabel("sup ℓ(X_i → y)")
    ax.set_title("Laplace counting query: PML bound (dotted: DP ε)")
    ax.legend()
    return _save(fig, path)


def plot_ex33_bound(path, p_values=(0.1, 0.2, 0.3, 0.4), fraction=0.5,
                    n_values=range(10, 201, 5)) -> Path:
    """Write the S-EX33 Chernoff leakage bound against n for each p (k = fraction·n); return the path."""
    n_values = list(n_values)
    if not (0 < fraction < 1) or any(not (0 < p < fraction) for p in p_values) or not n_values:
        raise InvalidParameter(
            f"need 0 < p < fraction < 1 and some n; got p_values={p_values!r}, fraction={fraction!r}")
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    for p in p_values:
        ax.semilogy(n_values, [numeric_chernoff_bound(n, fraction, p) for n in n_values], label=f"p = {p}")
    ax.set_xlabel("n")
    ax.set_ylabel("bound on ℓ(X → y)  [nats]")
    ax.set_title(f"Deterministic threshold query, k = {fraction}·n")
    ax.legend()
    return _save(fig, path)
