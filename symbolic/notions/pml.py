"""Pointwise maximal leakage (PML) notions for the search: polynomial, log-free, written once.

Source: Saeidian, Cervia, Oechtering, Skoglund, "Rethinking Disclosure Prevention with Pointwise
Maximal Leakage" (§2 Defs. 2.3-2.4, Thms 1-2; §3 Def. 3.2, Thms 3-4, Props 5, 7, Thm 6, Cor. 8;
§4 Defs. 4-5, Thms 9-11, Remark 13). Formulas lost in extraction follow
``notes/pml-formulas.md`` and ``/work/notes/S-spec.md`` (reconstructions, checked as claims).

The secret is the database X ∈ 𝒟^n (n = 1: a single secret on 𝒟); the mechanism A is the kernel
P_{Y|X}; an attribute U is a second free kernel 𝒟^n → 𝒰 (so U - X - Y holds by construction).
Every ε-statement is polynomial in E = e^ε:

    ℓ_P(X→y) ≤ ε  ⟺  A(x)(y) ≤ E·P_Y(y) for every x with P(x) > 0       (Theorem 1)

(outputs with P_Y(y) = 0 leak nothing: then every such A(x)(y) is 0 and the inequality holds).

Notions quantifying over *all full-support priors* (population ``"all"``/``"product"``) use the
**continuous extension** of the condition to the closed simplex (the inequality for every x, or
for every slice, multiplied out so that no division appears). Lemma (used by every ∀-prior notion
below): if g(P, A) ≤ 0 is a polynomial inequality in the prior that coincides with "PML ≤ ε" on
full-support priors, then "∀ full-support P: PML ≤ ε" ⟺ "∀ P in the closed simplex: g ≤ 0".
Proof: ⇐ is restriction. ⇒: full-support priors are dense in the closed simplex and
{P: g(P, A) ≤ 0} is closed (g is continuous), so it contains the closure. ∎ The engine's
population unknowns are ≥ 0 only; with this lemma no strict positivity is needed, and the
suprema that are not attained (Remark 13) become maxima at vertices of the closure, which is what
the ``sufficient`` families below use. At a boundary prior the body is the continuous extension,
not the support-restricted PML; a witness population reported for a violated ∀-prior notion may
be such a boundary prior, and then every full-support prior close enough to it violates the
notion too (the violation set is open).

Single-prior notions (population ``"given"``, the true prior of Theorems 4, 6, Prop. 7, Cor. 8)
use the exact support-restricted definition.
"""
from __future__ import annotations


from symbolic.notions.base import E_SPEC, Notion
from symbolic.model.population import point_mass
from symbolic.core.tables import databases, replace


# --- helpers ---------------------------------------------------------------------------------

def output_prob(ops, A, P, o):
    """P_Y(o) = Σ_x P(x)·A(x)(o)."""
    return ops.sum(P.p(d) * A.p(d, o) for d in A.rows)


def _rests(A, i):
    return sorted({d[:i] + d[i + 1:] for d in A.rows})


def _put(r, i, v):
    return r[:i] + (v,) + r[i:]


def _point_masses(n, domain):
    """Point masses on each database (they are product populations too). See each notion's
    docstring for why they decide it for a fixed mechanism."""
    return [point_mass(d, domain=domain) for d in databases(n, domain)]


# --- single prior (the true distribution) -----------------------------------------------------

def _full_support(ops, *mechs, P):
    return ops.And(ops.gt(P.p(d), 0, why=lambda d=d: f"P({d}) = 0") for d in P.probs)


FullSupport = Notion("FullSupport", (), _full_support, population="given", arity=0,
                     summary="the prior has full support: P(x) > 0 for every x (the set 𝒬_X)")


def _pml_under(ops, A, P, *, E):
    """S-EPML with 𝒫 = {P}: ∀y ∀x with P(x) > 0: A(x)(y) ≤ E·P_Y(y)  (Theorem 1)."""
    return ops.And(ops.Implies(ops.gt(P.p(d), 0),
                               ops.le(A.p(d, o), E * output_prob(ops, A, P, o),
                                      why=lambda d=d, o=o: f"x={d}, y={o}: P(y|x) > E·P_Y(y)"))
                   for d in A.rows for o in A.outputs)


