"""dpcheck's engine: exact probability, mechanisms, populations, causal models, notions,
claims, the z3 search with CEGIS and exact re-verification. Nothing here knows any
particular paper; the sources' claims live in :mod:`theorems`."""

__version__ = "0.1.0"
