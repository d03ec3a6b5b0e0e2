"""Tschantz, Sen, Datta, "Differential Privacy as a Causal Property" (arXiv 2022; IEEE S&P 2020).

Definitions 1-10 (§3, §5, §6.1, Appendix B), Lemmas 1-2 (Appendix C), Propositions 1-5,
Table 1, Figure 2, Theorem 1 and §6.3 (randomized response, group privacy), §1.1 and §7.
Each object states one catalogue entry with engine objects; nothing here runs a solver.
"""
from __future__ import annotations

from functools import partial

import sympy as sp

from symbolic.notions.families.causal import (any_one_population, brp_holds, brp_notion, dominant, prog_status_model,
                          randomized_response_model, relative_probabilities, sequence_model)
from symbolic.model.causal import mechanism_model
from symbolic.notions.claims import Check, Claim, Definition, E, Equivalent, Implies, NotImplies, Param, Proof
from symbolic.notions.families.dp import (Bayesian0DP, Bayesian0DPFor, DataPointInterventionDP,
                                 DataPointInterventionDPFor, IndependentBayesian0DP, PureDP,
                                 StrongAdversaryDP, StrongAdversaryDPFor, WholeDatabaseInterventionDP,
                                 WholeDatabaseInterventionDPFor, brp_all_data_points_notion,
                                 Noninterference, StatisticalNondisclosure, StrongBayesianDP)
from symbolic.model.mechanism import Mechanism, truncated_geometric
from symbolic.notions.base import Notion
from symbolic.api import evaluate
from symbolic.model.population import Population
from symbolic.core.tables import databases
from symbolic.core.terms import AdaptiveVar, KernelVar, MechVar
from symbolic.core.math_text import math_text
from symbolic.core.verdicts import Derived, Sizes
from symbolic.report.tables import relation_table

SRC = "T"
Es = E.symbol

DEFINITIONS = [
    Definition("T-D1", SRC, "ε-DP (Definition 1)", (PureDP,)),
    Definition("T-D2", SRC, "strong-adversary DP, ∀𝒫 (Definition 2)", (StrongAdversaryDP,)),
    Definition("T-D3", SRC, "Bayesian₀ DP, ∀𝒫 (Definition 3)", (Bayesian0DP,)),
    Definition("T-D4", SRC, "independent Bayesian₀ DP: T-D3 over product populations (Definition 4)",
               (IndependentBayesian0DP,)),
    Definition("T-D5", SRC, "universal whole-database intervention DP (Definition 5)", (WholeDatabaseInterventionDP,)),
    Definition("T-D6", SRC, "whole-database intervention DP for a given 𝒫 (Definition 6)",
               (WholeDatabaseInterventionDPFor,)),
    Definition("T-D7", SRC, "data-point intervention DP for a given 𝒫 (Definition 7)", (DataPointInterventionDPFor,)),
    Definition("T-D8", SRC, "universal data-point intervention DP (Definition 8)", (DataPointInterventionDP,)),
    Definition("T-D9", SRC, "ε-BRP (Definition 9; the text's e^{-1} is an extraction error for e^ε)",
               (brp_all_data_points_notion,)),
    Definition("T-D10", SRC, "strong-adversary DP for one 𝒫 (Definition 10, Appendix B)", (StrongAdversaryDPFor,)),
    Definition("T-RP", SRC, "relative probability RP(ρ,φ,ψ) and its maximum (eqs. 26-27)", ()),
]

# --- Appendix C lemmas, stated as identities in M^A ---------------------------------------------


def _lemma1(ops, A, P=None):
    model = mechanism_model(A, P)
    out = []
    for d in A.rows:
        worlds = model.do(**{f"D{i+1}": d[i] for i in range(A.n)}).worlds(ops)
        for o in A.outputs:
            out.append(ops.eq(ops.sum(w for a, w in worlds if a["O"] == o), A.p(d, o),
                              why=lambda d=d, o=o: f"d={d}, o={o}"))
    return ops.And(out)


