"""Exact evaluation of a whole rational table in one pass: integer columns and neighbour index arithmetic.

When every entry of a :class:`~symbolic.core.tables.MechTable` is rational (a sympy Rational, an
int or a Fraction), :func:`int_view` rewrites it as integer columns: databases are numbered in
lexicographic order over the domain (x = Σ_i pos(d_i)·k^(n-1-i)), ``cols[j][x]`` is the entry of
output j scaled by a denominator, either one common denominator ``L`` for the whole table
(``dens is None``) or one per row (``dens[x]``, when the lcm of all denominators would be huge).
Replacing d_i = u by v moves x by (v - u)·k^(n-1-i), so the neighbours of every database with
d_i = u are one shifted slice of the same list: :func:`neighbour_slices` gives those slices, and a
notion's comparison runs over them with ``map`` on Python integers (exact, no floats, no sympy).

:func:`first_bad_pair` finds the first flagged neighbour pair in the order of the notion bodies
(database, then index i, then replacement value v, then the check's own index), so a fast evaluation
can report the same first failed comparison as the body evaluated with :class:`~symbolic.core.ops.ExactOps`.
"""
from __future__ import annotations

import itertools
import math
import operator
import weakref
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

MAX_LCM_BITS = 256  # above this a common denominator is dropped for one denominator per row


