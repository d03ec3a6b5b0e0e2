"""Listing entries (:class:`~symbolic.notions.info.NotionInfo`) of the notions of the established
families: ε-DP and its associative and causal variations (:mod:`symbolic.notions.families.dp`), semantic
privacy and indistinguishability (:mod:`symbolic.notions.families.semantic`), pointwise maximal leakage
(:mod:`symbolic.notions.families.pml`). Only notions users state claims with are listed; conditions that
exist for a proof step (E > 1, a tie, a zero pattern, closed-form bounds) are not.

IDs: the zoo's lower-case IDs where the notion is one of the widely used ones (``pure-dp``,
``approx-dp``, ``free-lunch``); otherwise the notion's Python name, which is also what the sources'
claims use."""
from __future__ import annotations

from symbolic.notions.families import dp
from symbolic.notions.families import pml
from symbolic.notions.families import semantic
from symbolic.notions.info import NotionInfo

_TSD = "Tschantz, Sen, Datta, Differential privacy as a causal property (2020)"
_KS = "Kasiviswanathan, Smith, On the 'semantics' of differential privacy (2014)"
_SAE = "Saeidian, Cervia, Oechtering, Skoglund, Pointwise maximal leakage (2023)"
_REPLACE = "replace one record"
_POLY, _ALL = "polynomial", "forall-prior"


def _entry(id_, notion, neighbours, cls, source, definition=None):
    return NotionInfo(id_, notion, neighbours, cls, source, definition or notion.summary)


