"""Certified real arithmetic: balls that are guaranteed to contain the true value, and comparisons
with three answers (True, False, None = undecided at the precision cap), never a float verdict.

A :class:`Ball` is an interval [m − r, m + r] computed by python-flint's ``arb`` type (ball
arithmetic of Johansson's Arb library, now part of FLINT): every operation returns a ball that
contains the exact result of the operation applied to any points of its arguments, so a chain of
operations encloses the exact value of the whole expression. A comparison ``le(a, b)`` is

- ``True`` when every point of ``a`` is ≤ every point of ``b`` (then the exact values satisfy it),
- ``False`` when every point of ``a`` is > every point of ``b``,
- ``None`` when the balls overlap: the precision did not separate them (equal values never do).

Precision is set by :func:`precision` (bits of the working precision); :func:`decide` reruns a
computation at doubling precision, from :data:`START_BITS` up to :data:`MAX_BITS`, until it gives a
definite answer.

Sympy numbers built from rationals, π, e, +, −, ×, ÷, powers, ``exp``, ``log``, ``sqrt``, ``erf`` (and its inverses),
``erfc``, ``Abs``, ``Max``, ``Min`` and the elementary trigonometric and hyperbolic functions are
enclosed by :func:`enclose`; :func:`certified_sign` and :func:`compare` decide their sign and order.
The standard normal CDF is Φ(x) = erfc(−x/√2)/2 (:func:`normal_cdf`, :func:`normal_cdf_expr`).

>>> is_less(sp.log(2), sp.Rational(7, 10)), is_less(sp.E, sp.Rational(2718, 1000))
(True, False)
>>> is_less_equal(sp.log(6), sp.log(2) + sp.log(3)) is None   # equal values: undecided, not a guess
True
"""
from __future__ import annotations

import contextlib
from fractions import Fraction

import sympy as sp

from symbolic.core.errors import DPCheckError, FloatNotAllowed, OutOfRange, clip

START_BITS = 64
MAX_BITS = 4096
MAX_EXPONENT_BITS = 1 << 17   # an exact end of an interval is a rational below 2^(2^17) in size: 10^±39456


class CertifiedUnavailable(DPCheckError):
    """python-flint (the ball arithmetic behind certified comparisons) is not installed."""


class NotEnclosable(DPCheckError, ValueError):
    """A sympy expression that is not a finite real number built from the supported operations."""


def _flint():
    try:
        import flint
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise CertifiedUnavailable("certified interval arithmetic needs python-flint: "
                                   "run `pip install python-flint`") from e
    return flint


def available() -> bool:
    """Is python-flint importable (so certified comparisons can run)?"""
    try:
        _flint()
    except CertifiedUnavailable:
        return False
    return True


@contextlib.contextmanager
def precision(bits: int):
    """Run the block with a working precision of ``bits`` bits (restored afterwards)."""
    if isinstance(bits, bool) or not isinstance(bits, int) or bits < 2:
        raise ValueError(f"precision bits={clip(bits)} must be a whole number ≥ 2")
    ctx = _flint().ctx
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old


def _arb_of_rational(p: int, q: int):
    fl = _flint()
    if q == 1:
        return fl.arb(fl.fmpz(p))
    return fl.arb(fl.fmpq(p, q))


def flint_module():
    """The python-flint module, or one line saying how to install it (:class:`CertifiedUnavailable`)."""
    return _flint()


def arb_of(x):
    """An arb enclosing ``x`` at the working precision: an arb, a flint integer or rational, or what a Ball takes."""
    fl = _flint()
    return x if isinstance(x, fl.arb) else fl.arb(x) if isinstance(x, (fl.fmpz, fl.fmpq)) else _arb(x)


def _arb(x):
    """An arb enclosing ``x``: a Ball, an int, a Fraction, or an exact sympy number."""
    if isinstance(x, Ball):
        return x._a
    if isinstance(x, bool):
        raise TypeError(f"{x!r} is a bool, not a number")
    if isinstance(x, int):
        return _arb_of_rational(x, 1)
    if isinstance(x, Fraction):
        return _arb_of_rational(x.numerator, x.denominator)
    if isinstance(x, float):
        raise FloatNotAllowed(f"{x!r} is a float; certified arithmetic takes exact numbers (sympy.Rational, Fraction)")
    if isinstance(x, sp.Basic):
        if x.is_Rational:
            return _arb_of_rational(int(x.p), int(x.q))
        return enclose(x, _flint().ctx.prec)._a
    raise TypeError(f"{clip(x)} of type {type(x).__name__} is not a number certified arithmetic accepts")


