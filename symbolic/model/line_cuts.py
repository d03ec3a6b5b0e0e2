"""Where the line is cut: at the kinks of ``abs`` and at the steps of ``floor``.

On each interval between the real zeros of the arguments of a law's ``abs`` terms every ``abs`` has
one sign, so there the law is a plain expression (:func:`pieces`).

A law with ``floor`` (the staircase mechanism of Geng and Viswanath 2014, for one) has infinitely many
steps. Every ``floor`` argument must be linear in y with slopes ±1/h for one period h > 0; then the
steps lie on finitely many lattices y ∈ h·(k + ρ) (0 ≤ ρ < 1), and between consecutive steps every law
must be constant (no y outside the ``floor`` terms). Such a piece is replaced by **cell pieces**: the
cells between steps are indexed by an integer k, grouped into families (one per offset ρ) plus the
partial cells at the piece's finite ends, and each cell carries its masses (law × width) as
exponential-polynomial functions of k (see :class:`symbolic.model.real_line.Cells`).

For laws that are constant on common cells the quantities of privacy (log ratios, ∫ max(0, p − E·q),
∫ p^α q^(1−α), ∫ max_x p_x) equal those of the cells' masses, so the cell pieces are summed as integer
pieces. Anything outside this form raises :class:`Undecided`.
"""
from __future__ import annotations

import sympy as sp

from symbolic.model.param_space import sample_points
from symbolic.model.real_line import (OO, Cells, Piece, Signs, Undecided, exp_rational, exp_terms, floor_exact,
                                      inside_point, sorted_distinct)

MAX_CELLS = 2_000   # single cells of a bounded piece


def _abs_args(exprs) -> list:
    out = []
    for e in exprs:
        for a in sp.sympify(e).atoms(sp.Abs):
            if a.args[0] not in out:
                out.append(a.args[0])
    return out


def breakpoints(exprs, y, signs: Signs) -> list:
    """The real zeros of the arguments of every abs in ``exprs`` (polynomials in y), in increasing order."""
    points = []
    for arg in _abs_args(exprs):
        if not arg.has(y):
            continue
        poly = sp.Poly(arg, y) if arg.is_polynomial(y) else None
        if poly is None or poly.degree() > 2:
            raise Undecided(f"abs({arg}) is not of a polynomial of degree ≤ 2 in {y}: its zeros are not found exactly")
        for r in sp.solve(arg, y):
            if r.is_real is False or (not r.free_symbols and not r.is_real):
                continue
            if r.has(sp.I):
                raise Undecided(f"abs({arg}) has a zero {r} that is not known to be real")
            points.append(r)
    def greater(p, q):
        lt = signs.less(q, p)
        if lt is None:
            raise Undecided(f"the order of {p} and {q}, where abs terms change sign, is not decided")
        return lt
    return sorted_distinct(points, signs, greater)


def pieces(exprs, y, signs: Signs, *, integers: bool = False) -> list:
    """The pieces of the line on which every abs in ``exprs`` has one sign, each with the abs removed;
    a piece where a law has ``floor`` becomes cell pieces (:func:`cell_pieces`).
    With ``integers`` the pieces are disjoint integer ranges (the breakpoints must then be numbers)."""
    cuts = breakpoints(exprs, y, signs)
    if integers:
        if any(sp.sympify(e).has(sp.floor) for e in exprs):
            raise Undecided("floor is read in densities over the reals (step functions); a mass function over the "
                            "integers needs none")
        if any(c.free_symbols for c in cuts):
            raise Undecided("where the abs terms change sign depends on the parameters; give them values")
        cuts = sorted({floor_exact(c) for c in cuts})
        bounds = [(-OO, cuts[0])] + [(a + 1, b) for a, b in zip(cuts, cuts[1:])] + [(cuts[-1] + 1, OO)] if cuts \
            else [(-OO, OO)]
        return [Piece(lo, hi, tuple(_substitute_signs(e, y, inside_point(lo, hi), signs) for e in exprs), closed=True)
                for lo, hi in bounds]
    ends = [-OO, *cuts, OO]
    out = []
    for lo, hi in zip(ends, ends[1:]):
        pc = Piece(lo, hi, tuple(_substitute_signs(e, y, inside_point(lo, hi), signs) for e in exprs))
        out += cell_pieces(pc, y, signs) if any(e.has(sp.floor) for e in pc.exprs) else [pc]
    return out


