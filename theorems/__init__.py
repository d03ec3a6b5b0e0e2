"""The sources: one module per source document with its definitions and claims as statements
(``DEFINITIONS``, ``CLAIMS``: notions, parameter maps, sizes, what the source says, findings, proofs as
data), beside it that source's own lemmas, derivations and plots, and the registry of all of them
(:mod:`theorems.registry`). It imports the engine's modules, never a solver. Above it, in their own
packages: the self-test (:mod:`theorems.selftest`) and the command line (:mod:`theorems.cli`)."""
