"""Cross-checks of a k-fold composition's level that can fail, computed apart from the derivation.

- :func:`product_check`: the explicit product table (every tuple of outputs of the runs, at most 6 runs and
  4096 rows),
  each pair's level by direct enumeration in exact arithmetic (each P(t) > E′Q(t) decided by
  :func:`~symbolic.core.ops.exact_sign` of the difference itself, not of a log-ratio), equal to the derived one.
- :func:`mp_check`: a 40-digit sum over the count vectors of the original outputs (not merged by ratio,
  unless there are too many), inside each pair's certified enclosure.
"""
from __future__ import annotations

from itertools import product
from math import comb, prod

import mpmath
import sympy as sp

from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.derive.loss_counts import MAX_VECTORS, count_vectors, multinomial, ratio_classes

MAX_PRODUCT_ROWS, MAX_PRODUCT_K = 4096, 6
DIGITS = 40
REL_TOL = mpmath.mpf(10) ** -30
ABS_FLOOR = mpmath.mpf(10) ** -38


def _equal(a, b) -> bool:
    """a = b decided exactly (expansion, then a certified sign that must come out 0)."""
    diff = a - b
    if diff == 0 or sp.expand(diff) == 0:
        return True
    try:
        return exact_sign(diff) == 0
    except UndecidedComparison:
        return False


def _direct(notion, own, blocks):
    """A pair's level from the explicit product table of its blocks (p_j, q_j) run k_j times each (exact; oo
    when infinite)."""
    E, alpha = own.get("E", sp.Integer(1)), own.get("alpha")
    runs = [(p, q) for p, q, k in blocks for _ in range(k)]
    hockey, best, mass = [], None, []
    for t in product(*(range(len(p)) for p, _ in runs)):
        P = sp.Mul(*(p[i] for (p, _), i in zip(runs, t)))
        Q = sp.Mul(*(q[i] for (_, q), i in zip(runs, t)))
        if notion in ("approx-dp", "total-variation"):
            if exact_sign(P - E * Q) > 0:
                hockey.append(P - E * Q)
            continue
        if exact_sign(P) == 0:
            continue
        if exact_sign(Q) == 0:
            return sp.oo
        if notion == "pure-dp":
            if best is None or exact_sign(P * best[1] - best[0] * Q) > 0:
                best = (P, Q)
        else:
            mass.append(P ** alpha * Q ** (1 - alpha))
    if notion in ("approx-dp", "total-variation"):
        return sp.Add(*hockey)
    return best[0] / best[1] if notion == "pure-dp" else sp.Add(*mass)


def _rows_of_product(blocks) -> int:
    return prod(len(p) ** k for p, _, k in blocks)


def product_check(notion, own, blocks_of, results):
    """(text, ok) or None when the product table is too large to enumerate. ``blocks_of(d, e)``: the pair's
    blocks [(p_j, q_j, k_j)] (one block for a k-fold composition of one table)."""
    first = blocks_of(*results[0][:2])
    runs, rows = sum(k for _, _, k in first), _rows_of_product(first)
    if runs > MAX_PRODUCT_K or rows > MAX_PRODUCT_ROWS:
        return None
    ok = True
    for d, e, (value, _, _) in results:
        got = _direct(notion, own, blocks_of(d, e))
        if got == sp.oo or value == sp.oo:
            ok = ok and got == value
        elif notion == "pure-dp":            # value = Σ k_j·log(r_j): compare e^value with the largest ratio
            ok = ok and _equal(sp.exp(value), got)
        elif notion == "renyi-dp":           # value = log(Π S_j^k_j)/(α − 1): compare with the direct sum
            ok = ok and _equal(sp.exp((own["alpha"] - 1) * value), got)
        else:
            ok = ok and _equal(value, got)
    return (f"the explicit product table ({rows} rows of {runs} outputs each), enumerated in exact arithmetic, "
            f"gives each pair's level exactly", ok)


def _mpf(x):
    return mpmath.mpf(str(sp.N(x, DIGITS + 10)))


def _mp_pair(notion, own, blocks):
    blocks = [([_mpf(x) for x in p], [_mpf(x) for x in q], k) for p, q, k in blocks]
    E = _mpf(own.get("E", sp.Integer(1)))
    alpha = _mpf(own["alpha"]) if "alpha" in own else None
    total, best = mpmath.mpf(0), None
    for combo in product(*(list(count_vectors(k, len(p))) for p, _, k in blocks)):
        w = mpmath.mpf(prod(multinomial(k, c) for (_, _, k), c in zip(blocks, combo)))
        P = mpmath.fprod(pi ** ci for (p, _, _), c in zip(blocks, combo) for pi, ci in zip(p, c))
        Q = mpmath.fprod(qi ** ci for (_, q, _), c in zip(blocks, combo) for qi, ci in zip(q, c))
        if notion in ("approx-dp", "total-variation"):
            total += w * max(mpmath.mpf(0), P - E * Q)
        elif P > 0:
            if Q == 0:
                return mpmath.inf
            if notion == "pure-dp":
                r = mpmath.log(P / Q)
                best = r if best is None else max(best, r)
            else:
                total += w * P ** alpha * Q ** (1 - alpha)
    if notion == "pure-dp":
        return best
    return mpmath.log(total) / (alpha - 1) if notion == "renyi-dp" else total


def _vectors(blocks) -> int:
    return prod(comb(k + len(p) - 1, len(p) - 1) for p, _, k in blocks)


def mp_check(notion, own, blocks_of, results):
    """(text, ok): each pair's level recomputed at 40 digits over count vectors lies in its enclosure."""
    merged = False
    ok, worst = True, mpmath.mpf(0)
    with mpmath.workdps(DIGITS):
        for d, e, (value, enc, _) in results:
            blocks = blocks_of(d, e)
            if _vectors(blocks) > MAX_VECTORS:
                merged = True
                blocks = [([a for a, _, _ in cl], [b for _, b, _ in cl], k)
                          for cl, k in ((ratio_classes(p, q), k) for p, q, k in blocks)]
            got = _mp_pair(notion, own, blocks)
            if value == sp.oo or got == mpmath.inf:
                ok = ok and value == sp.oo and got == mpmath.inf
                continue
            lo, hi = _mpf(enc[0]), _mpf(enc[1])
            slack = REL_TOL * abs(got) + ABS_FLOOR
            ok = ok and lo - slack <= got <= hi + slack
            worst = max(worst, (max(lo - got, got - hi, 0)) / max(abs(got), ABS_FLOOR))
    over = "the outputs merged by likelihood ratio" if merged else "the outputs"
    return (f"a {DIGITS}-digit sum over the count vectors of {over} lies in each pair's enclosure "
            f"(largest relative gap {mpmath.nstr(worst, 3)})", bool(ok))


__all__ = ["mp_check", "product_check"]