def _substitute_signs(e, y, inside, signs):
    reps = {}
    for a in sp.sympify(e).atoms(sp.Abs):
        s = signs.sign(a.args[0].subs(y, inside))
        if s is None:
            raise Undecided(f"the sign of {a.args[0]} between the breakpoints is not decided")
        reps[a] = a.args[0] if s >= 0 else -a.args[0]
    return sp.sympify(e).xreplace(reps)


# ---------------------------------------------------------------- steps of floor
def floor_decided(x, signs: Signs) -> sp.Integer:
    """⌊x⌋ for an exact x, possibly in the parameters: the same integer for every value in the ranges,
    or Undecided."""
    x = sp.sympify(x)
    if not x.free_symbols:
        return floor_exact(x)
    k = floor_exact(x.xreplace(sample_points(signs.ranges, 1)[0]))
    if signs.sign(x - k) in (0, 1) and signs.sign(k + 1 - x) == 1:
        return k
    raise Undecided(f"⌊{x}⌋ depends on the parameters; give them values")


def _lattice(piece: Piece, y, signs: Signs) -> tuple:
    """(h, offsets): the period h > 0 of every floor argument (slope ±1/h) and the sorted distinct
    offsets 0 ≤ ρ < 1 of their steps y ∈ h·(k + ρ)."""
    args = [f.args[0] for e in piece.exprs for f in sp.sympify(e).atoms(sp.floor)]
    h, residues = None, []
    for a in args:
        if not a.is_polynomial(y) or sp.Poly(a, y).degree() != 1:
            raise Undecided(f"floor({a}) is not of an argument linear in {y}: its steps are not a lattice")
        slope, at0 = sp.Poly(a, y).coeff_monomial(y), a.subs(y, 0)
        s = signs.need(slope, f"the slope of floor({a})")
        if h is None:
            h = sp.simplify(1 / (s * slope))
        elif sp.simplify(s * slope * h - 1) != 0:
            raise Undecided(f"floor({a}) steps with another period than {h}: the steps are not one lattice")
        u = sp.simplify(-at0 / slope / h)          # a step where slope·y + at0 is an integer: y = h·(u + integer)
        residues.append(sp.simplify(u - floor_decided(u, signs)))
    def greater(p, q):
        s = signs.sign(sp.simplify(p - q))
        if s is None:
            raise Undecided(f"the order of the steps at offsets {p} and {q} depends on the parameters")
        return s > 0
    return h, sorted_distinct(residues, signs, greater)


def _side(t, x, signs) -> int:
    """The sign of t − x (a step against a piece's end), or Undecided."""
    s = signs.sign(sp.simplify(t - x))
    if s is None:
        raise Undecided(f"whether the step at {t} lies before or after {x} depends on the parameters")
    return s


def _period_of(x, h, rho0, signs):
    """The integer k with h·(k + ρ₀) ≤ x < h·(k + 1 + ρ₀)."""
    return floor_decided(sp.simplify(x / h - rho0), signs)


