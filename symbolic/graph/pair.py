"""One ordered pair of notions (A, B): the strongest relation the engine establishes at given sizes.

- ``implies``: "A(a) ⇒ B(f(a))" proved at the sizes for every a in range, f the parameter map
  (:mod:`symbolic.graph.maps`); the certificate is the engine's proof.
- ``not-implies``: a separation, always ``qualitative``: an exact counterexample whose mechanism
  satisfies A at some level and B at no level (:mod:`symbolic.graph.separations.one_table`), so that no map at
  all could make the implication hold.
- ``unknown``: with the reason (a time-out, no parameter map, a notion that raised an error). When
  the maps tried were refuted but B holds at some level on the counterexample, the pair stays
  ``unknown`` and lists them (``refuted_maps``; ``trivial`` when a map put a parameter of B at the
  least value of its range, δ = 0 or E = 1): a refuted map is not a separation.

Every counterexample a pair carries is re-verified by exact evaluation of its JSON record
(:mod:`symbolic.graph.recheck`); ``verified_exactly`` is that answer.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import sympy as sp

from symbolic.core.errors import DPCheckError, EngineContradiction
from symbolic.core.verdicts import Proved, Refuted, Sizes, Unknown, Vacuous, esc, latex_text, word_html
from symbolic.core.exact import at_values
from symbolic.graph.all_sizes import all_sizes_argument, scope_record
from symbolic.graph.all_sizes_check import pair_reduces, proof_holds_on_dominating_pair
from symbolic.graph.sampling import holds_exactly
from symbolic.graph.separations.candidates import REVEALING, TABLE_CURVES, no_level
from symbolic.graph.separations.families import family_separation, recheck_record, requested_levels
from symbolic.graph.maps import claim_params, coarser_maps, parameter_map, shaped_maps
from symbolic.graph.recheck import fails_at_json, failing_values, recheck, source_values
from symbolic.graph.sampling import sample_counterexample
from symbolic.graph.separations.one_table import level_free
from symbolic.notions.claims import Claim, Implies
from symbolic.report.results import claim_json, counterexample_json
from symbolic.solve.run import check_claim
from symbolic.solve.backends.settings import Settings

WEAK_E = 1024  # E at which a separation search asks B to fail: a table failing there usually fails at every E


@dataclass(frozen=True)
class PairResult:
    """The graph's answer for one ordered pair (``source`` ⇒ ``target``?): ``relation`` "implies",
    "not-implies" or "unknown", the parameter ``map`` proved or refuted, how it was decided; ``to_json``
    gives the contract's keys.

    >>> PairResult("pure-dp", "approx-dp", "implies", "E = E, delta = 0").to_json()["relation"]
    'implies'
    """

    source: str
    target: str
    relation: str                    # "implies" | "not-implies" | "unknown"
    map: str | None = None
    tight: bool = False
    certificate: dict | None = None
    counterexample: dict | None = None
    verified_exactly: bool | None = None
    qualitative: bool = False
    reason: str | None = None
    seconds: float = 0.0
    literature_says: dict | None = None
    agrees_with_literature: bool | None = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"from": self.source, "to": self.target, "relation": self.relation, "map": self.map,
                "tight": self.tight, "certificate": self.certificate, "counterexample": self.counterexample,
                "verified_exactly": self.verified_exactly, "qualitative": self.qualitative,
                "literature_says": self.literature_says, "agrees_with_literature": self.agrees_with_literature,
                "reason": self.reason, "seconds": round(self.seconds, 3), **self.extra}

    @classmethod
    def from_json(cls, doc: dict) -> "PairResult":
        known = {"from", "to", "relation", "map", "tight", "certificate", "counterexample", "verified_exactly",
                 "qualitative", "literature_says", "agrees_with_literature", "reason", "seconds"}
        return cls(doc["from"], doc["to"], doc["relation"], doc.get("map"), bool(doc.get("tight")),
                   doc.get("certificate"), doc.get("counterexample"), doc.get("verified_exactly"),
                   bool(doc.get("qualitative")), doc.get("reason"), float(doc.get("seconds") or 0.0),
                   doc.get("literature_says"), doc.get("agrees_with_literature"),
                   {k: v for k, v in doc.items() if k not in known})

    def _repr_html_(self):
        word = word_html({"implies": "proved", "not-implies": "refuted"}.get(self.relation, "unknown"), self.relation)
        arrow = {"implies": "⇒", "not-implies": "⇏"}.get(self.relation, "?")
        bits = [f"map {esc(self.map)}" + (" (tight)" if self.tight else "") if self.map else "",
                "qualitative separation" if self.qualitative else "",
                "" if self.verified_exactly is None else f"verified exactly: {'yes' if self.verified_exactly else 'no'}",
                f"reason: {esc(self.reason)}" if self.reason else ""]
        more = "; ".join(b for b in bits if b)
        return (f'<div class="dpcheck-pair">{word} <code>{esc(self.source)}</code> {arrow} '
                f"<code>{esc(self.target)}</code>" + (f"<div>{more}</div>" if more else "") + "</div>")

    def _repr_latex_(self):
        arrow = {"implies": r"\Rightarrow", "not-implies": r"\not\Rightarrow"}.get(self.relation, r"\;?\;")
        return rf"$\text{{{latex_text(self.source)}}} {arrow} \text{{{latex_text(self.target)}}}$"


def decide_pair(a, b, sizes: Sizes, settings: Settings, literature=None) -> PairResult:
    """Decide the pair (A, B) of :class:`~symbolic.notions.info.NotionInfo` records at ``sizes``.
    Never raises for a notion's own failure: a notion that errors makes the pair unknown.

    ε-DP implies ε-free-lunch privacy only at a squared level once n = 2 (two records change):

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> from symbolic.graph.sweep import graph_settings
    >>> r = decide_pair(find_notion("pure-dp"), find_notion("free-lunch"), Sizes(2, 2, 2), graph_settings(3))
    >>> r.relation, r.map
    ('implies', 'E = E**2')
    """
    t0 = time.monotonic()
    try:
        res = confirm(a.notion, b.notion, _decide(a, b, sizes, settings, literature))
        if literature is not None and literature.assuming:
            res = replace(res, extra={**res.extra, "assuming": list(literature.assuming)})
        reduced = pair_reduces(a, b, res)   # a refutation the all-size argument cannot reduce stops the run
        if reduced:
            res = replace(res, extra={**res.extra, "reduces_to": reduced})
    except EngineContradiction:
        raise
    except DPCheckError as e:
        res = PairResult(a.id, b.id, "unknown", reason=f"error: {e}")
    except Exception as e:  # noqa: BLE001 -- a user's notion that crashes: this pair only is unknown
        res = PairResult(a.id, b.id, "unknown", reason=f"a notion raised {type(e).__name__}: {str(e)[:200]}")
    return with_literature(replace(res, seconds=time.monotonic() - t0), literature, sizes.n)


def _decide(a, b, sizes, settings, literature):
    for info in (a, b):
        if info.notion.arity != 1:
            return PairResult(a.id, b.id, "unknown", reason=f"{info.id} is a notion of {info.notion.arity} "
                              f"mechanisms; the graph compares notions of one mechanism")
    pmap = parameter_map(a, b, literature)
    if pmap is None:
        sep = _separation_search(a, b, sizes, settings)
        if sep is not None:
            return sep
        names = [p.name for p in b.notion.params]
        return PairResult(a.id, b.id, "unknown", reason=f"no parameter map from {a.id}'s parameters to {b.id}'s "
                          f"({', '.join(names)}), and no separation found at {sizes}")
    params = claim_params(a.notion) + pmap.free
    hyp = (a.notion(*(p.symbol for p in claim_params(a.notion))),) + _conditions(literature)
    claim = _pair_claim(f"{a.id}->{b.id}", hyp, b.notion(**pmap.values), params, sizes)
    on_curves = _on_curves(a, b, pmap, claim)
    if on_curves is not None:
        return on_curves
    result = check_claim(claim, settings)
    v, doc = result.verdict, claim_json(result)
    if isinstance(v, Proved):
        return _implied(a, b, pmap, doc, sizes, hyp)
    if isinstance(v, Refuted) and v.verified_exactly:
        return _after_refutation(a, b, pmap, v.counterexample, doc["counterexample"], params, hyp, sizes, settings)
    if isinstance(v, Vacuous):
        return PairResult(a.id, b.id, "unknown", map=pmap.text, reason=f"vacuous: {v.reason}")
    reason = v.reason if isinstance(v, Unknown) else f"counterexample not confirmed by exact evaluation: {v.note}"
    cx = sample_counterexample(a, b, pmap, params, sizes, claim.statement)
    if cx is not None:
        res = _after_refutation(a, b, pmap, cx, counterexample_json(cx), params, hyp, sizes, settings)
        return replace(res, extra={**res.extra, "found_by": "exact evaluation of candidates",
                                   "solver": reason[:120]})
    return PairResult(a.id, b.id, "unknown", map=pmap.text, reason=reason, extra={"map_source": pmap.how})


def _on_curves(a, b, pmap, claim) -> PairResult | None:
    """The pair decided on privacy curves at every size (:func:`decide_curve_claim`: zCDP or GDP ⇒ (ε, δ)-DP,
    ε-DP or bounded range ⇒ zCDP/GDP on a bounded range), or None when that route does not apply or leaves it
    open (the general check then runs). A refuted map keeps the pair undecided, as any refuted map does; its
    table is certified by the route (ball arithmetic), not by the graph's exact re-check."""
    from symbolic.derive.continuous.conversions import decide_curve_claim
    decided = decide_curve_claim(claim)
    if decided is None or decided[0].verdict == "unknown":
        return None
    v = decided[0]
    extra = {"map_source": pmap.how, "decided_on": "privacy curves"}
    if v.verdict == "proved":
        every = {"scope": "all sizes", "reduction": "privacy curves", "argument": [v.scope]}
        return PairResult(a.id, b.id, "implies", map=pmap.text,
                          certificate={"method": v.method, "reason": v.reason, "cells": v.cells},
                          extra={**extra, **scope_record(every), "tight": v.tight})
    return PairResult(a.id, b.id, "unknown", map=pmap.text,
                      reason=f"only the map tried was refuted ({pmap.text}): {v.reason}",
                      extra={**extra, "refuted_maps": [pmap.text], "curve_counterexample": v.counterexample})