def rational(x):
    """``x`` as a pair of ints (p, q), q > 0, if it is an exact rational number; else None."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x, 1
    if isinstance(x, Fraction):
        return x.numerator, x.denominator
    if isinstance(x, sp.Rational):
        return int(x.p), int(x.q)
    return None


@dataclass(frozen=True, eq=False)
class IntView:
    """A rational table as integer columns over the lexicographic numbering of its databases."""

    n: int
    k: int            # domain size
    cols: tuple       # one list of ints per output
    dens: list | None  # one denominator per database, or None for one common denominator
    L: int            # the common denominator (1 when dens is given)

    @property
    def size(self) -> int:
        return self.k ** self.n

    def database(self, x: int, domain) -> tuple:
        """The database numbered x."""
        digits = []
        for _ in range(self.n):
            x, r = divmod(x, self.k)
            digits.append(domain[r])
        return tuple(reversed(digits))


_VIEWS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def int_view(tab) -> IntView | None:
    """The integer view of a MechTable (cached per table), or None when an entry is not rational or the
    rows are not exactly 𝒟^n."""
    try:
        return _VIEWS[tab]
    except KeyError:
        pass
    except TypeError:
        return _build(tab)
    view = _build(tab)
    _VIEWS[tab] = view
    return view


def _build(tab) -> IntView | None:
    n, domain, rows = tab.n, tuple(tab.domain), tab.rows
    k = len(domain)
    if len(rows) != k ** n or not all(map(operator.eq, rows, itertools.product(domain, repeat=n))):
        return None
    vals = list(rows.values())
    width = len(tab.outputs)
    if any(len(r) != width for r in vals):
        return None
    conv, distinct = {}, {}   # rows that are one object (equal rows of a table share one) are read once
    for row in vals:
        if id(row) in distinct:
            continue
        distinct[id(row)] = row
        for x in row:
            key = id(x)
            if key not in conv:
                pq = rational(x)
                if pq is None:
                    return None
                conv[key] = pq
    L = 1
    for _, q in conv.values():
        if L % q:
            L = L * q // math.gcd(L, q)
            if L.bit_length() > MAX_LCM_BITS:
                return _per_row(n, k, vals, conv, width)
    scaled = {key: p * (L // q) for key, (p, q) in conv.items()}
    ints = {key: tuple(scaled[id(x)] for x in row) for key, row in distinct.items()}
    by_row = [ints[id(row)] for row in vals]
    cols = tuple([r[j] for r in by_row] for j in range(width))
    return IntView(n, k, cols, None, L)


def _per_row(n, k, vals, conv, width):
    dens, cols = [], tuple([] for _ in range(width))
    for row in vals:
        pqs = [conv[id(x)] for x in row]
        D = 1
        for _, q in pqs:
            if D % q:
                D = D * q // math.gcd(D, q)
        dens.append(D)
        for j, (p, q) in enumerate(pqs):
            cols[j].append(p * (D // q))
    return IntView(n, k, cols, dens, 1)


def neighbour_slices(view: IntView, i: int, u: int, v: int, a: int = 0, j: int | None = None):
    """Pairs of slices (sx, sy): sx runs over the databases x with d_i at domain position u inside the
    aligned block [a, a + k^j) (default: the whole table), each slice increasing in x, and sy over the
    matching x[i→v] (same length, same order)."""
    k = view.k
    j = view.n if j is None else j
    s = k ** (view.n - 1 - i)
    width = k ** j
    if s >= width:  # digit i is fixed inside the block
        if (a // s) % k == u:
            yield slice(a, a + width), slice(a + (v - u) * s, a + (v - u) * s + width)
        return
    blocks = width // (k * s)
    big = k * s
    if s >= blocks:  # few long contiguous runs
        for h in range(blocks):
            b = a + h * big
            yield slice(b + u * s, b + u * s + s), slice(b + v * s, b + v * s + s)
    else:  # few long strided runs
        for lo in range(s):
            yield slice(a + u * s + lo, a + width, big), slice(a + v * s + lo, a + width, big)


FIRST_BLOCK = 6  # the first block holds k^6 databases; the next ones grow geometrically


def _blocks(view: IntView):
    """Aligned blocks (a, j) covering [0, k^n) in increasing order: [0, k^m), then k - 1 blocks of
    k^j for each j ≥ m, so a failure near the start is found after reading little of the table."""
    k, n = view.k, view.n
    m = min(FIRST_BLOCK, n)
    yield 0, m
    for j in range(m, n):
        for c in range(1, k):
            yield c * k ** j, j


def first_bad_pair(view: IntView, checks):
    """The first neighbour pair flagged by one of ``checks``, as (x, i, v, c) (database number, index,
    domain position of the replacement value, number of the check), minimal in that order; None if
    none is flagged. Each check is ``check(sx, sy)`` -> an iterable of bools, one per pair of the slices.
    Blocks of databases are read in increasing order, and the first block with a flagged pair holds
    the minimum."""
    count = itertools.count
    for a, j in _blocks(view):
        best = None
        for i in range(view.n):
            for u in range(view.k):
                for v in range(view.k):
                    if u == v:
                        continue
                    for c, check in enumerate(checks):
                        for sx, sy in neighbour_slices(view, i, u, v, a, j):
                            t = next(itertools.compress(count(), check(sx, sy)), None)
                            if t is not None:
                                key = (sx.start + t * (sx.step or 1), i, v, c)
                                best = key if best is None or key < best else best
        if best is not None:
            return best
    return None


def one_pass(tab, checks_of, why):
    """A notion's one-pass reading on table ``tab``: ``checks_of(view)`` gives its checks on the integer
    view (None if a parameter is not rational); ``why(d, i, v, j)`` words the first flagged pair
    (database d, index i, replacement value v, check j) as the body words its failed comparison.
    Returns (holds, reason), or None when the view does not apply (then the body decides)."""
    view = int_view(tab)
    checks = None if view is None else checks_of(view)
    if checks is None:
        return None
    bad = first_bad_pair(view, checks)
    if bad is None:
        return True, None
    x, i, v, j = bad
    return False, why(view.database(x, tab.domain), i, tab.domain[v], j)


def pure_dp_checks(view: IntView, E):
    """One check per output j: A(x)(j) > E·A(x')(j), exactly, over slices of the view; None if E is
    not rational."""
    pq = rational(E)
    if pq is None:
        return None
    p, q = pq
    gt, mul = operator.gt, operator.mul
    checks = []
    for col in view.cols:
        qa, pb = [q * a for a in col], [p * a for a in col]
        if view.dens is None:
            checks.append(lambda sx, sy, qa=qa, pb=pb: map(gt, qa[sx], pb[sy]))
        else:
            D = view.dens
            checks.append(lambda sx, sy, qa=qa, pb=pb: map(gt, map(mul, qa[sx], D[sy]), map(mul, pb[sy], D[sx])))
    return checks


def hockey_check(view: IntView, E, delta):
    """One check: Σ_j max(0, A(x)(j) - E·A(x')(j)) > δ, exactly; None if E or δ is not rational."""
    pe, pd = rational(E), rational(delta)
    if pe is None or pd is None:
        return None
    (p, q), (r, t) = pe, pd
    gt, mul, sub, add = operator.gt, operator.mul, operator.sub, operator.add
    qas = [[q * a for a in col] for col in view.cols]
    pbs = [[p * a for a in col] for col in view.cols]
    zero = itertools.repeat(0)
    D = view.dens

    def check(sx, sy):
        total = None
        for qa, pb in zip(qas, pbs):
            if D is None:
                diff = map(sub, qa[sx], pb[sy])
            else:
                diff = map(sub, map(mul, qa[sx], D[sy]), map(mul, pb[sy], D[sx]))
            part = map(max, diff, zero)
            total = part if total is None else map(add, total, part)
        scaled = map(mul, total, itertools.repeat(t))
        if D is None:
            return map(gt, scaled, itertools.repeat(r * q * view.L))
        return map(gt, scaled, map(mul, map(mul, D[sx], D[sy]), itertools.repeat(r * q)))
    return [check]