def cell_pieces(piece: Piece, y, signs: Signs) -> list:
    """The cell pieces (see the module docstring) replacing ``piece``, whose laws have ``floor``."""
    h, rho = _lattice(piece, y, signs)
    ends = rho + [rho[0] + 1]
    families = [(ends[s], ends[s + 1]) for s in range(len(rho))]
    lo, hi = piece.lo, piece.hi
    if lo == -OO and hi == OO:
        return [_family(piece, y, h, a, b, -OO, OO, signs) for a, b in families]
    if hi == OO or lo == -OO:
        finite = lo if hi == OO else hi
        k0 = _period_of(finite, h, rho[0], signs)
        steps = [h * (k0 + e) for e in ends]           # the steps of period k0, and the next period's first
        if hi == OO:
            points = [finite] + [t for t in steps[1:-1] if _side(t, finite, signs) > 0] + [steps[-1]]
            cells = [_family(piece, y, h, a, b, k0 + 1, OO, signs) for a, b in families]
        else:
            points = [steps[0]] + [t for t in steps[1:-1] if _side(t, finite, signs) < 0] + [finite]
            cells = [_family(piece, y, h, a, b, -OO, k0 - 1, signs) for a, b in families]
        return cells + _singles(piece, y, points, signs)
    k_lo, k_hi = _period_of(lo, h, rho[0], signs), _period_of(hi, h, rho[0], signs)
    if (k_hi - k_lo + 1) * len(rho) > MAX_CELLS:
        raise Undecided(f"the piece {piece.text()} has more than {MAX_CELLS} steps of floor")
    steps = [h * (k + e) for k in range(int(k_lo), int(k_hi) + 1) for e in rho]
    points = [lo] + [t for t in steps if _side(t, lo, signs) > 0 and _side(hi, t, signs) > 0]
    return _singles(piece, y, points + [hi], signs)


def _constant_on(expr, y, at, where):
    """``expr`` with every floor evaluated at the point ``at`` (a cell's middle): it must be free of y."""
    reps = {f: sp.floor(sp.expand(f.args[0].subs(y, at))) for f in sp.sympify(expr).atoms(sp.floor)}
    out = sp.sympify(expr).xreplace(reps)
    if out.has(y):
        raise Undecided(f"{expr} is not constant between the steps of its floor terms ({where}): only step "
                        f"functions are cut into cells")
    return out


def _family(piece, y, h, a, b, k_lo, k_hi, signs) -> Piece:
    """The cells [h·(k + a), h·(k + b)) for k_lo ≤ k ≤ k_hi, their masses as functions of k (named y)."""
    k = sp.Symbol("k", integer=True)
    width = sp.simplify(h * (b - a))
    masses = _masses(piece, y, h * (k + (a + b) / 2), width, f"the cells [{h * a} + {h}·k, {h * b} + {h}·k)",
                     lambda arg: _split_floor(arg, k, signs), k)
    return Piece(k_lo, k_hi, tuple(masses), closed=True, cells=Cells(_short(h * a), exp_rational(width), h))


def _masses(piece, y, at, width, where, floor_of, index=None) -> list:
    """Each law's mass on a cell: its value at the cell's middle ``at`` (floors evaluated by ``floor_of``)
    times the cell's width, as a function of the cell's ``index`` (renamed y), constant factors simplified."""
    out = []
    for e in piece.exprs:
        mass = (_constant_on(e, y, at, where).replace(sp.floor, floor_of) * width).xreplace({index: y} if index else {})
        out.append(sp.Add(*[exp_rational(c) * sp.exp(g) for c, g in exp_terms(mass, y)]))
    return out


def _split_floor(arg, k, signs):
    """⌊±k + c⌋ = ±k + ⌊c⌋ (k an integer)."""
    arg = sp.expand(arg)
    slope = arg.coeff(k)
    if slope not in (0, 1, -1):
        raise Undecided(f"floor({arg}) does not step once a cell")
    return slope * k + floor_decided(sp.simplify(arg - slope * k), signs)


def _short(x):
    """A number or expression in the parameters, simplified for display and reuse."""
    return exp_rational(sp.simplify(x))


def _singles(piece, y, points, signs) -> list:
    """One cell piece (index 0) per interval between consecutive ``points`` of positive width."""
    out = []
    for a, b in zip(points, points[1:]):
        width = sp.simplify(b - a)
        s = signs.sign(width)
        if s is None:
            raise Undecided(f"whether the cell [{a}, {b}) is empty depends on the parameters")
        if s != 1:
            continue
        masses = _masses(piece, y, (a + b) / 2, width, f"the cell [{a}, {b})", lambda arg: floor_decided(arg, signs))
        out.append(Piece(sp.Integer(0), sp.Integer(0), tuple(masses), closed=True,
                         cells=Cells(_short(a), _short(width), sp.Integer(0))))
    return out