ENTRIES = (
    _entry("pure-dp", dp.PureDP, _REPLACE, _POLY, "Dwork, McSherry, Nissim, Smith (2006), Def. 1",
           "∀ d ~ d', ∀ o: Pr[A(d)=o] ≤ E·Pr[A(d')=o]"),
    _entry("approx-dp", dp.ApproxDP, _REPLACE, _POLY, "Dwork, Kenthapadi, McSherry, Mironov, Naor (2006), Def. 1",
           "∀ d ~ d': Σ_o max(0, Pr[A(d)=o] − E·Pr[A(d')=o]) ≤ δ (every event S: P(S) ≤ E·P'(S) + δ)"),
    _entry("free-lunch", dp.FreeLunchPrivacy, "all pairs", _POLY,
           "Kifer, Machanavajjhala, No free lunch in data privacy, SIGMOD 2011",
           "∀ d, d', ∀ o: Pr[A(d)=o] ≤ E·Pr[A(d')=o]"),
    # Tschantz, Sen, Datta: associative and causal variations
    _entry("StrongAdversaryDP", dp.StrongAdversaryDP, _REPLACE, _ALL, f"{_TSD}, Def. 2"),
    _entry("StrongAdversaryDPFor", dp.StrongAdversaryDPFor, _REPLACE, _POLY, f"{_TSD}, Def. 10 (Appendix B)"),
    _entry("Bayesian0DP", dp.Bayesian0DP, "one data point's value", _ALL, f"{_TSD}, Def. 3"),
    _entry("IndependentBayesian0DP", dp.IndependentBayesian0DP, "one data point's value", _ALL, f"{_TSD}, Def. 4"),
    _entry("StrongBayesianDP", dp.StrongBayesianDP, _REPLACE, _ALL, f"{_TSD}, Figure 2 (d): Bayesian DP against strong adversaries"),
    _entry("WholeDatabaseInterventionDP", dp.WholeDatabaseInterventionDP, _REPLACE, _ALL, f"{_TSD}, Def. 5"),
    _entry("WholeDatabaseInterventionDPFor", dp.WholeDatabaseInterventionDPFor, _REPLACE, _POLY, f"{_TSD}, Def. 6"),
    _entry("DataPointInterventionDPFor", dp.DataPointInterventionDPFor, "one data point's value", _POLY,
           f"{_TSD}, Def. 7"),
    _entry("DataPointInterventionDP", dp.DataPointInterventionDP, "one data point's value", _ALL, f"{_TSD}, Def. 8"),
    _entry("BRPEveryDataPoint", dp.brp_all_data_points_notion, "one data point's value", _ALL, f"{_TSD}, Def. 9"),
    _entry("Noninterference", dp.Noninterference, "all pairs", _POLY, f"{_TSD}, related work: ε = 0 differential privacy is probabilistic noninterference"),
    _entry("StatisticalNondisclosure", dp.StatisticalNondisclosure, "given population", _POLY,
           f"Dalenius (1977), as stated in {_TSD}, Appendix A.3"),
    # lecture notes and Kasiviswanathan-Smith: indistinguishability and semantic privacy
    _entry("EventApprox", semantic.EventApprox, "every ordered pair of rows", _POLY, f"{_KS}, Def. 1.1"),
    _entry("PointwiseApprox", semantic.PointwiseApprox, "every ordered pair of rows", _POLY,
           f"{_KS}, Def. 1.1 on single outcomes"),
    _entry("Indistinguishable", semantic.Indistinguishable, "every ordered pair of rows", _POLY, f"{_KS}, Def. 3.1"),
    _entry("PointwiseIndistinguishable", semantic.PointwiseIndistinguishable, "every ordered pair of rows", _POLY,
           f"{_KS}, Def. 3.2"),
    _entry("AdditiveSecrecy", semantic.AdditiveSecrecy, _REPLACE, _POLY,
           "lecture notes on the properties of DP, eq. (8) (statistical difference ≤ δ)"),
    _entry("SemanticPrivacy", semantic.SemanticPrivacy, "one data point (b̄_0 vs b̄_i)", _ALL, f"{_KS}, Def. 2.1"),
    _entry("TwoPointSemanticPrivacy", semantic.TwoPointSemanticPrivacy, "beliefs on two neighbours", _POLY,
           f"{_KS}, Def. 2.1 restricted to two-point beliefs (the step of the proof of Theorem 2.2)"),
    _entry("SemanticPrivacyFor", semantic.SemanticPrivacyFor, "one data point (b̄_0 vs b̄_i)", _POLY,
           f"{_KS}, Def. 2.1 for one belief"),
    _entry("ApproxSemanticPrivacy", semantic.ApproxSemanticPrivacy, "one data point (b̄_0 vs b̄_i)", _ALL,
           f"{_KS}, Def. 2.3"),
    _entry("RealityObliviousSemanticPrivacy", semantic.RealityObliviousSemanticPrivacy,
           "one data point (b̄_0 vs b̄_i)", _ALL, f"{_KS}, Def. A.1"),
    _entry("PosteriorApprox", semantic.PosteriorApprox, "one data point (b̄_0 vs b̄_i)", _ALL,
           f"{_KS}, the posterior form of DP (§2); lecture notes Theorem 2.1"),
    # Saeidian et al.: pointwise maximal leakage
    _entry("PMLUnder", pml.PMLUnder, "given prior", _POLY, f"{_SAE}, Def. 2.3 and Theorem 1"),
    _entry("PMLAllPriors", pml.PMLAllPriors, "every full-support prior", _ALL, f"{_SAE}, Def. 4, Theorem 11 (1)"),
    _entry("PMLProductPriors", pml.PMLProductPriors, "every full-support product prior", _ALL,
           f"{_SAE}, Def. 4, Theorem 11 (2)"),
    _entry("LeakageCapacityAtMost", pml.LeakageCapacityAtMost, "every full-support prior", _ALL,
           f"{_SAE}, Def. 2.4 and Theorem 2"),
    _entry("ConditionalPMLAllPriors", pml.ConditionalPMLAllPriors, "one entry given the others", _ALL,
           f"{_SAE}, Def. 3, Theorem 9 (1)"),
    _entry("ConditionalPMLProductPriors", pml.ConditionalPMLProductPriors, "one entry given the others", _ALL,
           f"{_SAE}, Def. 3, Theorem 9 (2)"),
    _entry("EntryPMLAllPriors", pml.EntryPMLAllPriors, "one entry", _ALL, f"{_SAE}, Theorem 11 (3)"),
    _entry("EntryPMLProductPriors", pml.EntryPMLProductPriors, "one entry", _ALL, f"{_SAE}, Theorem 9 (3)"),
)
