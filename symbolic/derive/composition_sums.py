"""δ(ε′) of k runs of a table as a formula in k, when each neighbouring pair has two likelihood ratios.

A pair whose outputs fall in two ratio classes, with masses (a₁, b₁) and (a₂, b₂) under the two rows, has after k
runs the count vectors (k − i, i), i = 0…k, with P = C(k, i)·a₁^(k−i)·a₂^i and Q = C(k, i)·b₁^(k−i)·b₂^i, so

    δ_k(ε′) = Σ_{i=0}^{k} C(k, i)·max(0, a₁^(k−i)·a₂^i − e^ε′·b₁^(k−i)·b₂^i),

exact for every k (TV at ε′ = 0). For randomized response of ratio E, the dominating pair of ε-DP, this is
Kairouz, Oh and Viswanath's optimal composition (2015, Thm. 3.3). The reversed pair gives the same sum when
b₁ = a₂ and b₂ = a₁ (i ↦ k − i); other tables with several different sums are left to a number of runs.
"""
from __future__ import annotations

from itertools import product

import sympy as sp

from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.tables import database_key
from symbolic.derive.continuous.values import CurveLevel
from symbolic.derive.loss_counts import ratio_classes
from symbolic.model.neighbours import level_pairs
from symbolic.model.subsampling import operation_tables
from symbolic.model.symbolic_table import parse_ranges

CHECKED_RUNS = (1, 2, 3)
I = sp.Symbol("i", integer=True, nonnegative=True)


def _same(x, y) -> bool:
    try:
        return exact_sign(sp.simplify(x - y)) == 0
    except UndecidedComparison:
        return False


def _reverse_of_symmetric(classes, first) -> bool:
    """Is the pair of ``classes`` the reverse of the pair of ``first``, whose masses are mirrored (b₁ = a₂,
    b₂ = a₁), so that both have one sum (i ↦ k − i)?"""
    (a1, b1, _), (a2, b2, _) = first
    if not (_same(b1, a2) and _same(b2, a1)):
        return False
    return all(any(_same(c, x) and _same(d, y) for x, y in ((b1, a1), (b2, a2))) for c, d, _ in classes)


def two_ratio_sum(p, q, k, E):
    """The binomial sum of δ_k at E′ = ``E`` for the pair of rows ``p``, ``q``, or None unless it has exactly two
    finite ratio classes.

    >>> k = sp.Symbol("k", integer=True, positive=True)
    >>> f = two_ratio_sum([sp.Rational(3, 4), sp.Rational(1, 4)], [sp.Rational(1, 4), sp.Rational(3, 4)], k, 1)
    >>> f.subs(k, 2).doit()
    1/2
    """
    classes = ratio_classes(p, q)
    if len(classes) != 2 or any(kind != "finite" for _, _, kind in classes):
        return None
    (a1, b1, _), (a2, b2, _) = classes
    return sp.Sum(sp.binomial(k, I) * sp.Max(0, a1 ** (k - I) * a2 ** I - E * b1 ** (k - I) * b2 ** I), (I, 0, k))


def _enumerated(p, q, k: int, E):
    """Σ over the k-tuples of outputs of max(0, P − E·Q), each sign decided exactly (None if one is not)."""
    total = sp.Integer(0)
    for t in product(range(len(p)), repeat=k):
        gap = sp.Mul(*(p[o] for o in t)) - E * sp.Mul(*(q[o] for o in t))
        try:
            if exact_sign(gap) > 0:
                total += gap
        except UndecidedComparison:
            return None
    return total


def two_ratio_level(notion, comp, k, own, table, assumptions):
    """The CurveLevel of δ(ε′) (``own["E"]``) or TV for ``k`` (a symbol) runs of ``comp.of``, or None when a pair
    is not of two ratios or the pairs give different sums. Checked at 1, 2 and 3 runs against the explicit
    product over output tuples (the table's parameters at a sample point)."""
    tables = operation_tables(comp.of, assumptions=tuple(assumptions))
    if len(tables) != 1:
        return None
    sm = tables[0][1].fix(dict(table)) if table else tables[0][1]
    m = sm.mechanism
    rows = {d: [dist[o] for o in m.outputs] for d, dist in m.rows}
    E = own.get("E", sp.Integer(1))
    found, where = None, ""
    for d, e in level_pairs("pure-dp", list(rows), m.n, m.domain):
        classes = ratio_classes(rows[d], rows[e])
        f = two_ratio_sum(rows[d], rows[e], k, E)
        if f is None:
            return None
        if found is None:
            found, where, first, first_pair = f, f"{database_key(d)} ~ {database_key(e)}", classes, (d, e)
            continue
        if f != found and not _reverse_of_symmetric(classes, first):
            return None
    samples = {r.symbol: r.samples(1)[0] for r in sm.params}
    d, e = first_pair
    checks = []
    for kk in CHECKED_RUNS:
        mine = found.subs(k, kk).doit().subs(samples)
        listed = _enumerated([x.subs(samples) for x in rows[d]], [x.subs(samples) for x in rows[e]], kk, E)
        ok = listed is not None and _same(mine, listed)
        at = "" if not samples else " at " + ", ".join(f"{n} = {v}" for n, v in samples.items())
        checks.append((f"at {kk} run{'s' if kk > 1 else ''}{at} the sum is {sp.N(mine, 15)}; over the "
                       f"{len(rows[d]) ** kk} output tuples listed one by one, {'?' if listed is None else sp.N(listed, 15)}",
                       ok))
    rng = parse_ranges({str(k): comp.params[str(k)]})[0].text()
    what = "δ(ε′)" if notion == "approx-dp" else "TV"
    steps = (f"every neighbouring pair has two likelihood ratios, so {k} runs have the count vectors (k − i, i) and "
             f"{what} is a binomial sum, exact for every {k} (Kairouz, Oh, Viswanath 2015, Thm. 3.3, for randomized "
             f"response); the pairs' sums agree",)
    return CurveLevel(notion, "delta" if notion == "approx-dp" else "tv", found, None, None, True, where, steps,
                      tuple(checks), {}, (*sm.assumptions(), rng), None)


__all__ = ["two_ratio_level", "two_ratio_sum"]
