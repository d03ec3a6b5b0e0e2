"""Terms of a prior pushed through kernels, shared by the PML notions (:mod:`symbolic.notions.families.pml`)
and the disclosure notions (:mod:`symbolic.notions.families.disclosure`): P_Y(y), joint and attribute
probabilities, the slices of a database at one index, the family of point masses, and the
full-support condition on the prior."""
from __future__ import annotations

from symbolic.core.tables import databases
from symbolic.model.population import point_mass
from symbolic.notions.base import Notion


def output_prob(ops, A, P, o):
    """P_Y(o) = Σ_x P(x)·A(x)(o)."""
    return ops.sum(P.p(d) * A.p(d, o) for d in A.rows)


def joint_uy(ops, A, U, P, u, o):
    """P(U=u, Y=o) = Σ_x P(x)·U(x)(u)·A(x)(o) (U - X - Y)."""
    return ops.sum(P.p(d) * U.p(d, u) * A.p(d, o) for d in A.rows)


def attribute_prob(ops, U, P, u):
    """P_U(u) = Σ_x P(x)·U(x)(u)."""
    return ops.sum(P.p(d) * U.p(d, u) for d in U.rows)


def rests_at(A, i):
    """The values x_-i of the entries other than i, over A's databases."""
    return sorted({d[:i] + d[i + 1:] for d in A.rows})


def insert_at(r, i, v):
    """The database with rest ``r`` and value ``v`` at index i."""
    return r[:i] + (v,) + r[i:]


def point_masses(n, domain):
    """Point masses on each database (they are product populations too). See each notion's
    docstring for why they decide it for a fixed mechanism.

    For the ε-PML family notions: point masses decide them for a fixed A. For fixed A each inequality
    A(x)(y) ≤ E·Σ_x' P(x')A(x')(y) is affine in P (for product P: multi-affine in the marginals),
    so it holds on the closed simplex (product of simplices) iff it holds at the vertices, the point
    masses δ_x'; by the lemma of :mod:`symbolic.notions.families.pml` that is the same as holding for every
    full-support prior. At δ_x' it reads A(x)(y) ≤ E·A(x')(y)."""
    return [point_mass(d, domain=domain) for d in databases(n, domain)]


def full_support(ops, *mechs, P):
    return ops.And(ops.gt(P.p(d), 0, why=lambda d=d: f"P({d}) = 0") for d in P.probs)


FullSupport = Notion("FullSupport", (), full_support, population="given", arity=0,
                     summary="the prior has full support: P(x) > 0 for every x (the set 𝒬_X)")
