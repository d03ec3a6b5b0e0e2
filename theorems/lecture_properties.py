"""Lecture notes, "Chapter 5 - Properties of DP" (draft 2021), sections 1 and 2.

§1: adaptive composition (Lemmas 1.1, 1.2), Laplace exercises 1.4 and 1.5, post-processing
(Lemma 1.6), group privacy (Lemma 1.7 and the remark after it); §2: ≈_ε (eq. 6), Theorem 2.1
(posteriors under a default value, eq. 7), δ-additive secrecy (eq. 8) and name-and-shame (eq. 9).
Each object states one catalogue entry with engine objects. Claims decided through steps
(``proof=``) say how in the comment above their Proof.

Text corrections (extraction/typos, not findings): L:38 writes A2(x, a1) for A2(a1, x);
L:66's last term should be P(B(A(x'))=b); L:76 uses E for an event (here E = e^ε);
L:158 "analogue to Theorem 3.1" means Theorem 2.1.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.api import evaluate
from symbolic.core.ops import ExactOps
from symbolic.core.tables import databases
from symbolic.core.terms import AdaptiveVar, Compose, KernelVar, MechVar, PostProcess
from symbolic.core.verdicts import Derived, Sizes
from symbolic.model.mechanism import name_and_shame, truncated_geometric
from symbolic.notions.claims import (Check, Claim, Definition, E, Equivalent, Fact, Implies, NotImplies, Param,
                                     Proof)
from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
from symbolic.notions.families.semantic import (AdditiveSecrecy, CrossRatio, DeterministicMap, EventApprox, PointwiseApprox,
                                       PosteriorApprox, additive_secrecy_at_distance, minus_i, posterior_parts,
                                       pure_dp_at_distance, statistical_difference)
from symbolic.notions.listed.inductions import COMPOSITION_PURE, GROUP_ADDITIVE, GROUP_PURE
from theorems.lecture_derivations import histogram_laplace_scales, laplace_k_releases_scale

SRC = "L"
Es = E.symbol
E1, E2, E3 = Param("E1", lower=1), Param("E2", lower=1), Param("E3", lower=1)
D1, D2 = Param("delta1", lower=0, upper=1), Param("delta2", lower=0, upper=1)
DELTA = Param("delta", lower=0, upper=1)
A, A1 = MechVar("A"), MechVar("A1")
A2 = AdaptiveVar("A2", after=A1)
A3 = AdaptiveVar("A3", after=Compose(A1, A2))
B = KernelVar("B", source=A)

DEFINITIONS = [
    Definition("L-EQ6", SRC, "p ≈_ε q: p(S) ≤ e^ε q(S) and q(S) ≤ e^ε p(S) for all events (eq. 6); "
               "point-wise form", (EventApprox, PointwiseApprox)),
    Definition("L-ADD", SRC, "δ-additive secrecy: Pr[A(x)∈S] ≤ Pr[A(x')∈S] + δ for neighbours (eq. 8)",
               (AdditiveSecrecy,)),
]


# --- helpers ------------------------------------------------------------------------------------

def _deterministic_parts():
    """Every deterministic B: {0,1,2} → {0,1} (8 maps) as its own fixed-kernel implication."""
    out = []
    for f in itertools.product(range(2), repeat=3):
        out.append(Implies(PureDP(Es), PureDP(Es).of(PostProcess(A, DeterministicMap(f))), sizes=Sizes(2, 2, 3)))
    return tuple(out)


# --- L-1.1, L-1.2 composition: the engine at k = 2, 3; every k and every size by induction -------

_TWO_FOLD = Implies((PureDP(E1.symbol).of(A1), PureDP(E2.symbol).of(A2)), PureDP(E1.symbol * E2.symbol).of(Compose(A1, A2)))
_THREE_FOLD = Implies((PureDP(E1.symbol).of(A1), PureDP(E2.symbol).of(A2), PureDP(E3.symbol).of(A3)),
                      PureDP(E1.symbol * E2.symbol * E3.symbol).of(Compose(Compose(A1, A2), A3)), sizes=Sizes(2, 2, 2))
_COMPOSED_EVERY_SIZE = ("the adaptive composition of ε_i-DP mechanisms is (Σ ε_i)-DP for any number of them, at every "
                        "n, |𝒟| and output spaces")


# --- L-1.7 group privacy: engine bound + exact tightness -----------------------------------------

def _group_tightness():
    """The truncated geometric mechanism (an ε-DP A) attains ratio E^k at output 0 for x, x' at distance
    k, computed exactly by sympy with E symbolic; it is ε-DP (exact evaluation at three values of E)."""
    Ex = sp.Symbol("E", positive=True)
    tight = []
    for n in (2, 3):
        tg = truncated_geometric(Ex, n=n)
        for k in range(1, n + 1):
            x, y = (0,) * n, (1,) * k + (0,) * (n - k)
            r = sp.simplify(tg.prob(x, 0) / tg.prob(y, 0))
            tight.append((f"n={n}, k={k}: Pr[TG(0^n)=0]/Pr[TG(x')=0] = {r}", sp.simplify(r - Ex ** k) == 0))
        for s in (sp.Rational(3, 2), 2, 5):
            tight.append((f"truncated geometric n={n}, E={s} is ε-DP (exact)",
                          evaluate(PureDP, truncated_geometric(s, n=n), E=s)))
    return tuple(tight)


# Upper bound E^k for every ε-DP A at distance k (engine, E symbolic: n=2 k=1,2; n=3 k=2,3), each part on
# its own; tightness (certificate entry "tightness"): the truncated geometric mechanism attains it.
GROUP_PROOF = Proof(
    (*(Check(Implies(PureDP(Es), pure_dp_at_distance(k)(Es ** k)), (E,), Sizes(n, 2, 2))
       for n, k in ((2, 1), (2, 2), (3, 2), (3, 3))),
     Fact("tightness", _group_tightness, listed=False), GROUP_PURE),
    "E^k at distance k by z3 (n=2: k=1,2; n=3: k=2,3); tightness: the truncated geometric mechanism (sympy); "
    "every k by induction", lemmas=0,
    every_size="the bound Pr[A(x)=o] ≤ E^k·Pr[A(x')=o] at every distance k, for every n, |𝒟| and |𝒪| (its "
               "tightness is shown at the n and k of the certificate)")


# --- L-2.1: engine proves the cross-ratio lemma; sympy checks the summation identity -----------

def _posterior_identity(n=2, k=2):
    """w0[x]·Zi - K·wi[x]·Z0 = Σ_y b(x)b(y)(A(x)A(y_{-i}) - K·A(y)A(x_{-i})) (and the mirror), for
    symbolic tables and beliefs: the belief cancels termwise."""
    from symbolic.core.tables import MechTable, PopTable
    dom = tuple(range(k))
    dbs = databases(n, dom)
    al = {d: sp.Symbol("a_" + "".join(map(str, d))) for d in dbs}
    be = {d: sp.Symbol("b_" + "".join(map(str, d))) for d in dbs}
    K = sp.Symbol("K")
    A_ = MechTable(n, dom, (0,), {d: (al[d],) for d in dbs})
    b_ = PopTable(n, dom, be)
    ok = True
    for i in range(n):
        w0, wi, Z0, Zi = posterior_parts(ExactOps(), A_, b_, i, 0)
        for x in dbs:
            lhs = w0[x] * Zi - K * wi[x] * Z0
            rhs = sum(be[x] * be[y] * (al[x] * al[minus_i(y, i, dom)] - K * al[y] * al[minus_i(x, i, dom)]) for y in dbs)
            lhs2 = wi[x] * Z0 - K * w0[x] * Zi
            rhs2 = sum(be[x] * be[y] * (al[y] * al[minus_i(x, i, dom)] - K * al[x] * al[minus_i(y, i, dom)]) for y in dbs)
            ok &= sp.expand(lhs - rhs) == 0 and sp.expand(lhs2 - rhs2) == 0
    return ok


def _identities():
    return tuple((f"n={n}: w0[x]·Zi - K·wi[x]·Z0 = Σ_y b(x)b(y)(A(x)A(y_{{-i}}) - K·A(y)A(x_{{-i}})) and the mirror",
                  _posterior_identity(n)) for n in (2, 3))


# L-2.1 at n=2 and n=3 (|𝒟|=|𝒪|=2), E symbolic. The direct query (∀ priors, degree 3) times out, so:
# (1) the engine proves ε-DP ⇒ CrossRatio(E²) (A(x)(a)·A(y_{-i})(a) ≤ E²·A(y)(a)·A(x_{-i})(a));
# (2) sympy checks the identity b(x)A(x)(a)·Zi - E²·b(x)A(x_{-i})(a)·Z0 = Σ_y b(x)b(y)·(that difference),
#     so every term is ≤ 0 (the y = x term is b(x)²A(x)A(x_{-i})(1-E²) ≤ 0), which is p(x|a) ≤ E²·p_{-i}(x|a),
#     and the mirror; (3) normalisers: x_{-i} is x or a neighbour, so ε-DP gives A(x)(a) = 0 ⇔
#     A(x_{-i})(a) = 0, hence Z0 = 0 ⇔ Zi = 0; (4) the engine also proves the direct statement at n=1.
THM21_PROOF = Proof(
    (Check(Implies(PureDP(Es), CrossRatio(Es ** 2)), (E,), Sizes(2, 2, 2)),
     Check(Implies(PureDP(Es), CrossRatio(Es ** 2)), (E,), Sizes(3, 2, 2)),
     Check(Implies(PureDP(Es), PosteriorApprox(Es ** 2)), (E,), Sizes(1, 2, 2)),
     Fact("the summation identity", _identities, listed=False)),
    "CrossRatio(E²) by z3 (n=2,3) + sympy identity Σ_y b(x)b(y)(…) + direct z3 at n=1", lemmas=2,
    claim_sizes=(Sizes(1, 2, 2), Sizes(2, 2, 2), Sizes(3, 2, 2)))


# Three engine proofs, each with only its own parameters free (symbolic), all up to n=2: adaptive
# composition (δ1+δ2; at n=2 the one query times out, and the search's locality step refutes each
# neighbour pair's violation with that pair's hypotheses only), post-processing by a free kernel and
# group privacy at distance 2.
ADD_PROPS_PROOF = Proof(
    (Check(Implies((AdditiveSecrecy(D1.symbol).of(A1), AdditiveSecrecy(D2.symbol).of(A2)),
                   AdditiveSecrecy(D1.symbol + D2.symbol).of(Compose(A1, A2))), (D1, D2), Sizes(2, 2, 2),
           lo=Sizes(1, 2, 2)),
     Check(Implies(AdditiveSecrecy(DELTA.symbol), AdditiveSecrecy(DELTA.symbol).of(PostProcess(A, B))),
           (DELTA,), Sizes(2, 2, 2), lo=Sizes(1, 2, 2)),
     Check(Implies(AdditiveSecrecy(DELTA.symbol), additive_secrecy_at_distance(2)(2 * DELTA.symbol)),
           (DELTA,), Sizes(2, 2, 2)),
     GROUP_ADDITIVE),
    "three engine proofs: composition, post-processing, group privacy at distance 2; group privacy at every distance "
    "k by induction (composition and post-processing stay within bounds)", lemmas=0)


# --- L-2.3 name-and-shame ------------------------------------------------------------------------

def _ns_derivation():
    """(i) SD(NS(x), NS(x')) = δ exactly for neighbours (exact evaluation, δ ∈ {1/10, 1/3, 1/2}, n = 1, 2);
    (ii) Pr[some record published] = 1 - (1-δ)^n derived by sympy from the mechanism with δ symbolic
    (n = 1..4)."""
    d = sp.Symbol("delta", positive=True)
    checks, formulas = [], {}
    for n in (1, 2, 3, 4):
        ns = name_and_shame(d, n=n)
        x = (0,) * n
        pub = sp.factor(sp.simplify(sum(ns.prob(x, o) for o in ns.outputs if any(v is not None for v in o))))
        formulas[n] = pub
        checks.append((f"n={n}: Pr[some record published] = {pub}", sp.simplify(pub - (1 - (1 - d) ** n)) == 0))
    for n in (1, 2):
        for dv in (sp.Rational(1, 10), sp.Rational(1, 3), sp.Rational(1, 2)):
            tab = name_and_shame(dv, n=n).table()
            sds = {statistical_difference(ExactOps(), tab.rows[x], tab.rows[tab_nb])
                   for x in tab.rows for tab_nb in tab.rows if sum(a != b for a, b in zip(x, tab_nb)) == 1}
            checks.append((f"n={n}, δ={dv}: SD between neighbours = {sds}", sds == {dv}))
    return Derived(sp.Eq(sp.Symbol("Pr_published"), 1 - (1 - d) ** sp.Symbol("n")),
                   "NS_δ: each record published independently with probability δ", tuple(checks),
                   {f"n={n}": f for n, f in formulas.items()})


# (i), (ii) by sympy (_ns_derivation); (ii') the engine refutes eq. (7) for NS_{1/2} (n=1): a prior and an
# output publishing the record with p(·|a) ≉_ε p_{-1}(·|a) for any E (one more check of the derivation).
NS_PROOF = Proof(
    (Check(NotImplies(AdditiveSecrecy(sp.Rational(1, 2)), PosteriorApprox(Es),
                      mechanisms=lambda s: {"A": name_and_shame(sp.Rational(1, 2), n=1)}), (E,), Sizes(1, 2, 3)),),
    verdict="derived", derive=_ns_derivation)


def _derive_l14():
    d = laplace_k_releases_scale()
    f = d.extras["factor"]
    return Derived(d.formula, d.assumptions, ((f"scale grows by the factor {f}", f == sp.Symbol("k", positive=True,
                                                                                                   integer=True)),
                                              ("std. dev. grows by the same factor",
                                               sp.simplify(d.extras["std_factor"] - f) == 0)), dict(d.extras))


def _derive_l15():
    h = histogram_laplace_scales()
    dd, eps = sp.Symbol("d", positive=True, integer=True), sp.Symbol("epsilon", positive=True)
    return Derived(h.formula, h.assumptions,
                   ((f"per-bin scale = {h.formula}", sp.simplify(h.formula - dd / eps) == 0),
                    (f"joint scale = {h.extras['joint_scale']}", sp.simplify(h.extras["joint_scale"] - 2 / eps) == 0),
                    (f"per-bin / joint = {h.extras['ratio']} (worse for d > 2)", sp.simplify(h.extras["ratio"] - dd / 2) == 0)),
                   dict(h.extras))


CLAIMS = [
    Claim("L-1.1", "prop", SRC, "Lemma 1.1: A1 ε1-DP, A2(a1,·) ε2-DP ∀a1 ⇒ x ↦ (A1(x), A2(A1(x),x)) is (ε1+ε2)-DP",
          "holds", proof=Proof((Check(_TWO_FOLD, (E1, E2), Sizes(2, 2, 3)), COMPOSITION_PURE),
                               "z3 at n = 2, |𝒪| = 3; every size by the composition step (k = 1: F = E1, E = E2)",
                               every_size=_COMPOSED_EVERY_SIZE),
          params=(E1, E2), sizes=Sizes(2, 2, 3)),
    Claim("L-1.2", "prop", SRC, "Lemma 1.2: k-fold adaptive composition is (Σ ε_i)-DP (k = 2, 3; k=3 nests Compose)",
          "holds", proof=Proof((Check(_TWO_FOLD, (E1, E2, E3), Sizes(2, 2, 3)),
                                Check(_THREE_FOLD, (E1, E2, E3), Sizes(2, 2, 2)), COMPOSITION_PURE),
                               "z3 at k = 2 (n = 2, |𝒪| = 3) and k = 3 (n = 2, |𝒪| = 2); every k by induction",
                               every_size=_COMPOSED_EVERY_SIZE),
          params=(E1, E2, E3), sizes=Sizes(2, 2, 3)),
    Claim("L-1.4", "derive", SRC, "Exercise 1.4: k Laplace releases with ε/k each: the noise scale grows by k",
          "holds", derive=_derive_l14),
    Claim("L-1.5", "derive", SRC, "Exercise 1.5: histogram, per-bin Laplace with ε/d each (scale d/ε) vs one joint "
          "release with sensitivity 2 (scale 2/ε)", "as computed", derive=_derive_l15),
    Claim("L-1.6", "prop", SRC, "Lemma 1.6: A ε-DP ⇒ B∘A ε-DP, for every deterministic B (all 8 maps {0,1,2}→{0,1}) "
          "and every randomized B (a free kernel)", "holds",
          _deterministic_parts() + (Implies(PureDP(Es), PureDP(Es).of(PostProcess(A, B))),),
          sizes=Sizes(2, 2, 3)),
    Claim("L-1.7", "prop", SRC, "Lemma 1.7: x, x' at distance k ⇒ Pr[A(x)∈S] ≤ e^{kε} Pr[A(x')∈S] (point-wise form, "
          "events follow by L-EQ6); e^{kε} attained by the truncated geometric mechanism", "holds", proof=GROUP_PROOF,
          expect="proved"),
    Claim("L-1.7b", "prop", SRC, "after Lemma 1.7: any two databases of size n give A(x) ≈_{nε} A(x')", "holds",
          (Implies(PureDP(Es), FreeLunchPrivacy(Es ** 2), sizes=Sizes(2, 2, 2)),
           Implies(PureDP(Es), FreeLunchPrivacy(Es ** 3), sizes=Sizes(3, 2, 2))), sizes=Sizes(3, 2, 2)),
    Claim("L-EQ6", "⇔", SRC, "eq. (6) on finite sets: ≈_ε over events ⇔ point-wise (two distributions = rows of an "
          "n=1, |𝒟|=2 table; |𝒪| up to 4)", "equivalent", Equivalent(EventApprox(Es), PointwiseApprox(Es)),
          sizes=Sizes(1, 2, 4), min_sizes=Sizes(1, 2, 2)),
    Claim("L-2.1", "⇒", SRC, "Theorem 2.1: ε-DP ⇒ for every prior (dependent entries allowed), output a, index i: "
          "p_{-i}(·|a) ≈_{2ε} p(·|a) (default value = first element of 𝒟)", "holds", proof=THM21_PROOF,
          expect="proved"),
    Claim("L-ADD.props", "prop", SRC, "additive secrecy: adaptive composition (δ1+δ2), post-processing (δ), "
          "group privacy (kδ)", "holds", proof=ADD_PROPS_PROOF, expect="proved"),
    Claim("L-2.3", "example", SRC, "name-and-shame NS_δ: (i) δ-additive secrecy; (ii) publishes some record with "
          "probability 1-(1-δ)^n, and for such outputs eq. (7) fails", "as stated", proof=NS_PROOF, expect="derived"),
]