def _after_refutation(a, b, pmap, cx, cx_doc, params, hyp, sizes, settings) -> PairResult:
    """The map ``pmap`` has a counterexample ``cx``. The pair is a separation only when B holds at no
    level on its table (or on one a separation search finds); else a coarser map may be proved; else
    the pair stays undecided and says which map was refuted (never drawn as a separation)."""
    fails = fails_at_json({k: at_values(e, cx.parameters) for k, e in pmap.values.items()})
    mech = cx.mechanisms.get("A")
    pop = next(iter(cx.populations.values()), None)
    level = mech is not None and no_level_on(b.notion, mech, settings, pop, a.notion,
                                             {k: v for k, v in cx.parameters.items()
                                              if k in {p.name for p in a.notion.params}})
    if level:
        return PairResult(a.id, b.id, "not-implies", map=pmap.text, counterexample=cx_doc, qualitative=True,
                          reason=f"the mechanism satisfies {a.id} at the parameters shown and {b.id} at {level}",
                          extra={"map_source": pmap.how, "fails_at": fails, "target_level": level})
    refuted = {"map_source": pmap.how, "map_counterexample": cx_doc, "map_fails_at": fails,
               "refuted_map": pmap.text, "refuted_maps": [pmap.text]}
    sep = _separation_search(a, b, sizes, settings)
    if sep is not None:
        return replace(sep, map=pmap.text, extra={**sep.extra, **refuted})
    for weaker in coarser_maps(pmap, a, b, sizes.n):
        proved = _prove_map(a, b, weaker, params + tuple(weaker.free), hyp, sizes, settings)
        if proved is not None:
            return replace(proved, extra={**proved.extra, **refuted})
    if sizes.n == 1:
        family = family_separation(a, b, levels=requested_levels(settings))
        if family is not None:
            return PairResult(a.id, b.id, "not-implies", map=pmap.text, qualitative=True,
                              reason=f"a family of tables keeps {a.id} at one level while {b.id}'s level tends to ∞",
                              extra={"map_source": pmap.how, **family.to_json(), **refuted})
    trivial = pmap.how != "literature" and trivial_map(b.notion, pmap.values)
    return PairResult(a.id, b.id, "unknown", map=pmap.text, counterexample=cx_doc,
                      reason=f"only the map tried was refuted ({pmap.text}): {b.id} holds at some level on the "
                             f"counterexample, and no separation was found",
                      extra={"map_source": pmap.how, "fails_at": fails, "refuted_maps": [pmap.text],
                             "trivial": trivial})