class Ball:
    """A real interval that contains an exact value (an ``arb`` at the working precision).

    Arithmetic (``+ − × ÷``, ``**`` by an integer, a rational or a ball) gives balls; order is
    asked with :func:`lt`, :func:`le` (three answers), never with ``<``: two intervals have no
    two-valued order, and ``Ball < x`` raises ``TypeError`` so that no code reads one by mistake."""

    __slots__ = ("_a",)

    def __init__(self, value):
        self._a = _arb(value)

    @classmethod
    def _wrap(cls, a) -> "Ball":
        b = cls.__new__(cls)
        b._a = a
        return b

    @classmethod
    def from_arb(cls, a) -> "Ball":
        """The ball of a python-flint ``arb`` computed elsewhere (a quadrature's result, say)."""
        return cls._wrap(a)

    @property
    def arb(self):
        """The python-flint ``arb`` behind the ball, for computations flint does directly."""
        return self._a

    # arithmetic
    def __add__(self, o):
        return Ball._wrap(self._a + _arb(o))

    __radd__ = __add__

    def __sub__(self, o):
        return Ball._wrap(self._a - _arb(o))

    def __rsub__(self, o):
        return Ball._wrap(_arb(o) - self._a)

    def __mul__(self, o):
        return Ball._wrap(self._a * _arb(o))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return Ball._wrap(self._a / _arb(o))

    def __rtruediv__(self, o):
        return Ball._wrap(_arb(o) / self._a)

    def __neg__(self):
        return Ball._wrap(-self._a)

    def __pow__(self, k):
        if isinstance(k, int) and not isinstance(k, bool):
            return Ball._wrap(self._a ** k)
        if isinstance(k, sp.Integer):
            return Ball._wrap(self._a ** int(k))
        return Ball._wrap(self._a ** _arb(k))   # base must be > 0 (else the ball is undefined: nan)

    # functions
    def log(self) -> "Ball":
        return Ball._wrap(self._a.log())

    def exp(self) -> "Ball":
        return Ball._wrap(self._a.exp())

    def sqrt(self) -> "Ball":
        return Ball._wrap(self._a.sqrt())

    # reading the interval
    def is_finite(self) -> bool:
        return bool(self._a.is_finite())

    def lower(self) -> sp.Rational:
        """The exact lower end of the interval (a dyadic rational: midpoint − radius, both exact, so
        the end does not depend on the precision in force when it is read)."""
        return _dyadic(self._a.mid(), -1) - _dyadic(self._a.rad(), 1)

    def upper(self) -> sp.Rational:
        """The exact upper end of the interval (a dyadic rational, as :meth:`lower`)."""
        return _dyadic(self._a.mid(), 1) + _dyadic(self._a.rad(), 1)

    def contains(self, x) -> bool:
        """Does the interval certainly contain the exact number ``x``?"""
        return bool(self._a.contains(_arb(x)))

    def text(self, digits: int = 8) -> str:
        """The interval as text, e.g. ``[0.69314718 +/- 5.6e-17]``."""
        return self._a.str(digits, radius=True)

    def __repr__(self):
        return f"Ball({self.text()})"

    def _no_order(self, other):
        raise TypeError("a Ball has no two-valued order: use certified.lt / certified.le (True, False or None)")

    __lt__ = __le__ = __gt__ = __ge__ = _no_order

    def __bool__(self):
        raise TypeError("a Ball is not a truth value: use certified.lt / certified.le")