PMLUnder = Notion("PMLUnder", (E_SPEC,), _pml_under, population="given",
                  summary="ε-PML under the given prior: ℓ_P(X→y) ≤ ε for every y")


def _joint_uy(ops, A, U, P, u, o):
    return ops.sum(P.p(d) * U.p(d, u) * A.p(d, o) for d in A.rows)


def _attribute_prob(ops, U, P, u):
    return ops.sum(P.p(d) * U.p(d, u) for d in U.rows)


def _discloses_at(ops, A, U, P, u, o):
    """y discloses U=u under P: P_Y(y) > 0 and P(U=u, y) = P_Y(y). Both are sums of non-negative
    terms (P(x)A(x)(y) and P(x)A(x)(y)(1 - U(x)(u)), as U(x)(u) ≤ 1), so they hold iff some term of
    the first is positive and every term of the second is zero, i.e. iff some x has P(x) > 0 and
    A(x)(y) > 0, and every x has P(x) = 0 or U(x)(u) = 1 or A(x)(y) = 0. This factored form is
    exact for every prior and keeps the solver away from cubic equalities."""
    some = ops.Or(ops.And([ops.gt(P.p(d), 0), ops.gt(A.p(d, o), 0)]) for d in A.rows)
    every = ops.And(ops.Or([ops.eq(P.p(d), 0), ops.eq(U.p(d, u), 1), ops.eq(A.p(d, o), 0)]) for d in A.rows)
    return ops.And([some, every])


def _discloses(ops, A, U, P):
    """Definition 3.2 [R]: some y with P_Y(y) > 0 makes the posterior of U a point mass."""
    return ops.Or(_discloses_at(ops, A, U, P, u, o) for o in A.outputs for u in U.outputs)


def _no_disclosure(ops, A, U, P):
    out = []
    for o in A.outputs:
        for u in U.outputs:
            ok = ops.Not(_discloses_at(ops, A, U, P, u, o))
            if ops.exact and not ok:
                ops.trace.append(f"y={o} discloses U={u}: P(U={u}|y) = 1")
            out.append(ok)
    return ops.And(out)


Discloses = Notion("Discloses", (), _discloses, population="given", arity=2,
                   summary="(A, U): some y with P_Y(y) > 0 has P(U=u|y) = 1 (Definition 3.2)")
NoDisclosure = Notion("NoDisclosure", (), _no_disclosure, population="given", arity=2,
                      summary="(A, U): no y with P_Y(y) > 0 makes the posterior of U a point mass")


def _adversary(body):
    def f(ops, A, U, P):
        return ops.Implies(_full_support(ops, P=P), body(ops, A, U, P))
    return f


def _all_adversaries_disclosure(n, domain):
    """Uniform prior: for a full-support prior Q, y discloses u iff some A(x)(y) > 0 and every x
    with A(x)(y) > 0 has U(x)(u) = 1 (Q(x) > 0 for all x), which does not depend on Q; so one
    full-support prior decides the notion (this is Theorem 3's content for finite 𝒴)."""
    from symbolic.model.population import uniform
    return [uniform(n=n, domain=domain)]


DisclosesToAllAdversaries = Notion(
    "DisclosesToAllAdversaries", (), _adversary(_discloses), population="all", arity=2,
    sufficient=_all_adversaries_disclosure,
    summary="(A, U): U is disclosed to every adversary Q with full support")
NoDisclosureToAnyAdversary = Notion(
    "NoDisclosureToAnyAdversary", (), _adversary(_no_disclosure), population="all", arity=2,
    sufficient=_all_adversaries_disclosure,
    summary="(A, U): U is disclosed to no adversary Q with full support")


def _min_entropy_above(ops, U, P, *, E):
    return ops.And(ops.lt(E * _attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"E·P_U({u}) ≥ 1")
                   for u in U.outputs)


def _min_entropy_at_least(ops, U, P, *, E):
    return ops.And(ops.le(E * _attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"E·P_U({u}) > 1")
                   for u in U.outputs)


MinEntropyAbove = Notion("MinEntropyAbove", (E_SPEC,), _min_entropy_above, population="given",
                         summary="(U): H_∞(U) > ε, i.e. E·P_U(u) < 1 for every u")
