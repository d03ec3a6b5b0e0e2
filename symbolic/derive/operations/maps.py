"""The tight map "A, then an operation ⇒ B": B's level after composing or subsampling any mechanism satisfying A.

A notion A with a *dominating pair* (P₀, Q₀) (every pair satisfying A is a post-processing K of it: randomized
response for ε-DP, Kairouz, Oh and Viswanath's four-output pair for (ε, δ)-DP, the Gaussian pair for μ-GDP)
keeps that property under both operations:

- Poisson sampling at q mixes the present law with the absent one, and a kernel commutes with mixing:
  (M(V), (1 − q)·M(V) + q·M(x)) = K(P₀, (1 − q)·P₀ + q·Q₀).
- k runs of mechanisms satisfying A, each pair K_i(P₀, Q₀), are the product kernel ⊗K_i applied to (P₀^⊗k, Q₀^⊗k).

So when B obeys the data-processing inequality, the tight B-level of "A, then the operation" is B's level at
the operated dominating pair, which satisfies A and attains it; the level is derived by
:func:`symbolic.derive.level.derive_level` on that pair written as an operation document (the same document
a user writes). Where the table engine can state the claim (ε-DP, (ε, δ)-DP and TV privacy on either side;
the Poisson term and two composed runs), it also proves "A ⇒ B(f)" for every table within the sizes, E and
q symbolic, independently of the argument. Notions without a dominating pair (Rényi DP, zCDP) compose by
adding their levels (Mironov 2017, Prop. 1; Bun, Steinke 2016, Lemma 2.3), attained by the Gaussian pair.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.derive.level import derive_level
from symbolic.derive.operations.dominating import dominating_document
from symbolic.derive.operations.additive_maps import ADDITIVE, Tensorized, additive_map, tensorized
from symbolic.derive.operations.map_checks import attains_source, engine_check
from symbolic.derive.operations.map_value import OperationMap, operation_words
from symbolic.notions.listed.structures import STRUCTURES

LEVEL_NAME = {"tv-privacy": "total-variation"}      # the registry's ID → derive level's name of the same level
CURVE_CLOSED = {   # notions of curves closed under post-processing, with the citation
    "zcdp": "Bun, Steinke 2016, Lemma 2.2 (Rényi divergences obey data processing)",
    "gaussian-dp": "Dong, Roth, Su 2022, Lemma 2.9 (trade-off functions obey data processing)",
    "renyi-dp": STRUCTURES["renyi-dp"].post_processing}


def _closed(target: str) -> str | None:
    if target in CURVE_CLOSED:
        return CURVE_CLOSED[target]
    st = STRUCTURES.get(target)
    return st.post_processing if st is not None else None


def operation_map(source: str, target: str, operation: dict, *, values=None, level_params=None) -> OperationMap:
    """The tight level of ``target`` after ``operation`` (an operation document without ``"of"``: ``{"kind":
    "composition", "times": K}`` or ``{"kind": "subsampled", "sampling": …, "rate": Q, …}``, with its own
    ``"params"``) on any mechanism satisfying ``source``; ``values``: numbers for the source's parameters (E,
    delta, mu), ``level_params``: the target level's own (eps, alpha).

    >>> m = operation_map("pure-dp", "pure-dp", {"kind": "subsampled", "sampling": "poisson", "rate": "q",
    ...                   "params": {"q": "0<q<1"}})
    >>> m.formula, m.ok
    (log(E*q - q + 1), True)
    """
    values, level_params = dict(values or {}), dict(level_params or {})
    words = operation_words(operation)
    closed = _closed(target)
    quantity = "level"
    if closed is None:
        return OperationMap(source, target, words, quantity, unknown=f"{target} is not declared closed under "
                            f"post-processing, so the operated dominating pair need not bound it")
    if source in ADDITIVE and operation["kind"] == "composition" and source == target and "of" not in operation:
        return additive_map(source, operation, values, level_params, closed)
    try:
        base, dom_source = dominating_document(source, values)
    except InvalidParameter as e:
        return OperationMap(source, target, words, quantity, unknown=str(e))
    doc = with_operand(operation, base)
    level_name = LEVEL_NAME.get(target, target)
    try:
        d = derive_level(level_name, doc, params={**level_params, **_operation_values(values)})
    except InvalidParameter as e:
        got = None if "of" in operation else tensorized(source, level_name, operation, values, level_params)
        if got is None:
            return OperationMap(source, target, words, quantity, attained_by=doc,
                                unknown=f"the level of the operated pair was not derived: {e}")
        d = got
    if getattr(d, "unknown", None):
        return OperationMap(source, target, words, d.quantity, attained_by=doc, unknown=d.unknown)
    return _assembled(source, target, words, doc, d, dom_source, closed, operation, values, level_params)


def _operation_values(values: dict) -> dict:
    """The operation's numbers among ``values`` (q, k): the source's are written into its pair already."""
    return {k: v for k, v in values.items() if k in ("q", "k")}


def with_operand(operation: dict, base: dict) -> dict:
    """The operation document with ``base`` as its innermost ``"of"`` (subsample, then compose: the composition's
    ``"of"`` is the subsampling, whose ``"of"`` is the base).

    >>> with_operand({"kind": "composition", "times": 3, "of": {"kind": "subsampled", "rate": "1/2"}}, {"n": 1})
    {'kind': 'composition', 'times': 3, 'of': {'kind': 'subsampled', 'rate': '1/2', 'of': {'n': 1}}}
    """
    inner = operation.get("of")
    return {**operation, "of": with_operand(inner, base) if isinstance(inner, dict) else base}


def _assembled(source, target, words, doc, d, dom_source, closed, operation, values, level_params):
    base = _innermost(doc)
    formula, value, enc = _level_parts(d)
    how = ("mixing with the absent law commutes with the kernel: (M(V), (1 − q)M(V) + qM(x)) = K(P₀, (1 − q)P₀ + "
           "qQ₀)" if operation["kind"] == "subsampled" else
           "k runs, each a post-processing K_i of the pair, are the product kernel applied to the pair's k-fold "
           "product")
    proof = (f"every {source} pair is a post-processing K of its dominating pair (P₀, Q₀) ({dom_source})",
             f"{how}, so every {source} mechanism after {words} is a post-processing of the dominating pair after it",
             f"{target} obeys the data-processing inequality ({closed}): its level is at most the level of the "
             f"operated dominating pair, which satisfies {source} and has exactly that level (attained_by)")
    checks = (("the operated pair's level was derived and its checks passed", bool(d.ok)),
              *(d.checks if isinstance(d, Tensorized) else ()),
              attains_source(source, base, values))
    engine, note = engine_check(source, target, operation, formula, level_params)
    checks += engine
    proof += note
    quantity = getattr(d, "quantity", None) or "level"
    return OperationMap(source, target, words, quantity, formula, value, enc, doc, proof, checks)


def _innermost(doc: dict) -> dict:
    while doc.get("kind") in ("composition", "subsampled"):
        doc = doc["of"]
    return doc


def _level_parts(d):
    """(formula, exact value, enclosure) of a derived level, a table's or a curve's."""
    formula = getattr(d, "formula", None)
    value = getattr(d, "value", None)
    enc = getattr(d, "enclosure", None)
    if value is None and formula is not None and not formula.free_symbols:
        value = formula
    return formula, value, (tuple(enc) if enc is not None else None)


__all__ = ["operation_map", "with_operand"]