def _lemma2(ops, A, P=None):
    model = mechanism_model(A, P)
    out = []
    for j in range(A.n):
        for v in A.domain:
            worlds = model.do(**{f"D{j+1}": v}).worlds(ops)
            rests = sorted({d[:j] + d[j + 1:] for d in A.rows})
            for o in A.outputs:
                lhs = ops.sum(w for a, w in worlds if a["O"] == o)
                rhs = ops.sum(P.marginal_rest(ops, j, r) * A.p(r[:j] + (v,) + r[j:], o) for r in rests)
                out.append(ops.eq(lhs, rhs, why=lambda j=j, v=v, o=o: f"j={j+1}, v={v}, o={o}"))
    return ops.And(out)


def _pearl(ops, A, P=None):
    """Pr[O=o, D=d] = Pr[D=d]·Pr[O=o | do(D=d)]: conditioning on all of O's parents equals
    intervening on them where the condition has positive probability (cross-multiplied)."""
    model = mechanism_model(A, P)
    worlds = model.worlds(ops)
    out = []
    for d in A.rows:
        done = model.do(D=d).worlds(ops)
        den = ops.sum(w for a, w in worlds if a["D"] == d)
        for o in A.outputs:
            num = ops.sum(w for a, w in worlds if a["D"] == d and a["O"] == o)
            out.append(ops.eq(num, den * ops.sum(w for a, w in done if a["O"] == o),
                              why=lambda d=d, o=o: f"d={d}, o={o}"))
    return ops.And(out)


Lemma1 = Notion("Lemma1", (), _lemma1, population="given", summary="Pr[O=o|do(D_1..D_n=d)] = Pr[A(d)=o]")
Lemma2 = Notion("Lemma2", (), _lemma2, population="given",
                summary="Pr[O=o|do(D_j=v)] = Σ 𝒫(D_-j=d_-j)·Pr[A(d_-j, v)=o]")
Pearl1 = Notion("PearlProperty1", (), _pearl, population="given",
                summary="Pr[O=o ∣ D=d] = Pr[O=o ∣ do(D=d)] where Pr[D=d] > 0")


# --- the source's own counterexamples ----------------------------------------------------------

def source_p4_mechanism(sizes=None):
    """Eqs. (18)-(19): n=2, 𝒟={0,1,2}; A(⟨2,2⟩)=0 surely, otherwise uniform on {0,1}."""
    half = sp.Rational(1, 2)
    return {"A": Mechanism.from_table({d: ([1, 0] if d == (2, 2) else [half, half]) for d in databases(2, (0, 1, 2))},
                                      n=2, domain=(0, 1, 2), outputs=(0, 1), name="source eq. (18)-(19)")}


def source_p4_population(sizes=None):
    """𝒫 with Pr[D_1=2] = Pr[D_2=2] = 0 (the source leaves the rest open: uniform on {0,1}²)."""
    return Population({d: sp.Rational(1, 4) for d in databases(2, (0, 1))}, n=2, domain=(0, 1, 2),
                      name="uniform on {0,1}^2")


def source_appb_mechanism(sizes=None):
    """Appendix B: n=1, 𝒟={0,1,2}; A(0)=A(1) uniform on {0,1}, A(2)=0 surely."""
    half = sp.Rational(1, 2)
    return {"A": Mechanism.from_table({(0,): [half, half], (1,): [half, half], (2,): [1, 0]},
                                      n=1, domain=(0, 1, 2), outputs=(0, 1), name="source Appendix B")}


def source_appb_population(sizes=None):
    """𝒫 with Pr[D_1=2] = 0 (uniform on {0, 1})."""
    return Population({(0,): sp.Rational(1, 2), (1,): sp.Rational(1, 2)}, n=1, domain=(0, 1, 2))


