"""The exact maximum of finitely many closed-form candidates over parameter ranges, as a Piecewise.

A tight privacy level of a finite mechanism is a maximum over finitely many *units* (a neighbour pair and
an output, a pair alone, ...), each unit's value a sum of *terms*, each term the largest of a few
expressions (``max(0, p - E·q)`` is the term (0, p - E·q)). With the mechanism's entries symbolic, which
unit is largest can depend on the parameters. :func:`maximise` finds it, by this method:

1. **Dominance.** Equal expressions are merged (sympy ``cancel``). A candidate is dropped when another is
   ≥ it on the whole range, decided by :func:`~symbolic.model.param_space.sign_on` (sympy on the interior
   substitution, else the zeros of the difference by ``solveset`` and exact signs between them).
2. **Crossings.** If several candidates survive and there is one parameter, the range is cut at every
   zero (and pole) of every pairwise difference of the survivors. On each piece no two survivors cross,
   so the largest at one exact rational point of the piece is the largest on the whole piece; adjacent
   pieces with the same winner are merged. Terms with several expressions are resolved the same way
   first (their cut points come first), so each piece sees plain expressions.
3. **Otherwise** (several parameters and no dominance, or zeros sympy cannot list) the answer is the
   exact ``Max`` of the survivors, with ``proved`` False for the choice of maximiser: still the right
   value, but not a single closed form.

Every decision is recorded as a step (text), which is the derivation's certificate.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.exact import expr_text

from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.model.param_space import interior_points, sign_on, value_at, zeros_and_poles

MAX_STEPS = 60


@dataclass(frozen=True)
class Unit:
    """One candidate of a maximum: ``label`` says where it comes from (e.g. ``(("pair", (d, d')),
    ("output", o))``); its value is Σ over ``terms`` of the largest expression of each term."""

    label: tuple
    terms: tuple  # of tuples of sympy expressions


@dataclass(frozen=True)
class Piece:
    """The maximum on the part of the range between ``lower`` and ``upper`` (None: the range's own end;
    both None and ``symbol`` None: the whole range): ``expr``, attained by the units ``labels``; ``sample``
    is an exact point inside the piece."""

    symbol: sp.Symbol | None
    lower: object
    upper: object
    expr: sp.Expr
    labels: tuple
    sample: dict

    def condition_text(self, rng_text: str = "") -> str:
        if self.symbol is None or (self.lower is None and self.upper is None):
            return rng_text or "the whole range"
        left = "" if self.lower is None else f"{expr_text(self.lower)} ≤ "
        right = "" if self.upper is None else f" ≤ {expr_text(self.upper)}"
        return f"{left}{self.symbol}{right}"


@dataclass(frozen=True)
class MaxResult:
    """The maximum as one expression (plain, Piecewise or Max), its pieces, the steps, and whether the
    maximiser was decided (``proved``)."""

    expr: sp.Expr
    pieces: tuple
    steps: tuple
    proved: bool


class _Log:
    def __init__(self):
        self.steps, self.proved = [], True

    def add(self, text):
        if len(self.steps) < MAX_STEPS:
            self.steps.append(text)
        elif len(self.steps) == MAX_STEPS:
            self.steps.append("… (further steps of the same kinds omitted)")


def _canon(e):
    e = sp.sympify(e)
    if e.is_Rational:
        return e
    c = sp.cancel(sp.together(e))
    return c if sp.count_ops(c) <= sp.count_ops(e) else e


def _ge(a, b, ranges, bounds):
    """Is a ≥ b throughout the open box? True, False (a < b somewhere: unknown here) or None."""
    s = sign_on(sp.sympify(a) - b, ranges, bounds)
    return s in (1, 0, "≥")


def _bounds_text(rng_texts, bounds):
    if not bounds:
        return " and ".join(rng_texts) or "the table"
    (name, (lo, hi)), = bounds.items()
    return f"{'' if lo is None else f'{expr_text(lo)} < '}{name}{'' if hi is None else f' < {expr_text(hi)}'}"


def _frontier(cands, ranges, bounds, log, what):
    """Drop candidates dominated by another on the box; ``cands``: dict expr -> labels."""
    sample = _sample_point(ranges, bounds)
    def key(e):
        try:
            return -sp.N(value_at(e, sample), 30)
        except TypeError:
            return 0
    order = sorted(cands, key=key)
    front = []
    for c in order:
        beaten = None
        for f in front:
            if _ge(f, c, ranges, bounds):
                beaten = f
                break
        if beaten is not None:
            log.add(f"{what}: {_short(beaten)} ≥ {_short(c)} on {_bounds_text([r.text() for r in ranges], bounds)}")
            continue
        kept = []
        for f in front:
            if _ge(c, f, ranges, bounds):
                log.add(f"{what}: {_short(c)} ≥ {_short(f)} on {_bounds_text([r.text() for r in ranges], bounds)}")
            else:
                kept.append(f)
        front = kept + [c]
    return front


def _short(e, limit=70):
    text = expr_text(e)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _sample_point(ranges, bounds):
    point = {}
    for r in ranges:
        lo, hi = (bounds or {}).get(r.name, (r.lower, r.upper))
        point[r.symbol] = r.lower if r.is_point() else interior_points(lo, hi, 1)[0]
    return point


def _argmax_at(exprs, point):
    best = exprs[0]
    for e in exprs[1:]:
        if exact_sign(value_at(e, point) - value_at(best, point)) > 0:
            best = e
    return best


def _cuts(exprs, rng, lo, hi):
    """Zeros and poles in (lo, hi) of every pairwise difference; None if some cannot be listed."""
    pts = set()
    for i, a in enumerate(exprs):
        for b in exprs[i + 1:]:
            z = zeros_and_poles(sp.sympify(a) - b, rng.symbol, lo, hi)
            if z is None:
                return None
            pts |= set(z)
    return sorted(pts, key=lambda r: sp.N(r, 50))


def _max_on(cands, ranges, bounds, log):
    """Pieces (lower, upper, expr, labels, sample) of max over ``cands`` (dict expr -> labels) on the
    open box narrowed by ``bounds``."""
    front = _frontier(cands, ranges, bounds, log, "dominance")
    rng_single = [r for r in ranges if not r.is_point()]
    if len(front) == 1:
        return [(None, None, front[0], cands[front[0]], _sample_point(ranges, bounds))]
    if len(rng_single) == 1:
        rng = rng_single[0]
        lo, hi = (bounds or {}).get(rng.name, (rng.lower, rng.upper))
        cuts = _cuts(front, rng, lo, hi)
        if cuts is not None:
            ends = [lo, *cuts, hi]
            out = []
            for a, b in zip(ends, ends[1:]):
                s = interior_points(a, b, 1)[0]
                point = {**_sample_point(ranges, bounds), rng.symbol: s}
                win = _argmax_at(front, point)
                if out and out[-1][2] == win:
                    out[-1] = (out[-1][0], b, win, out[-1][3], out[-1][4])
                    continue
                out.append((a, b, win, cands[win], point))
            cut_text = ", ".join(map(str, cuts)) or "none"
            log.add(f"crossings of the {len(front)} undominated candidates in "
                    f"{_bounds_text([r.text() for r in ranges], bounds)}: {cut_text}; the largest on each piece is "
                    f"decided exactly at one rational point of it")
            return out
    log.proved = False
    log.add(f"{len(front)} candidates remain and sympy cannot order them on the whole range: the maximum is "
            f"kept as Max(...)")
    labels = tuple(label for f in front for label in cands[f])
    return [(None, None, sp.Max(*front), labels, _sample_point(ranges, bounds))]


def _resolve_terms(units, ranges, log):
    """Prune each term's expressions by dominance on the whole range; returns the pruned units and the set
    of terms left with several expressions."""
    out, cache = [], {}
    for u in units:
        terms = []
        for t in u.terms:
            t = tuple(dict.fromkeys(_canon(e) for e in t))
            if len(t) > 1:
                if t not in cache:
                    cache[t] = tuple(_frontier({e: () for e in t}, ranges, None, log, "term"))
                t = cache[t]
            terms.append(t)
        out.append(Unit(u.label, tuple(terms)))
    return out


def maximise(units, ranges) -> MaxResult:
    """The maximum over ``units`` (see :class:`Unit`) for parameters in ``ranges`` (ParamRange objects),
    by the method of the module docstring."""
    ranges = tuple(ranges)
    log = _Log()
    units = _resolve_terms(units, ranges, log)
    distinct = {tuple(u.terms) for u in units}
    log.steps.insert(0, f"{len(units)} candidates, {len(distinct)} distinct after merging equal expressions (sympy cancel)")
    open_terms = {t for u in units for t in u.terms if len(t) > 1}
    free = [r for r in ranges if not r.is_point()]
    pieces = []
    if not open_terms:
        pieces = _max_on(_group(units, None), ranges, None, log)
    elif len(free) == 1:
        rng = free[0]
        cuts = set()
        for t in open_terms:
            c = _cuts(list(t), rng, rng.lower, rng.upper)
            if c is None:
                cuts = None
                break
            cuts |= set(c)
        if cuts is not None:
            cuts = sorted(cuts, key=lambda r: sp.N(r, 50))
            log.add(f"the terms max(…) change their largest expression at {', '.join(map(str, cuts)) or 'no point'}")
            ends = [rng.lower, *cuts, rng.upper]
            for a, b in zip(ends, ends[1:]):
                point = {rng.symbol: interior_points(a, b, 1)[0]}
                grouped = _group(units, point)
                for lo, hi, e, labels, s in _max_on(grouped, ranges, {rng.name: (a, b)}, log):
                    lo, hi = (a if lo is None else lo), (b if hi is None else hi)
                    if pieces and pieces[-1][2] == e:
                        pieces[-1] = (pieces[-1][0], hi, e, pieces[-1][3], pieces[-1][4])
                    else:
                        pieces.append((lo, hi, e, labels, s))
        else:
            pieces = None
    else:
        pieces = None
    if pieces is None:  # several parameters, or zeros sympy cannot list: keep max(…) inside each term
        log.proved = False
        log.add("the terms max(…) could not be resolved on the range; they are kept as Max(…)")
        pieces = _max_on(_group(units, None, keep_max=True), ranges, None, log)
    return _finish(pieces, free, log)


def _group(units, point, keep_max=False) -> dict:
    """dict value expression -> labels, each term resolved at ``point`` (or kept as Max)."""
    out = {}
    for u in units:
        parts = []
        for t in u.terms:
            if len(t) == 1:
                parts.append(t[0])
            elif keep_max or point is None:
                parts.append(sp.Max(*t))
            else:
                parts.append(_argmax_at(list(t), point))
        e = _canon(sp.Add(*parts))
        out.setdefault(e, [])
        out[e].append(u.label)
    return {e: tuple(v) for e, v in out.items()}


def _finish(pieces, free, log) -> MaxResult:
    symbol = free[0].symbol if len(free) == 1 and len(pieces) > 1 else None
    lo_end, hi_end = (free[0].lower, free[0].upper) if len(free) == 1 else (None, None)
    made = []
    for lo, hi, e, labels, s in pieces:
        lo = None if lo == lo_end else lo
        hi = None if hi == hi_end else hi
        made.append(Piece(symbol, lo, hi, e, tuple(labels), s))
    if len(made) == 1:
        expr = made[0].expr
    else:
        args = [(p.expr, symbol <= p.upper) for p in made[:-1]] + [(made[-1].expr, True)]
        expr = sp.Piecewise(*args)
    return MaxResult(expr, tuple(made), tuple(log.steps), log.proved)


__all__ = ["Unit", "Piece", "MaxResult", "maximise", "UndecidedComparison"]
