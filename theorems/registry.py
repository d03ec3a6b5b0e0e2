"""The registry of every catalogue entry, by ID, across the source modules."""
from __future__ import annotations

import importlib

from symbolic.core.errors import UnknownName

MODULES = ["theorems.tschantz_causal", "theorems.lecture_properties", "theorems.kasiviswanathan_smith",
           "theorems.saeidian_pml", "theorems.toolbox"]
SOURCES = {"T": "Tschantz, Sen, Datta: DP as a causal property", "L": "Lecture notes ch. 5: properties of DP",
           "K": "Kasiviswanathan, Smith: semantic privacy", "S": "Saeidian et al.: pointwise maximal leakage",
           "B": "The standard toolbox: subsampling and composition (their papers cited per claim)"}


def _load():
    claims, defs = {}, {}
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                continue
            raise
        for c in getattr(mod, "CLAIMS", []):
            if c.id in claims:
                raise ValueError(f"claim {c.id} registered twice")
            claims[c.id] = c
        for d in getattr(mod, "DEFINITIONS", []):
            defs[d.id] = d
    return claims, defs


def claims():
    return _load()[0]


def definitions():
    return _load()[1]


def get(claim_id: str):
    cs = claims()
    if claim_id not in cs:
        close = [c for c in cs if c.lower().startswith(claim_id.lower()[:3])][:8]
        raise UnknownName(f"unknown claim ID {claim_id!r}" + (f"; similar: {', '.join(close)}" if close else "")
                          + "; run `dpcheck list` for all IDs")
    return cs[claim_id]


def by_source(letters):
    for s in letters:
        if s not in SOURCES:
            raise UnknownName(f"unknown source {s!r}; sources: {', '.join(SOURCES)}")
    return [c for c in claims().values() if c.source in letters]


def lemma_notions() -> dict:
    """The sources' own notions (steps of one paper's proof, kept beside its claims in
    ``theorems/<source>_*.py``): every notion in the ``ALL`` list of a source module or of a module
    named after it, by name."""
    import pkgutil

    import theorems
    out = {}
    for info in pkgutil.iter_modules(theorems.__path__, "theorems."):
        if any(info.name == m or info.name.startswith(m + "_") for m in MODULES):
            out.update({n.name: n for n in getattr(importlib.import_module(info.name), "ALL", ())})
    return out