_P4_SIZES, _APPB_SIZES = Sizes(2, 3, 2), Sizes(1, 3, 2)


def _with_source_example(hyp, concl, population, mechanisms, sizes):
    """hyp ⇏ concl searched by the engine, then checked again on the source's own counterexample
    (which holds for any ε; E = 2 shows it)."""
    return (NotImplies(hyp, concl),
            NotImplies(hyp, concl, population=population, mechanisms=mechanisms, sizes=sizes,
                       label="the source's example", parameters={"E": 2}))

# --- §6: BRP on other models -------------------------------------------------------------------


def _marginal_r1(P):
    out = {}
    for d, q in P.probs.items():
        out[d[0]] = out.get(d[0], 0) + q
    return out


def _prog(A, P=None, E=None):
    return prog_status_model(A, _marginal_r1(P))


def _rr_each(ops, A, P=None, *, E):
    sem = randomized_response_model(A, P, E)
    return ops.And(brp_holds(ops, sem, f"R{i+1}", f"D{i+1}", E) for i in range(A.n))


def _rr_d_to_o(ops, A, P=None, *, E):
    sem = randomized_response_model(A, P, E)
    return ops.And(brp_holds(ops, sem, f"D{i+1}", "O", E) for i in range(A.n))


def _rr_r1_to_o_copy(ops, A, P=None, *, E):
    return brp_holds(ops, randomized_response_model(A, P, E, copy=True), "R1", "O", E)


from symbolic.notions.base import E_SPEC  # noqa: E402

RRtoD = Notion("BRP(R_i→D_i) under randomized response", (E_SPEC,), _rr_each, population="all")
RRDtoO = Notion("BRP(D_i→O) under randomized response", (E_SPEC,), _rr_d_to_o, population="all")
RRR1toO = Notion("BRP(R_1→O) under randomized response with R_2:=R_1", (E_SPEC,), _rr_r1_to_o_copy,
                 population="all")

BRP_XY = brp_notion("BRP(X→Y)", lambda K1, K2, P, E: sequence_model(K1, K2, P), "X", "Y", arity=2, sufficient=any_one_population)
BRP_XYZ = brp_notion("BRP(X→⟨Y,Z⟩)", lambda K1, K2, P, E: sequence_model(K1, K2, P), "X", ("Y", "Z"), arity=2, sufficient=any_one_population)
BRP_XZ = brp_notion("BRP(X→Z)", lambda K1, K2, P, E: sequence_model(K1, K2, P), "X", "Z", arity=2, sufficient=any_one_population)


def _xz_every_y(ops, K1, K2, P=None, *, E):
    sem = sequence_model(K1, K2, P)
    return ops.And(brp_holds(ops, sem.do(Y=y), "X", "Z", E) for y in K1.outputs)


BRP_XZ_given_Y = Notion("BRP(X→Z) in M[Y:=y] ∀y", (E_SPEC,), _xz_every_y, population="all", arity=2,
                        sufficient=any_one_population)  # X, the one exogenous variable, is intervened

E1, E2 = Param("E1", lower=1), Param("E2", lower=1)
K1, K2 = MechVar("K1"), None
K2 = AdaptiveVar("K2", after=K1)
Kpost = KernelVar("K", source=K1)

BRP_R1 = brp_notion("BRP(R_1→O) in prog_status", _prog, "R1", "O")
BRP_R2 = brp_notion("BRP(R_2→O) in prog_status", _prog, "R2", "O")
BRP_R12 = brp_notion("BRP(⟨R_1,R_2⟩→O) in prog_status (joint do)", _prog, ("R1", "R2"), "O")


# T-GRP: the largest effect of each cause in prog_status, derived by sympy on the truncated geometric
# mechanism (an ε-DP A, which attains it), and bounded for every ε-DP A by an engine check each.
# (label, cause, notion, exponent k: the effect is kε)
GROUP_EFFECTS = (("R_1", "R1", BRP_R1, 2), ("R_2", "R2", BRP_R2, 1), ("joint ⟨R_1,R_2⟩", ("R1", "R2"), BRP_R12, 2))