MinEntropyAtLeast = Notion("MinEntropyAtLeast", (E_SPEC,), _min_entropy_at_least, population="given",
                           summary="(U): H_∞(U) ≥ ε, i.e. E·P_U(u) ≤ 1 for every u")


def _nondegenerate(ops, U, P):
    return ops.And(ops.lt(_attribute_prob(ops, U, P, u), 1, why=lambda u=u: f"P_U({u}) = 1") for u in U.outputs)


NondegenerateAttribute = Notion("NondegenerateAttribute", (), _nondegenerate, population="given",
                                summary="(U): H_∞(U) > 0, i.e. P_U(u) < 1 for every u")


def _secret_entropy_above(ops, *m, P, E):
    return ops.And(ops.lt(E * P.p(d), 1, why=lambda d=d: f"E·P({d}) ≥ 1") for d in P.probs)


def _below_log_inv_pmin(ops, *m, P, E):
    return ops.Or(ops.lt(E * P.p(d), 1) for d in P.probs)


SecretEntropyAbove = Notion("SecretEntropyAbove", (E_SPEC,), _secret_entropy_above, population="given", arity=0,
                            summary="ε < H_∞(X) = log 1/max_x P(x): E·P(x) < 1 for every x")
EpsBelowLogInvPmin = Notion("EpsBelowLogInvPmin", (E_SPEC,), _below_log_inv_pmin, population="given", arity=0,
                            summary="ε < log 1/p_min: E·P(x) < 1 for some x")


def _at_least_log_inv_one_minus_pmin(ops, *m, P, E):
    return ops.Or(ops.ge(E * (1 - P.p(d)), 1) for d in P.probs)


def _at_least_log_inv_pmin(ops, *m, P, E):
    return ops.Or(ops.ge(E * P.p(d), 1) for d in P.probs)


EpsAtLeastLogInvOneMinusPmin = Notion(
    "EpsAtLeastLogInvOneMinusPmin", (E_SPEC,), _at_least_log_inv_one_minus_pmin, population="given", arity=0,
    summary="ε ≥ log 1/(1 - p_min): E·(1 - P(x)) ≥ 1 for some x")
EpsAtLeastLogInvPmin = Notion("EpsAtLeastLogInvPmin", (E_SPEC,), _at_least_log_inv_pmin, population="given",
                              arity=0, summary="ε ≥ log 1/p_min: E·P(x) ≥ 1 for some x")


def _singles_out_at(ops, A, P, x, o):
    """P(X=x|y) = 1 with P_Y(y) > 0: P(x)A(x)(y) > 0 and every other x' has P(x')A(x')(y) = 0
    (sums of non-negative terms, as in :func:`_discloses_at`)."""
    return ops.And([ops.gt(P.p(x), 0), ops.gt(A.p(x, o), 0)]
                   + [ops.Or([ops.eq(P.p(d), 0), ops.eq(A.p(d, o), 0)]) for d in A.rows if d != x])


def _singles_out(ops, A, P):
    return ops.Or(_singles_out_at(ops, A, P, d, o) for d in A.rows for o in A.outputs)


def _no_singling_out(ops, A, P):
    out = []
    for d in A.rows:
        for o in A.outputs:
            ok = ops.Not(_singles_out_at(ops, A, P, d, o))
            if ops.exact and not ok:
                ops.trace.append(f"y={o} singles out X={d}")
            out.append(ok)
    return ops.And(out)


SinglesOut = Notion("SinglesOut", (), _singles_out, population="given",
                    summary="some y with P_Y(y) > 0 makes P(X=x|y) = 1 (singling out, §3.3)")
NoSinglingOut = Notion("NoSinglingOut", (), _no_singling_out, population="given",
                       summary="no y with P_Y(y) > 0 makes the posterior of X a point mass")


# --- leakage capacity (Def. 2.4, Theorem 2) -----------------------------------------------------

def _zero_pattern(ops, A, P=None):
    return ops.Or(ops.And([ops.gt(A.p(x, o), 0), ops.eq(A.p(y, o), 0)])
                  for o in A.outputs for x in A.rows for y in A.rows if x != y)