def _dyadic(a, direction: int) -> sp.Rational:
    """The exact number ``a`` (a ball of radius 0) as a rational; one of magnitude below 2^-MAX_EXPONENT_BITS
    is rounded outward instead (up for ``direction`` 1, down for -1: 0 or ±2^-MAX_EXPONENT_BITS), so that the
    interval read still contains the value and no rational of 10^39456 digits is ever built; a magnitude above
    2^MAX_EXPONENT_BITS is refused."""
    if not a.is_finite():
        raise NotEnclosable(f"the interval {a} is unbounded")
    man, exp = a.man_exp()
    man, exp = int(man), int(exp)
    if man == 0:
        return sp.Integer(0)
    size = exp + man.bit_length()   # 2^(size-1) <= |a| < 2^size
    if size > MAX_EXPONENT_BITS:
        raise OutOfRange(f"a value of about 2^{size} arose, beyond the magnitudes dpcheck computes with exactly "
                         f"(2^±{MAX_EXPONENT_BITS}, about 10^±39456)")
    # read exactly, 2^|exp| would take |exp| bits: 7·10^11 of them for the δ of a Gaussian at σ = 10^6
    if size < -MAX_EXPONENT_BITS:   # a tiny value: 0 or ±2^-MAX_EXPONENT_BITS, whichever lies outward
        tiny = sp.Rational(1, 2 ** MAX_EXPONENT_BITS)
        return (tiny if man > 0 else sp.Integer(0)) if direction > 0 else (sp.Integer(0) if man > 0 else -tiny)
    if exp < -4 * MAX_EXPONENT_BITS:   # an ordinary magnitude with a mantissa of over 2^19 bits: cut it outward
        cut = -4 * MAX_EXPONENT_BITS - exp
        man = (man >> cut) + (1 if direction > 0 else 0) if man > 0 else -((-man) >> cut) - (1 if direction < 0 else 0)
        exp += cut
    return _dyadic_exact(man, exp)


def _dyadic_exact(man: int, exp: int) -> sp.Rational:
    return sp.Integer(man) * sp.Integer(2) ** exp if exp >= 0 else sp.Rational(man, 2 ** (-exp))


def ball(x) -> Ball:
    """A ball enclosing ``x`` (int, Fraction, exact sympy number or a Ball) at the working precision."""
    return x if isinstance(x, Ball) else Ball(x)


def log(x) -> Ball:
    return ball(x).log()


def exp(x) -> Ball:
    return ball(x).exp()


def sqrt(x) -> Ball:
    return ball(x).sqrt()


def normal_cdf(x) -> Ball:
    """Φ(x) = P[N(0,1) ≤ x] = erfc(−x/√2)/2 as a ball."""
    b = ball(x)
    return Ball._wrap((-b._a / _arb_of_rational(2, 1).sqrt()).erfc() / 2)


def normal_cdf_expr(x) -> sp.Expr:
    """Φ(x) as a sympy expression, erfc(−x/√2)/2 (so :func:`enclose` reads it)."""
    return sp.erfc(-sp.sympify(x) / sp.sqrt(2)) / 2


def lt(a, b):
    """``a < b`` for balls or exact numbers: True, False, or None (the intervals overlap)."""
    x, y = _arb(a), _arb(b)
    if x < y:
        return True
    if x >= y:
        return False
    return None


def le(a, b):
    """``a ≤ b`` for balls or exact numbers: True, False, or None (the intervals overlap)."""
    x, y = _arb(a), _arb(b)
    if x <= y:
        return True
    if x > y:
        return False
    return None


def decide(compute, *, start: int = START_BITS, max_bits: int = MAX_BITS):
    """Run ``compute()`` (which reads balls at the working precision and returns True, False or
    None) at ``start`` bits, then at double the precision, up to ``max_bits``; the first definite
    answer is returned, None if every precision left it undecided."""
    bits = start
    while True:
        with precision(bits):
            res = compute()
        if res is not None:
            return res
        if bits >= max_bits:
            return None
        bits = min(2 * bits, max_bits)


# --- sympy expressions ---------------------------------------------------------------------------

def _unary(name):
    return lambda a: getattr(a, name)()


_FUNCS = {
    sp.exp: _unary("exp"), sp.log: _unary("log"), sp.erf: _unary("erf"), sp.erfc: _unary("erfc"),
    sp.erfinv: _unary("erfinv"), sp.erfcinv: _unary("erfcinv"),
    sp.Abs: abs, sp.sin: _unary("sin"), sp.cos: _unary("cos"), sp.tan: _unary("tan"),
    sp.asin: _unary("asin"), sp.acos: _unary("acos"), sp.atan: _unary("atan"),
    sp.sinh: _unary("sinh"), sp.cosh: _unary("cosh"), sp.tanh: _unary("tanh"),
}