def trivial_map(b_notion, values: dict) -> bool:
    """Whether a map puts one of B's parameters at the least value of its range as a constant (δ = 0,
    E = 1, ρ = 0): its refutation says only that A does not give B with no loss at all."""
    for p in b_notion.params:
        v = values.get(p.name)
        if v is not None and p.lower is not None and not getattr(v, "free_symbols", True) \
                and sp.sympify(v) == sp.sympify(p.lower):
            return True
    return False


def no_level_on(notion, mech, settings, pop, source=None, source_values=None) -> str | None:
    """"no level" when B holds on the table at no level; "only the trivial level" when, at a level of A's notion
    ``source`` at ``source_values`` that says something (A fails on the table that reveals the record), B holds
    there only where it holds on every table (δ = 1: no information); else None. A level of A that every table
    meets maps only to such a level of B, so it separates nothing then."""
    try:
        if level_free(notion, mech, settings, pop) == "no level":
            return "no level"
        if source is None or holds_exactly(source, REVEALING, None, source_values) is not False:
            return None
        return "only the trivial level" if level_free(notion, mech, settings, pop, below_top=True) == "no level" \
            else None
    except DPCheckError:
        return None


def confirm(a_notion, b_notion, res: PairResult) -> PairResult:
    """``verified_exactly`` from an exact re-verification of the pair's counterexample
    (:func:`symbolic.graph.recheck.recheck`), never written as a constant: a separation whose
    counterexample is not confirmed is no separation, and a map whose counterexample is not confirmed
    is not reported as refuted."""
    extra = dict(res.extra)
    if extra.get("map_counterexample") is not None and \
            recheck(a_notion, b_notion, extra["map_counterexample"], extra.get("map_fails_at")) is not True:
        for k in ("map_counterexample", "map_fails_at", "refuted_map", "refuted_maps"):
            extra.pop(k, None)
    if extra.get("separation") == "family":
        if recheck_record(a_notion, b_notion, extra):
            return replace(res, verified_exactly=True, extra=extra)
        return replace(res, relation="unknown", qualitative=False, verified_exactly=False, extra=extra,
                       reason="a family separation was found, but exact evaluation of its tables did not confirm it")
    if res.counterexample is None:
        return replace(res, verified_exactly=None, extra=extra)
    if recheck(a_notion, b_notion, res.counterexample, extra.get("fails_at")) is True:
        return replace(res, verified_exactly=True, extra=extra)
    why = "a counterexample was found, but exact evaluation of its table did not confirm it"
    for k in ("refuted_maps", "trivial"):
        extra.pop(k, None)
    return replace(res, relation="unknown", qualitative=False, verified_exactly=False, extra=extra,
                   reason=f"{why} ({res.reason})" if res.reason else why)


