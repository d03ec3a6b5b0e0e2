"""The notion families the engine grew up with, one module per family: DP and its associative and causal
variants (``dp``), bounded relative probability on causal models (``causal``), semantic privacy and
indistinguishability over beliefs (``semantic``), pointwise maximal leakage (``pml``) and what a mechanism
discloses about attributes (``disclosure``). Each notion's docstring states its definition and cites its
paper. Imports the framework at the top of :mod:`symbolic.notions` (and core, model)."""