def _no_zero_pattern(ops, A, P=None):
    return ops.And(ops.Implies(ops.gt(A.p(x, o), 0), ops.gt(A.p(y, o), 0,
                               why=lambda x=x, y=y, o=o: f"P({o}|{x}) > 0 = P({o}|{y})"))
                   for o in A.outputs for x in A.rows for y in A.rows if x != y)


ZeroPattern = Notion("ZeroPattern", (), _zero_pattern,
                     summary="some y, x, x' with P(y|x) > 0 = P(y|x') (infinite capacity, L59)")
NoZeroPattern = Notion("NoZeroPattern", (), _no_zero_pattern,
                       summary="every column P(y|·) is zero everywhere or nowhere")


def _min_positive_entry(ops, A, P=None, *, E):
    return ops.And(ops.Or([ops.eq(A.p(d, o), 0), ops.ge(E * A.p(d, o), 1)]) for d in A.rows for o in A.outputs)


MinPositiveEntry = Notion("MinPositiveEntry", (E_SPEC,), _min_positive_entry,
                          summary="every non-zero entry P(y|x) is at least 1/E")


def _lift(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(x, o), E * A.p(y, o), why=lambda x=x, y=y, o=o: f"P({o}|{x}) > E·P({o}|{y})")
                   for o in A.outputs for x in A.rows for y in A.rows if x != y)


CapacityClosedForm = Notion("CapacityClosedForm", (E_SPEC,), _lift, summary=(
    "Theorem 2's closed form: max_y max_{x,x'} P(y|x)/P(y|x') ≤ E"))


# --- ε-PML over families of priors -----------------------------------------------------------

def _pml_ext(ops, A, P, *, E):
    """Continuous extension of ℓ_P(X→y) ≤ ε: A(x)(y) ≤ E·P_Y(y) for every x and y."""
    return ops.And(ops.le(A.p(d, o), E * output_prob(ops, A, P, o),
                          why=lambda d=d, o=o: f"x={d}, y={o}: P(y|x) > E·P_Y(y)")
                   for d in A.rows for o in A.outputs)


_PML_FAMILY_DOC = """Point masses decide it for a fixed A. For fixed A each inequality
A(x)(y) ≤ E·Σ_x' P(x')A(x')(y) is affine in P (for product P: multi-affine in the marginals),
so it holds on the closed simplex (product of simplices) iff it holds at the vertices, the point
masses δ_x'; by the module's lemma that is the same as holding for every full-support prior. At
δ_x' it reads A(x)(y) ≤ E·A(x')(y)."""

PMLAllPriors = Notion("PMLAllPriors", (E_SPEC,), _pml_ext, population="all", sufficient=_point_masses,
                      summary="sup over full-support priors of ℓ(X→y) ≤ ε for every y (S-TH11 (1))")
PMLProductPriors = Notion("PMLProductPriors", (E_SPEC,), _pml_ext, population="product",
                          sufficient=_point_masses,
                          summary="sup over full-support product priors of ℓ(X→y) ≤ ε (S-TH11 (2))")
LeakageCapacityAtMost = Notion("LeakageCapacityAtMost", (E_SPEC,), _pml_ext, population="all",
                               sufficient=_point_masses,
                               summary="C(P_{Y|X}) = sup_{P∈𝒬_X} sup_y ℓ_P(X→y) ≤ ε (Definition 2.4)")
_point_masses.__doc__ += "\n\n" + _PML_FAMILY_DOC


def _cond_pml(ops, A, P, *, E):
    """ℓ(X_i→y | X_{-i}=r) ≤ ε for every i, r, y, multiplied by the slice mass m_r:
    A(r⊕u)(y)·Σ_w P(r⊕w) ≤ E·Σ_v P(r⊕v)·A(r⊕v)(y) for every u. Affine in P (and multi-affine in
    the marginals of a product P); at a point mass δ_d it is DP's A(d[i→u])(y) ≤ E·A(d)(y) for the
    slice of d and 0 ≤ 0 elsewhere, so point masses decide it (module lemma)."""
    return ops.And(ops.le(lhs, rhs, why=lambda i=i, r=r, u=u, o=o: f"i={i+1}, x_-i={r}, u={u}, y={o}: "
                                                                  f"P(y|X_i=u, x_-i) > E·P(y|x_-i)")
                   for i, r, u, o, lhs, rhs in _cond_terms(ops, A, P, E))