def contradiction(a, b, res: PairResult) -> str | None:
    """Why the record ``res`` contradicts itself, or None: an ``implies`` record that carries a separating
    counterexample, or a counterexample on which B fails at the record's own map (evaluated at that
    table's parameters of A, exactly); a map listed both as proved and as refuted."""
    if res.relation != "implies":
        return None
    if res.counterexample is not None:
        return "an implication that carries a separating counterexample"
    refuted = [*(res.extra.get("refuted_maps") or ()), res.extra.get("refuted_map")]
    if res.map is not None and res.map in refuted:
        return f"the map {res.map} is listed as proved and as refuted"
    cx = res.extra.get("map_counterexample")
    if cx is not None and res.map is not None:
        try:
            at = failing_values(a.notion, res.map, source_values(a.notion, cx))
        except (KeyError, ValueError, TypeError, AttributeError, DPCheckError):
            return "a counterexample whose parameters do not read"
        if at is not None and recheck(a.notion, b.notion, cx, at) is not False:
            return f"its own counterexample refutes (or may refute) the proved map {res.map}"
    return None


def reconfirm(a, b, res: PairResult, settings, literature=None, n: int = 1) -> PairResult | None:
    """A pair read back from the cache, checked again: a record that contradicts itself is refused, its
    counterexample re-verified exactly, a qualitative separation's "B at no level" decided again on the
    fixed table, and the literature columns computed afresh from ``literature`` (the record's own are not
    read); None (recompute) when anything no longer holds."""
    from symbolic.graph.recheck import table_of
    if contradiction(a, b, res) is not None:
        return None
    again = confirm(a.notion, b.notion, res)
    if again.relation != res.relation or again.extra.get("refuted_maps") != res.extra.get("refuted_maps"):
        return None
    if res.relation == "not-implies":
        if not res.qualitative:
            return None
        try:
            tab, pop = table_of(res.counterexample)
        except (KeyError, ValueError, TypeError, DPCheckError):
            return None
        curve = pop is None and b.id in TABLE_CURVES
        try:
            avals = source_values(a.notion, res.counterexample)
        except (KeyError, ValueError, TypeError, AttributeError, DPCheckError):
            return None
        if not (no_level(b, tab, settings) if curve else no_level_on(b.notion, tab, settings, pop, a.notion, avals)):
            return None
    fresh = replace(again, literature_says=None, agrees_with_literature=None,
                    extra={k: v for k, v in again.extra.items() if k not in ("literature_note", "literature_disagreement")})
    return with_literature(fresh, literature, n)


