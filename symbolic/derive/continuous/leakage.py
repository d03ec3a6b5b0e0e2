"""Leakage of a mechanism with an infinite output space: maximal leakage and pointwise maximal leakage.

For laws p_x (densities on ℝ or mass functions on ℤ) of the inputs x in the support of a prior π:

- maximal leakage (Issa, Wagner, Kamath 2020, Thm. 1): L = log ∫ max_x p_x(y) dy (a sum over ℤ); it
  depends on the prior only through its support;
- pointwise maximal leakage (Saeidian et al. 2023, Def. 2.3 and Thm. 1): ε = log sup_y max_x
  p_x(y)/p_Y(y) with p_Y = Σ_x π_x p_x.

On each piece of the line (between the kinks of ``abs``) each law is c_x·e^(g_x(y)) with g_x a
polynomial of degree ≤ 2; the piece is cut where two laws cross (real roots of log c_x + g_x −
log c_x′ − g_x′), so that one law is the largest on each part. There the integral of the largest law is
a closed form, and 1/(p_x/p_Y) = Σ_x′ π_x′ (c_x′/c_x) e^(g_x′ − g_x) is minimised over the part from its
ends (limits) and the real zeros of its derivative that sympy's ``solve`` returns as a finite list; any
other answer from ``solve`` makes the result unknown.
"""
from __future__ import annotations

import sympy as sp

from symbolic.derive.continuous.pair import _integer_part, _roots_inside, decide, inside, single_exp
from symbolic.model.line_cuts import pieces
from symbolic.model.real_line import OO, Piece, Signs, Undecided, floor_exact, inside_point, sorted_distinct, total


def _by_largest(laws, y, piece: Piece, signs: Signs):
    """[(sub-piece, index of the largest law there)] covering ``piece``."""
    forms = [single_exp(e, y, "a law") for e in laws]
    live = [i for i, (c, _) in enumerate(forms) if signs.sign(c) != 0]
    if not live:
        return []
    cuts = []
    for k, i in enumerate(live):
        for j in live[k + 1:]:
            (ci, gi), (cj, gj) = forms[i], forms[j]
            r = sp.expand(sp.log(ci / cj) + gi - gj)
            cuts += _roots_inside(r, y, piece, signs)
    ordered = sorted_distinct(cuts, signs, lambda t, u: decide(signs, t - u, "the order of two crossings") > 0)
    ends = [piece.lo, *ordered, piece.hi]
    out = []
    for lo, hi in zip(ends, ends[1:]):
        sub = _integer_part(lo, hi, piece) if piece.closed else Piece(lo, hi, piece.exprs)
        if sub is None:
            continue
        mid = inside_point(lo, hi)
        best = live[0]
        for i in live[1:]:
            (cb, gb), (ci, gi) = forms[best], forms[i]
            if decide(signs, (sp.log(ci / cb) + gi - gb).subs(y, mid), "which law is largest") > 0:
                best = i
        out.append((sub, best))
    return out


def _parts(pc: Piece, y, signs: Signs) -> list:
    """[(sub-piece, law index)] whose ratios p_x/p_Y bound the supremum on the piece: the largest law on each
    part when every law is one exponential there, else every law on the whole piece (a mixture, such as a
    count's law given one record, is a sum of exponentials: max_x sup_y p_x/p_Y is the largest of the
    laws' own suprema, so taking each law everywhere loses nothing)."""
    try:
        return _by_largest(pc.exprs, y, pc, signs)
    except Undecided:
        whole = pc if not pc.closed else _integer_part(pc.lo, pc.hi, pc)
        return [] if whole is None else [(whole, i) for i in range(len(pc.exprs))]


def maximal_leakage(laws, y, signs: Signs, integers: bool) -> tuple:
    """(L, where): log ∫ max_x p_x over the line (∞ when the integral diverges)."""
    mass = sp.Integer(0)
    for pc in pieces(list(laws), y, signs, integers=integers):
        for sub, i in _by_largest(pc.exprs, y, pc, signs):
            mass += total(pc.exprs[i], y, sub, signs)
    return sp.log(mass), "the integral of the largest law over the line"


def pml(laws, prior, y, signs: Signs, integers: bool, names=None) -> tuple:
    """(ε, where): log sup_y max_x p_x(y)/Σ_x′ π_x′ p_x′(y), for laws with positive prior mass."""
    best, where = None, ""
    for pc in pieces(list(laws), y, signs, integers=integers):
        for sub, i in _parts(pc, y, signs):
            inv = sp.expand(sp.Add(*[w * e for w, e in zip(prior, pc.exprs)]) / pc.exprs[i])
            inv = sp.powsimp(inv, combine="exp")
            low, at = _minimum(inv, y, sub, signs)
            if best is None or decide(signs, best - low, "which part gives the larger leakage") > 0:
                best, where = low, f"x = {names[i] if names else i + 1}, {at}"
    if best is None:
        raise Undecided("no output has positive probability")
    return -sp.log(best), where


def _minimum(f, y, sub: Piece, signs: Signs):
    """(min, where) of f over the sub-piece, from its ends and the zeros of f′ inside (whether a zero is
    inside is decided exactly; an undecided one makes the answer unknown, never skipped)."""
    cands = []
    for end in (sub.lo, sub.hi):
        v = sp.limit(f, y, end) if end in (OO, -OO) else f.subs(y, end)
        cands.append((sp.simplify(v), sub.at_text(end)))
    try:
        zeros = sp.solve(sp.diff(f, y), y)
    except NotImplementedError:
        raise Undecided(f"the critical points of {f} are not found exactly") from None
    if not isinstance(zeros, list):
        raise Undecided(f"the critical points of {f} are not a finite list")
    for t in zeros:
        if t.has(sp.I) or (not t.free_symbols and not t.is_real):
            continue
        if not inside(t, sub, signs):
            continue
        pts = [t] if not sub.closed else [floor_exact(t), floor_exact(t) + 1]
        cands += [(sp.simplify(f.subs(y, u)), sub.point_text(u)) for u in pts]
    finite = [(v, w) for v, w in cands if v.is_finite is not False and v not in (OO, -OO)]
    if not finite:
        return OO, "nowhere (the ratio tends to 0)"
    best = finite[0]
    for v, w in finite[1:]:
        if decide(signs, v - best[0], "which candidate is smaller") < 0:
            best = (v, w)
    return best
