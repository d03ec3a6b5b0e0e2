"""Saeidian, Cervia, Oechtering, Skoglund, "Rethinking Disclosure Prevention with Pointwise Maximal
Leakage" (seeds/saeidian-et-al-rethinking-disclosure-pml.txt).

§2: PML (Def. 2.3, Theorem 1), conditional PML (Def. 3), ε-PML for a set of priors (Def. 2.3+),
leakage capacity (Def. 2.4, Theorem 2), pre-processing (L49); §3: disclosure (Def. 3.2), Theorems 3,
4, 6, Propositions 5, 7, Corollary 8, Examples 3.1 and 3.3; §4: differential privacy (Def. 4),
Theorems 9-11, free-lunch privacy (Def. 5), Remark 13, Proposition 12 (§4.1); Appendices A-B.
The formulas were lost in extraction; the reconstructions of notes/pml-formulas.md and of the
S-spec (/work/notes/S-spec.md) are stated here as claims and checked, not assumed.

Corrections of the catalogue's wording (CLAIMS.md), both kept as refuted parts with findings:
S-PROP7's threshold is log 1/(1-p_min), not log 1/p_min (L102-105, A.5); S-COR8's is
H_∞(X) = log 1/p_max, not log 1/p_min (L110-112: "X is an attribute of X", Theorem 4).
"""
from __future__ import annotations

import sympy as sp

from symbolic.notions.claims import Check, Claim, Definition, E, Equivalent, Fact, Implies, NotImplies, Param, Proof
from symbolic.notions.families.disclosure import (Discloses, DisclosesToAllAdversaries, EpsAtLeastLogInvOneMinusPmin,
                                         EpsAtLeastLogInvPmin, EpsBelowLogInvPmin, MinEntropyAbove,
                                         MinEntropyAtLeast, NoDisclosure, NoDisclosureToAnyAdversary,
                                         NondegenerateAttribute, NoSinglingOut, PosteriorBound, PreProcessing,
                                         SecretEntropyAbove)
from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
from symbolic.derive.level import derive_level
from symbolic.model.mechanism import Mechanism, randomized_response
from symbolic.core.exact import exact
from symbolic.api import evaluate
from symbolic.notions.leakage import leakage_capacity, max_pml_ratio
from symbolic.notions.families.pml import (CapacityClosedForm, ConditionalPMLAllPriors, ConditionalPMLBelowLevel,
                                  ConditionalPMLGivenFirst, ConditionalPMLProductPriors, EAboveOne,
                                  EntryLeakageGroupBound, EntryPMLProductPriors, EntryPreProcessing,
                                  LeakageCapacityAtMost, MinPositiveEntry, NoZeroPattern, ZeroPattern, PMLAllPriors,
                                  PMLBelowLevel, PMLProductPriors, PMLUnder, TightDP, TightFLP)
from symbolic.notions.prior_terms import FullSupport
from symbolic.core.prob import Dist
from symbolic.core.terms import AdaptiveVar, Compose, KernelVar, MechVar, PostProcess
from symbolic.core.verdicts import Derived, Sizes
from theorems import saeidian_pml_closed_forms as cf, saeidian_pml_derivations as sd

SRC = "S"
Es = E.symbol
A, U = MechVar("A"), MechVar("U")
A1 = MechVar("A1")
A2 = AdaptiveVar("A2", after=A1)
G = KernelVar("G", source=A)
E1, E2 = Param("E1", lower=1), Param("E2", lower=1)

