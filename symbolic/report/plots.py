"""PNG plots of curves (matplotlib's Agg canvas; no pyplot, no global state).

:func:`plot_curves` draws named curves, each optionally with a dotted horizontal reference level in
its colour, on a linear or logarithmic y axis. What to plot (a source's bound against a parameter)
is the caller's: the theorems side computes the points and calls it.

Floats are fine here: plots are never verdicts.
"""
from __future__ import annotations

from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from symbolic.core.errors import InvalidParameter


def _save(fig: Figure, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig).print_png(str(path))
    return path


def plot_curves(path, curves, *, xlabel: str, ylabel: str, title: str, logy: bool = False) -> Path:
    """Write the ``curves`` to a PNG at ``path`` and return the path.

    ``curves``: (label, xs, ys) or (label, xs, ys, level) tuples; ``level`` (a number) draws a dotted
    horizontal line in the curve's colour. ``logy``: a logarithmic y axis."""
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    for curve in curves:
        label, xs, ys, *level = curve
        xs, ys = list(xs), list(ys)
        if not xs or len(xs) != len(ys):
            raise InvalidParameter(f"curve {label!r}: needs as many y values as x values, and some")
        line, = (ax.semilogy if logy else ax.plot)(xs, ys, label=label)
        if level and level[0] is not None:
            ax.axhline(level[0], color=line.get_color(), linestyle=":", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return _save(fig, path)