def group_effects():
    """The largest relative probability of each cause in prog_status under the truncated geometric
    mechanism (sympy): E^k, so the effect is kε; each k must be the exponent the engine check of
    :data:`GRP_PROOF` bounds every ε-DP mechanism by."""
    E_ = sp.Symbol("E", positive=True)
    eps = sp.Symbol("epsilon", nonnegative=True)
    tg = truncated_geometric(E_, n=2).table()
    sem = prog_status_model(tg, {0: sp.Rational(1, 2), 1: sp.Rational(1, 2)})
    formulas, checks = {}, []
    for label, cause, _, exponent in GROUP_EFFECTS:
        rmax = dominant(relative_probabilities(sem, cause, "O"), E_)
        k = sp.simplify(sp.log(rmax) / sp.log(E_)) if rmax is not None else None
        if k is None or not k.is_Integer:
            checks.append((f"effect of {label}: no single largest relative probability", False))
            continue
        formulas[label] = k * eps
        checks.append((f"effect of {label} = {k}ε (largest RP E^{k}); the engine check bounds RP by E^{exponent} "
                       f"for every ε-DP A", k == exponent))
        checks.append((f"the truncated geometric mechanism attains RP = {math_text(rmax)} for {label}", True))
    for s in (sp.Rational(3, 2), 2, 5):
        ok = evaluate(PureDP, truncated_geometric(s, n=2).table(), E=s)
        checks.append((f"truncated geometric with E={s} is ε-DP (exact)", ok))
    total = formulas.get("R_1", 0) + formulas.get("R_2", 0)
    formula = ", ".join(f"effect({k}) = {v}" for k, v in formulas.items()) + f", total = {total}"
    return Derived(formula, "prog_status: R_2 := R_1, D_i := R_i, O := A(D_1, D_2), A ε-DP",
                   tuple(checks), {"total": total, **{f"effect {k}": v for k, v in formulas.items()}})


GRP_PROOF = Proof(tuple(Check(Implies(PureDP(Es), notion(Es ** k)), (E,), Sizes(2, 2, 2))
                        for _, _, notion, k in GROUP_EFFECTS), verdict="derived", derive=group_effects)


# Table 1: (row, definition, relation to DP the source states, index of the row's first part in T-TAB1)
TABLE1_ROWS = (("2", "T-D2", "↔", 0), ("3", "T-D3", "→", 10), ("4", "T-D4", "↔", 2), ("5", "T-D5", "↔", 4),
               ("6", "T-D6", "↔", 6), ("7", "T-D7", "←", 12), ("8", "T-D8", "↔", 8))
_table1_text = partial(relation_table, rows=TABLE1_ROWS,
                       title="Table 1 of the T-source, reproduced: relation of each definition to DP (T-D1)")