DEFINITIONS = [
    Definition("S-PML", SRC, "ℓ(X→y) = log max_{x: P(x)>0} P(y|x)/P_Y(y) (Theorem 1); engine: PMLUnder "
               "(ℓ ≤ ε) and symbolic.notions.leakage.pml (exact value)", (PMLUnder,)),
    Definition("S-CPML", SRC, "conditional PML ℓ(X_i→y | X_-i=x_-i) (Def. 3); engine: ConditionalPMLAllPriors / "
               "ConditionalPMLProductPriors (ε-levels) and symbolic.notions.leakage.conditional_pml (value)",
               (ConditionalPMLAllPriors, ConditionalPMLProductPriors)),
    Definition("S-EPML", SRC, "ε-PML for a set of priors 𝒫: 𝒫 = {P} (PMLUnder), all full-support priors "
               "(PMLAllPriors), all full-support products (PMLProductPriors)", (PMLUnder, PMLAllPriors, PMLProductPriors)),
    Definition("S-FLP", SRC, "ε-free-lunch privacy (Def. 5): P(y|x) ≤ e^ε·P(y|x') for all pairs x, x'",
               (FreeLunchPrivacy,)),
]

# --- S-TH11: the correlated-prior formulation needs a limit ---------------------------------------

_TH11 = Sizes(2, 2, 2)


# (1), (2): engine (CEGIS over priors; the FLP ⇒ (2) direction through (1) ⇒ (2), which z3 proves in
# seconds where the direct product query times out). (3): FLP ⇒ (3) by FLP ⇒ (1) and the pre-processing
# inequality ℓ_P(X_i→y) ≤ ℓ_P(X→y) for every P (engine, S-PRE's notion with U = X_i); (3) ⇒ FLP by the
# limit along the two-point priors of the proof of Theorem 11 (sympy, symbolic kernel entries), because
# the supremum over correlated priors is not attained and the engine's CEGIS cannot converge on it (see
# the engine-gap note in the report).
TH11_PROOF = Proof(
    (*(Check(i, (E,), _TH11, lo=Sizes(1, 2, 2)) for i in
       (Implies(FreeLunchPrivacy(Es), PMLAllPriors(Es)), Implies(PMLAllPriors(Es), FreeLunchPrivacy(Es)),
        Implies(PMLAllPriors(Es), PMLProductPriors(Es)), Implies(PMLProductPriors(Es), FreeLunchPrivacy(Es)))),
     Check(Implies((), EntryPreProcessing()), (), _TH11, lo=Sizes(1, 2, 2)),
     Fact("EntryPMLAllPriors(E) ⇒ FreeLunchPrivacy(E): sup over two-point priors tδ_a+(1-t)δ_b "
          "(η-mixed with uniform) of exp ℓ(X_i→y) tends to A(a)(y)/A(b)(y) (sympy limits, symbolic A)", lambda: sd.entry_pml_limit_checks(n=2, k=2, m=2), proves=_TH11, how="sympy limit η→0, t→0")),
    lemmas=0)


# --- S-TH10: the construction and its leakage derived in sympy, the matching upper bound by the engine

TH10_PROOF = Proof((Check(Implies(PureDP(Es), EntryLeakageGroupBound(Es)), (E,), Sizes(2, 2, 2), lo=Sizes(1, 2, 2)),),
                   verdict="derived", derive=sd.th10_derivation)


# --- closed forms -------------------------------------------------------------------------------


