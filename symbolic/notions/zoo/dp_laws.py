"""DP-type notions of the zoo that compare the two output laws of neighbours as a whole: bounded
range, Rényi DP at a whole order α, total-variation privacy and f_{ε,δ}-DP by trade-off functions.

Each is one condition on the pair (P, Q) = (A(d), A(d')) for every ordered pair of a neighbour
relation (default: replace one record; every factory takes ``neighbours=`` any relation of
:mod:`symbolic.model.neighbours`), written once over ``ops`` and polynomial in the table and
E = e^ε (δ where it appears), so the solver decides them at fixed sizes.
"""
from __future__ import annotations

import functools
import itertools

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.model.neighbours import ReplaceOne
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion
from symbolic.notions.info import NotionInfo
from symbolic.notions.zoo.dp import noted, power


def _named(base, neighbours):
    return base if neighbours == ReplaceOne() else f"{base}[{neighbours}]"


def _product(xs):
    out = 1
    for x in xs:
        out = out * x
    return out


# --- bounded range ----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def bounded_range(neighbours=ReplaceOne()) -> Notion:
    """ε-bounded range (Durfee, Rogers, "Practical differentially private top-k selection with
    pay-what-you-get composition", NeurIPS 2019, the definition of ε-BR): ∀ d ~ d', ∀ outputs y, y':
    Pr[A(d)=y]/Pr[A(d')=y] ≤ e^ε·Pr[A(d)=y']/Pr[A(d')=y'], i.e. max_y(p/q) ≤ E·min_y(p/q). Compared
    cross-multiplied, p(y)·q(y') ≤ E·q(y)·p(y'): an output that neither database can produce
    constrains nothing, and one that only d can produce (ratio ∞) fails against any output d' can
    produce. ε-BR implies ε-DP (the largest ratio is ≥ 1 ≥ the smallest); ε-DP implies 2ε-BR."""

    def body(ops, A, P=None, *, E):
        return ops.And(
            ops.le(A.p(pr.d, y) * A.p(pr.d2, y2), E * A.p(pr.d2, y) * A.p(pr.d, y2),
                   why=lambda pr=pr, y=y, y2=y2: (
                       f"{pr.text()}, y={y}, y'={y2}: p(y)·q(y')={A.p(pr.d, y) * A.p(pr.d2, y2)} > "
                       f"E·q(y)·p(y')={E}·{A.p(pr.d2, y) * A.p(pr.d, y2)}"))
            for pr in neighbours.of(A) for y, y2 in itertools.permutations(A.outputs, 2))

    return Notion(_named("BoundedRange", neighbours), (E_SPEC,), body,
                  summary="ε-bounded range: Pr[A(d)=y]/Pr[A(d')=y] ≤ e^ε·Pr[A(d)=y']/Pr[A(d')=y'] for neighbours "
                          "and all outputs y, y'")