def _conditions(literature) -> tuple:
    """The side conditions of a recorded relation, as hypotheses (arity-0 notion instances)."""
    from symbolic.graph.literature import CONDITIONS
    return tuple(CONDITIONS[c]() for c in (literature.assuming if literature is not None else ()))


def _pair_claim(cid, hyp, con, params, sizes) -> Claim:
    """The graph's claim ``hyp ⇒ con`` (``hyp`` one instance or a tuple) over ``params``, on the size grid
    every pair of a run shares: from (1, 2, 2) (or the run's smaller |𝒟|, |𝒪|) up to ``sizes``."""
    hyp = hyp if isinstance(hyp, tuple) else (hyp,)
    return Claim(cid, "⇒", "-", f"{' ∧ '.join(map(str, hyp))} ⇒ {con}", "(graph)", (Implies(hyp, con),),
                 params=params, sizes=sizes, min_sizes=Sizes(1, min(2, sizes.domain), min(2, sizes.outputs)))


def _implied(a, b, pmap, doc, sizes, hyp) -> PairResult:
    """A proved pair from its claim's JSON record: the map, the certificate, the vacuity check, the scope (every
    size when :func:`all_sizes_argument` lifts the proof at ``sizes`` with hypotheses ``hyp``; the proof is then
    checked on the argument's own table, and a failure there stops the run)."""
    argument = all_sizes_argument(a, b, sizes, hyp)
    if argument is not None:
        proof_holds_on_dominating_pair(a, b, hyp, claim_params(a.notion) + pmap.free,
                                       {p.name: p.symbol for p in claim_params(a.notion)}, pmap.values)
    return PairResult(a.id, b.id, "implies", map=pmap.text, certificate=doc["certificate"],
                      extra={"map_source": pmap.how, "vacuity": doc["vacuity"], **scope_record(argument)})


def by_shaped_map(a, b, res: PairResult, sizes, settings, literature=None) -> PairResult | None:
    """A pair left with refuted maps (after composed maps were tried) proved under a map of another shape
    (:func:`~symbolic.graph.maps.shaped_maps`), keeping the refuted maps beside it; None when none is proved."""
    if res.relation != "unknown" or not res.extra.get("refuted_maps") or res.extra.get("assuming"):
        return None
    pmap = parameter_map(a, b, literature)
    if pmap is None:
        return None
    for shaped in shaped_maps(pmap, a, b):
        proved = _proved_beside_refuted(a, b, res, shaped, sizes, settings, literature)
        if proved is not None:
            return proved
    return None


def by_derived_map(a, b, res: PairResult, sizes, settings, literature=None) -> PairResult | None:
    """A pair still left with refuted maps proved under the map `derive map` fits for it
    (:func:`~symbolic.graph.constants.proposal.derived_map`), keeping the refuted maps beside it; None otherwise."""
    from symbolic.graph.constants.proposal import derived_map
    fitted = derived_map(a, b, res, sizes, settings, literature)
    if fitted is None:
        return None
    return _proved_beside_refuted(a, b, res, fitted, sizes, settings, literature)


def _proved_beside_refuted(a, b, res, pmap, sizes, settings, literature) -> PairResult | None:
    """The pair ``res`` (left with refuted maps) as ``implies`` under ``pmap`` when the engine proves it, keeping
    the refuted maps and their counterexample beside the proof; None otherwise."""
    hyp = (a.notion(*(p.symbol for p in claim_params(a.notion))),) + _conditions(literature)
    proved = _prove_map(a, b, pmap, claim_params(a.notion) + tuple(pmap.free), hyp, sizes, settings)
    if proved is None:
        return None
    kept = {k: res.extra[k] for k in ("refuted_maps", "map_counterexample", "map_fails_at") if k in res.extra}
    return confirm(a.notion, b.notion, replace(proved, extra={**proved.extra, **kept, "map_source": pmap.how}))


