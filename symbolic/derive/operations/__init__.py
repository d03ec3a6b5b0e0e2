"""Levels of operations on densities: the k-fold composition of a density mechanism and the subsampled Gaussian.

The engine layer: imports :mod:`symbolic.core`, :mod:`symbolic.model` and :mod:`symbolic.derive.continuous`;
the CLI reaches it through :func:`symbolic.derive.level.derive_level`.
"""
