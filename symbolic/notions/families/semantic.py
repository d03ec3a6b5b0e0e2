"""Semantic privacy and indistinguishability: notions about beliefs and posteriors.

Written once over :mod:`symbolic.core.ops` like every notion. Conventions (fixed here, used by
every notion below):

- **Two distributions** X, Y on a finite set are the rows of a mechanism with n = 1 and
  𝒟 = {0, 1}: X = A(0), Y = A(1). "Indistinguishability" notions below compare *every ordered
  pair of rows*, so on such a table they are exactly the definition for (X, Y).
- **Events without enumeration.** max_S [p(S) - E·q(S)] = Σ_o max(0, p(o) - E·q(o))
  (the maximising S is {o : p(o) > E·q(o)}); statistical difference SD(p, q) = max_S |p(S)-q(S)|
  is the case E = 1. No 2^|𝒪| subset is ever enumerated.
- **Posteriors** (belief b on 𝒟^n, transcript t, index i):
  b̄_0[x|t] = A(x)(t)·b(x) / Z0(t), Z0(t) = Σ_y A(y)(t)·b(y) (the adversary's posterior in Game 0);
  b̄_i[x|t] = A(x_{-i})(t)·b(x) / Zi(t), Zi(t) = Σ_y A(y_{-i})(t)·b(y) (Game i, where A sees x_{-i}).
  ``x_{-i}`` is x with entry i replaced by the **default value = the first element of 𝒟**
  (so x_{-i} = x when x_i is the default; x and x_{-i} are always neighbours or equal).
  Inequalities are cross-multiplied by Z0·Zi (no division).
- **Zero normalisers** (the sources are silent): if Z0(t) = Zi(t) = 0 the pair (t, i) is
  vacuous; if exactly one of them is 0 the pair is *bad* (its SD is taken as 1, ≈ fails).
  For ε-DP mechanisms this never happens (A(x)(t) = 0 ⇔ A(x_{-i})(t) = 0).
- E = e^ε (E ≥ 1); every inequality is polynomial in E and the unknowns.

The public notions: ``Indistinguishable`` ((ε,δ)-indistinguishability of every ordered pair of
rows, Kasiviswanathan and Smith (2014), Def. 3.1), ``SemanticPrivacy`` (ε-semantic privacy: for
every belief, transcript and i, SD(b̄_0[·|t], b̄_i[·|t]) ≤ ε; Def. 2.1; no finite family of beliefs
decides it, so it serves as a conclusion) and ``ApproxSemanticPrivacy`` ((ε,δ)-semantic privacy:
the probability of a transcript with some SD above ε is at most δ; Def. 2.3).

>>> from symbolic.api import E, Noninterference, PureDP, Settings, Sizes, check_implies, evaluate
>>> from symbolic.model.mechanism import randomized_response
>>> evaluate(Indistinguishable, randomized_response(3), E=3, delta=0)
True
>>> fast = Settings(second_solver=False)
>>> [check_implies(Noninterference(), c, sizes=Sizes(1, 2, 2), settings=fast).verdict.name
...  for c in (SemanticPrivacy(0), ApproxSemanticPrivacy(0, 0))]
['proved', 'proved']
>>> check_implies(PureDP(3), SemanticPrivacy("1/10"), sizes=Sizes(1, 2, 2), settings=fast).verdict.name
'refuted'

Sources: Kasiviswanathan and Smith, "A Note on Differential Privacy: Defining Resistance to
Arbitrary Side Information" (2008): Defs 1.1, 1.2, 2.1, 2.3, 3.1, 3.2, A.1, the informed beliefs of
Appendix A and the statement of Theorem 5.1; lecture notes "Properties of DP" ch. 5, eq. (6) (≈_ε),
eq. (8) (additive secrecy), Theorem 2.1 (posteriors p(·|a), p_{-i}(·|a)). The notions one proof
needs for its own steps live with that source's claims, in :mod:`theorems`.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.ops import exact_sign
from symbolic.core.prob import violated_event
from symbolic.core.tables import replace
from symbolic.core.terms import Term
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion, ParamSpec

LEVEL_SPEC = ParamSpec("eps", lower=0, meaning="a statistical-difference level is a distance, so ≥ 0")
NUM_SPEC = ParamSpec("num", lower=0, meaning="the numerator of a likelihood-ratio bound is ≥ 0")
DEN_SPEC = ParamSpec("den", lower=0, meaning="the denominator of a likelihood-ratio bound is ≥ 0")
K_SPEC = ParamSpec("K", lower=1, meaning="a likelihood-ratio bound K = e^{kε} is ≥ 1")


# --- helpers: events, distances, posteriors ---------------------------------------------------

def hockey(ops, p, q, E):
    """max over events S of p(S) - E·q(S) (≥ 0, attained at S = {p > E q}) = Σ_o max(0, p(o) - E q(o))."""
    return ops.sum(ops.max0(a - E * b) for a, b in zip(p, q))


def statistical_difference(ops, p, q):
    """SD(p, q) = max_S |p(S) - q(S)| = Σ_o max(0, p(o) - q(o)) (statistical difference,
    Kasiviswanathan–Smith §1)."""
    return hockey(ops, p, q, 1)


def default_value(domain):
    """The fixed default value used for x_{-i}: the first element of 𝒟."""
    return domain[0]


def minus_i(d, i, domain):
    """x_{-i}: entry i replaced by the default value."""
    return replace(d, i, default_value(domain))


def hamming(x, y):
    return sum(a != b for a, b in zip(x, y))


def row_of(A, d):
    """The row A(d) as a tuple over the outputs."""
    return tuple(A.p(d, o) for o in A.outputs)


def posterior_parts(ops, A, b, i, t):
    """Unnormalised posteriors and normalisers at (i, t): (w0, wi, Z0, Zi), w0[x] = b(x)·A(x)(t),
    wi[x] = b(x)·A(x_{-i})(t)."""
    w0 = {x: b.p(x) * A.p(x, t) for x in A.rows}
    wi = {x: b.p(x) * A.p(minus_i(x, i, A.domain), t) for x in A.rows}
    return w0, wi, ops.sum(w0.values()), ops.sum(wi.values())


def guard_normalisers(ops, Z0, Zi, ok, one_zero=False):
    """Zero-normaliser convention: vacuous when both are 0; when exactly one is 0 the pair holds
    iff ``one_zero`` (False for ≈: it fails; for an SD level ε: SD is taken as 1, so it holds iff ε ≥ 1)."""
    return ops.Or([ops.And([ops.eq(Z0, 0), ops.eq(Zi, 0)]), ops.And([ops.gt(Z0, 0), ops.gt(Zi, 0), ok]),
                   ops.And([ops.Or([ops.gt(Z0, 0), ops.gt(Zi, 0)]), one_zero])])


def posterior_sd_ok(ops, A, b, i, t, level):
    """SD(b̄_0[·|t], b̄_i[·|t]) ≤ level, cross-multiplied:
    Σ_x max(0, w0[x]·Zi - wi[x]·Z0) ≤ level·Z0·Zi (with the zero-normaliser convention)."""
    w0, wi, Z0, Zi = posterior_parts(ops, A, b, i, t)
    sd = ops.sum(ops.max0(w0[x] * Zi - wi[x] * Z0) for x in A.rows)
    return guard_normalisers(ops, Z0, Zi, ops.le(sd, level * Z0 * Zi), one_zero=ops.ge(level, 1))


def bad_transcript(ops, A, b, t, level):
    """∃i: SD(b̄_0[·|t], b̄_i[·|t]) > level."""
    return ops.Not(ops.And(posterior_sd_ok(ops, A, b, i, t, level) for i in range(A.n)))


# --- ≈_ε, indistinguishability, additive secrecy ----------------------------------------------

def _pairs(A):
    return [(x, y) for x in A.rows for y in A.rows if x != y]


def _event_approx(ops, A, P=None, *, E):
    return ops.And(ops.le(hockey(ops, row_of(A, x), row_of(A, y), E), 0,
                          why=lambda x=x, y=y: f"rows {x}, {y}: " + violated_event(
                              A.outputs, row_of(A, x), row_of(A, y), E))
                   for x, y in _pairs(A))


EventApprox = Notion("EventApprox", (E_SPEC,), _event_approx, summary=(
    "p ≈_ε q over events (lecture notes eq. (6); Kasiviswanathan–Smith Def. 1.1 for two rows): "
    "p(S) ≤ e^ε q(S) for every event S, "
    "for every ordered pair of rows (two distributions = rows of an n=1, |𝒟|=2 table)"))


def _pointwise_approx(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(x, o), E * A.p(y, o), why=lambda x=x, y=y, o=o: f"rows {x}, {y}, o={o}")
                   for x, y in _pairs(A) for o in A.outputs)


PointwiseApprox = Notion("PointwiseApprox", (E_SPEC,), _pointwise_approx, summary=(
    "p ≈_ε q point-wise: p(o) ≤ e^ε q(o) for every outcome, every ordered pair of rows"))


def _indist(ops, A, P=None, *, E, delta):
    return ops.And(ops.le(hockey(ops, row_of(A, x), row_of(A, y), E), delta,
                          why=lambda x=x, y=y: f"rows {x}, {y}: " + violated_event(
                              A.outputs, row_of(A, x), row_of(A, y), E, delta))
                   for x, y in _pairs(A))


Indistinguishable = Notion("Indistinguishable", (E_SPEC, DELTA_SPEC), _indist, summary=(
    "(ε,δ)-indistinguishability (Kasiviswanathan–Smith Def. 3.1): Pr[X∈S] ≤ e^ε Pr[Y∈S] + δ and vice versa, "
    "for every "
    "ordered pair of rows"))


def _pointwise_indist(ops, A, P=None, *, E, delta):
    out = []
    for x, y in _pairs(A):
        X, Y = row_of(A, x), row_of(A, y)
        bad = [ops.Or([ops.gt(a, E * c), ops.gt(c, E * a)]) for a, c in zip(X, Y)]
        out.append(ops.le(ops.sum(ops.If(bd, a, 0) for bd, a in zip(bad, X)), delta,
                          why=lambda x=x, y=y: f"rows {x}, {y}: Pr[X ∈ Bad] > δ"))
    return ops.And(out)


PointwiseIndistinguishable = Notion("PointwiseIndistinguishable", (E_SPEC, DELTA_SPEC), _pointwise_indist, summary=(
    "point-wise (ε,δ)-indistinguishability (Kasiviswanathan–Smith Def. 3.2): "
    "Bad = {a: X(a) > e^ε Y(a) or Y(a) > e^ε X(a)}; "
    "X(Bad) ≤ δ and Y(Bad) ≤ δ (every ordered pair of rows, so both)"))


def _additive(ops, A, P=None, *, delta):
    return ops.And(ops.le(statistical_difference(ops, row_of(A, d), row_of(A, replace(d, i, v))), delta,
                          why=lambda i=i, d=d, v=v: f"i={i+1}, d={d}, d'={replace(d, i, v)}: SD > δ")
                   for i, d, v in A.neighbours())


AdditiveSecrecy = Notion("AdditiveSecrecy", (DELTA_SPEC,), _additive, summary=(
    "δ-additive secrecy (lecture notes eq. (8)): Pr[A(x)∈S] ≤ Pr[A(x')∈S] + δ for neighbours, i.e. SD ≤ δ"))


def _ratio_dp(ops, A, P=None, *, num, den):
    return ops.And(ops.le(den * A.p(d, o), num * A.p(replace(d, i, v), o),
                          why=lambda i=i, d=d, v=v, o=o: f"i={i+1}, d={d}, d'={replace(d, i, v)}, o={o}")
                   for i, d, v in A.neighbours() for o in A.outputs)


RatioDP = Notion("RatioDP", (NUM_SPEC, DEN_SPEC), _ratio_dp, summary=(
    "den·Pr[A(d)=o] ≤ num·Pr[A(d')=o] for neighbours (ε-DP with e^ε = num/den, cross-multiplied; "
    "den = 0 means no bound)"))


def pure_dp_at_distance(k: int) -> Notion:
    """Pr[A(x)=o] ≤ K·Pr[A(x')=o] for every pair at Hamming distance exactly k (group privacy)."""
    def body(ops, A, P=None, *, K):
        return ops.And(ops.le(A.p(x, o), K * A.p(y, o), why=lambda x=x, y=y, o=o: f"d={x}, d'={y}, o={o}")
                       for x in A.rows for y in A.rows if hamming(x, y) == k for o in A.outputs)
    return Notion(f"PureDPAtDistance{k}", (K_SPEC,), body,
                  summary=f"Pr[A(x)=o] ≤ K·Pr[A(x')=o] for x, x' at Hamming distance {k}")


def additive_secrecy_at_distance(k: int) -> Notion:
    """SD(A(x), A(x')) ≤ δ for every pair at Hamming distance exactly k."""
    def body(ops, A, P=None, *, delta):
        return ops.And(ops.le(statistical_difference(ops, row_of(A, x), row_of(A, y)), delta,
                              why=lambda x=x, y=y: f"d={x}, d'={y}: SD > δ")
                       for x in A.rows for y in A.rows if hamming(x, y) == k)
    return Notion(f"AdditiveSecrecyAtDistance{k}", (ParamSpec("delta", lower=0, meaning="a distance is ≥ 0"),), body,
                  summary=f"SD(A(x), A(x')) ≤ δ for x, x' at Hamming distance {k}")


def _cross_ratio(ops, A, P=None, *, K):
    """A(x)(t)·A(y_{-i})(t) ≤ K·A(y)(t)·A(x_{-i})(t): the b-free factor of b̄_0[x]·b̄_i[y] vs b̄_0[y]·b̄_i[x]."""
    dom = A.domain
    return ops.And(ops.le(A.p(x, t) * A.p(minus_i(y, i, dom), t), K * A.p(y, t) * A.p(minus_i(x, i, dom), t),
                          why=lambda i=i, x=x, y=y, t=t: f"i={i+1}, x={x}, y={y}, t={t}")
                   for i in range(A.n) for x in A.rows for y in A.rows if x != y for t in A.outputs)


CrossRatio = Notion("CrossRatio", (K_SPEC,), _cross_ratio, summary=(
    "A(x)(t)·A(y_{-i})(t) ≤ K·A(y)(t)·A(x_{-i})(t) for all i, x, y, t (the posterior ratio "
    "b̄_0[x|t]·b̄_i[y|t] / (b̄_0[y|t]·b̄_i[x|t]) with the belief cancelled)"))


# --- posteriors over all beliefs -------------------------------------------------------------

def _posterior_approx(ops, A, P, *, E):
    out = []
    for i in range(A.n):
        for t in A.outputs:
            w0, wi, Z0, Zi = posterior_parts(ops, A, P, i, t)
            ok = ops.And(ops.And([ops.le(w0[x] * Zi, E * wi[x] * Z0), ops.le(wi[x] * Z0, E * w0[x] * Zi)])
                         for x in A.rows)
            out.append(_why(ops, guard_normalisers(ops, Z0, Zi, ok),
                            f"i={i+1}, t={t}: b̄_0[·|t] ≈_ε b̄_i[·|t] fails"))
    return ops.And(out)


def _why(ops, holds, text):
    """Record ``text`` in the exact trace when ``holds`` is False (solver terms pass through)."""
    if ops.exact and not holds:
        ops.trace.append(text)
    return holds


PosteriorApprox = Notion("PosteriorApprox", (E_SPEC,), _posterior_approx, population="all", summary=(
    "∀ beliefs b, i, t, x: e^{-ε} b̄_i[x|t] ≤ b̄_0[x|t] ≤ e^ε b̄_i[x|t] (b̄_0 ≈_ε b̄_i point-wise; "
    "the lecture notes' Theorem 2.1, p(·|a) ≈ p_{-i}(·|a); Kasiviswanathan–Smith's proof of Theorem 2.2)"))
PosteriorApproxFor = Notion("PosteriorApproxFor", (E_SPEC,), _posterior_approx, population="given",
                            summary="PosteriorApprox for the one given belief")


def _semantic(ops, A, P, *, eps):
    out = []
    for i in range(A.n):
        for t in A.outputs:
            ok = posterior_sd_ok(ops, A, P, i, t, eps)
            out.append(_why(ops, ok, _sd_text(ops, A, P, i, t, ok)))
    return ops.And(out)


def _sd_text(ops, A, P, i, t, ok):
    """Why (i, t) fails: SD above ε, or, when one normaliser is 0 (a posterior that is not defined, which
    the zero-normaliser convention counts as SD 1), that, said as such and marked in ``ops.undefined``."""
    text = f"i={i+1}, t={t}: SD(b̄_0, b̄_i) > ε"
    if not ops.exact or ok:
        return text
    _, _, Z0, Zi = posterior_parts(ops, A, P, i, t)
    zero0, zeroi = exact_sign(Z0) == 0, exact_sign(Zi) == 0
    if zero0 == zeroi:
        return text
    which, game = ("b̄_i[·|t]", f"with entry {i+1} set to the default") if zeroi else ("b̄_0[·|t]", "as it is")
    text = (f"i={i+1}, t={t}: {which} is undefined (t has probability 0 {game} under this belief, but not in "
            f"the other game); the zero-normaliser convention counts that as SD = 1 > ε")
    ops.undefined.append(text)
    return text


SemanticPrivacy = Notion("SemanticPrivacy", (LEVEL_SPEC,), _semantic, population="all", summary=(
    "ε-semantic privacy (Kasiviswanathan–Smith Def. 2.1): ∀ beliefs b, transcripts t, i: "
    "SD(b̄_0[·|t], b̄_i[·|t]) ≤ ε "
    "(default value = first element of 𝒟). No finite sufficient family of beliefs exists in general "
    "(the worst belief can be irrational: n=1 randomized response, b(0) = 1/(1+√3)); as a hypothesis it is "
    "refined over beliefs (CEGIS) and a counterexample's tables are checked against every belief exactly. "
    "TwoPointSemanticPrivacy is its closed form on two-point beliefs: implied by it, and equal to it at "
    "n=1, |𝒟|=2"))
SemanticPrivacyFor = Notion("SemanticPrivacyFor", (LEVEL_SPEC,), _semantic, population="given",
                            summary="ε-semantic privacy for the one given belief")


def _approx_semantic(ops, A, P, *, eps, delta):
    mass = ops.sum(ops.If(bad_transcript(ops, A, P, t, eps), ops.sum(P.p(x) * A.p(x, t) for x in A.rows), 0)
                   for t in A.outputs)
    return ops.le(mass, delta, why="Pr_{x~b, t~A(x)}[∃i: SD(b̄_0[·|t], b̄_i[·|t]) > ε] > δ")


ApproxSemanticPrivacy = Notion("ApproxSemanticPrivacy", (LEVEL_SPEC, DELTA_SPEC), _approx_semantic, population="all",
                               summary=("(ε,δ)-semantic privacy (Kasiviswanathan–Smith Def. 2.3): "
                                        "∀b: Pr_{x~b, t~A(x)}[∃i: "
                                        "SD(b̄_0[·|t], b̄_i[·|t]) > ε] ≤ δ"))
ApproxSemanticPrivacyFor = Notion("ApproxSemanticPrivacyFor", (LEVEL_SPEC, DELTA_SPEC), _approx_semantic,
                                  population="given", summary="(ε,δ)-semantic privacy for the one given belief")


def _oblivious_mass_ok(ops, A, P, x, eps, delta):
    mass = ops.sum(ops.If(bad_transcript(ops, A, P, t, eps), A.p(x, t), 0) for t in A.outputs)
    return ops.le(mass, delta, why=lambda: f"real database {x}: Pr_{{t~A(x)}}[∃i: SD > ε] > δ")


def _oblivious(ops, A, P, *, eps, delta):
    return ops.And(_oblivious_mass_ok(ops, A, P, x, eps, delta) for x in A.rows)


RealityObliviousSemanticPrivacy = Notion(
    "RealityObliviousSemanticPrivacy", (LEVEL_SPEC, DELTA_SPEC), _oblivious, population="all",
    summary=("reality-oblivious (ε,δ)-SP (Kasiviswanathan–Smith Def. A.1): "
             "∀b ∀x: Pr_{t~A(x)}[∃i: SD(b̄_0[·|t], b̄_i[·|t]) > ε] ≤ δ"))
RealityObliviousSemanticPrivacyFor = Notion(
    "RealityObliviousSemanticPrivacyFor", (LEVEL_SPEC, DELTA_SPEC), _oblivious, population="given",
    summary="reality-oblivious (ε,δ)-SP for the one given belief")


def informed(ops, b, x):
    """b is informed for x (Kasiviswanathan–Smith, Appendix A): ∃j such that every y with b(y) > 0
    agrees with x off j."""
    return ops.Or(ops.And(ops.eq(b.p(y), 0) for y in b.probs if any(y[k] != x[k] for k in range(len(x)) if k != j))
                  for j in range(len(x)))


def _informed_oblivious(ops, A, P, *, eps, delta):
    return ops.And(ops.Implies(informed(ops, P, x), _oblivious_mass_ok(ops, A, P, x, eps, delta)) for x in A.rows)


InformedSemanticPrivacy = Notion(
    "InformedSemanticPrivacy", (LEVEL_SPEC, DELTA_SPEC), _informed_oblivious, population="all",
    summary=("reality-oblivious (ε,δ)-SP for informed beliefs (Kasiviswanathan–Smith, Appendix A): "
             "∀x, ∀b informed for x: "
             "Pr_{t~A(x)}[∃i: SD(b̄_0[·|t], b̄_i[·|t]) > ε] ≤ δ"))


def _two_point(ops, A, P=None, *, eps):
    return ops.Or([ops.ge(eps, 1), ops.And(
        ops.le(A.p(d, o) * (1 - eps) ** 2, A.p(replace(d, i, v), o) * (1 + eps) ** 2,
               why=lambda i=i, d=d, v=v, o=o: f"i={i+1}, d={d}, d'={replace(d, i, v)}, o={o}")
        for i, d, v in A.neighbours() for o in A.outputs)])


TwoPointSemanticPrivacy = Notion("TwoPointSemanticPrivacy", (LEVEL_SPEC,), _two_point, summary=(
    "ε-semantic privacy restricted to beliefs on two neighbours (so SemanticPrivacy implies it; beyond "
    "n=1, |𝒟|=2 it may be weaker), in closed form: ε ≥ 1, or "
    "Pr[A(d)=o]·(1-ε)² ≤ Pr[A(d')=o]·(1+ε)² for neighbours. Proof: for b on {x, y} = {x, x[i→v]}, "
    "b̄_i = b (both run as the same x_{-i}) and b̄_0 tilts b by r = A(x)(t)/A(y)(t); "
    "max over the weight β of r·β/(rβ+1-β) - β is (√r-1)/(√r+1), which is ≤ ε iff r ≤ ((1+ε)/(1-ε))². "
    "At n=1 every belief is on {0,1} when |𝒟|=2, so there it is exactly ε-semantic privacy "
    "(the engine proves TwoPointSemanticPrivacy ⇒ SemanticPrivacy there)"))


def _mostly_indist(ops, X, fam, P=None, *, E, delta):
    """Pr_{a←X}[A(a), A'(a) not (ε,δ)-indistinguishable] ≤ δ, with X = row of the first table
    (the first table's rows are all equal: X does not depend on which of A, A' is run) and
    fam[a] the table whose two rows are A(a) and A'(a)."""
    row0 = X.rows[X.dbs[0]]
    return ops.le(ops.sum(ops.If(ops.Not(_indist(ops, fam[a], E=E, delta=delta)), row0[j], 0)
                          for j, a in enumerate(X.outputs)), delta,
                  why="Pr_{a←X}[A(a), A'(a) not (ε,δ)-indistinguishable] > δ")


MostlyIndistinguishable = Notion("MostlyIndistinguishable", (E_SPEC, DELTA_SPEC), _mostly_indist, arity=2, summary=(
    "with probability ≥ 1-δ over a ← X, the rows of A(a) are (ε,δ)-indistinguishable "
    "(Kasiviswanathan–Smith Claim 3.3 part 4); "
    "applied to (X, family a ↦ A(a))"))



ALL = [EventApprox, PointwiseApprox, Indistinguishable, PointwiseIndistinguishable, AdditiveSecrecy, RatioDP,
       CrossRatio, PosteriorApprox, PosteriorApproxFor, SemanticPrivacy, SemanticPrivacyFor, ApproxSemanticPrivacy,
       ApproxSemanticPrivacyFor, RealityObliviousSemanticPrivacy, RealityObliviousSemanticPrivacyFor,
       InformedSemanticPrivacy, TwoPointSemanticPrivacy, MostlyIndistinguishable]


def _spread(ops, A, P=None, *, K):
    out = []
    for x, y in _pairs(A):
        p, q = row_of(A, x), row_of(A, y)
        for a in range(len(p)):
            for c in range(len(p)):
                if a != c:
                    out.append(ops.le(p[a] * q[c], K * p[c] * q[a], why=lambda x=x, y=y, a=a, c=c:
                                      f"rows {x}, {y}: p({a})q({c}) > K·p({c})q({a})"))
    return ops.And(out)


Spread = Notion("Spread", (K_SPEC,), _spread, summary=(
    "p(a)·q(c) ≤ K·p(c)·q(a) for all outcomes a, c and every ordered pair of rows p, q: p is a tilt "
    "p ∝ u·q with max u / min u ≤ K (same support). With p, q = b̄_0[·|t], b̄_i[·|t] this is what "
    "CrossRatio gives after multiplying by b(x)·b(y) ≥ 0"))


def locally_indist(ops, A, x, E, delta):
    """x ∈ ℰ (Kasiviswanathan–Smith Theorem 5.1): A(x) and A(y) are (ε,δ)-indistinguishable (both
    directions) for every neighbour y of x."""
    nb = [replace(x, i, v) for i in range(A.n) for v in A.domain if v != x[i]]
    return ops.And(ops.And([ops.le(hockey(ops, row_of(A, x), row_of(A, y), E), delta),
                            ops.le(hockey(ops, row_of(A, y), row_of(A, x), E), delta)]) for y in nb)


def conditional_semantic_privacy(ops, A, P, *, E, delta, eps2, delta2):
    """Kasiviswanathan–Smith Theorem 5.1: ℰ = {x : A(x), A(y) (ε,δ)-indistinguishable for every neighbour y};
    if b(ℰ) ≥ 1 - δ then A is (ε', δ')-semantically private for b."""
    mass = ops.sum(ops.If(locally_indist(ops, A, x, E, delta), P.p(x), 0) for x in A.rows)
    return ops.Implies(ops.ge(mass, 1 - delta), _approx_semantic(ops, A, P, eps=eps2, delta=delta2))


LocallyDPSemanticPrivacy = Notion(
    "LocallyDPSemanticPrivacy", (E_SPEC, DELTA_SPEC, ParamSpec("eps2", lower=0), ParamSpec("delta2", lower=0)),
    conditional_semantic_privacy, population="all",
    summary="∀b: b(ℰ) ≥ 1-δ ⇒ (ε', δ')-SP for b, ℰ = databases whose neighbours are all (ε,δ)-indistinguishable")

ALL += [Spread, LocallyDPSemanticPrivacy]


@dataclass(frozen=True)
class DeterministicMap(Term):
    """A fixed deterministic post-processing map o ↦ f[o] on outputs 0..len(f)-1 (a 0/1 kernel
    for :class:`~symbolic.core.terms.PostProcess`; its outputs are 0..max f)."""

    f: tuple

    def free(self):
        return []

    def eval(self, ops, env):
        m = max(self.f) + 1
        k = {o: tuple(1 if self.f[o] == j else 0 for j in range(m)) for o in range(len(self.f))}
        k[None] = tuple(range(m))
        return k

    def __repr__(self):
        return "DeterministicMap(" + "".join(map(str, self.f)) + ")"
