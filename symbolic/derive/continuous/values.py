"""The value of a level derived for a density or mass function, and the exact helpers that build it.

:class:`CurveLevel` is the result of :func:`symbolic.derive.continuous.level.derive_curve_level`: an exact value,
a certified enclosure (ball arithmetic), the formula in the parameters left free, where the level is
reached, the derivation's steps and its cross-checks. :func:`combine` turns the cases of a case split
into a Piecewise, :func:`at_values` evaluates them at exact values, :func:`enclosure` encloses a value.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core import certified as C
from symbolic.core.exact import expr_text
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.model.continuous import ContinuousMechanism
from symbolic.model.real_line import OO, exp_rational

DIGITS = 15   # digits printed of an enclosure (its radius is below 10^-(DIGITS+2))


@dataclass(frozen=True)
class CurveLevel:
    """A derived level. ``formula``: exact, in the parameters left symbolic (a Piecewise over cases), or
    None when only the value at the given numbers was derived; ``value``: exact at the given numbers (None
    while symbols remain); ``enclosure``: (lower, upper) rationals certified to contain the level;
    ``exact``: the value is a closed form (False: only the enclosure is certified); ``where``: where the
    level is reached; ``steps``: the derivation in words; ``checks``: (text, ok) cross-checks. The notions
    derived are the keys of ``CURVE_NOTIONS``.

    >>> from symbolic.derive.continuous.level import CURVE_NOTIONS, derive_curve_level
    >>> sorted(CURVE_NOTIONS)[:3]
    ['approx-dp', 'bounded-range', 'free-lunch']
    >>> from symbolic.model.continuous import gaussian
    >>> d = derive_curve_level("renyi-2", gaussian(), params={"sigma": 2})
    >>> d.value, d.exact, d.ok
    (1/4, True, True)
    """

    notion: str
    quantity: str
    formula: sp.Expr | None
    value: sp.Expr | None
    enclosure: tuple | None
    exact: bool
    where: str
    steps: tuple
    checks: tuple
    params: dict = field(default_factory=dict)
    assumptions: tuple = ()
    mechanism: ContinuousMechanism | None = field(default=None, compare=False, repr=False)
    unknown: str | None = None   # why no level was derived (then formula, value and enclosure are None)

    @property
    def infinite(self) -> bool:
        return self.value == OO or self.formula == OO

    @property
    def ok(self) -> bool:
        """A level was derived and every cross-check passed (a failed check fails the derivation)."""
        return self.unknown is None and bool(self.checks) and all(ok for _, ok in self.checks)

    def value_text(self) -> str:
        """The value for a reader: a rational as it is, else the digits its enclosure supports (at most 15
        significant) with the enclosure's half-width (:func:`enclosure_text`)."""
        if self.unknown is not None:
            return "unknown"
        if self.infinite:
            return "∞"
        if self.enclosure is None:
            return "(symbolic)"
        if self.value is not None and self.value.is_Rational:
            return str(self.value)
        return f"{enclosure_text(*self.enclosure)}, certified)"


def enclosure_text(lo, hi, exact_places: int = DIGITS) -> str:
    """An enclosure [lo, hi] for a reader, and ``(± radius`` (left open for the caller's closing words; the
    radius rounded up). Only digits the enclosure supports are printed: the decimal shown is one that lo and hi
    both round to, so its rounding interval contains the whole enclosure (at most ``exact_places`` significant
    digits; scientific notation below 10^-4). When fewer than two significant digits are supported, the
    enclosure itself is printed, its ends rounded outward.

    >>> enclosure_text(sp.Rational(549306144334038, 10 ** 15), sp.Rational(549306144334132, 10 ** 15))
    '0.549306144334 (± 4.7e-14'
    >>> enclosure_text(sp.Rational(1230835983, 10 ** 34), sp.Rational(1230835984, 10 ** 34))
    '1.23083598e-25 (± 5.0e-35'
    >>> enclosure_text(sp.Rational(9, 100), sp.Rational(11, 100))
    '[0.0900, 0.110] (± 0.010'
    """
    lo, hi = sp.Rational(lo), sp.Rational(hi)
    radius = (hi - lo) / 2
    shown = f" (± {_round_up_text(radius)}" if radius else " (± 0"
    if lo == hi:
        q = _exponent(lo) - exact_places + 1
        return _decimal_text(_round_at(lo, q), q) + shown
    k, q = _supported(lo, hi, exact_places)
    if _exponent(max(abs(lo), abs(hi))) - q + 1 >= 2:
        return _decimal_text(k, q) + shown
    return f"[{decimal_down(lo, 3)}, {decimal_up(hi, 3)}]" + shown


def decimal_down(x, digits: int) -> str:
    """x rounded down (toward −∞) to ``digits`` significant digits: a lower end that stays a lower end."""
    x = sp.Rational(x)
    q = _exponent(x) - digits + 1
    return _decimal_text(int(sp.floor(x / sp.Rational(10) ** q)), q)