def _prop12():
    d = cf.laplace_count_pml()
    x = {**d.extras, **sd.prop12_extras(d.formula)}
    eps, lam = cf.EPS, cf.LAM
    checks = [("λ → 0 gives the DP level ε", sp.simplify(x["lambda_to_0"] - eps) == 0),
              ("at λ = 1/2: log(2e^ε/(e^ε+1)), whose series starts ε/2 (almost halved)",
               sp.simplify(x["series_at_half"].coeff(eps, 1) - sp.Rational(1, 2)) == 0)]
    for n, b, p in ((3, 1.0, 0.3), (5, 0.5, 0.5), (4, 0.8, 0.2)):
        ys = [k / 50 for k in range(-150, 201)]
        num, _ = cf.numeric_laplace_count_pml(n, b, p, ys)
        form = float(d.formula.subs({eps: 1 / (n * b), lam: min(p, 1 - p)}))
        checks.append((f"numeric sup_y ℓ at n={n}, b={b}, p={p} ({num:.6f}) ≤ formula at λ=min(p,1-p) ({form:.6f}) "
                       f"and within 1e-6", num <= form + 1e-9 and abs(num - form) < 1e-6))
    for n, b, p in ((3, 1.0, 0.3), (4, 0.5, 0.4)):
        tail = cf.numeric_laplace_tail_ratio(n, b, p)
        form = float(d.extras["tail_ratio_x1"].subs({eps: 1 / (n * b), cf.P: p}))
        checks.append((f"scipy tail ratio at n={n}, b={b}, p={p} equals the derived tail ratio", abs(tail - form) < 1e-7))
    gap = x["large_n"] - d.formula
    for e_, l_ in ((sp.Rational(1, 2), sp.Rational(1, 4)), (2, sp.Rational(1, 10)), (sp.Rational(1, 10), sp.Rational(1, 2))):
        checks.append((f"simplified large-n bound (1-λ)ε ≥ the exact supremum at ε={e_}, λ={l_}",
                       float(gap.subs({eps: e_, lam: l_})) >= 0))
    general = cf.general_route_pml(2, sp.Rational(1, 3))
    checks.append(("the engine's general route for densities (pml of the count's law given one record, a mixture "
                   f"of Laplace densities) at n = 2, p = 1/3 gives {general['formula']}: the derived tail ratio's log "
                   "there", general["difference"] == 0))
    tg = cf.truncated_geometric_pml(sizes=cf.GEOMETRIC_SIZES[:1])
    checks.append(("truncated geometric count gives the same supremum (sympy)", sp.simplify(tg.formula - d.formula) == 0))
    extras = {k: x[k] for k in ("lambda_to_0", "at_half", "series_at_half", "large_n", "large_n_in_b")}
    return Derived(d.formula, d.assumptions, tuple(checks), extras)


def _geometric():
    d = cf.truncated_geometric_pml()
    checks = [(t, sp.simplify(e) == 0) for t, e in d.steps if t.startswith("exact enumeration")]
    for n, a, p in ((2, sp.Rational(1, 3), sp.Rational(1, 4)), (3, sp.Rational(1, 2), sp.Rational(2, 5))):
        exact = cf.truncated_geometric_pml_exact(n, a, p)
        form = sp.log(d.extras["top_ratio_x1"].subs({cf.EPS: sp.log(1 / a), cf.P: p}))
        checks.append((f"exact enumeration at n={n}, α={a}, p={p} equals the formula's per-p value",
                       sp.simplify(sp.exp(exact) - sp.exp(form)) == 0))
    return Derived(d.formula, d.assumptions, tuple(checks), {"lambda_to_0": d.extras["lambda_to_0"],
                                                           "at_half": sd.prop12_extras(d.formula)["at_half"]})


def _rr():
    d = cf.rr_pml()
    checks = [("sup over p of ℓ is ε (p → 0, not attained)", sp.simplify(d.extras["sup_over_p"] - cf.EPS) == 0)]
    for e_ in (2, 3):
        for p in (sp.Rational(1, 3), sp.Rational(3, 4)):
            exact = max_pml_ratio(cf.rr_kernel(sp.Integer(e_)), Dist({0: 1 - p, 1: p}))
            form = sp.exp(d.formula.subs({cf.EPS: sp.log(e_), cf.P: p}))
            checks.append((f"E={e_}, p={p}: exact max_y exp ℓ = {sp.nsimplify(exact)} equals the formula",
                           sp.simplify(exact - form) == 0))
    checks.append(("the capacity of RR is ε (Theorem 2)", sp.simplify(leakage_capacity(cf.rr_kernel(sp.Integer(3))) - sp.log(3)) == 0))
    return Derived(d.formula, d.assumptions, tuple(checks), {k: d.extras[k] for k in ("y1", "y0", "sup_over_p")})


