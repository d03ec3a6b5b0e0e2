"""Count vectors of a k-fold product pair: outputs merged by likelihood ratio, and the exact hockey-stick sum.

A k-tuple of outputs of (p^⊗k, q^⊗k) matters only through how many times each likelihood ratio p_o/q_o occurs
in it; :func:`ratio_classes` merges outputs with equal ratio, :func:`count_vectors` lists the vectors of counts
and :func:`hockey_blocks` sums P(c) − E′Q(c) over those with P(c) > E′Q(c), each comparison decided exactly, for
a product of blocks (one table's pair run k_j times each; :func:`hockey_pair` is the one-block case).
"""
from __future__ import annotations

from itertools import product
from math import comb, prod

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.errors import InvalidSize
from symbolic.core.ops import UndecidedComparison, exact_sign

MAX_VECTORS = 20000     # count vectors per pair; beyond this the exact sum is refused in one line


def _is_zero(x) -> bool:
    try:
        return exact_sign(x) == 0
    except UndecidedComparison:
        return False


def ratio_classes(p, q):
    """The outputs of a pair merged by likelihood ratio: (p_sum, q_sum, kind) with kind ``"finite"`` (both
    positive), ``"inf"`` (q = 0 < p) or ``"zero"`` (p = 0 < q); outputs with p = q = 0 dropped. Two outputs
    share a finite class only when p_o q_o′ = p_o′ q_o is decided exactly (merging is never needed for
    correctness, only for size)."""
    classes = []   # [p, q, kind, representative (p_o, q_o)]
    for po, qo in zip(p, q):
        zp, zq = _is_zero(po), _is_zero(qo)
        if zp and zq:
            continue
        kind = "zero" if zp else "inf" if zq else "finite"
        for cl in classes:
            if cl[2] == kind and (kind != "finite" or _is_zero(po * cl[3][1] - cl[3][0] * qo)):
                cl[0], cl[1] = cl[0] + po, cl[1] + qo
                break
        else:
            classes.append([po, qo, kind, (po, qo)])
    return [(a, b, kind) for a, b, kind, _ in classes]


def count_vectors(k: int, g: int):
    """Every vector of g nonnegative integers summing to k, each once.

    >>> list(count_vectors(2, 2))
    [(2, 0), (1, 1), (0, 2)]
    """
    if g == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in count_vectors(k - first, g - 1):
            yield (first, *rest)


def multinomial(k, c) -> int:
    """k! / Π c_i!: how many k-tuples of outputs have the counts c."""
    out, left = 1, k
    for ci in c:
        out *= comb(left, ci)
        left -= ci
    return out


class _LossSigns:
    """Signs of L(c) − ε′ with L(c) = Σ c_i log(p_i/q_i): decided from rational enclosures of the logs, and
    exactly by :func:`exact_sign` only when the enclosure of the sum contains 0."""

    def __init__(self, logs, eps):
        self.logs, self.eps = logs, eps
        balls = [C.enclose(x, 256) for x in (*logs, eps)]
        self.lo = [b.lower() for b in balls]
        self.hi = [b.upper() for b in balls]
        self.exact_calls = 0

    def sign(self, c) -> int:
        lo = sum(ci * li for ci, li in zip(c, self.lo)) - self.hi[-1]
        hi = sum(ci * hi for ci, hi in zip(c, self.hi)) - self.lo[-1]
        if lo > 0:
            return 1
        if hi < 0:
            return -1
        self.exact_calls += 1
        try:
            return exact_sign(sp.Add(*(ci * li for ci, li in zip(c, self.logs))) - self.eps)
        except UndecidedComparison:   # a tie in disguise among logs: compare Π r_i^{c_i} with E′ instead
            return exact_sign(sp.Mul(*(sp.exp(li) ** ci for ci, li in zip(c, self.logs))) - sp.exp(self.eps))


def hockey_pair(p, q, k, E):
    """(A, B, event vectors, all vectors) with the pair's k-fold δ at E′ = e^ε′ equal to A − E′·B."""
    return hockey_blocks([(p, q, k)], E)


def hockey_blocks(blocks, E):
    """(A, B, event vectors, all vectors) for the product of blocks, block j the pair (p_j, q_j) run k_j times
    (a heterogeneous composition): its δ at E′ is A − E′·B. A vector is one count vector per block."""
    parts, total = [], 1
    for p, q, k in blocks:
        classes = ratio_classes(p, q)
        total *= comb(k + len(classes) - 1, len(classes) - 1)
        parts.append((classes, k))
    if total > MAX_VECTORS:
        raise InvalidSize(f"the composition has {total} count vectors per pair over the likelihood ratios of its "
                          f"runs; this step sums at most {MAX_VECTORS}")
    flat = [cl for classes, _ in parts for cl in classes]
    finite = [i for i, cl in enumerate(flat) if cl[2] == "finite"]
    signs = _LossSigns([sp.log(sp.simplify(flat[i][0] / flat[i][1])) for i in finite], sp.log(E))
    a_terms, b_terms, hits = [], [], 0
    for combo in product(*(list(count_vectors(k, len(classes))) for classes, k in parts)):
        c = [ci for cv in combo for ci in cv]
        if any(c[i] for i, cl in enumerate(flat) if cl[2] == "zero"):
            continue    # P(c) = 0: not in the event
        inf = any(c[i] for i, cl in enumerate(flat) if cl[2] == "inf")
        if not inf and signs.sign([c[i] for i in finite]) <= 0:
            continue
        hits += 1
        mult = prod(multinomial(k, cv) for (_, k), cv in zip(parts, combo))
        a_terms.append(mult * sp.Mul(*(cl[0] ** ci for cl, ci in zip(flat, c))))
        if not inf:
            b_terms.append(mult * sp.Mul(*(cl[1] ** ci for cl, ci in zip(flat, c))))
    return sp.Add(*a_terms), sp.Add(*b_terms), hits, total


__all__ = ["MAX_VECTORS", "count_vectors", "hockey_blocks", "hockey_pair", "multinomial", "ratio_classes"]
