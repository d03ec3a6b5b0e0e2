"""Group privacy and basic composition for every k, each stated as an :class:`~symbolic.notions.induction.Induction`
(proved by :func:`symbolic.solve.induction.prove_induction`).

In each, p, q, r are the probabilities of one output (or one event) under three databases, or a, a', b, b' the
two factors of a composed output's probability; E (and δ) are the parameters of the notion at one step.
``INDUCTIONS`` holds the five by name:

>>> sorted(INDUCTIONS)
['composition-pure', 'group-additive', 'group-approx', 'group-approx-textbook', 'group-pure']
"""
from __future__ import annotations

import sympy as sp

from symbolic.notions.claims import Param
from symbolic.notions.induction import K_SYMBOL as k, Induction

E, delta = sp.Symbol("E", real=True), sp.Symbol("delta", real=True)
p, q, r = (sp.Symbol(n, real=True) for n in ("p", "q", "r"))
a, a2, b, b2 = (sp.Symbol(n, real=True) for n in ("a", "a'", "b", "b'"))
_i = sp.Symbol("i", integer=True, nonnegative=True)

_E = Param("E", lower=1)
_DELTA = Param("delta", lower=0, upper=1)
_PROB = tuple(Param(n, lower=0, upper=1) for n in ("p", "q", "r"))
_PATH = ("databases at distance k + 1 are joined by a path of neighbours: change one differing record to reach a "
         "database at distance k from the first and 1 from the second; apply S(k) to the first link and S(1) to "
         "the second, output by output (event by event)")
_DR = "Dwork, Roth, The algorithmic foundations of differential privacy (2014)"

GROUP_PURE = Induction(
    "group privacy of ε-DP", "Pr[A(x) = o] ≤ F·Pr[A(x') = o] for x, x' at distance k and every output o",
    ("F",), {"F": E}, {"F": E ** k}, {"F": E * sp.Symbol("F", real=True)}, (_E, *_PROB),
    invariant=lambda n: [n["F"] >= 1],
    premises=lambda n: [p <= n["F"] * q, q <= E * r],
    conclusion=lambda n: [p <= n["F"] * r],
    glue=_PATH, base="S(1) with F = E is ε-DP itself (on outputs)", source=_DR + ", Thm. 2.2")

def _group_approx(title: str, term: str, closed, recurrence) -> Induction:
    """Group privacy of (ε, δ)-DP with the additive term named ``term``: its closed form in k and its value at
    k + 1 from F and itself (the factor is E^k in both)."""
    F, T = sp.Symbol("F", real=True), sp.Symbol(term, real=True)
    return Induction(
        f"group privacy of (ε, δ)-DP, {title}",
        f"Pr[A(x) ∈ S] ≤ F·Pr[A(x') ∈ S] + {term} for x, x' at distance k and every event S",
        ("F", term), {"F": E, term: delta}, {"F": E ** k, term: closed}, {"F": E * F, term: recurrence(F, T)},
        (_E, _DELTA, *_PROB),
        invariant=lambda n: [n["F"] >= 1, n[term] >= 0],
        premises=lambda n: [p <= n["F"] * q + n[term], q <= E * r + delta],
        conclusion=lambda n: [p <= n["F"] * r + n[term]],
        glue=_PATH, base=f"S(1) with F = E, {term} = δ is (ε, δ)-DP itself (on events)",
        source=_DR + ", Thm. 2.2 (δ form)")


GROUP_APPROX = _group_approx("tight recursion", "D", delta * sp.Sum(E ** _i, (_i, 0, k - 1)),
                             lambda F, D: D + F * delta)
GROUP_APPROX_TEXTBOOK = _group_approx("the textbook form (kε, k·e^{(k−1)ε}·δ)", "G", k * E ** (k - 1) * delta,
                                      lambda F, G: E * G + F * delta)

GROUP_ADDITIVE = Induction(
    "group privacy of δ-additive secrecy", "Pr[A(x) ∈ S] ≤ Pr[A(x') ∈ S] + D for x, x' at distance k and every event S",
    ("D",), {"D": delta}, {"D": k * delta}, {"D": sp.Symbol("D", real=True) + delta}, (_DELTA, *_PROB),
    invariant=lambda n: [n["D"] >= 0],
    premises=lambda n: [p <= q + n["D"], q <= r + delta],
    conclusion=lambda n: [p <= r + n["D"]],
    glue=_PATH, base="S(1) with D = δ is δ-additive secrecy itself (on events)", source="the lecture notes' eq. (8)")

COMPOSITION_PURE = Induction(
    "adaptive composition of k ε-DP mechanisms",
    "the adaptive composition of k mechanisms, each ε-DP given the outputs before it, is F-DP (on outputs)",
    ("F",), {"F": E}, {"F": E ** k}, {"F": E * sp.Symbol("F", real=True)},
    (_E, *(Param(n, lower=0, upper=1) for n in ("a", "a'", "b", "b'"))),
    invariant=lambda n: [n["F"] >= 1],
    premises=lambda n: [a <= n["F"] * a2, b <= E * b2],
    conclusion=lambda n: [a * b <= n["F"] * a2 * b2],
    glue=("the composition of k + 1 mechanisms is that of k followed by one more: the probability of an output "
          "(c, o) is a·b, with a = Pr[first k give c] (S(k): a ≤ F·a' for neighbours) and b = Pr[the last gives o "
          "| c] (ε-DP: b ≤ E·b'); E may differ at each step, giving F = Π E_i"),
    base="S(1) with F = E: one mechanism, ε-DP", source=_DR + ", Thm. 3.14")

INDUCTIONS = {"group-pure": GROUP_PURE, "group-approx": GROUP_APPROX, "group-approx-textbook": GROUP_APPROX_TEXTBOOK,
              "group-additive": GROUP_ADDITIVE, "composition-pure": COMPOSITION_PURE}

__all__ = ["COMPOSITION_PURE", "GROUP_ADDITIVE", "GROUP_APPROX", "GROUP_APPROX_TEXTBOOK", "GROUP_PURE", "INDUCTIONS"]