def _ex33():
    d = sd.chernoff_threshold_leakage()
    checks = []
    for n, k, p in ((20, 10, sp.Rational(1, 5)), (30, 12, sp.Rational(1, 10)), (40, 10, sp.Rational(1, 2)),
                    (50, 30, sp.Rational(3, 10))):
        r = sd.threshold_check(n, k, p)
        checks.append((f"n={n}, k={k}, p={p}: exact ℓ of the likely answer ≤ the Chernoff bound (exact rationals)",
                       r["holds"]))
    kl = d.extras["kl"]
    checks.append(("the exponent at t* equals -KL(k/n‖p)", any(t.startswith("exponent at t*") and sp.simplify(e) == 0
                                                               for t, e in d.steps)))
    checks.append(("KL(a‖p) > 0 for a ≠ p (a=1/2, p=1/5)", float(kl.subs({sd.A: sp.Rational(1, 2), cf.P: sp.Rational(1, 5)})) > 0))
    b = [sd.numeric_chernoff_bound(n, 0.5, 0.2) for n in (10, 50, 100, 200)]
    checks.append(("the bound decays with n (Figure 1's shape)", all(x > y for x, y in zip(b, b[1:]))))
    return Derived(d.formula, d.assumptions, tuple(checks), {"kl": kl, "t_star": d.extras["t_star"]})


def derive(what: str, *more, plot=None, **params) -> Derived:
    """The CLI's closed forms: ``derive("pml", "laplace-count", plot=FILE)`` and
    ``derive("epsilon", "randomized-response")`` (also ``derive("pml laplace-count")``)."""
    from symbolic.core.errors import UnknownName
    key = " ".join((what,) + more).strip().lower()
    if key in ("pml laplace-count", "laplace-count"):
        d = cf.laplace_count_pml(**params)
        values = {s: exact(params[k], what=k) for k, s in (("eps", cf.EPS), ("lam", cf.LAM)) if params.get(k) is not None}
        x = {**d.extras, **sd.prop12_extras(cf.laplace_count_pml().formula if values else d.formula, values)}
        # a series in ε stays in ε (at a given ε its truncation would read as the value)
        series = sd.prop12_extras(cf.laplace_count_pml().formula)["series_at_half"] if values else x["series_at_half"]
        extras = {"λ → 0": x["lambda_to_0"], "λ = 1/2": x["at_half"],
                  "series in ε at λ = 1/2": series, "large n": x["large_n"]}
        if plot is not None:
            from theorems.saeidian_pml_plots import plot_prop12_bound
            extras["plot"] = str(plot_prop12_bound(plot))
        # the limit λ → 0 (taken on the formula, then at the given ε) against ε at the given ε
        eps = values.get(cf.EPS, cf.EPS)
        return Derived(d.formula, d.assumptions, (((f"λ → 0 limit equals ε" + (f" = {eps}" if eps != cf.EPS else "")),
                                                   sp.simplify(d.extras["lambda_to_0"] - eps) == 0),), extras)
    if key in ("epsilon randomized-response", "randomized-response", "epsilon rr"):
        lvl = derive_level("pure-dp", randomized_response(sp.Symbol("E", positive=True)), assumptions=("1<=E",))
        tight = sp.expand_log(sp.log(cf.in_eps(lvl.level_ratio)), force=True)
        checks = [(f"E={e}: the table is exactly log(E)-DP and no smaller ε works",
                   evaluate(PureDP, _rr_table(e), E=e) and not evaluate(PureDP, _rr_table(e), E=e - sp.Rational(1, 100)))
                  for e in (2, 3, sp.Rational(3, 2))]
        checks.append((f"derive_level (pure-dp): the largest ratio decided exactly over {', '.join(lvl.assumptions)}, "
                       f"{len(lvl.checks)} sample checks", lvl.proved and lvl.ok))
        return Derived(tight, "binary randomized response: keep the bit with probability e^ε/(1+e^ε)", tuple(checks),
                       {"E = e^ε (largest ratio)": lvl.level_ratio,
                        "attained at": "; ".join(", ".join(f"{k} {v}" for k, v in label) for label in lvl.pieces[0][2])})
    if key in ("pml threshold", "chernoff threshold", "threshold"):
        d = sd.chernoff_threshold_leakage(**params)
        extras = {k: v for k, v in d.extras.items()}
        if plot is not None:
            from theorems.saeidian_pml_plots import plot_ex33_bound
            extras["plot"] = str(plot_ex33_bound(plot))
        checks = []
        for n_, k_, p_ in ((20, 10, sp.Rational(1, 5)), (50, 25, sp.Rational(3, 10)), (100, 60, sp.Rational(1, 2))):
            r = sd.threshold_check(n_, k_, p_)
            checks.append((f"n={n_}, k={k_}, p={p_}: exact leakage ≤ Chernoff bound (exact rationals)", bool(r["holds"])))
        return Derived(d.formula, d.assumptions, tuple(checks), extras)
    raise UnknownName(f"nothing to derive for {key!r}; try 'pml laplace-count', 'pml threshold' "
                      f"or 'epsilon randomized-response'")