# --- Rényi DP at a whole order ------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def renyi_dp(alpha: int = 2, neighbours=ReplaceOne()) -> Notion:
    """(α, ε)-Rényi DP for a whole order α ≥ 2 (Mironov, "Rényi differential privacy", CSF 2017, Def. 4,
    with the Rényi divergence of his Def. 3): ∀ d ~ d': D_α(A(d) ‖ A(d')) ≤ ε, that is
    Σ_o p_o^α·q_o^{1−α} ≤ e^{(α−1)ε} = E^{α−1} (p = A(d), q = A(d')).

    Outputs with q_o = 0 < p_o make the divergence ∞ (the condition fails); outputs with
    p_o = q_o = 0 add nothing. Multiplied out over the support S of q, so it stays polynomial:

        q_o = 0 ⇒ p_o = 0 for every o, and
        Σ_{o∈S} p_o^α·Π_{o'∈S, o'≠o} q_{o'}^{α−1} ≤ E^{α−1}·Π_{o∈S} q_o^{α−1}

    (both sides of the sum form times Π_{o∈S} q_o^{α−1} > 0). In the solver the restriction to S is
    ``If(q_o > 0, q_o^{α−1}, 1)`` in the products. The order α is fixed when the notion is built."""
    if isinstance(alpha, bool) or not isinstance(alpha, int) or alpha < 2:
        raise InvalidParameter(f"renyi_dp: the order alpha={alpha!r} must be a whole number ≥ 2 (the "
                               f"polynomial form needs a whole order)")

    def body(ops, A, P=None, *, E):
        out = []
        for pr in neighbours.of(A):
            p = [A.p(pr.d, o) for o in A.outputs]
            q = [A.p(pr.d2, o) for o in A.outputs]
            inside = [ops.gt(y, 0) for y in q]
            for o, x, s in zip(A.outputs, p, inside):
                out.append(noted(ops, ops.Implies(ops.Not(s), ops.eq(x, 0)), lambda pr=pr, o=o: (
                    f"{pr.text()}, o={o}: Pr[A(d)=o] > 0 = Pr[A(d')=o], so D_α = ∞")))
            qs = [ops.If(s, power(y, alpha - 1), 1) for y, s in zip(q, inside)]
            lhs = ops.sum(ops.If(s, power(x, alpha), 0) * _product(qs[:j] + qs[j + 1:])
                          for j, (x, s) in enumerate(zip(p, inside)))
            out.append(ops.le(lhs, power(E, alpha - 1) * _product(qs), why=lambda pr=pr, p=p, q=q: (
                f"{pr.text()}: Σ_o p^α q^(1-α) = {_renyi_sum(p, q, alpha)} > E^(α-1) = {power(E, alpha - 1)}")))
        return ops.And(out)

    return Notion(_named(f"RenyiDP[alpha={alpha}]", neighbours), (E_SPEC,), body,
                  summary=f"(α={alpha}, ε)-Rényi DP: Σ_o Pr[A(d)=o]^α·Pr[A(d')=o]^(1-α) ≤ e^((α-1)ε) for neighbours")


def _renyi_sum(p, q, alpha):
    """Σ_{q_o > 0} p_o^α / q_o^{α−1} on exact numbers (for messages)."""
    return sum((x ** alpha / y ** (alpha - 1) for x, y in zip(p, q) if y != 0), 0)


# --- total variation ----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def tv_privacy(neighbours=ReplaceOne()) -> Notion:
    """δ-TV privacy (Barber, Duchi, "Privacy and statistical risk: formalisms and minimax bounds",
    arXiv 1412.4451, 2014, total-variation privacy): ∀ d ~ d': TV(A(d), A(d')) = ½·Σ_o |p_o − q_o| ≤ δ,
    with |x| = max(0, x) + max(0, −x). It is (0, δ)-DP; the engine checks that rather than sharing
    approximate DP's body."""

    def body(ops, A, P=None, *, delta):
        return ops.And(
            ops.le(ops.sum(ops.max0(A.p(pr.d, o) - A.p(pr.d2, o)) + ops.max0(A.p(pr.d2, o) - A.p(pr.d, o))
                           for o in A.outputs), 2 * delta,
                   why=lambda pr=pr: f"{pr.text()}: ½·Σ_o |Pr[A(d)=o] − Pr[A(d')=o]| > δ={delta}")
            for pr in neighbours.of(A))

    return Notion(_named("TVPrivacy", neighbours), (DELTA_SPEC,), body,
                  summary="δ-TV privacy: the total variation distance of A(d) and A(d') is at most δ for neighbours")


# --- f-DP by trade-off functions -------------------------------------------------------------------

MAX_TEST_OUTPUTS = 12


def f_eps_delta(E, delta, alpha):
    """The affine pieces of f_{ε,δ}(α) = max{0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)} (Dong, Roth, Su 2022,
    the trade-off function of (ε,δ)-DP), each as (m, r): the piece is r/m, and β ≥ piece is stated
    m·β ≥ r, so no division by E appears."""
    return ((1, 0), (1, 1 - delta - E * alpha), (E, 1 - delta - alpha))


