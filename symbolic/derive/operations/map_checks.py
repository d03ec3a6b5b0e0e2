"""Checks of an operation map independent of its argument: the attaining pair satisfies A at its level, and
the bounded engine proves "A ⇒ B(f) after the operation" for every table within its sizes.

The engine states the operation with the claim terms (:class:`~symbolic.core.terms.PoissonSubsample`,
:class:`~symbolic.core.terms.SampleWithoutReplacement`, two runs in :class:`~symbolic.core.terms.Compose`),
A's and the operation's parameters symbolic, so a proof there covers every mechanism of those sizes, not the
dominating pair only; a refutation there would contradict the argument, and fails the map.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.terms import Compose, MechVar, PoissonSubsample, SampleWithoutReplacement
from symbolic.core.verdicts import Sizes
from symbolic.derive.level import derive_level
from symbolic.notions.claims import E, Claim, Implies, Param
from symbolic.notions.families.dp import ApproxDP, PureDP
from symbolic.notions.zoo.dp_laws import TVPrivacy
from symbolic.solve.backends.settings import Settings
from symbolic.solve.run import check_claim

ENGINE_NOTIONS = {"pure-dp": PureDP, "approx-dp": ApproxDP, "tv-privacy": TVPrivacy}
_E, _D, _MU = sp.symbols("E delta mu")   # by name: sympify would read "E" as Euler's number
LEVEL_OF_SOURCE = {"pure-dp": ("pure-dp", sp.log(_E)), "tv-privacy": ("total-variation", _D),
                   "gaussian-dp": ("gaussian-dp", _MU)}
Q = Param("q", lower=0, upper=1, lower_strict=True, upper_strict=True)
DELTA = Param("delta", lower=0, upper=1)
SIZES = {"subsampled": Sizes(1, 2, 3), "composition": Sizes(1, 2, 2)}
ENGINE_RUNS = (2, 3)     # the engine writes each run's table: K runs of |𝒪| outputs have |𝒪|^K


def attains_source(source: str, base: dict, values: dict) -> tuple[str, bool]:
    """(text, ok): the dominating pair is at A's level exactly (its own level derived from the table)."""
    if source not in LEVEL_OF_SOURCE:
        return (f"the dominating pair satisfies {source} (declared with its citation; its level is not derived here)",
                True)
    name, want = LEVEL_OF_SOURCE[source]
    d = derive_level(name, base)
    got = d.formula if getattr(d, "formula", None) is not None else d.value
    target = want.subs({s: sp.sympify(values[s.name]) for s in want.free_symbols if s.name in values})
    same = got is not None and sp.simplify(got.xreplace({s: sp.Symbol(s.name) for s in got.free_symbols})
                                           - target.xreplace({s: sp.Symbol(s.name) for s in target.free_symbols})) == 0
    return (f"the dominating pair is at {source}'s level {want} exactly", bool(d.ok) and same)


def _by_name(expr, symbols: dict):
    return expr.xreplace({s: symbols[s.name] for s in expr.free_symbols if s.name in symbols})


def _instance(notion_id: str, params: dict):
    cls = ENGINE_NOTIONS[notion_id]
    return cls(*(params[p.name] for p in cls.params))


def _target_values(target: str, formula, level_params: dict):
    """B's parameters at the derived level: e^ε′ for ε-DP, (e^ε′, δ) at the ε′ asked for (ε′, δ)-DP, δ for TV."""
    if target == "pure-dp":
        return {"E": sp.exp(formula)}
    if target == "approx-dp":
        if "eps" not in level_params:
            return None
        return {"E": sp.exp(sp.sympify(level_params["eps"])), "delta": formula}
    return {"delta": formula}


def engine_check(source: str, target: str, operation: dict, formula, level_params: dict) -> tuple[tuple, tuple]:
    """(checks, notes): the engine's bounded proof of "A ⇒ B(formula) after the operation", or a note saying why
    it was not run or did not decide."""
    if source not in ENGINE_NOTIONS or target not in ENGINE_NOTIONS or formula is None or "of" in operation:
        return (), ()
    symbols = {"E": E.symbol, "delta": DELTA.symbol, "q": Q.symbol}
    params = [E] if "E" in [p.name for p in ENGINE_NOTIONS[source].params] else []
    params += [DELTA] if "delta" in [p.name for p in ENGINE_NOTIONS[source].params] else []
    kind = operation["kind"]
    if kind == "composition":
        times = operation["times"]
        if not (isinstance(times, str) or times in ENGINE_RUNS):
            return (), (f"the engine's bounded check states {' or '.join(map(str, ENGINE_RUNS))} runs; it was not run "
                        f"for {times}",)
        runs = times if isinstance(times, int) else ENGINE_RUNS[0]
        formula = formula.xreplace({s: runs for s in formula.free_symbols if s.name == str(times)})
        a_vars = tuple(f"A{i}" for i in range(1, runs + 1))
        term = MechVar(a_vars[0])
        for v in a_vars[1:]:
            term = Compose(term, MechVar(v))
    elif operation.get("sampling") == "poisson":
        rate = operation["rate"]
        rate = Q.symbol if isinstance(rate, str) and rate in operation.get("params", {}) else sp.sympify(rate)
        params += [Q] if rate == Q.symbol else []
        term, a_vars = PoissonSubsample(MechVar("A"), rate), ("A",)
    else:
        term, a_vars = SampleWithoutReplacement(MechVar("A"), int(operation["size"])), ("A",)
    formula = _by_name(sp.sympify(formula), symbols)
    if formula.free_symbols - set(symbols.values()) or formula.has(sp.Max, sp.Min, sp.Piecewise):
        return (), ("the engine's bounded check takes a rational level in E, δ and q; this one is not",)
    values = _target_values(target, formula, level_params)
    if values is None:
        return (), ()
    source_values = {p.name: p.symbol for p in params if p.name in ("E", "delta")}
    hyps = tuple(_instance(source, source_values).of(MechVar(v)) for v in a_vars)
    concl = _instance(target, values).of(term)
    sizes = SIZES[kind if kind == "composition" else "subsampled"]
    claim = Claim("adhoc", "⇒", "-", f"{hyps[0]} ⇒ {concl}", "(ad hoc)",
                  (Implies(hyps if len(hyps) > 1 else hyps[0], concl, sizes=sizes),), params=tuple(params), sizes=sizes)
    res = check_claim(claim, Settings(second_solver=False))
    name = res.verdict.name
    where = (f"for every table of n = {sizes.n}, |𝒟| = {sizes.domain}, |𝒪| ≤ {sizes.outputs}"
             + (f", {len(a_vars)} runs" if kind == "composition" else "") + ", the parameters symbolic")
    if name == "proved":
        return ((f"the engine proves {claim.parts[0].conclusion} from {hyps[0]} {where}", True),), ()
    if name == "refuted":
        return ((f"the engine refutes the map {where}: {res.verdict}", False),), ()
    return (), (f"the engine's bounded check was not decided ({name}) {where}",)


__all__ = ["attains_source", "engine_check"]