def _rr_table(e):
    e = sp.Rational(e)
    return Mechanism.from_table({(0,): [e / (1 + e), 1 / (1 + e)], (1,): [1 / (1 + e), e / (1 + e)]},
                                n=1, domain=(0, 1), outputs=(0, 1), name="randomized response").table()


# --- claims ---------------------------------------------------------------------------------------

_X3 = Sizes(1, 3, 2)          # one secret on three values, two outputs / attribute values
_LO1 = Sizes(1, 2, 2)

CLAIMS = [
    Claim("S-CAP", "def, ⇔", SRC, "leakage capacity sup_{P full support} sup_y ℓ(X→y) ≤ log E ⇔ Theorem 2's closed form "
          "max_y max_{x,x'} P(y|x)/P(y|x') ≤ E; capacity finite ⇒ no zero pattern; no zero pattern ⇒ finite", "equal",
          Equivalent(LeakageCapacityAtMost(Es), CapacityClosedForm(Es))
          + (Implies(LeakageCapacityAtMost(Es), NoZeroPattern()),
             Implies((NoZeroPattern(), MinPositiveEntry(Es)), LeakageCapacityAtMost(Es))),
          sizes=Sizes(1, 3, 3), min_sizes=_LO1),
    Claim("S-PRE", "prop", SRC, "pre-processing ℓ(U→y) ≤ ℓ(X→y) for U - X - Y; post-processing of ε-PML; composition "
          "ℓ(X→(y1,y2)) ≤ ℓ(X→y1) + ℓ(X→y2 | y1) (Lemma 1 of Saeidian et al. 2023b)", "holds",
          (Implies((), PreProcessing().of(A, U)),
           Implies(PMLUnder(Es).of(A), PMLUnder(Es).of(PostProcess(A, G)), sizes=_LO1),
           Implies((PMLUnder(E1.symbol).of(A1), ConditionalPMLGivenFirst(E2.symbol).of(A1, A2)),
                   PMLUnder(E1.symbol * E2.symbol).of(Compose(A1, A2)), sizes=_LO1),
           NotImplies((PMLUnder(E1.symbol).of(A1), PMLUnder(E2.symbol).of(MechVar("B"))),
                      PMLUnder(E1.symbol * E2.symbol).of(Compose(A1, MechVar("B"))), sizes=_X3)),
          params=(E, E1, E2), sizes=Sizes(1, 3, 3), min_sizes=_LO1),
    Claim("S-TH3", "⇒", SRC, "Theorem 3: U disclosed to one adversary (full support) ⇒ disclosed to every adversary with "
          "full support", "holds",
          (Implies((FullSupport(), Discloses().of(A, U)), DisclosesToAllAdversaries().of(A, U)),),
          params=(), sizes=Sizes(1, 3, 3), min_sizes=_LO1),
    Claim("S-TH4", "⇒", SRC, "Theorem 4: ε-PML under the true P (full support) and H_∞(U) > ε ⇒ U disclosed to no "
          "adversary (to the true P; every other adversary by S-TH3, as in the proof A.2); the boundary H_∞(U) = ε is "
          "not enough", "holds",
          (Implies((FullSupport(), PMLUnder(Es).of(A), MinEntropyAbove(Es).of(U)), NoDisclosure().of(A, U)),
           NotImplies((FullSupport(), PMLUnder(Es).of(A), MinEntropyAtLeast(Es).of(U)),
                      NoDisclosureToAnyAdversary().of(A, U))),
          sizes=_X3, min_sizes=_LO1),
    Claim("S-PROP7", "⇒", SRC, "Proposition 7 [R]: ε-PML with infinite capacity ⇒ ε ≥ log 1/(1-p_min); conversely an "
          "ε-PML mechanism disclosing a non-constant attribute exists at ε = log 1/(1-p_min) < log 1/p_min; the "
          "catalogue's reading 'disclosure needs ε ≥ log 1/p_min'", "holds",
          (Implies((FullSupport(), PMLUnder(Es), ZeroPattern()), EpsAtLeastLogInvOneMinusPmin(Es)),
           Implies((FullSupport(), PMLUnder(Es).of(A), Discloses().of(A, U), NondegenerateAttribute().of(U)),
                   EpsAtLeastLogInvPmin(Es))),
          sizes=_X3, min_sizes=_LO1,
          finding=("the catalogue's wording of S-PROP7 ('the cheapest disclosure needs ε ≥ log 1/p_min') is refuted: the "
                   "source (L102-105, proof A.5) has the threshold log 1/(1-p_min) (the query 'Is X ≠ x_min?'); log "
                   "1/p_min is the cost of singling out x_min, the most expensive disclosure. The source's statement "
                   "(first part) is proved; the counterexample above discloses a non-constant attribute below log 1/p_min.")),
    Claim("S-COR8", "⇒", SRC, "Corollary 8 [R]: ε-PML with ε < H_∞(X) = log 1/p_max ⇒ no singling out; the catalogue's "
          "reading 'ε < log 1/p_min ⇒ no singling out'", "holds",
          (Implies((FullSupport(), PMLUnder(Es), SecretEntropyAbove(Es)), NoSinglingOut()),
           Implies((FullSupport(), PMLUnder(Es), EpsBelowLogInvPmin(Es)), NoSinglingOut())),
          sizes=Sizes(1, 3, 3), min_sizes=_LO1,
          finding=("the catalogue's wording of S-COR8 (ε < log 1/p_min) is refuted: it protects only x_min. The source "
                   "derives Corollary 8 from Theorem 4 with U = X (L110), so the threshold is H_∞(X) = log 1/p_max "
                   "(L112), and that statement is proved.")),
    Claim("S-FLP-DP", "⇒, ⇏", SRC, "ε-FLP ⇒ ε-DP; ε-DP ⇏ ε-FLP", "as stated",
          (Implies(FreeLunchPrivacy(Es), PureDP(Es)), NotImplies(PureDP(Es), FreeLunchPrivacy(Es))),
          sizes=Sizes(2, 2, 3), min_sizes=_LO1),
    Claim("S-TH9", "⇔", SRC, "Theorem 9: ε-DP ⇔ (1) sup over full-support P of max_i ℓ(X_i→y | x_-i) ≤ ε ⇔ (2) the same "
          "over full-support products ⇔ (3) sup over full-support products of max_i ℓ(X_i→y) ≤ ε", "equivalent",
          Equivalent(PureDP(Es), ConditionalPMLAllPriors(Es)) + Equivalent(PureDP(Es), ConditionalPMLProductPriors(Es))
          + Equivalent(PureDP(Es), EntryPMLProductPriors(Es)),
          sizes=Sizes(2, 2, 3), min_sizes=_LO1),
    Claim("S-TH11", "⇔", SRC, "Theorem 11: ε-FLP ⇔ (1) sup over full-support P of ℓ(X→y) ≤ ε ⇔ (2) the same over "
          "products ⇔ (3) sup over full-support P of max_i ℓ(X_i→y) ≤ ε", "equivalent", proof=TH11_PROOF, expect="proved"),
    Claim("S-R13", "example", SRC, "Remark 13: with ε > 0 and the level exactly ε, no full-support P attains the "
          "suprema of Theorems 9 (1)-(2) and 11 (1)-(2) (products are full-support priors; 11 (1) on a 3-valued secret, where (2,2,2) times out); (3) of both "
          "is not checked here", "as stated",
          (Implies((EAboveOne(Es), PureDP(Es), TightDP(Es), FullSupport()), ConditionalPMLBelowLevel(Es)),
           Implies((EAboveOne(Es), FreeLunchPrivacy(Es), TightFLP(Es), FullSupport()), PMLBelowLevel(Es),
                   sizes=Sizes(1, 3, 2))),
          sizes=Sizes(2, 2, 3), min_sizes=_LO1),
    Claim("S-TH10", "example", SRC, "Theorem 10: a correlated population and an ε-DP mechanism whose leakage about X_i "
          "approaches log 1/P(x_i)", "as stated", proof=TH10_PROOF),
    Claim("S-PROP12", "derive", SRC, "Proposition 12: Laplace counting query, p ∈ [λ, 1-λ]: sup_y ℓ(X_i→y) = "
          "log(e^ε/(λe^ε + 1 - λ)); → ε as λ → 0; ≈ ε/2 at λ = 1/2; large-n bound (1-λ)ε", "as stated", derive=_prop12),
    Claim("S-PROP12.geometric", "derive", SRC, "the same question for the truncated geometric count (exact, finite)",
          "as stated", derive=_geometric),
    Claim("S-PROP12.rr", "derive", SRC, "randomized response under a Bernoulli(p) prior: ℓ per output, sup over p is ε",
          "as stated", derive=_rr),
    Claim("S-EX33", "derive", SRC, "Example 3.3: deterministic threshold query leaks at most -log(1 - e^{-n KL(k/n‖p)})",
          "as stated", derive=_ex33),
]


