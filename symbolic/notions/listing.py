"""Listing entries (:class:`~symbolic.notions.info.NotionInfo`) of the notions of the established
families: ε-DP and its associative and causal variations (:mod:`symbolic.notions.dp`), semantic
privacy and indistinguishability (:mod:`symbolic.notions.semantic`), pointwise maximal leakage
(:mod:`symbolic.notions.pml`)."""
from __future__ import annotations

from symbolic.notions import dp
from symbolic.notions.info import NotionInfo

_DMNS = "Dwork, McSherry, Nissim, Smith (2006), Def. 1"

ENTRIES = (
    NotionInfo("pure-dp", dp.PureDP, "replace one record", "polynomial", _DMNS,
               "∀ d ~ d', ∀ o: Pr[A(d)=o] ≤ E·Pr[A(d')=o]"),
    NotionInfo("approx-dp", dp.ApproxDP, "replace one record", "polynomial",
               "Dwork, Kenthapadi, McSherry, Mironov, Naor (2006), Def. 1",
               "∀ d ~ d': Σ_o max(0, Pr[A(d)=o] − E·Pr[A(d')=o]) ≤ δ (every event S: P(S) ≤ E·P'(S) + δ)"),
    NotionInfo("free-lunch", dp.FreeLunchPrivacy, "all pairs", "polynomial",
               "Kifer, Machanavajjhala, No free lunch in data privacy, SIGMOD 2011",
               "∀ d, d', ∀ o: Pr[A(d)=o] ≤ E·Pr[A(d')=o]"),
)
