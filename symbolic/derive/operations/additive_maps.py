"""Levels that add over the runs of a composition: the k-fold product's level as k times one pair's.

The privacy loss of a product of independent laws is the sum of the runs' losses, so the largest loss (pure ε) of
k runs of one pair is k times the pair's, and the Rényi divergence of a product is the sum (van Erven, Harremoës
2014, Thm. 28): D_α(P^⊗k‖Q^⊗k) = k·D_α(P‖Q). Where the composition engine needs numbers (a table with symbolic
entries), the k-fold level is written as k times the pair's level derived by sympy, and checked against the
composition engine's exact level at sample numbers. For Rényi DP and zCDP as hypotheses (notions with no
dominating pair) the map of k runs is k times the level, valid by the same additivity (Mironov 2017, Prop. 1;
Bun, Steinke 2016, Lemma 2.3) and attained by the Gaussian pair, whose Rényi divergence is α·μ²/2 at every order.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.ops import exact_sign
from symbolic.derive.level import derive_level
from symbolic.derive.operations.dominating import dominating_document, gaussian_document
from symbolic.derive.operations.map_value import OperationMap, operation_words

ADDING = ("pure-dp", "renyi-dp", "renyi-2", "renyi-3")
SAMPLES = ({"E": 2, "delta": sp.Rational(1, 10), "k": 2}, {"E": 3, "delta": sp.Rational(1, 5), "k": 3})
ADDITIVE = {"renyi-dp": "Mironov 2017, Prop. 1", "zcdp": "Bun, Steinke 2016, Lemma 2.3"}


@dataclass(frozen=True)
class Tensorized:
    """k times one pair's level, with the checks against the composition engine at numbers."""

    quantity: str
    formula: sp.Expr
    checks: tuple
    value: object = None
    enclosure: tuple | None = None
    unknown: str | None = None

    @property
    def ok(self) -> bool:
        return all(good for _, good in self.checks)


def _times(operation: dict, values: dict):
    k = values.get("k", operation["times"])
    return sp.Symbol(k, positive=True, integer=True) if isinstance(k, str) else sp.Integer(k)


def tensorized(source: str, level_name: str, operation: dict, values: dict, level_params: dict) -> Tensorized | None:
    """The level of ``level_name`` (one of :data:`ADDING`) of k runs of ``source``'s dominating pair as k times the
    pair's; None for another notion or operation.

    >>> t = tensorized("pure-dp", "pure-dp", {"kind": "composition", "times": "k"}, {}, {})
    >>> t.formula, t.ok
    (k*log(E), True)
    """
    if operation["kind"] != "composition" or level_name not in ADDING:
        return None
    base, _ = dominating_document(source, values)
    one = derive_level(level_name, base, params=level_params)
    k = _times(operation, values)
    formula = k * one.formula
    checks = [("the pair's level was derived and its checks passed", bool(one.ok))]
    for sample in SAMPLES:
        at = {n: v for n, v in sample.items() if n != "k" and n not in values}
        kk = sample["k"] if k.free_symbols else int(k)
        numeric, _ = dominating_document(source, {**values, **at})
        comp = derive_level(level_name, {"kind": "composition", "of": numeric, "times": kk}, params=level_params)
        want = formula.xreplace({s: ({**at, "k": kk}).get(s.name, s) for s in formula.free_symbols})
        shown = ", ".join(f"{n} = {v}" for n, v in {**at, "k": kk}.items())
        checks.append((f"at {shown} the composition engine's exact level equals k times the pair's",
                       comp.ok and comp.value is not None and exact_sign(comp.value - want) == 0))
    return Tensorized(getattr(one, "quantity", "epsilon"), formula, tuple(checks))


def additive_map(source: str, operation: dict, values: dict, level_params: dict, closed: str) -> OperationMap:
    """k runs of ρ-zCDP (or ε-Rényi DP at an order α given in ``level_params``) mechanisms: kρ (kε), attained by
    the Gaussian pair with that level.

    >>> m = additive_map("renyi-dp", {"kind": "composition", "times": 3}, {"epsilon": "1/2"}, {"alpha": "2"}, "")
    >>> m.formula, m.ok
    (3/2, True)
    """
    words = operation_words(operation)
    k = _times(operation, values)
    if source == "zcdp":
        level = sp.sympify(values.get("rho", sp.Symbol("rho", positive=True)))
        mu = sp.sqrt(2 * level)
        params = {}
    else:
        if "alpha" not in level_params:
            return OperationMap(source, source, words, "epsilon", unknown="renyi-dp composes at one order: give it "
                                                                           "with --param alpha=…")
        level = sp.sympify(values.get("epsilon", sp.Symbol("epsilon", positive=True)))
        mu = sp.sqrt(2 * level / sp.sympify(level_params["alpha"]))
        params = {"alpha": level_params["alpha"]}
    free = {s.name: f"{s.name}>0" for s in level.free_symbols}
    base = gaussian_document(str(mu))
    base = {**base, "params": free} if free else base
    doc = {**operation, "of": base}
    composed = derive_level(source, doc, params={**params, **({"k": values["k"]} if "k" in values else {})})
    one = derive_level(source, base, params=params)
    got = composed.formula if composed.formula is not None else composed.value
    mine = {s.name: s for s in (level.free_symbols | k.free_symbols)}
    got = got.xreplace({s: mine.get(s.name, s) for s in got.free_symbols})
    first = one.formula if one.formula is not None else one.value
    first = first.xreplace({s: mine.get(s.name, s) for s in first.free_symbols})
    proof = (f"Rényi divergences of independent runs add ({ADDITIVE[source]}): k runs of {source} mechanisms at "
             f"level {level} are at level k·{level}, at every order",
             f"the Gaussian pair N(0, 1), N({mu}, 1) has Rényi divergence α·μ²/2 at every order α, so it is at level "
             f"{level} exactly, and its k-fold product (attained_by) at level k·{level}",
             f"{source} obeys data processing ({closed})")
    k_text = "k" if k.free_symbols else str(k)
    checks = (("the composed pair's level was derived and its checks passed", bool(composed.ok)),
              (f"the Gaussian pair's own {source} level is {level}", sp.simplify(first - level) == 0),
              (f"the composed level is {k_text}·{level}", sp.simplify(got - k * level) == 0))
    return OperationMap(source, source, words, composed.quantity, got, composed.value, composed.enclosure, doc,
                        proof, checks)


__all__ = ["ADDING", "Tensorized", "additive_map", "tensorized"]