@functools.lru_cache(maxsize=None)
def trade_off_dp(neighbours=ReplaceOne()) -> Notion:
    """f_{ε,δ}-DP (Dong, Roth, Su, "Gaussian differential privacy", JRSS-B 84(1) 2022, Def. 2.3 with the
    trade-off function of Def. 2.1 and the f_{ε,δ} of (ε,δ)-DP): ∀ d ~ d': T(A(d), A(d')) ≥ f_{ε,δ},
    where T(P, Q)(a) = inf{β_φ : α_φ ≤ a} over rejection rules φ: 𝒪 → [0, 1], with type I error
    α_φ = E_P[φ] and type II error β_φ = 1 − E_Q[φ].

    T(P, Q) ≥ f means β_φ ≥ f(α_φ) for every test φ (if some φ had β_φ < f(α_φ), then
    T(α_φ) ≤ β_φ < f(α_φ); conversely f is non-increasing, so β_φ ≥ f(α_φ) ≥ f(a) whenever α_φ ≤ a).
    f_{ε,δ} is a maximum of three affine functions ℓ_j, and β_φ − ℓ_j(α_φ) is affine in φ ∈ [0, 1]^𝒪, so
    it is ≥ 0 on the cube iff it is at the cube's vertices, the deterministic tests φ = 1_S. The body
    is therefore: for every rejection region S ⊆ 𝒪, with α_S = P(S), β_S = 1 − Q(S):
    β_S ≥ 0, β_S ≥ 1 − δ − E·α_S and E·β_S ≥ 1 − δ − α_S (the last piece times E > 0).
    Dong, Roth, Su (Prop. 2.5, after Wasserman and Zhou 2010) state that this is (ε,δ)-DP; that is
    checked by the engine, not used here. 2^|𝒪| tests: at most ``MAX_TEST_OUTPUTS`` outputs."""

    def body(ops, A, P=None, *, E, delta):
        if len(A.outputs) > MAX_TEST_OUTPUTS:
            raise InvalidSize(f"f-DP enumerates the 2^|𝒪| deterministic tests; |𝒪|={len(A.outputs)} is more than "
                              f"{MAX_TEST_OUTPUTS}. ApproxDP is the same condition (Dong, Roth, Su, Prop. 2.5)")
        out = []
        for pr in neighbours.of(A):
            for r in range(len(A.outputs) + 1):
                for S in itertools.combinations(A.outputs, r):
                    type1 = ops.sum(A.p(pr.d, o) for o in S)
                    type2 = 1 - ops.sum(A.p(pr.d2, o) for o in S)
                    for m, rhs in f_eps_delta(E, delta, type1):
                        out.append(ops.ge(m * type2, rhs, why=lambda pr=pr, S=S, a=type1, b=type2: (
                            f"{pr.text()}, the test rejecting on {set(S) or '{}'}: type I error {a}, type II error "
                            f"{b} < f_ε,δ({a})")))
        return ops.And(out)

    return Notion(_named("TradeOffDP", neighbours), (E_SPEC, DELTA_SPEC), body,
                  summary="f_{ε,δ}-DP: every test between A(d) and A(d') has type II error ≥ f_{ε,δ}(type I error)")


BoundedRange = bounded_range()
RenyiDP2 = renyi_dp(2)
RenyiDP3 = renyi_dp(3)
TVPrivacy = tv_privacy()
TradeOffDP = trade_off_dp()

ALL = [BoundedRange, RenyiDP2, RenyiDP3, TVPrivacy, TradeOffDP]

ENTRIES = (
    NotionInfo("bounded-range", BoundedRange, "replace one record", "polynomial",
               "Durfee, Rogers, Practical differentially private top-k selection, NeurIPS 2019 (ε-bounded range)",
               "∀ d ~ d', ∀ y, y': Pr[A(d)=y]·Pr[A(d')=y'] ≤ E·Pr[A(d')=y]·Pr[A(d)=y']"),
    NotionInfo("renyi-dp", RenyiDP2, "replace one record (order α = 2; renyi_dp(alpha) for other whole orders)",
               "polynomial", "Mironov, Rényi differential privacy, CSF 2017, Def. 4",
               "∀ d ~ d': Σ_o Pr[A(d)=o]^α·Pr[A(d')=o]^(1−α) ≤ E^(α−1) (∞ where only A(d) reaches o)"),
    NotionInfo("tv-privacy", TVPrivacy, "replace one record", "polynomial",
               "Barber, Duchi, Privacy and statistical risk, arXiv 1412.4451, 2014 (TV privacy)",
               "∀ d ~ d': ½·Σ_o |Pr[A(d)=o] − Pr[A(d')=o]| ≤ δ"),
    NotionInfo("f-dp", TradeOffDP, "replace one record", "polynomial",
               "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, Def. 2.3 with f_ε,δ",
               "∀ d ~ d', ∀ tests φ: type II error ≥ f_ε,δ(type I error), "
               "f_ε,δ(a) = max(0, 1 − δ − E·a, (1 − δ − a)/E)", aliases=("FDP",)),
)
