"""The transcendental notions: zero-concentrated DP, Gaussian DP and mutual-information DP.

Their conditions quantify over a continuum (every Rényi order α > 1, every ε ≥ 0, every prior) of
expressions with exp, log and Φ, so they cannot be stated to the solver as polynomial constraints.
In exact mode on a numeric table with numeric parameters each body decides its condition by
certified interval arithmetic (:mod:`symbolic.notions.continuum`, :mod:`symbolic.core.certified`):
True and False come with certificates, and a case the intervals cannot settle within the budget (a
tie or a tangency) raises :class:`~symbolic.core.ops.UndecidedComparison`. In solver mode (``ops``
not exact), or with a symbolic parameter or table entry, the body raises
:class:`~symbolic.core.errors.Transcendental`, which a caller reports as
``unknown (transcendental: <reason>)``.

Neighbours are replace-one (d ~ d' when they differ in one record); each ordered pair is checked.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import Transcendental
from symbolic.core.ops import UndecidedComparison
from symbolic.core.tables import replace
from symbolic.notions.base import E_SPEC, Notion, ParamSpec
from symbolic.notions.continuum import capacity_at_most, gaussian_profile_bounded, renyi_bounded
from symbolic.notions.info import NotionInfo

RHO_SPEC = ParamSpec("rho", lower=0, meaning="ρ ≥ 0: the zCDP level, D_α ≤ ρ·α for every order α > 1")
MU_SPEC = ParamSpec("mu", lower=0, meaning="μ ≥ 0: the GDP level, the trade-off of N(0,1) against N(μ,1)")


def _require_numbers(ops, notion: str, why: str, A, **params):
    """Raise Transcendental unless this is exact evaluation on numbers."""
    if not getattr(ops, "exact", False):
        raise Transcendental(f"{notion}: {why}; the solver cannot state it, so it is decided only on numeric "
                             f"tables at numeric parameters (certified intervals)")
    for name, value in params.items():
        if getattr(sp.sympify(value), "free_symbols", None):
            raise Transcendental(f"{notion}: parameter {name} = {value} is symbolic; {why}, which certified "
                                 f"intervals decide only at numeric values")
    for d, row in A.rows.items():
        for o, x in zip(A.outputs, row):
            if getattr(sp.sympify(x), "free_symbols", None):
                raise Transcendental(f"{notion}: Pr[A({d})={o}] = {x} is symbolic; {why}, which certified "
                                     f"intervals decide only on numeric tables")


def _fail(ops, text):
    trace = getattr(ops, "trace", None)
    if trace is not None:
        trace.append(text)
    return False


def _first_refutation(ops, notion, decisions):
    """The verdict over ``(where, Decision, what the bound is)`` triples: False (with its reason in the
    trace) at the first refuted one; UndecidedComparison naming the first undecided one if none is
    refuted; else True."""
    undecided = None
    for where, dec, bound in decisions:
        if dec.holds is False:
            return _fail(ops, f"{where}: {dec.reason}{bound}")
        if dec.holds is None and undecided is None:
            undecided = f"{notion}: {where}: {dec.reason}"
    if undecided:
        raise UndecidedComparison(undecided)
    return True


def _pairwise(ops, A, notion, decide_pair):
    """Decide every ordered neighbour pair (identical row pairs once): False at the first refuted
    pair; UndecidedComparison if none is refuted but some is undecided; else True."""
    seen = {}

    def decisions():
        for i, d, v in A.neighbours():
            d2 = replace(d, i, v)
            key = (A.rows[d], A.rows[d2])
            if key not in seen:
                seen[key] = decide_pair(A.rows[d], A.rows[d2])
            yield f"i={i+1}, d={d}, d'={d2}", seen[key], ""
    return _first_refutation(ops, notion, decisions())


# --- ρ-zCDP -------------------------------------------------------------------------------------

def _zcdp(ops, A, P=None, *, rho):
    """ρ-zCDP (Bun & Steinke 2016, Def. 1.1 with ξ = 0): for neighbours d ~ d' and every α > 1,
    D_α(A(d)‖A(d')) = log(Σ_o p_o^α·q_o^(1−α))/(α − 1) ≤ ρ·α. Decided per ordered pair by
    :func:`~symbolic.notions.continuum.renyi_bounded` (monotone D_α, bounded by log max p/q)."""
    _require_numbers(ops, "zcdp", "ρ-zCDP bounds D_α for every real order α > 1 (a supremum of logarithms)",
                     A, rho=rho)
    return _pairwise(ops, A, "zcdp", lambda p, q: renyi_bounded(p, q, rho))


ZeroConcentratedDP = Notion("ZeroConcentratedDP", (RHO_SPEC,), _zcdp, summary=(
    "ρ-zCDP: D_α(A(d)‖A(d')) ≤ ρ·α for all neighbours d ~ d' and every order α > 1"))


# --- μ-GDP --------------------------------------------------------------------------------------

def _gdp(ops, A, P=None, *, mu):
    """μ-GDP (Dong, Roth, Su 2022, Def. 2.6): T(A(d), A(d')) ≥ G_μ for neighbours, G_μ(a) =
    Φ(Φ⁻¹(1 − a) − μ). By their Cor. 2.13 this is (ε, δ_μ(ε))-DP for every ε ≥ 0 with δ_μ(ε) =
    Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2); on a table, Σ_o max(0, p_o − e^ε·q_o) ≤ δ_μ(ε) for every
    ordered neighbour pair, decided by :func:`~symbolic.notions.continuum.gaussian_profile_bounded`."""
    _require_numbers(ops, "gaussian-dp", "μ-GDP compares the trade-off with G_μ(a) = Φ(Φ⁻¹(1−a) − μ), "
                     "that is H_{e^ε} ≤ Φ(−ε/μ+μ/2) − e^ε·Φ(−ε/μ−μ/2) for every real ε ≥ 0", A, mu=mu)
    return _pairwise(ops, A, "gaussian-dp", lambda p, q: gaussian_profile_bounded(p, q, mu))


GaussianDP = Notion("GaussianDP", (MU_SPEC,), _gdp, summary=(
    "μ-GDP: the trade-off between A(d) and A(d') is ≥ G_μ for all neighbours "
    "(equivalently (ε, δ_μ(ε))-DP for every ε ≥ 0)"))


# --- mutual-information DP -----------------------------------------------------------------------

def _mi_dp(ops, A, P=None, *, E):
    """ε-mutual-information DP (Cuff & Yu 2016): sup over priors on 𝒟^n and records i of
    I(D_i; O | D_-i) ≤ ε nats, here ≤ log E. I(D_i; O | D_-i) = Σ_r P(D_-i = r)·I(D_i; O | D_-i = r),
    and given D_-i = r the law of D_i is arbitrary (any prior, and already any product prior, can
    put all its mass on one r): so the supremum is the largest capacity, over i and r, of the channel
    u ↦ A(r with u at position i). Each capacity is compared with log E by
    :func:`~symbolic.notions.continuum.capacity_at_most`."""
    _require_numbers(ops, "mi-dp", "MI-DP bounds a mutual information (logarithms) over every prior", A, E=E)
    bound = sp.log(E)
    def decisions():  # one channel x_i ↦ A(x) for each choice of the other records
        for i in range(A.n):
            for d in A.rows:
                if d[i] == A.domain[0]:
                    W = [A.rows[replace(d, i, u)] for u in A.domain]
                    rest = d[:i] + ("·",) + d[i + 1:]
                    yield f"i={i+1}, other records {rest}", capacity_at_most(W, bound), " = log E"
    return _first_refutation(ops, "mi-dp", decisions())


MutualInformationDP = Notion("MutualInformationDP", (E_SPEC,), _mi_dp, summary=(
    "ε-MI-DP: I(D_i; O | D_-i) ≤ ε nats for every i and every prior on the databases"))


ALL = [ZeroConcentratedDP, GaussianDP, MutualInformationDP]

ENTRIES = (
    NotionInfo("zcdp", ZeroConcentratedDP, "replace one record", "transcendental",
               "Bun & Steinke, Concentrated differential privacy: simplifications, extensions, and lower bounds, "
               "TCC 2016, Def. 1.1 (ρ-zCDP is (0, ρ)-zCDP)",
               "∀ d ~ d', ∀ α > 1: D_α(A(d)‖A(d')) ≤ ρ·α"),
    NotionInfo("gaussian-dp", GaussianDP, "replace one record", "transcendental",
               "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, Def. 2.6 (μ-GDP) and Cor. 2.13 "
               "(arXiv:1905.02383 numbering)",
               "∀ d ~ d', ∀ ε ≥ 0: Σ_o max(0, p − e^ε·q) ≤ Φ(−ε/μ+μ/2) − e^ε·Φ(−ε/μ−μ/2)"),
    NotionInfo("mi-dp", MutualInformationDP, "replace one record (all priors)", "transcendental",
               "Cuff & Yu, Differential privacy as a mutual information constraint, CCS 2016, "
               "definition of ε-mutual-information DP",
               "∀ i, ∀ priors on 𝒟^n: I(D_i; O | D_-i) ≤ log E nats (a channel capacity for each D_-i)"),
)