def decimal_up(x, digits: int) -> str:
    """x rounded up (toward +∞) to ``digits`` significant digits: an upper end that stays an upper end.

    >>> decimal_down(sp.Rational(2, 3), 4), decimal_up(sp.Rational(2, 3), 4), decimal_up(-sp.Rational(2, 3), 4)
    ('0.6666', '0.6667', '-0.6666')
    """
    x = sp.Rational(x)
    q = _exponent(x) - digits + 1
    return _decimal_text(int(sp.ceiling(x / sp.Rational(10) ** q)), q)


def _exponent(x) -> int:
    """e with 10^e ≤ |x| < 10^(e+1), by exact integer comparisons (0 for x = 0); the first guess comes from the
    bit lengths, so a number of 10^-39456 takes a few comparisons, not one a decade.

    >>> _exponent(sp.Rational(1, 10 ** 5000)), _exponent(sp.Rational(999, 100)), _exponent(10 ** 5000)
    (-5000, 0, 5000)
    """
    x = abs(sp.Rational(x))
    if x == 0:
        return 0
    p, q = int(x.p), int(x.q)
    e = int((p.bit_length() - q.bit_length()) * 0.30102999566398) - 1

    def at_least(k):   # |x| ≥ 10^k
        return p >= q * 10 ** k if k >= 0 else p * 10 ** (-k) >= q
    while at_least(e + 1):
        e += 1
    while not at_least(e):
        e -= 1
    return e


def _round_at(x, q: int) -> int:
    """k with k·10^q the multiple of 10^q nearest to x (halves up)."""
    return int(sp.floor(sp.Rational(x) / sp.Rational(10) ** q + sp.Rational(1, 2)))


def _supported(lo, hi, digits: int) -> tuple:
    """(k, q): the finest k·10^q (at most ``digits`` significant digits) that lo and hi both round to."""
    q = _exponent(max(abs(lo), abs(hi))) - digits + 1
    while _round_at(lo, q) != _round_at(hi, q):
        q += 1
    return _round_at(lo, q), q


def _decimal_text(k: int, q: int) -> str:
    """k·10^q written with exactly the digits of k: fixed notation from 10^-4 up to 10^7 when k's last digit is
    a unit or a decimal, else scientific (100 would claim the units digit of 1.0e+02)."""
    if k == 0:
        return "0"
    sign, digits = ("-" if k < 0 else ""), str(abs(k))
    e = q + len(digits) - 1
    if e < -4 or e >= 7 or q > 0:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{e:+03d}" if e >= 0 else f"{sign}{mantissa}e-{abs(e):02d}"
    if q == 0:
        return sign + digits
    digits = digits.rjust(-q + 1, "0")
    return f"{sign}{digits[:q]}.{digits[q:]}"


def _round_up_text(x) -> str:
    """A positive x rounded up to two significant digits (a radius that stays a bound)."""
    return decimal_up(x, 2)


def fixed_decimal(x, decimals: int) -> str:
    """The rational x rounded to ``decimals`` places (half up), by integer arithmetic.

    >>> fixed_decimal(sp.Rational(5128835112945085956, 10 ** 19), 15), fixed_decimal(sp.Rational(-1, 8), 2)
    ('0.512883511294509', '-0.13')
    """
    x = sp.Rational(x)
    sign = "-" if x < 0 else ""
    k = int(sp.floor(abs(x) * 10 ** decimals + sp.Rational(1, 2)))
    whole, frac = divmod(k, 10 ** decimals)
    return f"{sign}{whole}." + str(frac).rjust(decimals, "0") if decimals else f"{sign}{whole}"


TIDY_OPS = 150   # larger formulas are printed as derived: sympy's simplify can take minutes on them


def tidy(v):
    """The shorter of ``v`` and its simplified form (sums left as they are; formulas of more than
    :data:`TIDY_OPS` operations as they are)."""
    v = sp.sympify(v)
    if v.has(sp.Sum, sp.Max) or v in (OO, -OO) or v.is_Number:
        return v
    w = exp_rational(v)
    if w != v:          # a function of one e^(θ/q): its rational form is short, and simplify may take minutes
        return w if sp.count_ops(w) <= sp.count_ops(v) else v
    if sp.count_ops(v) > TIDY_OPS:
        return v
    try:
        w = sp.simplify(sp.powsimp(sp.expand(v)))
    except (TypeError, ValueError, NotImplementedError):
        return v
    return w if sp.count_ops(w) <= sp.count_ops(v) else v


def combine(cases):
    """One expression from [(facts, value)] (a Piecewise over the facts when there are several)."""
    cases = [(f, tidy(v)) for f, v in cases]
    if len(cases) == 1:
        return cases[0][1]
    args = []
    for facts, val in cases:
        cond = sp.And(*[sp.StrictGreaterThan(f, 0) for f in facts]) if facts else sp.true
        args.append((val, cond))
    return sp.Piecewise(*args)


