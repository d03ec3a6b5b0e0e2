"""Levels of mechanisms with infinite output spaces (densities on ℝ, mass functions on ℤ), transcendental
privacy curves (Rényi divergence at real orders, zCDP, GDP, the privacy profile δ(ε)) and conversions
from ε-DP through its dominating pair.

``pair`` computes the quantities of one pair of laws exactly; ``level`` takes each notion's largest over
the neighbouring pairs (with ``values`` holding the result type and exact helpers, ``zcdp`` the supremum
over orders, ``leakage`` maximal and pointwise maximal leakage, ``checks`` the numerical cross-checks,
``render`` the text and JSON); ``orders`` encloses sup_α D_α/α; ``finite_pairs`` gives the curves of two
finite rows and ε-DP's dominating pair, on which ``maps`` (derive map) and ``claims`` (implies over a
range of E) rest; ``conversions`` decides zCDP/GDP ⇒ (ε, δ)-DP and holds the one dispatch of curve claims. Imported by ``symbolic.derive.level`` (which dispatches a density document here), the
graph, the API and the command line; it imports the model and core layers and ``symbolic.notions.continuum``.
"""
