"""The dominating pair of a notion, written as a mechanism document that an operation can take as its ``"of"``.

A pair (P₀, Q₀) dominates a notion A when it satisfies A and every pair satisfying A is a post-processing of it
(:mod:`symbolic.notions.structure`); the listed notions declare theirs with a citation, and μ-GDP's is the pair of
unit Gaussians μ apart.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import expr_text
from symbolic.notions.listed.structures import STRUCTURES

GAUSS_DENSITY = {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-mu)^2/2)/sqrt(2*pi)"}
GDP_SOURCE = "Dong, Roth, Su 2022, Thm. 2.10 (every μ-GDP pair is a post-processing of N(0, 1), N(μ, 1))"
SOURCE_RANGES = {"E": "E>1", "delta": "0<delta<1", "mu": "mu>0"}


def gaussian_document(mu) -> dict:
    """The pair N(0, 1), N(mu, 1) as a density document; ``mu`` a number, or the text of an expression in the
    parameters the caller declares."""
    dens = {d: f.replace("mu", f"({mu})") for d, f in GAUSS_DENSITY.items()}
    return {"kind": "density", "outputs": "reals", "domain": [0, 1], "density": dens}


def dominating_document(source: str, values: dict) -> tuple[dict, str]:
    """A's dominating pair as a mechanism document (its parameters declared with their ranges where ``values``
    gives no number) and the citation that it dominates.

    >>> dominating_document("pure-dp", {})[0]["rows"]
    {'0': ['E/(E + 1)', '1/(E + 1)'], '1': ['1/(E + 1)', 'E/(E + 1)']}
    """
    if source == "gaussian-dp":
        doc = gaussian_document(values.get("mu", "mu"))
        return ({**doc, "params": {"mu": SOURCE_RANGES["mu"]}} if "mu" not in values else doc), GDP_SOURCE
    st = STRUCTURES.get(source)
    if st is None or st.dominating is None:
        raise InvalidParameter(f"{source} declares no dominating pair, so its operated level is not derived this "
                               f"way; derived: pure-dp, approx-dp, tv-privacy and the others with one, and gaussian-dp")
    names = list(st.dominating.__code__.co_varnames[:st.dominating.__code__.co_argcount])
    syms = {n: (sp.sympify(values[n]) if n in values else sp.Symbol(n, positive=True)) for n in names}
    p, q = st.dominating(**syms)
    doc = {"n": 1, "domain": [0, 1], "outputs": list(range(len(p))),
           "rows": {"0": [expr_text(x) for x in p], "1": [expr_text(x) for x in q]}}
    free = {n: SOURCE_RANGES[n] for n in names if n not in values}
    return ({**doc, "params": free} if free else doc), st.dominating_source


__all__ = ["GDP_SOURCE", "dominating_document", "gaussian_document"]
