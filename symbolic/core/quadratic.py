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
import math
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
    in ``symbols`` with rational coefficients and no other symbols. ``f`` is read term by term when
    it is already expanded, else expanded first."""
    k = len(symbols)
    index = {x: i for i, x in enumerate(symbols)}
    Q = [[fmpq(0)] * k for _ in range(k)]
    g, d = [fmpq(0)] * k, fmpq(0)
    terms = sp.sympify(f).as_coefficients_dict()
    if any(_powers(m, index) is None for m in terms):
        terms = sp.expand(f).as_coefficients_dict()
    for m, c in terms.items():
        powers = _powers(m, index)
        if powers is None or not sp.sympify(c).is_Rational:
            return None
        c = _rational(c)
        if not powers:
            d += c
        elif len(powers) == 1 and sum(powers.values()) == 1:
            g[next(iter(powers))] += c
        elif len(powers) == 1 and sum(powers.values()) == 2:
            i = next(iter(powers))
            Q[i][i] += c
        elif len(powers) == 2 and sum(powers.values()) == 2:
            i, j = powers
            Q[i][j] += c / 2
            Q[j][i] += c / 2
        else:
            return None
    return tuple(map(tuple, Q)), tuple(g), d


def _powers(m, index):
    """{symbol index: power} of a monomial (a product of ``index``'s symbols), {} for 1, else None."""
    if m == 1:
        return {}
    out = {}
    for factor in (m.args if m.is_Mul else (m,)):
        base, e = factor.as_base_exp()
        if base not in index or not (e.is_Integer and e > 0):
            return None
        out[index[base]] = out.get(index[base], 0) + int(e)
    return out


def affine_form(f, symbols):
    """(a, c) with f = a·b + c, or None when f is not affine in ``symbols`` with rational coefficients."""
    form = quadratic_form(f, symbols)
    if form is None or any(x != 0 for row in form[0] for x in row):
        return None
    return form[1], form[2]


def simplex_bound(form, extra=0):
    """An upper bound of q over the whole simplex, without solving (Pólya's argument). On Σ b = 1,
    q(b) = bᵀMb·(Σ b)^extra with M_ij = Q_ij + (g_i + g_j)/2 + d; written as Σ_α c_α b^α over the
    monomials of degree D = 2 + extra, and with (Σ b)^D = Σ_α m_α b^α = 1 (m_α the multinomial
    coefficients, every m_α b^α ≥ 0), q is a weighted mean of the c_α/m_α, so q ≤ max_α c_α/m_α.
    A larger ``extra`` gives a bound at least as tight."""
    Q, g, d = form
    k = len(g)
    poly = {}
    for i in range(k):
        for j in range(k):
            alpha = tuple(int(i == x) + int(j == x) for x in range(k))
            poly[alpha] = poly.get(alpha, fmpq(0)) + Q[i][j] + (g[i] + g[j]) / 2 + d
    for _ in range(extra):
        grown = {}
        for alpha, c in poly.items():
            for x in range(k):
                beta = alpha[:x] + (alpha[x] + 1,) + alpha[x + 1:]
                grown[beta] = grown.get(beta, fmpq(0)) + c
        poly = grown
    total = math.factorial(2 + extra)
    return max(c * math.prod(math.factorial(a) for a in alpha) / total for alpha, c in poly.items())


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
    """The points of P kept by the lemma for q = ``form``: for each active set, the unique stationary
    point. An active set is read as a support J (the b_x ≥ 0 not active) and a set B of the other
    inequalities; b_x = 0 off J, so the system is solved for b_J alone (the multiplier of an active
    b_x ≥ 0 occurs in row x only, which therefore constrains nothing else)."""
    Q, g, _ = form
    k = P.k
    eqs = [(tuple(fmpq(1) for _ in range(k)), fmpq(-1))] + list(P.equalities)
    ineqs = list(P.inequalities)
    sets = [(J, B) for size in range(1, k + 1) for J in itertools.combinations(range(k), size)
            for bs in range(0, size) for B in itertools.combinations(range(len(ineqs)), bs)]
    if len(sets) > MAX_SYSTEMS:
        raise TooLarge(f"{len(sets)} active sets over {k} unknowns and {len(ineqs)} inequalities")
    out, seen = [], set()
    for J, B in sets:
        hs = eqs + [ineqs[i] for i in B]
        m, r = len(J), len(hs)
        rows = [[2 * Q[i][j] for j in J] + [-h[0][i] for h in hs] for i in J]
        rows += [[h[0][j] for j in J] + [fmpq(0)] * r for h in hs]
        rhs = [-g[i] for i in J] + [-h[1] for h in hs]
        part = _unique_b(rows, rhs, m)
        if part is None:
            continue
        b = [fmpq(0)] * k
        for j, v in zip(J, part):
            b[j] = v
        b = tuple(b)
        if b not in seen and P.contains(b):
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