def _enclose(x, memo):
    if x in memo:
        return memo[x]
    fl = _flint()
    if x.is_Rational:
        out = _arb_of_rational(int(x.p), int(x.q))
    elif isinstance(x, sp.Float):
        raise FloatNotAllowed(f"{clip(x)} is a float; certified comparisons take exact numbers (sympy.Rational)")
    elif x is sp.pi:
        out = fl.arb.pi()
    elif x is sp.E:
        out = fl.arb.const_e()
    elif x.is_Symbol:
        raise NotEnclosable(f"{x} is a symbol; a certified comparison needs numbers")
    elif x.is_Add:
        out = _arb_of_rational(0, 1)
        for t in x.args:
            out = out + _enclose(t, memo)
    elif x.is_Mul:
        out = _arb_of_rational(1, 1)
        for t in x.args:
            out = out * _enclose(t, memo)
    elif x.is_Pow:
        out = _power(x.base, x.exp, memo)
    elif isinstance(x, (sp.Max, sp.Min)):
        parts = [_enclose(t, memo) for t in x.args]
        out = parts[0]
        for t in parts[1:]:
            out = out.max(t) if isinstance(x, sp.Max) else out.min(t)
    elif x.func in _FUNCS and len(x.args) == 1:
        out = _FUNCS[x.func](_enclose(x.args[0], memo))
    elif isinstance(x, sp.Sum):
        out = _gaussian_sum(x, memo)
    else:
        raise NotEnclosable(f"{clip(x)} is not a finite real number built from rationals, π, e, + − × ÷, powers, "
                            f"exp, log, sqrt, erf/erfc, Abs, Max, Min or elementary functions")
    memo[x] = out
    return out


def _gaussian_sum(x, memo):
    """Σ_{y=lo}^{hi} e^(−A·y² + B·y + C) over the integers (numbers A > 0, B, C; ends integers or ±∞).

    Proved tails: beyond the vertex v = B/(2A), for y ≥ M ≥ v the ratio of consecutive terms is
    e^(−A(2y+1)+B) ≤ r = e^(−A(2M+1)+B) < 1, so Σ_{y≥M} t(y) ≤ t(M)/(1 − r); on the left, for
    y ≤ M′ ≤ v, t(y−1)/t(y) = e^(A(2y−1)−B) ≤ e^(A(2M′−1)−B). The terms between are summed in balls
    and each infinite tail enters as the interval [0, bound]."""
    f, (y, lo, hi) = sp.powsimp(x.args[0], combine="exp"), x.args[1]
    factor, f = f.as_independent(y, as_Add=False)
    g = sp.expand(f.args[0]) if isinstance(f, sp.exp) else None
    poly = sp.Poly(g, y) if g is not None and g.is_polynomial(y) else None
    if poly is None or poly.degree() != 2 or (g.free_symbols - {y}):
        raise NotEnclosable(f"{clip(x)} is not a sum of e^(−A·y² + B·y + C) with numbers A > 0, B, C")
    A, B, C = (_enclose(c, memo) for c in (-poly.coeff_monomial(y ** 2), poly.coeff_monomial(y),
                                           poly.coeff_monomial(1)))
    if not A > 0:
        raise NotEnclosable(f"{clip(x)}: the y² coefficient is not certainly negative")
    fl = _flint()
    vertex = int(sp.floor(sp.N(poly.coeff_monomial(y) / (-2 * poly.coeff_monomial(y ** 2)), 30)))
    a_low = float(A.lower())   # only picks how many terms to sum; the tail bound below is certified
    half = int(((fl.ctx.prec + 20) * 0.6931471805599453 / a_low) ** 0.5) + 2
    left = vertex - half if lo == -sp.oo else max(int(lo), vertex - half)
    right = vertex + half if hi == sp.oo else min(int(hi), vertex + half)
    if right - left > 1_000_000:
        raise NotEnclosable(f"{clip(x)} needs more than 10^6 terms at this precision")

    def t(k):
        return (B * k + C - A * k * k).exp()

    total = _arb_of_rational(0, 1)
    for k in range(left, right + 1):
        total += t(k)
    tails = []
    if hi == sp.oo:
        tails.append((right + 1, (-A * (2 * (right + 1) + 1) + B).exp()))
    elif right < hi:
        raise NotEnclosable(f"{clip(x)}: a finite upper end beyond the summed terms")
    if lo == -sp.oo:
        tails.append((left - 1, (A * (2 * (left - 1) - 1) - B).exp()))
    elif left > lo:
        raise NotEnclosable(f"{clip(x)}: a finite lower end beyond the summed terms")
    for k, ratio in tails:
        if not ratio < 1:
            raise NotEnclosable(f"{clip(x)}: the tail's ratio is not certainly below 1")
        top = (t(k) / (1 - ratio)).upper()
        total += fl.arb(top / 2, top / 2)
    return total * _enclose(factor, memo)