# --- S-PROP5, S-TH6, S-EX31 -------------------------------------------------------------------


# Literal statement: a disclosed U forces a disclosed U' with H_∞(U') < H_∞(U); since H_∞(U') ≥ 0 that
# needs H_∞(U) > 0, which the engine refutes (constant U). For H_∞(U) > 0 the witness of A.3 is checked
# symbolically (sympy).
PROP5_PROOF = Proof(
    (Check(Implies((FullSupport(), Discloses().of(A, U)), NondegenerateAttribute().of(U)), (), _X3, lo=_LO1),
     Fact("A.3 witness U' = 1{U=u1} ∨ (U≠u1 and a θ-coin): P(U'=1|y) = 1 when P(u1|y) = 1, and "
          "P_U'(1) > p_max iff θ > (p_max-p1)/(1-p1), an interval inside (0,1) iff p_max < 1 (sympy)",
          sd.prop5_witness_checks, proves=_X3, how="sympy identities")),
    lemmas=0)


def _ex31_run(settings=None):
    """Example 3.1, exact binomial probabilities (Fractions) and min-entropies in nats."""
    import math
    from fractions import Fraction as F

    def h_mean(n, p, m):
        cells = {}
        q = 1 - p
        for k in range(n + 1):
            pr = math.comb(n, k) * p ** k * q ** (n - k)
            c = min(int(F(k, n) * m), m - 1)
            cells[c] = cells.get(c, 0) + pr
        return -math.log(max(cells.values()))
    checks, extras = [], {}
    ns = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    for label, p, m in (("interior: Bern(3/10), cells of width 1/4", F(3, 10), 4),
                        ("boundary: Bern(1/2), cells of width 1/10", F(1, 2), 10)):
        hs = [h_mean(n, p, m) for n in ns]
        h1 = -math.log(max(p, 1 - p))
        extras[label] = sp.Tuple(*[sp.Float(h, 4) for h in hs])
        extras[label + ": H_∞(X_1)"] = sp.Float(h1, 4)
        if label.startswith("interior"):
            checks.append(("interior μ: H_∞(q(X̄_n)) decreases for n ≥ 100 and is below 10^-3 at n = 1000",
                           all(a > b for a, b in zip(hs[6:], hs[7:])) and hs[-1] < 1e-3))
            checks.append(("interior μ: H_∞(X_1) = log(10/7) does not depend on n, and exceeds H_∞(q(X̄_n)) for n ≥ 50",
                           all(h < h1 for h in hs[5:])))
        else:
            checks.append(("boundary μ = 1/2: H_∞(q(X̄_n)) stays near log 2 (≥ 0.6 for n ≥ 100), not → 0",
                           all(h > 0.6 for h in hs[6:])))
    d = Derived(sp.Symbol("H_inf(q(mean_n))"), "X_i i.i.d. Bernoulli(p); q quantizes to cells [k/m, (k+1)/m); "
                "exact binomial probabilities", tuple(checks), extras)
    return d, []


