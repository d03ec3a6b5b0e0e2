"""The exact maximum of a polynomial of degree at most 2 over a polytope in the probability simplex.

The polytope is P = {b ∈ ℚ^k : b ≥ 0, Σ b = 1, e_j(b) = 0, l_j(b) ≥ 0} with affine e_j, l_j and
rational coefficients; q(b) = bᵀQb + g·b + d. Everything is computed in exact rationals
(python-flint), nothing is approximated.

**Lemma.** max_P q is the largest q(b) over the points b ∈ P that, for some set A of the inequality
constraints (b_x ≥ 0 and l_j ≥ 0), are the *unique* b-part of a solution of the Lagrange system

    2Qb + g = Σ_j λ_j ∇h_j,   h_j(b) = 0 for every equality and every constraint in A.

*Proof.* P is compact, so q attains its maximum at some b*. Let A be the constraints active at b* and
F the affine set where they and the equalities hold. b* lies in the relative interior of the face
P ∩ F, so it maximises q locally on F and is stationary there: it solves the system for A. The
solutions' b-parts form an affine set L, and q is constant on L: for x, y ∈ L, y - x is parallel to F,
so ∇q(x)·(y-x) = 0 and 2(y-x)ᵀQ(y-x) = (∇q(y) - ∇q(x))·(y-x) = 0, hence
q(y) - q(x) = ∇q(x)·(y-x) + (y-x)ᵀQ(y-x) = 0. If L is more than a point, follow a line of L from b*
inside P ∩ F until a further constraint becomes active (P is bounded): that point is again a
maximiser, with a larger active set. The active set cannot grow forever, so some maximiser is the
unique b-part for its own active set. Every point the enumeration keeps lies in P, so none exceeds
the maximum. ∎

With q = 0 the kept points are the points of P fixed by their active constraints: its vertices.
The number of active sets tried is capped (:data:`MAX_SYSTEMS`); beyond it :class:`TooLarge`.

>>> import sympy as sp
>>> x, y = sp.symbols("x y")
>>> P = Polytope(2, (), ())
>>> value, point = maximum(P, quadratic_form(x * y, (x, y)))
>>> value, point
(1/4, (1/2, 1/2))
>>> sorted(tuple(map(str, v)) for v in vertices(Polytope(2, (), (affine_form(x - y, (x, y)),))))
[('1', '0'), ('1/2', '1/2')]
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp
from flint import fmpq, fmpq_mat

MAX_SYSTEMS = 20000


class TooLarge(Exception):
    """More active sets than :data:`MAX_SYSTEMS` would have to be tried."""


@dataclass(frozen=True)
class Polytope:
    """{b ∈ ℚ^k : b ≥ 0, Σ b = 1, a·b + c = 0 for (a, c) in ``equalities``, a·b + c ≥ 0 for (a, c)
    in ``inequalities``}, each (a, c) a tuple of k rationals and a rational."""

    k: int
    equalities: tuple
    inequalities: tuple

    def contains(self, b) -> bool:
        value = lambda a, c: sum((ai * bi for ai, bi in zip(a, b)), fmpq(c))
        return (all(x >= 0 for x in b) and sum(b, fmpq(0)) == 1 and all(value(a, c) == 0 for a, c in self.equalities)
                and all(value(a, c) >= 0 for a, c in self.inequalities))


def _rational(c):
    c = sp.sympify(c)
    if not c.is_Rational:
        raise ValueError(f"coefficient {c} is not rational")
    return fmpq(int(c.p), int(c.q))


def quadratic_form(f, symbols):
    """(Q, g, d) with f = bᵀQb + g·b + d (Q symmetric), or None when f is no polynomial of degree ≤ 2
    in ``symbols`` with rational coefficients and no other symbols."""
    try:
        poly = sp.Poly(sp.expand(f), *symbols)
    except sp.PolynomialError:
        return None
    if poly.total_degree() > 2 or not poly.domain.is_QQ and not poly.domain.is_ZZ:
        return None
    k = len(symbols)
    Q = [[fmpq(0)] * k for _ in range(k)]
    g, d = [fmpq(0)] * k, fmpq(0)
    for powers, c in poly.terms():
        c = _rational(c)
        nz = [i for i, p in enumerate(powers) if p]
        if not nz:
            d = c
        elif len(nz) == 1 and powers[nz[0]] == 1:
            g[nz[0]] = c
        elif len(nz) == 1:
            Q[nz[0]][nz[0]] = c
        else:
            i, j = nz
            Q[i][j] = Q[j][i] = c / 2
    return tuple(map(tuple, Q)), tuple(g), d


def affine_form(f, symbols):
    """(a, c) with f = a·b + c, or None when f is not affine in ``symbols`` with rational coefficients."""
    form = quadratic_form(f, symbols)
    if form is None or any(x != 0 for row in form[0] for x in row):
        return None
    return form[1], form[2]


def value_at(form, b):
    Q, g, d = form
    k = len(b)
    return (sum((Q[i][j] * b[i] * b[j] for i in range(k) for j in range(k)), fmpq(0))
            + sum((g[i] * b[i] for i in range(k)), fmpq(0)) + d)


def _unique_b(rows, rhs, k):
    """The b-part (first k unknowns) of the solutions of rows·z = rhs when it is one point, else None."""
    n_rows, n_cols = len(rows), len(rows[0])
    M = fmpq_mat(n_rows, n_cols + 1, [x for row, r in zip(rows, rhs) for x in (*row, r)])
    R, rank = M.rref()
    pivots = {}
    for i in range(rank):
        col = next((j for j in range(n_cols + 1) if R[i, j] != 0), None)
        if col == n_cols:
            return None           # 0 = nonzero: no solution
        pivots[col] = i
    free = [j for j in range(n_cols) if j not in pivots]
    b = []
    for col in range(k):
        if col not in pivots or any(R[pivots[col], j] != 0 for j in free):
            return None
        b.append(R[pivots[col], n_cols])
    return tuple(b)


def stationary_points(P: Polytope, form):
    """The points of P kept by the lemma for q = ``form``: for each active set, the unique stationary point."""
    Q, g, _ = form
    k = P.k
    ones = (tuple(fmpq(1) for _ in range(k)), fmpq(-1))
    unit = [(tuple(fmpq(int(i == j)) for j in range(k)), fmpq(0)) for i in range(k)]
    ineqs = unit + list(P.inequalities)
    eqs = [ones] + list(P.equalities)
    sets = [A for size in range(0, k) for A in itertools.combinations(range(len(ineqs)), size)]
    if len(sets) > MAX_SYSTEMS:
        raise TooLarge(f"{len(sets)} active sets over {k} unknowns and {len(ineqs)} inequalities")
    out, seen = [], set()
    for A in sets:
        hs = eqs + [ineqs[i] for i in A]
        r = len(hs)
        rows = [[2 * Q[i][j] for j in range(k)] + [-h[0][i] for h in hs] for i in range(k)]
        rows += [list(h[0]) + [fmpq(0)] * r for h in hs]
        rhs = [-g[i] for i in range(k)] + [-h[1] for h in hs]
        b = _unique_b(rows, rhs, k)
        if b is not None and b not in seen and P.contains(b):
            seen.add(b)
            out.append(b)
    return out


def maximum(P: Polytope, form):
    """(max_P q, a maximiser) exactly, or None when P is empty."""
    best = None
    for b in stationary_points(P, form):
        v = value_at(form, b)
        if best is None or v > best[0]:
            best = (v, b)
    return best


def vertices(P: Polytope):
    """The vertices of P (empty when P is)."""
    zero = (tuple((fmpq(0),) * P.k for _ in range(P.k)), (fmpq(0),) * P.k, fmpq(0))
    return stationary_points(P, zero)