def _power(base, e, memo):
    if base is sp.E:
        return _enclose(e, memo).exp()
    b = _enclose(base, memo)
    if e.is_Integer:
        return b ** int(e)
    if e == sp.Rational(1, 2):
        return b.sqrt()
    if e == sp.Rational(-1, 2):
        return b.rsqrt()
    if e.is_Rational and int(e.q) <= 1 << 20:
        r = b.root(int(e.q))   # the positive q-th root; a negative base gives nan (sympy's root is complex)
        return r ** int(e.p)
    return b ** _enclose(e, memo)  # b^e = exp(e·log b), defined for b > 0


def enclose(expr, bits: int = START_BITS) -> Ball:
    """A ball containing the exact value of the sympy number ``expr``, computed at ``bits`` bits.

    >>> enclose(sp.Rational(1, 2)).contains(sp.Rational(1, 2))
    True
    """
    try:
        x = sp.sympify(expr)
        if x.free_symbols:
            raise NotEnclosable(f"{clip(x)} still has symbols ({', '.join(sorted(map(str, x.free_symbols)))}); "
                                f"a certified comparison needs numbers")
        outside_sums = x.xreplace({t: sp.Dummy() for t in x.atoms(sp.Sum)})
        if outside_sums.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I):
            raise NotEnclosable(f"{clip(x)} is not a finite real number")
        with precision(bits):
            return Ball._wrap(_enclose(x, {}))
    except RecursionError:
        raise NotEnclosable("the expression nests too deeply to enclose") from None


def certified_sign(expr, *, max_bits: int = MAX_BITS):
    """The sign of the sympy number ``expr``: 1 or −1 when an enclosure excludes 0, 0 when it is
    exactly 0 (a rational 0, or a ball computed without rounding that is the point 0), None when
    enclosures up to ``max_bits`` bits still contain 0 (a zero in disguise, or very close to 0).

    >>> certified_sign(sp.sqrt(2) - sp.Rational(14142135623731, 10 ** 13))
    -1
    """
    x = sp.sympify(expr)
    if x.is_Rational:
        return int(x.p > 0) - int(x.p < 0)

    def one():
        a = enclose(x, _flint().ctx.prec)._a
        if a > 0:
            return 1
        if a < 0:
            return -1
        if a.is_exact() and a.is_zero():
            return 0
        return None

    return decide(one, max_bits=max_bits)


def compare(a, b, *, max_bits: int = MAX_BITS):
    """−1, 0 or 1 as ``a`` is below, equal to or above ``b`` (sympy numbers), None when undecided."""
    return certified_sign(sp.sympify(a) - sp.sympify(b), max_bits=max_bits)


def is_less(a, b, *, max_bits: int = MAX_BITS):
    """``a < b`` for sympy numbers: True, False, or None (undecided at ``max_bits``)."""
    s = compare(a, b, max_bits=max_bits)
    return None if s is None else s < 0


def is_less_equal(a, b, *, max_bits: int = MAX_BITS):
    """``a ≤ b`` for sympy numbers: True, False, or None (undecided at ``max_bits``)."""
    s = compare(a, b, max_bits=max_bits)
    return None if s is None else s <= 0
