"""One ordered pair of notions (A, B): the strongest relation the engine establishes at given sizes.

- ``implies``: "A(a) ⇒ B(f(a))" proved at the sizes for every a in range, f the parameter map
  (:mod:`symbolic.graph.maps`); the certificate is the engine's proof.
- ``not-implies``: a counterexample to that map, re-verified exactly; ``qualitative`` when the
  counterexample's mechanism (or one found for the purpose) satisfies A at some level and B at no
  level (:mod:`symbolic.graph.separate`), so that no map at all could make the implication hold.
- ``unknown``: with the reason (a time-out, no parameter map, a notion that raised an error).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from symbolic.core.errors import DPCheckError
from symbolic.core.verdicts import Proved, Refuted, Sizes, Unknown, Vacuous, esc, latex_text, word_html
from symbolic.graph.maps import claim_params, coarser_maps, parameter_map
from symbolic.graph.sampling import sample_counterexample
from symbolic.graph.separate import level_free
from symbolic.notions.claims import Claim, Implies
from symbolic.report.results import claim_json, counterexample_json
from symbolic.solve.run import check_claim
from symbolic.solve.settings import Settings

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

    >>> from symbolic.notions.catalog import find_notion
    >>> from symbolic.graph.sweep import graph_settings
    >>> r = decide_pair(find_notion("pure-dp"), find_notion("free-lunch"), Sizes(2, 2, 2), graph_settings(3))
    >>> r.relation, r.map
    ('implies', 'E = E**2')
    """
    t0 = time.monotonic()
    try:
        res = _decide(a, b, sizes, settings, literature)
        if literature is not None and literature.assuming:
            res = replace(res, extra={**res.extra, "assuming": list(literature.assuming)})
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
    params = claim_params(a.notion)
    hyp = (a.notion(*(p.symbol for p in params)),) + _conditions(literature)
    claim = _pair_claim(f"{a.id}->{b.id}", hyp, b.notion(**pmap.values), params, sizes)
    result = check_claim(claim, settings)
    v, doc = result.verdict, claim_json(result)
    if isinstance(v, Proved):
        return _implied(a, b, pmap, doc)
    if isinstance(v, Refuted) and v.verified_exactly:
        cx = v.counterexample
        mech = cx.mechanisms.get("A")
        qualitative = False
        if mech is not None:
            pop = next(iter(cx.populations.values()), None)
            qualitative = level_free(b.notion, mech, settings, pop) == "no level"
        out = PairResult(a.id, b.id, "not-implies", map=pmap.text, counterexample=doc["counterexample"],
                         verified_exactly=True, qualitative=qualitative,
                         reason=None if qualitative else f"counterexample to the map {pmap.text}",
                         extra={"map_source": pmap.how})
        if not qualitative:
            sep = _separation_search(a, b, sizes, settings)
            if sep is not None:
                return replace(sep, map=pmap.text, extra={"map_source": pmap.how, "map_counterexample":
                                                          doc["counterexample"]})
            for weaker in coarser_maps(pmap, a, b, sizes.n):
                proved = _prove_map(a, b, weaker, params, hyp, sizes, settings)
                if proved is not None:
                    return replace(proved, extra={**proved.extra, "map_counterexample": doc["counterexample"],
                                                  "refuted_map": pmap.text})
        return out
    if isinstance(v, Vacuous):
        return PairResult(a.id, b.id, "unknown", map=pmap.text, reason=f"vacuous: {v.reason}")
    reason = v.reason if isinstance(v, Unknown) else f"counterexample not confirmed by exact evaluation: {v.note}"
    cx = sample_counterexample(a, b, pmap, params, sizes, claim.statement)
    if cx is not None:
        return PairResult(a.id, b.id, "not-implies", map=pmap.text, counterexample=counterexample_json(cx),
                          verified_exactly=True, reason=f"counterexample to the map {pmap.text}, found by exact "
                          f"evaluation of candidate tables (the solver: {reason[:120]})",
                          extra={"map_source": pmap.how, "found_by": "exact evaluation of candidates"})
    return PairResult(a.id, b.id, "unknown", map=pmap.text, reason=reason, extra={"map_source": pmap.how})


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


def _implied(a, b, pmap, doc) -> PairResult:
    """A proved pair from its claim's JSON record: the map, the certificate, the vacuity check."""
    return PairResult(a.id, b.id, "implies", map=pmap.text, certificate=doc["certificate"],
                      extra={"map_source": pmap.how, "vacuity": doc["vacuity"]})


def _prove_map(a, b, pmap, params, hyp, sizes, settings):
    """The pair as ``implies`` under ``pmap`` if the engine proves it (within half the pair's effort), else None."""
    claim = _pair_claim(f"{a.id}->{b.id}", hyp, b.notion(**pmap.values), params, sizes)
    result = check_claim(claim, replace(settings, effort=max(1, settings.effort // 2)))
    if not isinstance(result.verdict, Proved):
        return None
    return _implied(a, b, pmap, claim_json(result))


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
                      verified_exactly=True, qualitative=True,
                      reason=f"the mechanism satisfies {a.id} at the parameters shown and {b.id} at no level")


def with_literature(res: PairResult, literature, n: int) -> PairResult:
    """Attach what the literature says and whether the engine's result agrees: an implication with
    map m agrees when m is proved and disagrees when m is refuted; a separation against map m agrees
    when m is refuted and disagrees when m is proved; a qualitative separation agrees with a
    qualitative separation and disagrees with any proved map. Anything else is not comparable (None)."""
    if literature is None:
        return res
    says = literature.to_json()
    if n < literature.from_n:
        return replace(res, literature_says=says, agrees_with_literature=None)
    m = literature_map_text(literature)
    refuted = (res.relation == "not-implies" and res.map == m) or res.extra.get("refuted_map") == m
    proved = res.relation == "implies" and res.map == m
    if literature.holds:
        agrees = True if proved else (False if refuted else None)
    elif literature.qualitative:
        agrees = True if (res.relation == "not-implies" and res.qualitative) else (
            False if res.relation == "implies" else None)
    else:
        agrees = True if refuted else (False if proved else None)
    return replace(res, literature_says=says, agrees_with_literature=agrees)


def literature_map_text(literature) -> str | None:
    """The recorded map as the graph writes maps (None for a qualitative statement)."""
    if literature.map is None:
        return None
    from symbolic.graph.maps import map_text
    return map_text(literature, None)
