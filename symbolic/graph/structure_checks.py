"""The engine's checks of a notion's declared structure (:class:`~symbolic.notions.structure.Structure`), by exact
arithmetic on concrete tables. A declaration that fails a check is wrong, whatever its citation says.

- **Pairwise.** The notion holds on a table iff it holds on every pair of neighbouring rows, each pair read as a
  table of one record over two values (:func:`pairwise_agrees`).
- **Closed under post-processing.** At a table's exact level L (:func:`~symbolic.graph.constants.table_level.
  table_level`) the notion holds on K·T for a stochastic map K (:func:`closure_holds`); the table's own level
  is where a loss of closure shows first, and moving part of one output into another (:func:`leaks`) is the
  map that shows it for notions counting the mass of bad outputs.
- **Decided on merges to k outputs.** A pair failing the notion has a merge of its outputs into k groups that
  fails it too: some merge's exact level is the pair's own (:func:`merge_keeps_level`; :func:`failing_merge` finds
  the failing merge at a given level).
- **Dominating pair.** A pair (P, Q) satisfying the notion is (K·P₀, K·Q₀) for a stochastic K, found by exact
  linear programming (:func:`post_processing_map`).
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.tables import MechTable
from symbolic.graph.constants.table_level import table_level
from symbolic.graph.sampling import holds_exactly
from symbolic.notions.structure import merged, merges, neighbour_pairs, pair_table


def pairwise_agrees(notion, relation: str, table: MechTable, values: dict) -> bool | None:
    """Does "``notion`` holds on ``table``" equal "it holds on each pair of neighbouring rows"? None when an
    evaluation is undecided.

    >>> from symbolic.notions.families.dp import PureDP
    >>> q = sp.Rational(1, 4)
    >>> t = MechTable(1, (0, 1, 2), (0, 1), {(0,): (3 * q, q), (1,): (q, 3 * q), (2,): (2 * q, 2 * q)})
    >>> pairwise_agrees(PureDP, "replace one record", t, {"E": 3}), pairwise_agrees(PureDP, "replace one record", t, {"E": 2})
    (True, True)
    """
    whole = holds_exactly(notion, table, None, values)
    parts = [holds_exactly(notion, pair_table(table.rows[d], table.rows[e]), None, values)
             for d, e in neighbour_pairs(table, relation)]
    if whole is None or any(p is None for p in parts):
        return None
    return whole == all(parts)


def post_processed(table: MechTable, kernel) -> MechTable:
    """K·T: each row p becomes Σ_o p_o·K[o] (``kernel`` one row of probabilities per output of ``table``)."""
    m = len(kernel[0])
    rows = {d: tuple(sum((p * kernel[o][j] for o, p in enumerate(row)), sp.Integer(0)) for j in range(m))
            for d, row in table.rows.items()}
    return MechTable(table.n, table.domain, tuple(range(m)), rows)


def closure_holds(notion, table: MechTable, kernels: list, target: str, fixed: dict | None = None):
    """(level L of ``table``, does ``notion`` hold on K·T at L for every map K of ``kernels``?); (L, None) when L
    is not a finite attained level or a check is undecided."""
    lv = table_level(notion, table, target=target, fixed=fixed)
    if lv.value is None or lv.value == sp.oo or not lv.attained:
        return lv.value, None
    at = {**(fixed or {}), target: lv.value}
    answers = [holds_exactly(notion, post_processed(table, k), None, at) for k in kernels]
    if any(a is None for a in answers):
        return lv.value, None
    return lv.value, all(answers)


def leaks(outputs: int, fraction) -> list:
    """The maps that move ``fraction`` of one output's mass into another and keep the rest: the post-processings
    where a notion that counts the mass of bad outputs first loses closure (a bad output grows, or a boundary
    output turns bad).

    >>> leaks(2, sp.Rational(1, 2))
    [[[1/2, 1/2], [0, 1]], [[1, 0], [1/2, 1/2]]]
    """
    out = []
    for src in range(outputs):
        for dst in range(outputs):
            if src != dst:
                k = [[sp.Integer(int(i == j)) for j in range(outputs)] for i in range(outputs)]
                k[src][src], k[src][dst] = 1 - sp.sympify(fraction), sp.sympify(fraction)
                out.append(k)
    return out


def failing_merge(notion, p, q, values: dict, groups: int):
    """A merge of the outputs of the pair (``p``, ``q``) into ``groups`` groups (each output's group) on which
    ``notion`` fails at ``values``; None when it holds on every merge (or an evaluation is undecided).

    >>> from symbolic.notions.families.dp import PureDP
    >>> third = sp.Rational(1, 3)
    >>> failing_merge(PureDP, (third, third, third), (third / 4, third, 1 - third * 5 / 4), {"E": 3}, 2)
    (0, 1, 1)
    """
    return merge_failure(notion, p, q, values, groups)[0]


def merge_failure(notion, p, q, values: dict, groups: int) -> tuple:
    """(a merge on which ``notion`` fails, as in :func:`failing_merge`, or None; whether every merge tried was
    decided by exact evaluation): ``(None, True)`` means it holds on every merge.

    >>> from symbolic.notions.families.dp import PureDP
    >>> third = sp.Rational(1, 3)
    >>> merge_failure(PureDP, (third, third, third), (third, third, third), {"E": 3}, 2)
    (None, True)
    """
    decided = True
    for assignment, t in _merged_pairs(p, q, groups):
        holds = holds_exactly(notion, t, None, values)
        if holds is False:
            return assignment, True
        decided = decided and holds is not None
    return None, decided


def _merged_pairs(p, q, groups: int):
    """(assignment, the table of the merged pair) for every merge of the pair's outputs into ``groups`` groups."""
    for assignment in merges(len(p), groups):
        yield assignment, pair_table(merged(p, assignment, groups), merged(q, assignment, groups))


def merge_keeps_level(notion, p, q, target: str, groups: int, fixed: dict | None = None) -> bool | None:
    """Does some merge of the pair (``p``, ``q``) into ``groups`` groups have the pair's own exact level of
    ``notion`` (parameter ``target``, the others ``fixed``)? If none did, at a value between the largest merge's
    level and the pair's the pair would fail and every merge hold. None when a level is not an attained number.

    >>> from symbolic.notions.families.dp import PureDP
    >>> third = sp.Rational(1, 3)
    >>> merge_keeps_level(PureDP, (third, third, third), (third / 4, third, 1 - third * 5 / 4), "E", 2)
    True
    """
    def level(t):
        lv = table_level(notion, t, target=target, fixed=fixed)
        return lv.value if lv.value is not None and lv.attained else None
    whole = level(pair_table(p, q))
    parts = [level(t) for _, t in _merged_pairs(p, q, groups)]
    if whole is None or any(x is None for x in parts):
        return None
    return bool(max(parts) >= whole)


def post_processing_map(source, target):
    """A stochastic map K with K·source[0] = target[0] and K·source[1] = target[1] (rows of exact numbers), or
    None when none is found. A float LP (HiGHS) proposes which entries of K are non-zero; the equations are then
    solved exactly on those entries and every constraint is checked exactly, so a map returned is a map. (Sympy's
    exact simplex returned points that violate its constraints on such systems, so it is not used.)

    >>> half = sp.Rational(1, 2)
    >>> post_processing_map(((1, 0), (0, 1)), ((half, half), (1, 0)))
    [[1/2, 1/2], [1, 0]]
    >>> post_processing_map(((half, half), (half, half)), ((1, 0), (0, 1))) is None
    True
    """
    import numpy as np
    from scipy.optimize import linprog
    k, m = len(source[0]), len(target[0])
    ks = [[sp.Symbol(f"k{i}_{j}", real=True) for j in range(m)] for i in range(k)]
    flat = [x for row in ks for x in row]
    eqs = [sum(row) - 1 for row in ks]
    for s_row, t_row in zip(source, target):
        eqs += [sum(sp.sympify(s_row[i]) * ks[i][j] for i in range(k)) - t_row[j] for j in range(m)]
    a = np.array([[float(e.coeff(x)) for x in flat] for e in eqs])
    b = np.array([-float(e.subs({x: 0 for x in flat})) for e in eqs])
    res = linprog(np.zeros(len(flat)), A_eq=a, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:
        return None
    zero = {x: 0 for x, v in zip(flat, res.x) if v <= 1e-12}
    sols = sp.linsolve([e.subs(zero) for e in eqs], [x for x in flat if x not in zero])
    if not sols:
        return None
    sol = dict(zip([x for x in flat if x not in zero], next(iter(sols))))
    free = {y for v in sol.values() for y in sp.sympify(v).free_symbols}
    guess = {y: sp.nsimplify(res.x[flat.index(y)], rational=True, tolerance=1e-12) for y in free}
    value = {**zero, **{x: sp.sympify(v).subs(guess) for x, v in sol.items()}, **guess}
    kernel = [[sp.sympify(value[x]) for x in row] for row in ks]
    ok = all(x >= 0 for row in kernel for x in row) and all(sp.simplify(e.subs(value)) == 0 for e in eqs)
    return kernel if ok else None


__all__ = ["closure_holds", "failing_merge", "leaks", "merge_failure", "merge_keeps_level", "pairwise_agrees", "post_processed",
           "post_processing_map"]