def _prove_map(a, b, pmap, params, hyp, sizes, settings):
    """The pair as ``implies`` under ``pmap`` if the engine proves it (within half the pair's effort), else None."""
    claim = _pair_claim(f"{a.id}->{b.id}", hyp, b.notion(**pmap.values), params, sizes)
    result = check_claim(claim, replace(settings, effort=max(1, settings.effort // 2)))
    if not isinstance(result.verdict, Proved):
        return None
    return _implied(a, b, pmap, claim_json(result), sizes, hyp)


def _separation_search(a, b, sizes, settings):
    """A mechanism satisfying A at some level and B at no level, for B whose parameters are all
    E-type (weaker as they grow): ask for A(a) ∧ ¬B(1024), then check the table for B at every level."""
    if not b.notion.params or not all(p.name.startswith("E") and p.upper is None for p in b.notion.params):
        return None
    params = claim_params(a.notion)
    claim = _pair_claim(f"{a.id}-/->{b.id}", a.notion(*(p.symbol for p in params)),
                        b.notion(*([WEAK_E] * len(b.notion.params))), params, sizes)
    result = check_claim(claim, replace(settings, second_solver=False, effort=max(1, settings.effort // 2)))
    v = result.verdict
    if not (isinstance(v, Refuted) and v.verified_exactly):
        return None
    cx = v.counterexample
    mech = cx.mechanisms.get("A")
    pop = next(iter(cx.populations.values()), None)
    if mech is None or level_free(b.notion, mech, settings, pop) != "no level":
        return None
    return PairResult(a.id, b.id, "not-implies", counterexample=claim_json(result)["counterexample"],
                      qualitative=True,
                      reason=f"the mechanism satisfies {a.id} at the parameters shown and {b.id} at no level",
                      extra={"fails_at": {p.name: str(WEAK_E) for p in b.notion.params}})


def with_literature(res: PairResult, literature, n: int) -> PairResult:
    """Attach what the literature says and whether the engine's result agrees. A recorded implication
    with map m agrees when m is proved and disagrees when m is refuted or the engine separates the
    notions (B at no level); a recorded failure of map m agrees when m is refuted or the notions are
    separated and disagrees when m is proved; a recorded qualitative separation agrees with a
    qualitative separation and disagrees with any proved map. Anything else is not compared (None),
    with the reason in ``literature_note``; a disagreement states both sides in ``literature_disagreement``."""
    if literature is None:
        return res
    says = literature.to_json()
    extra = {k: v for k, v in res.extra.items() if k not in ("literature_note", "literature_disagreement")}
    if n < literature.from_n:
        return replace(res, literature_says=says, agrees_with_literature=None,
                       extra={**extra, "literature_note": f"the statement concerns n ≥ {literature.from_n}"})
    m = literature_map_text(literature)
    refuted = m is not None and ((res.relation == "not-implies" and res.map == m)
                                 or m in (res.extra.get("refuted_maps") or ()))
    proved = res.relation == "implies" and res.map == m
    separated = res.relation == "not-implies" and res.qualitative
    if literature.holds:
        agrees = True if proved else (False if (refuted or separated) else None)
    elif literature.qualitative:
        agrees = True if separated else (False if res.relation == "implies" else None)
    else:
        agrees = True if (refuted or separated) else (False if proved else None)
    if agrees is False:
        extra["literature_disagreement"] = {"literature": f"{res.source} {'⇒' if literature.holds else '⇏'} "
                                                          f"{res.target}" + (f" ({m})" if m else "")
                                                          + f": {literature.statement} [{literature.citation}]",
                                            "engine": engine_statement(res)}
    elif agrees is None:
        extra["literature_note"] = ("the engine's result is not comparable with the recorded statement: "
                                    + engine_statement(res))
    return replace(res, literature_says=says, agrees_with_literature=agrees, extra=extra)


def engine_statement(res: PairResult) -> str:
    """What the engine established for the pair, in one line."""
    a, b = res.source, res.target
    if res.relation == "implies":
        return f"{a} ⇒ {b} ({res.map}), proved at these sizes"
    if res.relation == "not-implies":
        return f"{a} ⇏ {b}: an exact counterexample satisfies {a} and {b} at no level"
    maps = res.extra.get("refuted_maps")
    if maps:
        return f"{a} → {b} undecided: the map {', '.join(maps)} refuted by an exact counterexample, no separation"
    return f"{a} → {b} unknown: {(res.reason or '')[:160]}"


def literature_map_text(literature) -> str | None:
    """The recorded map as the graph writes maps (None for a qualitative statement)."""
    if literature.map is None:
        return None
    from symbolic.graph.maps import map_text
    return map_text(literature, None)
