"""A pair whose maps were all refuted, given the map `derive map` fits: the search's least B-level, recognised as a
closed form in A's parameters, proposed as one more map and then proved by the graph's own route.

The fitted formula is only a candidate. The pair becomes ``implies`` only when the engine proves A(a) ⇒ B(f(a))
at the graph's sizes for every a in A's range, like any other map (:func:`symbolic.graph.pair.prove_map`). A
formula the derivation states only on part of A's range, or one that puts B's parameter at the end of its range
where B holds on every table (δ = 1: no information), is not proposed.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError, Transcendental
from symbolic.core.exact import expr_text
from symbolic.graph.maps import ParameterMap, claim_params, parameter_map

PROPOSE_CLASSES = ("polynomial",)   # derive map reads both notions on exact tables


def proposable(a, b, res) -> bool:
    """Whether the pair ``res`` of listing records ``a`` ⇒ ``b`` is one to fit a map for: undecided with refuted
    maps, no side condition, both notions read on exact tables."""
    return res.relation == "unknown" and bool(res.extra.get("refuted_maps")) and not res.extra.get("assuming") and \
        a.cls in PROPOSE_CLASSES and b.cls in PROPOSE_CLASSES


def derived_map(a, b, res, sizes, settings, literature=None) -> ParameterMap | None:
    """The map `derive map` fits for the undecided pair ``res`` of listing records ``a`` ⇒ ``b``: B's last
    parameter derived, its others as the refuted map put them; None when there is none to propose."""
    from symbolic.graph.constants.derivation import derive_map
    if not proposable(a, b, res):
        return None
    pmap = parameter_map(a, b, literature)
    if pmap is None or pmap.free:
        return None
    names = [p.name for p in b.notion.params]
    if not names or set(pmap.values) != set(names):
        return None
    target = names[-1]
    fix = {k: expr_text(v) for k, v in pmap.values.items() if k != target}
    try:
        d = derive_map(a, b, sizes=sizes, target=target, fix=fix, settings=settings)
    except (DPCheckError, Transcendental):
        return None
    f = d.formula
    spec = next(p for p in b.notion.params if p.name == target)
    if f is None or f == sp.oo or d.restricted or d.proof is None or \
            (spec.upper is not None and sp.simplify(f - sp.sympify(spec.upper)) == 0):
        return None
    syms = {p.name: p.symbol for p in claim_params(a.notion)}
    f = f.xreplace({s: syms[s.name] for s in f.free_symbols if s.name in syms})
    values = {**pmap.values, target: f}
    return ParameterMap(values, f"{pmap.how}; {target} fitted by derive map", ", ".join(
        f"{k} = {values[k]}" for k in names))


__all__ = ["derived_map", "proposable"]