def _ex31():
    return _ex31_run()[0]


CLAIMS += [
    Claim("S-PROP5", "⇒", SRC, "Proposition 5: a mechanism that discloses U also discloses some U' with H_∞(U') < H_∞(U)",
          "holds", proof=PROP5_PROOF, expect="proved",
          finding=("literally false for a constant attribute U (H_∞(U) = 0): every mechanism discloses it, and no U' has "
                   "H_∞(U') < 0; the counterexample above is such a U. With H_∞(U) > 0 the A.3 witness works (checked in "
                   "sympy); the proof's θ-interval ((p_max-p1)/(1-p1), 1) is empty exactly when p_max = 1.")),
    Claim("S-TH6", "⇒", SRC, "Theorem 6: finite leakage capacity ⇒ no attribute disclosed to any adversary; [R] bound "
          "P(f(X)=u|y) ≤ q_u/(q_u + (1-q_u)e^{-C}), i.e. H_∞(f(X)|y) ≥ log(1 + e^{-C}(1-q_max)/q_max)", "holds",
          (Implies((FullSupport(), NoZeroPattern().of(A), NondegenerateAttribute().of(U)), NoDisclosure().of(A, U)),
           Implies((FullSupport(), CapacityClosedForm(Es).of(A)), PosteriorBound(Es).of(A, U), sizes=_LO1),
           Implies((FullSupport(), NoZeroPattern().of(A)), NoDisclosure().of(A, U))),
          sizes=Sizes(1, 3, 3), min_sizes=_LO1,
          finding=("the first statement is literally false for a constant attribute (disclosed by every mechanism, "
                   "finite capacity or not); it holds for attributes with H_∞(U) > 0, which the proof A.4 uses (L271). "
                   "The reconstructed posterior bound is proved (randomised attributes included).")),
    Claim("S-EX31", "example", SRC, "Example 3.1: i.i.d. entries: the quantized sample mean's min-entropy tends to 0, "
          "the first row's does not depend on n", "as stated", derive=_ex31,
          finding=("true when μ is interior to a quantizer cell; when μ is a cell boundary (Bern(1/2), cells of width "
                   "1/10) H_∞(q(X̄_n)) tends to log 2, not 0 (the CLT splits the mass over two cells); the example needs "
                   "μ ∉ {t_k}.")),
]
