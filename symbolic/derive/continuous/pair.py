"""Privacy quantities of one ordered pair of laws with an infinite output space, in closed form.

For laws p, q (densities on ℝ or mass functions on ℤ, each c·e^(polynomial of degree ≤ 2 in y) on
every piece of :func:`symbolic.model.real_line.pieces`), the privacy loss r(y) = log p(y)/q(y) is a
polynomial of degree ≤ 2 on each piece, which makes these exact:

- :func:`sup_loss`: sup_y r(y) (the pure-DP level of the pair; Dwork, McSherry, Nissim, Smith 2006),
  from the ends of each piece (limits at ±∞) and the vertex of r inside it, with where it is reached;
- :func:`hockey`: δ(E) = ∫ max(0, p − E·q) (the tight δ of (log E, δ)-DP for the pair: the worst event
  is {r > log E}; Dwork, Kenthapadi, McSherry, Mironov, Naor 2006), cutting each piece at the real roots
  of r = log E;
- :func:`renyi_mass`: ∫ p^α q^(1−α), so D_α = log(·)/(α − 1) (Mironov 2017, Def. 3), for a number α or
  a symbol α > 1.

A sign the parameters' ranges leave open raises :class:`NeedsCase` (a :class:`Undecided`); the caller
decides both cases (:func:`by_cases`) and returns a Piecewise.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import sympy as sp

from symbolic.model.line_cuts import pieces
from symbolic.model.real_line import OO, Piece, Signs, Undecided, exp_rational, exp_terms, floor_exact, inside_point, total

MAX_CASE_DEPTH = 3


class NeedsCase(Undecided):
    """The sign of ``expr`` (in the parameters) decides the next step and the ranges leave it open."""

    def __init__(self, expr, what):
        super().__init__(f"the sign of {expr} ({what}) depends on the parameters")
        self.expr = expr


def decide(signs: Signs, expr, what: str) -> int:
    """The sign of ``expr``; NeedsCase when it depends on the parameters."""
    s = signs.sign(expr)
    if s is None:
        if sp.sympify(expr).free_symbols:
            raise NeedsCase(sp.sympify(expr), what)
        raise Undecided(f"the sign of {expr} ({what}) is not decided")
    return s


def by_cases(compute, signs: Signs, depth: int = MAX_CASE_DEPTH) -> list:
    """[(facts, value)]: ``compute(signs)`` under each case of the signs it needs (each fact an
    expression assumed > 0), at most ``depth`` nested splits."""
    try:
        return [(signs.facts, compute(signs))]
    except NeedsCase as nc:
        if depth == 0:
            raise Undecided(f"too many cases: {nc}") from None
        return (by_cases(compute, signs.assuming(nc.expr), depth - 1)
                + by_cases(compute, signs.assuming(-nc.expr), depth - 1))


@dataclass(frozen=True)
class LawPair:
    """The ordered pair (p, q) of laws (expressions in ``y``) of two neighbouring databases."""

    p: sp.Expr
    q: sp.Expr
    y: sp.Symbol
    integers: bool
    label: tuple

    def pieces(self, signs: Signs) -> list:
        return pieces([self.p, self.q], self.y, signs, integers=self.integers)


def single_exp(e, y, what):
    """(c, g) with e = c·e^g, g a polynomial in y of degree ≤ 2; Undecided for a sum of such terms."""
    terms = exp_terms(e, y)
    if len(terms) != 1:
        raise Undecided(f"{what} is a sum of {len(terms)} exponential terms: its log is not a polynomial")
    return terms[0]


def loss_on(piece: Piece, y) -> tuple:
    """(r, c_p, g_p, c_q, g_q): the privacy loss r = log(c_p/c_q) + g_p − g_q on a piece."""
    cp, gp = single_exp(piece.exprs[0], y, "the first law")
    cq, gq = single_exp(piece.exprs[1], y, "the second law")
    return sp.expand(sp.log(exp_rational(cp / cq)) + gp - gq), cp, gp, cq, gq


def _coeffs(r, y):
    poly = sp.Poly(r, y)
    return tuple(poly.coeff_monomial(y ** k) for k in (2, 1, 0))


def _limit_at(r, y, end, signs):
    """r at an end of a piece (a polynomial in y of degree ≤ 2): its value, or ±∞ at an infinite end."""
    if end not in (OO, -OO):
        return r.subs(y, end)
    a2, a1, _ = _coeffs(r, y)
    s2 = decide(signs, a2, "the y² coefficient of the privacy loss") if a2 != 0 else 0
    if s2:
        return OO if s2 > 0 else -OO
    s1 = decide(signs, a1, "the slope of the privacy loss") if a1 != 0 else 0
    if s1 == 0:
        return r
    return OO if (s1 > 0) == (end == OO) else -OO


def inside(point, piece: Piece, signs) -> bool:
    """Is ``point`` strictly inside the piece (decided exactly; NeedsCase when it depends on the parameters)?"""
    lo_ok = piece.lo == -OO or decide(signs, point - piece.lo, "where the vertex lies") > 0
    hi_ok = piece.hi == OO or decide(signs, piece.hi - point, "where the vertex lies") > 0
    return lo_ok and hi_ok


def sup_loss(pair: LawPair, signs: Signs) -> tuple:
    """(sup_y r(y), where): the largest privacy loss of the pair, with where it is reached (text)."""
    y, best, where = pair.y, None, None
    for pc in pair.pieces(signs):
        if _zero(pc.exprs[0], y, signs):
            continue
        if _zero(pc.exprs[1], y, signs):
            return OO, f"y in {pc.text()}, where the second law is 0 and the first is not"
        r = loss_on(pc, y)[0]
        a2, a1, _ = _coeffs(r, y)
        cands = [(_limit_at(r, y, pc.lo, signs), pc.at_text(pc.lo)), (_limit_at(r, y, pc.hi, signs),
                                                                       pc.at_text(pc.hi))]
        if a2 != 0 and signs.sign(a2) != 0:
            v = -a1 / (2 * a2)
            if inside(v, pc, signs):
                pts = [v] if not pc.closed else [floor_exact(v), floor_exact(v) + 1]
                cands += [(r.subs(y, t), pc.point_text(t)) for t in pts]
        elif a1 == 0 or signs.sign(a1) == 0:
            cands = [(r, f"every y in {pc.text()}")]
        for val, text in cands:
            if best is None or _greater(val, best, signs):
                best, where = val, text
    return best, where


def _greater(a, b, signs) -> bool:
    if a == b:
        return False
    if OO in (a, b) or -OO in (a, b):
        return a == OO or b == -OO
    return decide(signs, a - b, "which candidate is larger") > 0


def _zero(law, y, signs) -> bool:
    """Is a law identically 0 on a piece (every term's coefficient 0)?"""
    return all(signs.sign(c) == 0 for c, _ in exp_terms(law, y))


def _roots_inside(r, y, piece, signs) -> list:
    """The real roots of r (a polynomial of degree ≤ 2 in y) strictly inside the piece, in order."""
    a2, a1, a0 = _coeffs(r, y)
    if a2 == 0 or signs.sign(a2) == 0:
        if a1 == 0 or signs.sign(a1) == 0:
            return []
        roots = [-a0 / a1]
    else:
        disc = sp.expand(a1 ** 2 - 4 * a2 * a0)
        s = decide(signs, disc, "the discriminant of r = log E")
        if s < 0:
            return []
        if s == 0:
            roots = [-a1 / (2 * a2)]
        else:
            root = sp.sqrt(disc)
            roots = [(-a1 - root) / (2 * a2), (-a1 + root) / (2 * a2)]   # increasing when a2 > 0
            if decide(signs, a2, "the y² coefficient") < 0:
                roots.reverse()
    return [t for t in roots if inside(t, piece, signs)]


def hockey(pair: LawPair, E, signs: Signs) -> sp.Expr:
    """δ(E) = ∫ max(0, p − E·q) dy (a sum over ℤ for mass functions), exact."""
    y, out = pair.y, sp.Integer(0)
    logE = sp.log(E)
    for pc in pair.pieces(signs):
        p, q = pc.exprs
        if _zero(p, y, signs):
            continue
        if _zero(q, y, signs):
            out += total(p, y, pc, signs)
            continue
        r = loss_on(pc, y)[0] - logE
        cuts = _roots_inside(r, y, pc, signs)
        ends = [pc.lo, *cuts, pc.hi]
        for lo, hi in zip(ends, ends[1:]):
            sub = Piece(lo, hi, pc.exprs, pc.closed)
            if pc.closed:
                sub = _integer_part(lo, hi, pc)
                if sub is None:
                    continue
            mid = inside_point(lo, hi)
            if decide(signs, r.subs(y, mid), "the privacy loss against log E") > 0:
                out += total(p - E * q, y, sub, signs)
    return out


def _integer_part(lo, hi, pc):
    """The integers of a sub-interval between roots (numbers) of a closed integer piece, disjointly."""
    lo_i = pc.lo if lo == pc.lo else floor_exact(lo) + 1
    hi_i = pc.hi if hi == pc.hi else floor_exact(hi)
    if lo_i not in (OO, -OO) and hi_i not in (OO, -OO) and lo_i > hi_i:
        return None
    return replace(pc, lo=lo_i, hi=hi_i)


def renyi_mass(pair: LawPair, alpha, signs: Signs) -> sp.Expr:
    """∫ p^α q^(1−α) dy (α > 1, a number or a symbol); ∞ when p > 0 = q somewhere."""
    y, out = pair.y, sp.Integer(0)
    for pc in pair.pieces(signs):
        p, q = pc.exprs
        if _zero(p, y, signs):
            continue
        if _zero(q, y, signs):
            return OO
        _, cp, gp, cq, gq = loss_on(pc, y)
        integrand = cp ** alpha * cq ** (1 - alpha) * sp.exp(sp.expand(alpha * gp + (1 - alpha) * gq))
        out += total(integrand, y, pc, signs)
    return out
