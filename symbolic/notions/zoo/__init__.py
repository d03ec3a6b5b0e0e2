"""The notions beyond the sources (the zoo): DP-type variants that change which pairs are compared or by
how much (``dp``), those comparing the two output laws as a whole (``dp_laws``), notions over a prior on the
data (``bayes``), membership privacy, Pufferfish, and the transcendental ones (zCDP, Gaussian DP,
mutual-information DP: ``divergence``). Each carries a listing record (``ENTRIES``). Imports the framework
at the top of :mod:`symbolic.notions` and, where a notion builds on another, its own room."""