CLAIMS = [
    Claim("T-L1", "step", SRC, "Lemma 1: Pr[O=o ∣ do(D_1=d_1..D_n=d_n)] = Pr[A(d)=o], whatever 𝒫", "holds",
          (Implies((), Lemma1()),), params=(), sizes=Sizes(2, 2, 3)),
    Claim("T-L2", "step", SRC, "Lemma 2: Pr[O=o ∣ do(D_j=v)] = Σ 𝒫(D_-j=d_-j)·Pr[A(d_-j, v at j)=o]", "holds",
          (Implies((), Lemma2()),), params=(), sizes=Sizes(2, 2, 3)),
    Claim("T-PEARL", "step", SRC, "Pearl's Property 1: conditioning on all parents = intervening on them "
          "(where the condition has positive probability)", "holds", (Implies((), Pearl1()),), params=(),
          sizes=Sizes(2, 2, 3)),
    Claim("T-P1", "⇔", SRC, "T-D1 ⇔ T-D2", "equivalent", Equivalent(PureDP(Es), StrongAdversaryDP(Es)),
          sizes=Sizes(2, 2, 3)),
    Claim("T-P2", "⇔", SRC, "T-D1 ⇔ T-D5", "equivalent", Equivalent(PureDP(Es), WholeDatabaseInterventionDP(Es)),
          sizes=Sizes(2, 2, 3)),
    Claim("T-P3", "⇔", SRC, "T-D1 ⇔ T-D6, for every 𝒫", "equivalent",
          Equivalent(PureDP(Es), WholeDatabaseInterventionDPFor(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-P4", "⇒", SRC, "T-D1 ⇒ T-D7, for every 𝒫", "holds", (Implies(PureDP(Es), DataPointInterventionDPFor(Es)),),
          sizes=Sizes(2, 2, 3)),
    Claim("T-P4.converse", "⇏", SRC, "T-D7 ⇏ T-D1 (source: n=2, 𝒟={0,1,2}, 𝒫(D_i=2)=0, A(⟨2,2⟩)=0 surely)",
          "not implied",
          _with_source_example(DataPointInterventionDPFor(Es), PureDP(Es), source_p4_population, source_p4_mechanism,
                               _P4_SIZES),
          sizes=Sizes(2, 3, 3),
          finding=("minimal counterexample is smaller than the source's: n=2 is needed (as the source says) but "
                   "|𝒟|=2 suffices: 𝒫 = point mass on ⟨0,0⟩, A(⟨1,1⟩) outputs 0 surely, every other database outputs 1 surely, any ε "
                   "(the source uses 𝒟={0,1,2}); the source's own example is confirmed as the second part")),
    Claim("T-P4.min", "example", SRC, "at n=1, T-D7 for any 𝒫 implies T-D1 (a counterexample needs two data points)",
          "n=2 is needed", (Implies(DataPointInterventionDPFor(Es), PureDP(Es)),),
          sizes=Sizes(1, 3, 3), min_sizes=Sizes(1, 2, 2)),
    Claim("T-P5", "⇔", SRC, "T-D1 ⇔ T-D8", "equivalent", Equivalent(PureDP(Es), DataPointInterventionDP(Es)),
          sizes=Sizes(2, 2, 3)),
    Claim("T-TAB1", "⇔/⇒", SRC, "Table 1: rows 2,4,5,6,8 ↔ DP; row 3 → DP; row 7 ← DP", "as listed",
          (Equivalent(PureDP(Es), StrongAdversaryDP(Es)) + Equivalent(PureDP(Es), IndependentBayesian0DP(Es))
           + Equivalent(PureDP(Es), WholeDatabaseInterventionDP(Es))
           + Equivalent(PureDP(Es), WholeDatabaseInterventionDPFor(Es))
           + Equivalent(PureDP(Es), DataPointInterventionDP(Es))
           + (Implies(Bayesian0DP(Es), PureDP(Es)), NotImplies(PureDP(Es), Bayesian0DP(Es)),
              Implies(PureDP(Es), DataPointInterventionDPFor(Es)), NotImplies(DataPointInterventionDPFor(Es), PureDP(Es)))),
          display=_table1_text),
    Claim("T-F2a", "⇔", SRC, "Figure 2(a): DP ⇔ strong-adversary DP", "equivalent",
          Equivalent(PureDP(Es), StrongAdversaryDP(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-F2b", "⇔", SRC, "Figure 2(b): DP ⇔ independent Bayesian₀ DP (T-D4: product populations)", "equivalent",
          Equivalent(PureDP(Es), IndependentBayesian0DP(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-F2c", "⇒, ⇏", SRC, "Figure 2(c): T-D3 ⇒ T-D1, and T-D1 ⇏ T-D3", "as stated",
          (Implies(Bayesian0DP(Es), PureDP(Es)), NotImplies(PureDP(Es), Bayesian0DP(Es))), sizes=Sizes(2, 2, 3)),
    Claim("T-F2d", "⇔", SRC, "Figure 2(d): Bayesian DP conditioning on all other points (strong adversary) ⇔ DP",
          "equivalent", Equivalent(PureDP(Es), StrongBayesianDP(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-F2e", "⇔", SRC, "Figure 2(e): restricted to independent data points, Bayesian₀ DP ⇔ DP", "equivalent",
          Equivalent(PureDP(Es), IndependentBayesian0DP(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-APPB", "⇏", SRC, "T-D10 ⇏ T-D1 (source: n=1, 𝒟={0,1,2}, 𝒫(D_1=2)=0, A(2)=0 surely)", "not implied",
          _with_source_example(StrongAdversaryDPFor(Es), PureDP(Es), source_appb_population, source_appb_mechanism,
                               _APPB_SIZES),
          sizes=Sizes(1, 3, 3),
          finding=("minimal counterexample is smaller than the source's: n=1, |𝒟|=2 suffices: 𝒫 = point mass "
                   "on 0, A(0) outputs 1 surely, A(1) outputs 0 surely (the source uses 𝒟={0,1,2}); the source's own example "
                   "is confirmed as the second part")),
    Claim("T-BRP-DP", "⇔", SRC, "ε-DP ⇔ ε-BRP from every D_i to O in M^A (eq. 28)", "equivalent",
          Equivalent(PureDP(Es), brp_all_data_points_notion(Es)), sizes=Sizes(2, 2, 3)),
    Claim("T-TH1", "prop", SRC, "Theorem 1: X ε1-BRP to Y, and ε2-BRP to Z in M[Y:=y] ∀y ⇒ (ε1+ε2)-BRP to ⟨Y,Z⟩",
          "holds", (Implies((BRP_XY(E1.symbol).of(K1, K2), BRP_XZ_given_Y(E2.symbol).of(K1, K2)),
                            BRP_XYZ(E1.symbol * E2.symbol).of(K1, K2)),),
          params=(E1, E2), sizes=Sizes(1, 2, 3), min_sizes=Sizes(1, 2, 2)),
    Claim("T-POST", "prop", SRC, "post-processing: X →ε Y → Z ⇒ ε-BRP from X to Z", "holds",
          (Implies(BRP_XY(Es).of(K1, Kpost), BRP_XZ(Es).of(K1, Kpost)),),
          sizes=Sizes(1, 3, 2), min_sizes=Sizes(1, 2, 2)),
    Claim("T-RR", "example", SRC, "randomized response: ε-BRP from R_i to D_i; D_i → O and R_i → O unbounded in "
          "general", "as stated",
          (Implies((), RRtoD(Es)), NotImplies((), RRDtoO(Es)), NotImplies((), RRR1toO(Es))),
          sizes=Sizes(2, 2, 3), min_sizes=Sizes(1, 2, 2)),
    Claim("T-GRP", "example", SRC, "group effects in prog_status: R_1 up to 2ε, R_2 up to ε, total 3ε, joint 2ε; "
          "attained by some ε-DP A", "as stated", proof=GRP_PROOF),
    Claim("T-ASSOC", "example", SRC, "§1.1: a DP mechanism and correlated population violating T-D3's bound",
          "as stated", (NotImplies(PureDP(Es), Bayesian0DPFor(Es)),), sizes=Sizes(2, 2, 3)),
    Claim("T-NI", "example", SRC, "§2: 0-DP is probabilistic noninterference", "as stated",
          Equivalent(PureDP(1), Noninterference()), params=(), sizes=Sizes(2, 2, 3)),
    Claim("T-SND", "⇒", SRC, "§7: statistical nondisclosure ⇒ 0-Bayesian₀-DP for the true distribution", "holds",
          (Implies(StatisticalNondisclosure(), Bayesian0DPFor(1)),), params=(), sizes=Sizes(2, 2, 3)),
]