def _cond_terms(ops, A, P, E):
    """(i, r, u, y, A(r⊕u)(y)·m_r, E·Σ_v P(r⊕v)·A(r⊕v)(y)) for every index, rest, value and output."""
    for i in range(A.n):
        for r in _rests(A, i):
            mass = ops.sum(P.p(_put(r, i, w)) for w in A.domain)
            for o in A.outputs:
                rhs = E * ops.sum(P.p(_put(r, i, v)) * A.p(_put(r, i, v), o) for v in A.domain)
                for u in A.domain:
                    yield i, r, u, o, A.p(_put(r, i, u), o) * mass, rhs


ConditionalPMLAllPriors = Notion(
    "ConditionalPMLAllPriors", (E_SPEC,), _cond_pml, population="all", sufficient=_point_masses,
    summary="sup over full-support P of max_i ℓ(X_i→y | X_-i=x_-i) ≤ ε (S-TH9 (1))")
ConditionalPMLProductPriors = Notion(
    "ConditionalPMLProductPriors", (E_SPEC,), _cond_pml, population="product", sufficient=_point_masses,
    summary="the same over full-support product priors (S-TH9 (2))")


def _entry_pml_product(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ ε for a product prior: P(y|X_i=u) = Σ_r P(X_-i=r)·A(r⊕u)(y) ≤ E·P_Y(y) for every u
    (independence: P(X_-i=r | X_i=u) = P(X_-i=r)). Multi-affine in the marginals, so the product
    point masses decide it; at δ_d it is A(d[i→u])(y) ≤ E·A(d)(y) (source eq. (7), module lemma)."""
    out = []
    for i in range(A.n):
        rests = _rests(A, i)
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                lhs = ops.sum(P.marginal_rest(ops, i, r) * A.p(_put(r, i, u), o) for r in rests)
                out.append(ops.le(lhs, E * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: "
                                  f"P(y|X_i=u) > E·P_Y(y)"))
    return ops.And(out)


EntryPMLProductPriors = Notion(
    "EntryPMLProductPriors", (E_SPEC,), _entry_pml_product, population="product", sufficient=_point_masses,
    summary="sup over full-support product P of max_i ℓ(X_i→y) ≤ ε (S-TH9 (3))")


def _entry_pml_joint(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ ε for a correlated prior, multiplied by P(X_i=u):
    Σ_{x_i=u} P(x)A(x)(y) ≤ E·P(X_i=u)·P_Y(y). No finite family of priors decides it (the
    supremum is approached along P = tδ_a + (1-t)δ_b, t → 0, and both sides vanish at t = 0), so
    it has no ``sufficient`` family; see :func:`entry_pml_all_priors_exact`."""
    out = []
    for i, u, o, pu, joint, py in _entry_terms(ops, A, P):
        out.append(ops.le(joint, E * pu * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: "
                          f"P(y|X_i=u) > E·P_Y(y)"))
    return ops.And(out)


EntryPMLAllPriors = Notion(
    "EntryPMLAllPriors", (E_SPEC,), _entry_pml_joint, population="all",
    summary="sup over full-support (correlated) P of max_i ℓ(X_i→y) ≤ ε (S-TH11 (3))")


def entry_pml_all_priors_exact(A, E) -> bool:
    """Exact decision of :data:`EntryPMLAllPriors` for a concrete table A: the level is the
    free-lunch ratio max_y max_{x≠x'} A(x)(y)/A(x')(y) (proof: ≤ by pre-processing ℓ(X_i→y) ≤
    ℓ(X→y) and Theorem 2; ≥ by the two-point priors tδ_a + (1-t)δ_b with a_i ≠ b_i, under which
    exp ℓ(X_i→y) = A(a)(y)/(tA(a)(y) + (1-t)A(b)(y)) → A(a)(y)/A(b)(y) as t → 0, and mixing in
    η·uniform keeps it full-support; see S-TH11 in theorems/saeidian_pml.py, which checks the
    limit in sympy)."""
    from symbolic.core.ops import ExactOps
    return _lift(ExactOps(), A, E=E)


# --- pre-processing, conditional PML for composition --------------------------------------------

def _pre(ops, A, U, P):
    """ℓ(U→y) ≤ ℓ(X→y) for every y: every u has P(y|u) ≤ max_{x: P(x)>0} A(x)(y), written as
    Σ_x P(x)U(x)(u)A(x)(y) ≤ P_U(u)·A(x*)(y) for some x* with P(x*) > 0."""
    out = []
    for o in A.outputs:
        for u in U.outputs:
            j = _joint_uy(ops, A, U, P, u, o)
            pu = _attribute_prob(ops, U, P, u)
            out.append(ops.Or([ops.And([ops.gt(P.p(d), 0), ops.le(j, pu * A.p(d, o))]) for d in A.rows]))
    return ops.And(out)


PreProcessing = Notion("PreProcessing", (), _pre, population="given", arity=2,
                       summary="(A, U): ℓ(U→y) ≤ ℓ(X→y) for every y (U - X - Y)")


def _cond_second(ops, A1, A2, P, *, E):
    """ℓ(X→y2 | Y1=y1) ≤ ε for every y1, y2: the prior is the posterior P(x|y1) ∝ P(x)A1(x)(y1),
    A2 may depend on y1 (a family). Multiplied by P(y1):
    for x with P(x)A1(x)(y1) > 0: A2<y1>(x)(y2)·P(y1) ≤ E·Σ_x' P(x')A1(x')(y1)A2<y1>(x')(y2)."""
    out = []
    fam = A2 if isinstance(A2, dict) else {o1: A2 for o1 in A1.outputs}
    for o1 in A1.outputs:
        p1 = output_prob(ops, A1, P, o1)
        K2 = fam[o1]
        for o2 in K2.outputs:
            rhs = E * ops.sum(P.p(d) * A1.p(d, o1) * K2.p(d, o2) for d in A1.rows)
            for d in A1.rows:
                out.append(ops.Implies(ops.gt(P.p(d) * A1.p(d, o1), 0), ops.le(K2.p(d, o2) * p1, rhs)))
    return ops.And(out)


ConditionalPMLGivenFirst = Notion("ConditionalPMLGivenFirst", (E_SPEC,), _cond_second, population="given", arity=2,
                                  summary="(A1, A2): ℓ(X→y2 | Y1=y1) ≤ ε for every y1, y2")


# --- Remark 13: attainment ------------------------------------------------------------------

def _e_above_one(ops, *m, P=None, E):
    return ops.gt(E, 1)


EAboveOne = Notion("EAboveOne", (E_SPEC,), _e_above_one, arity=0, summary="ε > 0, i.e. E > 1")


def _tight_dp(ops, A, P=None, *, E):
    return ops.Or(ops.eq(A.p(d, o), E * A.p(replace(d, i, v), o)) for i, d, v in A.neighbours() for o in A.outputs)


def _tight_flp(ops, A, P=None, *, E):
    return ops.Or(ops.eq(A.p(x, o), E * A.p(y, o)) for x in A.rows for y in A.rows if x != y for o in A.outputs)


TightDP = Notion("TightDP", (E_SPEC,), _tight_dp, summary="some neighbour ratio equals E exactly")
TightFLP = Notion("TightFLP", (E_SPEC,), _tight_flp, summary="some pair ratio equals E exactly")


def _not_attained_pml(ops, A, P, *, E):
    return ops.And(ops.Implies(ops.gt(output_prob(ops, A, P, o), 0),
                               ops.lt(A.p(d, o), E * output_prob(ops, A, P, o),
                                      why=lambda d=d, o=o: f"x={d}, y={o}: exp ℓ = E attained"))
                   for d in A.rows for o in A.outputs)


def _not_attained_cond(ops, A, P, *, E):
    return ops.And(ops.Implies(ops.gt(rhs, 0), ops.lt(lhs, rhs, why=lambda i=i, r=r, u=u, o=o:
                                                      f"i={i+1}, x_-i={r}, u={u}, y={o}: attained"))
                   for i, r, u, o, lhs, rhs in _cond_terms(ops, A, P, E))


def _not_attained_entry(ops, A, P, *, E):
    out = []
    for i in range(A.n):
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                lhs = ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u)
                out.append(ops.Implies(ops.gt(py, 0), ops.lt(lhs, E * P.marginal(ops, i, u) * py,
                           why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}: attained")))
    return ops.And(out)


PMLBelowLevel = Notion("PMLBelowLevel", (E_SPEC,), _not_attained_pml, population="given",
                       summary="under the given prior every ℓ(X→y) with P_Y(y) > 0 is < ε")
ConditionalPMLBelowLevel = Notion("ConditionalPMLBelowLevel", (E_SPEC,), _not_attained_cond, population="given",
                                  summary="under the given prior every ℓ(X_i→y|x_-i) is < ε")
EntryPMLBelowLevel = Notion("EntryPMLBelowLevel", (E_SPEC,), _not_attained_entry, population="given",
                            summary="under the given prior every ℓ(X_i→y) with P_Y(y) > 0 is < ε")


def _is_product(ops, *m, P):
    n = P.n
    if n == 1:
        return True
    marg = lambda j, v: P.marginal(ops, j, v)
    out = []
    for d in P.probs:
        t = marg(0, d[0])
        for j in range(1, n):
            t = t * marg(j, d[j])
        out.append(ops.eq(P.p(d), t))
    return ops.And(out)


IsProduct = Notion("IsProduct", (), _is_product, population="given", arity=0,
                   summary="the given prior is the product of its marginals")


# --- S-TH6 (second part, reconstructed bound) and S-TH10 --------------------------------------

def _posterior_bound(ops, A, U, P, *, E):
    """P(U=u|y) ≤ q_u/(q_u + (1-q_u)/E), q_u = P_U(u), E = e^C: multiplied out,
    P(u, y)·(E·q_u + 1 - q_u) ≤ E·q_u·P_Y(y)."""
    out = []
    for o in A.outputs:
        py = output_prob(ops, A, P, o)
        for u in U.outputs:
            q = _attribute_prob(ops, U, P, u)
            out.append(ops.le(_joint_uy(ops, A, U, P, u, o) * (E * q + 1 - q), E * q * py,
                              why=lambda u=u, o=o: f"P(U={u}|y={o}) exceeds the bound"))
    return ops.And(out)


PosteriorBound = Notion("PosteriorBound", (E_SPEC,), _posterior_bound, population="given", arity=2,
                        summary="(A, U): P(U=u|y) ≤ q_u/(q_u + (1-q_u)e^{-C}) for every u, y (S-TH6 [R])")


def _entry_group_bound(ops, A, P, *, E):
    """ℓ(X_i→y) ≤ -log(P(X_i=u) + (1 - P(X_i=u))E^{-n}) for the maximising u, multiplied out:
    P(y, X_i=u)·(P_u·E^n + 1 - P_u) ≤ P_u·E^n·P_Y(y)."""
    En = E ** A.n
    return ops.And(ops.le(j * (pu * En + 1 - pu), pu * En * py, why=lambda i=i, u=u, o=o: f"i={i+1}, u={u}, y={o}")
                   for i, u, o, pu, j, py in _entry_terms(ops, A, P))


def _entry_terms(ops, A, P):
    """(i, u, y, P(X_i=u), P(y, X_i=u), P_Y(y)) for every index, value and output."""
    for i in range(A.n):
        for o in A.outputs:
            py = output_prob(ops, A, P, o)
            for u in A.domain:
                yield i, u, o, P.marginal(ops, i, u), ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u), py


EntryLeakageGroupBound = Notion("EntryLeakageGroupBound", (E_SPEC,), _entry_group_bound, population="given",
                                summary="ℓ(X_i→y) ≤ -log(P(x_i) + (1-P(x_i))e^{-nε}) (S-TH10 upper bound)")

ALL = [FullSupport, PMLUnder, Discloses, NoDisclosure, DisclosesToAllAdversaries, NoDisclosureToAnyAdversary,
       MinEntropyAbove, MinEntropyAtLeast, NondegenerateAttribute, SecretEntropyAbove, EpsBelowLogInvPmin,
       EpsAtLeastLogInvOneMinusPmin, EpsAtLeastLogInvPmin, SinglesOut, NoSinglingOut, ZeroPattern,
       NoZeroPattern, MinPositiveEntry, CapacityClosedForm, PMLAllPriors, PMLProductPriors,
       LeakageCapacityAtMost, ConditionalPMLAllPriors, ConditionalPMLProductPriors, EntryPMLProductPriors,
       EntryPMLAllPriors, PreProcessing, ConditionalPMLGivenFirst, EAboveOne, TightDP, TightFLP,
       PMLBelowLevel, ConditionalPMLBelowLevel, EntryPMLBelowLevel, IsProduct, PosteriorBound,
       EntryLeakageGroupBound]


# --- S-TH11 (3): pre-processing onto an entry, and the limit along two-point priors ------------

def _entry_pre(ops, A, P):
    """ℓ(X_i→y) ≤ ℓ(X→y) for every i and y (pre-processing with U = X_i), under the given prior:
    for every u, Σ_{x_i=u} P(x)A(x)(y) ≤ P(X_i=u)·A(x*)(y) for some x* with P(x*) > 0."""
    out = []
    for i in range(A.n):
        for o in A.outputs:
            for u in A.domain:
                j = ops.sum(P.p(d) * A.p(d, o) for d in A.rows if d[i] == u)
                pu = P.marginal(ops, i, u)
                out.append(ops.Or([ops.And([ops.gt(P.p(d), 0), ops.le(j, pu * A.p(d, o))]) for d in A.rows]))
    return ops.And(out)


EntryPreProcessing = Notion("EntryPreProcessing", (), _entry_pre, population="given",
                            summary="ℓ(X_i→y) ≤ ℓ(X→y) for every i, y under the given prior")


def entry_pml_limit_checks(n=2, k=2, m=2):
    """For a kernel with symbolic entries on 𝒟^n (|𝒟| = k, m outputs) and every index i, output
    y and ordered pair a ≠ b with a_i ≠ b_i: under the full-support prior
    P = (1-η)(tδ_a + (1-t)δ_b) + η·uniform, exp ℓ(X_i→y) at u = a_i tends to A(a)(y)/A(b)(y) as
    η → 0 and then t → 0 (A(b)(y) > 0), and to ∞ when A(b)(y) = 0 < A(a)(y). Computed with
    :mod:`symbolic.notions.leakage` and sympy limits. Since every pair x ≠ x' differs at some i, the
    supremum of max_i ℓ(X_i→y) over full-support priors is at least the free-lunch level, which
    is the direction "S-TH11 (3) ⇒ FLP". Returns a list of (text, ok)."""
    import sympy as sp
    from symbolic.notions.leakage import likelihood_ratios
    from symbolic.core.prob import Dist, Kernel
    dom = tuple(range(k))
    dbs = databases(n, dom)
    t, eta = sp.Symbol("t", positive=True), sp.Symbol("eta", positive=True)
    checks = []
    for y in range(1):   # the column A(·)(y) is symbolic, so one output stands for every output
        for a in dbs:
            for b in dbs:
                diff = [i for i in range(n) if a[i] != b[i]]
                if not diff:
                    continue
                i = diff[0]
                for zero in (False, True):
                    ka, kb, kr = sp.Symbol("alpha", positive=True), sp.Symbol("beta", positive=True), sp.Symbol("gamma", positive=True)
                    col = {d: (ka if d == a else (0 if zero else kb) if d == b else kr) for d in dbs}
                    # the other outputs take the rest of each row's mass (one extra output suffices)
                    rows = {d: {"y": col[d], "other": 1 - col[d]} for d in dbs}
                    kern = Kernel(rows, outputs=("y", "other"))
                    w = {d: (1 - eta) * ((t if d == a else (1 - t) if d == b else 0)) + eta / len(dbs) for d in dbs}
                    prior = Dist(w)
                    r = likelihood_ratios(kern, prior, "y", attribute=lambda x, i=i: x[i])
                    val = r[a[i]]
                    lim = sp.limit(sp.limit(val, eta, 0, "+"), t, 0, "+")
                    ok = (lim == sp.oo) if zero else sp.simplify(lim - ka / kb) == 0
                    checks.append((f"i={i+1}, a={a}, b={b}{', A(b)(y)=0' if zero else ''}: limit = {lim}", ok))
    return checks
