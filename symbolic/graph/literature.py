"""Published relations between listed notions: what the literature says about a pair, with the
citation and statement number, so the graph can say whether the engine agrees.

A :class:`Relation` with ``holds=True`` and a ``map`` states "A(a) ⇒ B(map(a))" (the map as
expressions in A's parameter names, read by the restricted parser with Φ allowed); ``holds=False`` with a
map states that this map fails ("not at the same ε"); ``holds=False, qualitative=True`` (no map) states that
A at some level allows B at no level. Only maps written in the notions' own parameters are recorded; a map
may name B's other parameters (the δ of a conversion to (ε, δ)-DP), which then range over B's range
narrowed by ``ranges``.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.notions.prior_terms import FullSupport


@dataclass(frozen=True)
class Relation:
    source: str          # notion ID
    target: str          # notion ID
    holds: bool          # True: an implication (with ``map``); False: a separation
    map: dict | None     # B's parameter name -> expression text in A's parameters
    statement: str
    citation: str
    qualitative: bool = False  # a separation at every level of B, not only against one map
    from_n: int = 1            # the statement concerns databases of at least this many records
    assuming: tuple = ()       # side conditions the statement makes (keys of CONDITIONS)
    ranges: tuple = ()         # ranges of B's parameters the map names (e.g. "0<delta<=1" for a map in δ)

    def to_json(self) -> dict:
        return {"statement": self.statement, "citation": self.citation,
                "relation": "implies" if self.holds else "not-implies", "map": self.map,
                "qualitative": self.qualitative, "from_n": self.from_n, "assuming": list(self.assuming),
                "ranges": list(self.ranges)}


# side conditions a published statement makes, as notions added to the pair's hypotheses
CONDITIONS = {"full-support prior": FullSupport}


_DKMMN = "Dwork, Kenthapadi, McSherry, Mironov, Naor (2006), Def. 1 with δ = 0"
_DR = "Dwork, Roth, The algorithmic foundations of differential privacy (2014)"
_KM = "Kifer, Machanavajjhala, No free lunch in data privacy, SIGMOD 2011"
_KOV = "Kairouz, Oh, Viswanath, The composition theorem for differential privacy, ICML 2015 (the privacy region)"
_DRO = "Durfee, Rogers, Practical differentially private top-k selection, NeurIPS 2019 (bounded range)"

RELATIONS = (
    Relation("pure-dp", "approx-dp", True, {"E": "E", "delta": "0"}, "ε-DP is (ε, 0)-DP", _DKMMN),
    Relation("approx-dp", "pure-dp", False, None,
             "(ε, δ)-DP with δ > 0 does not imply ε'-DP for any ε' (a mechanism may reveal a record with "
             "probability δ)", f"{_DR}, §2.3", qualitative=True),
    Relation("free-lunch", "pure-dp", True, {"E": "E"},
             "free-lunch privacy bounds every pair of databases, so in particular neighbours", f"{_KM}, §2"),
    Relation("pure-dp", "free-lunch", False, {"E": "E"},
             "ε-DP does not imply free-lunch privacy at the same ε once n ≥ 2", f"{_KM}, §2", from_n=2),
    Relation("pure-dp", "group-dp", True, {"E": "E^2"},
             "ε-DP gives kε-DP for groups of k records (here k = 2)", f"{_DR}, Theorem 2.2"),
    Relation("group-dp", "pure-dp", True, {"E": "E"},
             "neighbours differ in one record, a group of at most k", f"{_DR}, Theorem 2.2 (k = 1)"),
    Relation("unbounded-dp", "pure-dp", True, {"E": "E^2"},
             "replacing a record is removing it and adding another: unbounded ε-DP gives bounded 2ε-DP", f"{_KM}, §2"),
    Relation("bounded-range", "pure-dp", True, {"E": "E"}, "ε-bounded range implies ε-DP", _DRO),
    Relation("pure-dp", "bounded-range", True, {"E": "E^2"}, "ε-DP implies 2ε-bounded range", _DRO),
    Relation("pure-dp", "tv-privacy", True, {"delta": "(E - 1)/(E + 1)"},
             "ε-DP bounds the total variation between neighbours by (e^ε − 1)/(e^ε + 1), attained by binary "
             "randomized response", _KOV),
    Relation("approx-dp", "tv-privacy", True, {"delta": "(E - 1 + 2*delta)/(E + 1)"},
             "(ε, δ)-DP bounds the total variation by (e^ε − 1 + 2δ)/(e^ε + 1)", _KOV),
    Relation("tv-privacy", "approx-dp", True, {"E": "1", "delta": "delta"}, "δ-TV privacy is (0, δ)-DP", _KOV),
    Relation("pure-dp", "renyi-dp", True, {"E": "E"},
             "ε-DP is (∞, ε)-Rényi DP, hence (α, ε)-Rényi DP for every α (monotone in α)",
             "Mironov, Rényi differential privacy, CSF 2017, §3"),
    Relation("pure-dp", "zcdp", True, {"rho": "log(E)^2/2"}, "ε-DP implies ½ε²-zCDP",
             "Bun, Steinke, Concentrated differential privacy, TCC 2016, Proposition 1.4"),
    Relation("pure-dp", "gaussian-dp", True, {"mu": "2*sqrt(2)*erfinv((E - 1)/(E + 1))"},
             "ε-DP implies μ-GDP with μ = 2Φ⁻¹(e^ε/(1 + e^ε)), the GDP level of binary randomized response, which "
             "dominates every ε-DP pair", "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, §2.3 "
             "(f_{ε,0}) with Kairouz, Oh, Viswanath 2015"),
    Relation("zcdp", "approx-dp", True, {"E": "exp(rho + 2*sqrt(rho*log(1/delta)))", "delta": "delta"},
             "ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP for every δ > 0",
             "Bun, Steinke, Concentrated differential privacy, TCC 2016, Proposition 1.3", ranges=("0<delta<=1",)),
    Relation("gaussian-dp", "approx-dp", True,
             {"E": "E", "delta": "Phi(-log(E)/mu + mu/2) - E*Phi(-log(E)/mu - mu/2)"},
             "μ-GDP is (ε, Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2))-DP for every ε ≥ 0",
             "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, Corollary 2.13"),
    Relation("zcdp", "tv-privacy", True, {"delta": "sqrt(1 - exp(-rho))"},
             "ρ-zCDP bounds the KL divergence by ρ, hence the total variation by √(1 − e^(−ρ))",
             "Bun, Steinke, Concentrated differential privacy, TCC 2016 (KL ≤ ρ); Bretagnolle, Huber 1979"),
    Relation("zcdp", "renyi-dp", True, {"E": "exp(2*rho)"},
             "ρ-zCDP is (α, αρ)-Rényi DP for every α > 1; at α = 2, e^{2ρ}",
             "Bun, Steinke, Concentrated differential privacy, TCC 2016, Definition 1.1"),
    Relation("gaussian-dp", "zcdp", True, {"rho": "mu^2/2"},
             "μ-GDP is dominated by the Gaussian shift pair, hence ½μ²-zCDP",
             "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, §2 (with Bun, Steinke 2016, Prop. 1.6)"),
    Relation("gaussian-dp", "tv-privacy", True, {"delta": "2*Phi(mu/2) - 1"},
             "μ-GDP bounds the total variation by 2Φ(μ/2) − 1, its (0, δ)-DP profile at ε = 0",
             "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, Corollary 2.13 at ε = 0"),
    Relation("bounded-range", "zcdp", True, {"rho": "log(E)^2/8"}, "ε-bounded range implies ε²/8-zCDP",
             "Cesar, Rogers, Bounding, concentrating, and truncating: unifying privacy loss composition for data "
             "analytics, ALT 2021"),
    Relation("renyi-dp", "approx-dp", True, {"E": "E/delta", "delta": "delta"},
             "(α, ε)-Rényi DP implies (ε + log(1/δ)/(α − 1), δ)-DP; here α = 2",
             "Mironov, Rényi differential privacy, CSF 2017, Proposition 3", ranges=("0<delta<=1",)),
    Relation("f-dp", "approx-dp", True, {"E": "E", "delta": "delta"},
             "f_{ε,δ}-DP is (ε, δ)-DP (the trade-off function of the (ε, δ) privacy region)",
             "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, §2.3; Wasserman, Zhou 2010"),
    Relation("approx-dp", "f-dp", True, {"E": "E", "delta": "delta"}, "(ε, δ)-DP is f_{ε,δ}-DP",
             "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, §2.3; Wasserman, Zhou 2010"),
    Relation("probabilistic-dp", "approx-dp", True, {"E": "E", "delta": "delta"},
             "probabilistic (ε, δ)-DP implies (ε, δ)-DP", "Meiser, Approximate and probabilistic differential "
             "privacy definitions, IACR ePrint 2018/277"),
    Relation("local-dp", "lip", True, {"E": "E"}, "ε-local DP implies ε-local information privacy",
             "Jiang, Sarwate, et al., local information privacy (2019-2021)"),
    Relation("lip", "local-dp", True, {"E": "E^2"}, "ε-local information privacy (under a prior with full "
             "support) implies 2ε-local DP", "Jiang, Sarwate, et al., local information privacy (2019-2021)",
             assuming=("full-support prior",)),
)


def relations_by_pair(ids=None) -> dict:
    """(source, target) → Relation, for pairs among ``ids`` (all when None)."""
    return {(r.source, r.target): r for r in RELATIONS
            if ids is None or (r.source in ids and r.target in ids)}
