"""Exact numbers, probability tables, terms, the exact ops, the printer of formulas, errors and verdict
values; and the package's version (``__version__``, the one the project's metadata declares)."""

__version__ = "0.1.0"