def at_values(cases, values: dict):
    """The value of a by-cases result at exact values (the case whose facts hold there), or None on a
    boundary between cases."""
    for facts, val in cases:
        try:
            if all(exact_sign(sp.sympify(f).xreplace(values)) > 0 for f in facts):
                return _substitute(val, values)
        except UndecidedComparison:
            return None
    return None


def _substitute(val, values):
    """val at exact values; a Max of values sympy cannot order (sums) is rebuilt without evaluation."""
    val = sp.sympify(val)
    if val.has(sp.Max):
        with sp.evaluate(False):
            return val.xreplace(values)
    return val.xreplace(values)


def enclosure(value) -> tuple:
    """(lower, upper) rationals containing ``value``, narrower than 10^-(DIGITS+2) times its size (so that
    DIGITS significant digits of a tiny value are printed too), or at 1536 bits."""
    for bits in (96, 192, 384, 768, 1536):
        b = C.enclose(value, bits)
        lo, hi = b.lower(), b.upper()
        if hi - lo < sp.Rational(1, 10 ** (DIGITS + 2)) * max(abs(lo), abs(hi)) or lo == hi:
            return lo, hi
    return lo, hi


E = sp.Symbol("E", positive=True)   # the level e^ε of a conversion's source


@dataclass(frozen=True)
class CurveMap:
    """``rows``: (ε, lower, upper) certified enclosures of the tight level at each ε; ``candidate``: a closed
    form in E (or None) and ``candidate_inside``: whether it lies in every enclosure; ``unknown``: why
    nothing was derived. Made by :func:`curve_map`.

    >>> from symbolic.derive.continuous.maps import curve_map
    >>> curve_map("zcdp", "pure-dp").unknown.startswith("zcdp ⇒ pure-dp involves a transcendental notion")
    True
    """

    source: str
    target: str
    parameter: str
    rows: tuple = ()
    candidate: sp.Expr | None = None
    candidate_inside: bool = False
    argument: str = ""
    unknown: str | None = None
    attained_by: dict = field(default_factory=dict)
    proved: bool = False          # the candidate is proved the tight level for every value of its parameters
    symbol_text: str = ""         # what the rows are taken at, besides ε
    proved_on: str = ""           # a range of E on which the candidate is proved tight (when not everywhere)
    proof_text: str = ""          # that proof, in words

    @property
    def ok(self) -> bool:
        return self.unknown is None and bool(self.rows)

    def to_json(self) -> dict:
        return {"source": self.source, "target": self.target, "parameter": self.parameter,
                "formula": None if self.candidate is None else expr_text(self.candidate),
                "formula_status": ("proved tight for every value of the parameters" if self.proved else
                                   f"proved tight for {self.proved_on}" if self.proved_on else
                                   "candidate inside every enclosure, not proved for every ε"
                                   if self.candidate is not None and self.candidate_inside else
                                   None if self.candidate is None else "candidate outside an enclosure"),
                "values": [{"eps": expr_text(e), "lower": expr_text(lo), "upper": expr_text(hi),
                            "decimal": _decimal(lo, hi)} for e, lo, hi in self.rows],
                "proof": self.argument or None, "attained_by": self.attained_by or None, "tight": self.ok,
                "unknown": self.unknown, "ok": self.ok}

    def text(self) -> str:
        if self.unknown is not None:
            return f"{self.source} ⇒ {self.target}: unknown: {self.unknown}"
        lines = [f"{self.source} ⇒ {self.target}: the tight {self.parameter} at each ε (certified enclosures"
                 + (f"; {self.symbol_text})" if self.symbol_text else ")")]
        for e, lo, hi in self.rows:
            lines.append(f"  ε = {e}: {self.parameter} = {_decimal(lo, hi)}")
        if self.candidate is not None:
            lines += self._formula_lines()
        lines.append(f"why tight: {self.argument}")
        lines.append(f"attained by: {self.attained_by.get('table')}")
        return "\n".join(lines)


    def _formula_lines(self) -> list:
        """The candidate formula, with how far it is proved."""
        if self.proved:
            return [f"formula (proved, tight): {self.parameter} = {expr_text(self.candidate)}"]
        in_eps = sp.simplify(self.candidate.subs(E, sp.exp(sp.Symbol("ε", positive=True))))
        if self.proved_on:
            return [f"formula (proved tight for {self.proved_on}): {self.parameter} = {expr_text(self.candidate)} = "
                    f"{in_eps}", f"proof: {self.proof_text}"]
        return [f"closed form candidate: {self.parameter} = {expr_text(self.candidate)} = {in_eps} "
                + ("(inside every enclosure; not proved for every ε)" if self.candidate_inside else
                   "(OUTSIDE an enclosure: not the level)")]


def _decimal(lo, hi) -> str:
    return enclosure_text(lo, hi, exact_places=12) + ")"
