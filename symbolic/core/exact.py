"""Exact numbers: conversion into sympy, rejection of floats, safe parsing of text.

Text from users is data, never code: :func:`parse_number` accepts only integers,
fractions ``a/b`` and decimals, and :func:`parse_expr` accepts a small grammar
(numbers, declared symbols, + - * / ^ and parentheses, ``exp``/``log``/``sqrt``)
without ever calling ``eval`` or ``sympify`` on the raw string.
"""
from __future__ import annotations

import re
from fractions import Fraction

import sympy as sp
from sympy.printing.str import StrPrinter

from symbolic.core.certified import normal_cdf_expr
from symbolic.core.errors import FloatNotAllowed, ParseError, clip


def exact(value, *, what: str = "value") -> sp.Expr:
    """Return ``value`` as an exact sympy expression; reject floats.

    >>> exact(3) , exact("3/8"), exact(Fraction(1, 2))
    (3, 3/8, 1/2)
    """
    if isinstance(value, bool):
        raise FloatNotAllowed(f"{what}={value!r} is a bool; give a number such as 1 or '3/8'")
    if isinstance(value, float) or isinstance(value, sp.Float):
        hint = ""
        try:
            hint = f"'{Fraction(str(value))}'" if abs(value) < 1e15 else ""
        except (ValueError, OverflowError):   # nan, inf
            pass
        raise FloatNotAllowed(
            f"{what}={clip(value)} is a float; dpcheck needs exact numbers: write text such as "
            f"{hint or repr('3/8')} (in Python, sympy.Rational works too)")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, str):
        return parse_number(value, what=what)
    if isinstance(value, sp.Basic):
        if value.atoms(sp.Float):
            raise FloatNotAllowed(
                f"{what}={value} contains a float; use sympy.Rational instead")
        return value
    raise FloatNotAllowed(f"{what}={clip(value)} of type {type(value).__name__} is not an exact number; "
                          f"give an integer or a string such as '3/8'")


_NUMBER = re.compile(r"^\s*([+-]?\d+)(?:\s*/\s*(\d+)|\.(\d+))?\s*$")
MAX_DIGITS = 1000  # per integer in a number; Python's own int() stops at 4300


def parse_number(text: str, *, what: str = "value") -> sp.Rational:
    """Parse an integer, ``a/b`` or a decimal (read exactly) from text.

    >>> parse_number("0.25"), parse_number("-3/6")
    (1/4, -1/2)
    """
    if not isinstance(text, str):
        raise ParseError(f"{what}={clip(text)} is not text; write an integer, a/b or a decimal")
    m = _NUMBER.match(text)
    if not m:
        raise ParseError(f"{what}={clip(text)} is not a number; write an integer, a/b or a decimal")
    whole, den, frac = m.groups()
    longest = max(len(g.lstrip("+-")) for g in m.groups() if g is not None)
    if longest > MAX_DIGITS:
        raise ParseError(f"{what}={clip(text)} has a {longest}-digit integer; dpcheck reads at most {MAX_DIGITS} "
                         f"digits per integer: write a shorter fraction")
    if den is not None:
        if int(den) == 0:
            raise ParseError(f"{what}={clip(text)} divides by zero")
        return sp.Rational(int(whole), int(den))
    if frac is not None:
        sign = -1 if whole.startswith("-") else 1
        return sign * (abs(sp.Integer(int(whole))) + sp.Rational(int(frac), 10 ** len(frac)))
    return sp.Integer(int(whole))


_TOKEN = re.compile(r"\s*(?:([0-9]+(?:\.[0-9]+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^(),]))")
_SPACE = re.compile(r"\s*")
_FUNCS = {"exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt}


#: the functions a density or mass function may use besides exp, log and sqrt (``functions=CURVE_FUNCS``);
#: Phi is the standard normal CDF, erfc(−x/√2)/2
CURVE_FUNCS = {"abs": sp.Abs, "erf": sp.erf, "erfc": sp.erfc, "erfinv": sp.erfinv, "Phi": normal_cdf_expr}
#: the functions a density or mass function may use: those of curves, and ``floor`` (step functions)
DENSITY_FUNCS = {**CURVE_FUNCS, "floor": sp.floor}
#: the constants a density may name (``constants=CURVE_CONSTANTS``)
CURVE_CONSTANTS = {"pi": sp.pi}
MAX_EXPR_CHARS, MAX_DEPTH, MAX_POWER_BITS = 10_000, 50, 100_000
MAX_NESTING = 200  # parentheses, signs and powers nested inside each other (the parser recurses on them)
MAX_EXP_ARGUMENT = 10_000  # exp(x) of a number x: e^10000 has 4343 digits; exp(exp(1000)) has 10^434


def _magnitude_over(value, limit) -> bool:
    """Whether the number ``value`` (no symbols) is over ``limit`` in absolute value, decided at low
    precision; a value too large even for that (an overflow in mpmath) is over."""
    if value.free_symbols or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False   # symbolic: bounded by its parameters' ranges; not finite: said by _not_finite
    try:
        return bool(abs(sp.N(value, 15)) > limit)
    except (OverflowError, RecursionError, ValueError, TypeError):
        return True


def _exp(argument, text):
    """exp(argument), refusing a number argument over MAX_EXP_ARGUMENT: exp(exp(exp(1000))) cannot be
    compared with anything, not even at low precision."""
    if _magnitude_over(argument, MAX_EXP_ARGUMENT):
        raise ParseError(f"exp of a number over {MAX_EXP_ARGUMENT} in {clip(text)} is too large to compute with "
                         f"(e^{MAX_EXP_ARGUMENT} has {int(MAX_EXP_ARGUMENT / 2.302585) + 1} digits)")
    return sp.exp(argument)


def _power(base, exponent, text):
    """base ** exponent, refusing exact powers too big to compute (9^9^9 has 3.7e8 digits), and
    integer powers of a parameter beyond the same bound (p^(10^9) at p = 1/2 has 10^9 bits)."""
    if exponent.is_Rational and base.is_Rational:
        bits = max(int(base.p).bit_length(), int(base.q).bit_length(), 1) * abs(int(exponent.p))
        if abs(int(exponent.p)) > MAX_POWER_BITS or bits > MAX_POWER_BITS:
            raise ParseError(f"the power {clip(text)} is too large to compute exactly (over {MAX_POWER_BITS} bits)")
    elif exponent.is_Rational and abs(int(exponent.p)) > MAX_POWER_BITS:
        raise ParseError(f"the exponent {exponent} in {clip(text)} is too large (at most {MAX_POWER_BITS})")
    elif not exponent.is_Rational and _magnitude_over(exponent, MAX_POWER_BITS):
        raise ParseError(f"the exponent in {clip(text)} is over {MAX_POWER_BITS}: too large to compute with")
    return base ** exponent


def _not_finite(value) -> str | None:
    """Why a parsed value is not a finite real number (1/0, log(0), 0^-1, sqrt(-1)), or None."""
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return "divides by zero or is not a finite number"
    if not value.free_symbols and value.is_real is False:
        return "is not a real number"
    return None


def parse_expr(text: str, symbols: dict[str, sp.Symbol] | None = None, *, what: str = "expression",
               functions: dict | None = None, constants: dict | None = None) -> sp.Expr:
    """Parse a restricted arithmetic expression (recursive descent, no eval): numbers (integers,
    ``a/b`` or decimals, read exactly), the names in ``symbols``, ``+ - * / ^`` (``**`` too),
    parentheses and ``exp``, ``log``, ``sqrt``, and the extra one-argument ``functions`` and named
    ``constants`` a caller allows (densities: :data:`CURVE_FUNCS` — ``abs``, ``erf``, ``Phi`` — and
    :data:`CURVE_CONSTANTS` — ``pi``). Nothing else is read; a value that is not a finite real number (1/0, log(0), sqrt(-1))
    is refused. ``what`` names the text in error messages.

    >>> y = sp.Symbol("y", real=True)
    >>> parse_expr("exp(-abs(y))/2 + Phi(0)*pi", {"y": y}, functions=CURVE_FUNCS, constants=CURVE_CONSTANTS)
    pi/2 + exp(-Abs(y))/2

    >>> E = sp.Symbol("E"); parse_expr("E^2 - 1/2", {"E": E})
    E**2 - 1/2
    >>> p = sp.Symbol("p"); parse_expr("exp(-p)/(1+exp(-p))", {"p": p})
    exp(-p)/(1 + exp(-p))
    >>> parse_expr("__import__")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.ParseError: unknown name '__import__' in '__import__'; known: exp, log, sqrt
    """
    funcs = {**_FUNCS, **(functions or {})}
    symbols = {**(constants or {}), **dict(symbols or {})}
    if isinstance(text, float):
        raise FloatNotAllowed(f"{what}={clip(text)} is a float; dpcheck needs exact numbers: write text such as '3/8'")
    if not isinstance(text, str):
        raise ParseError(f"{what} {clip(text)} is not text")
    if len(text) > MAX_EXPR_CHARS:
        raise ParseError(f"{what} {clip(text)} has {len(text)} characters; at most {MAX_EXPR_CHARS} are read")
    clash = sorted(set(symbols) & set(funcs))
    if clash:
        raise ParseError(f"parameter name {clash[0]!r} is a function name; rename the parameter")
    toks, pos, depth = [], 0, 0
    while pos < len(text):
        if _SPACE.match(text, pos).end() == len(text):
            break
        m = _TOKEN.match(text, pos)
        if not m:
            bad = text[_SPACE.match(text, pos).end()]
            names = "parameter names, " if symbols else ""
            raise ParseError(f"{what} {clip(text)} is not a number or an expression in numbers: unexpected character "
                             f"{bad!r}; write numbers, {names}+ - * / ^, parentheses, {', '.join(funcs)}")
        tok = m.group(1) or m.group(2) or m.group(3)
        depth += {"(": 1, ")": -1}.get(tok, 0)
        if depth > MAX_DEPTH:
            raise ParseError(f"{what} {clip(text)} nests parentheses more than {MAX_DEPTH} deep")
        toks.append(tok)
        pos = m.end()
    toks.append(None)
    i, nesting = 0, 0

    def peek():
        return toks[i]

    def take(expected=None):
        nonlocal i
        t = toks[i]
        if expected is not None and t != expected:
            raise ParseError(f"expected {expected!r} in {what} {clip(text)}, found {clip(t, 40)}")
        i += 1
        return t

    def nested(parse):
        """Run one recursive step, refusing nesting beyond MAX_NESTING before Python's stack runs out."""
        nonlocal nesting
        nesting += 1
        if nesting > MAX_NESTING:
            raise ParseError(f"{what} {clip(text)} nests signs, powers or parentheses more than {MAX_NESTING} deep")
        try:
            return parse()
        finally:
            nesting -= 1

    def atom():
        t = take()
        if t is None:
            raise ParseError(f"unexpected end of {what} {clip(text)}")
        if t == "(":
            e = nested(expr)
            take(")")
            return e
        if t == "-":
            return -nested(power)
        if t == "+":
            return nested(power)
        if t[0].isdigit():
            return parse_number(t, what="number")
        if t in funcs:
            if peek() != "(":
                raise ParseError(f"{t} in {what} {clip(text)} needs its argument in parentheses, as in {t}(p)")
            take("(")
            e = nested(expr)
            take(")")
            return _exp(e, text) if t == "exp" else funcs[t](e)
        if t in symbols:
            return symbols[t]
        if t in ("(", ")", ",", "*", "/", "^", "**"):
            raise ParseError(f"unexpected {t!r} in {what} {clip(text)}")
        known = ", ".join(sorted(set(symbols) | set(funcs)))
        raise ParseError(f"unknown name {clip(t, 40)} in {clip(text)}; known: {known}")

    def power():
        base = atom()
        if peek() in ("^", "**"):
            take()
            return _power(base, nested(power), text)
        return base

    def term():
        factors = [power()]
        while peek() in ("*", "/"):
            op = take()
            r = power()
            factors.append(r if op == "*" else 1 / r)
        return sp.Mul(*factors)

    def expr():
        terms = [term()]
        while peek() in ("+", "-"):
            op = take()
            r = term()
            terms.append(r if op == "+" else -r)
        return sp.Add(*terms)

    result = expr()
    if peek() is not None:
        raise ParseError(f"unexpected {peek()!r} in {what} {clip(text)}")
    try:
        why = _not_finite(result)
    except (OverflowError, RecursionError):
        why = "is too large to compute with"
    if why:
        raise ParseError(f"{what} {clip(text)} {why}")
    return result


def at_values(expr, values: dict) -> sp.Expr:
    """``expr`` with each parameter named in ``values`` (the real symbol of that name, as claims write
    parameters) replaced by its value.

    >>> at_values(sp.Symbol("E", real=True) ** 2 - 1, {"E": 3})
    8
    """
    return sp.sympify(expr).subs({sp.Symbol(k, real=True): v for k, v in values.items()})


def to_fraction(value) -> Fraction:
    """A sympy Rational (or int) as a Fraction; anything else raises."""
    v = value if isinstance(value, (int, Fraction, sp.Rational)) else sp.sympify(value)
    if isinstance(v, (float, sp.Float)):
        raise ValueError(f"{value!r} is a float, not an exact rational")
    if isinstance(v, Fraction):
        return v
    v = sp.Rational(v)
    return Fraction(int(v.p), int(v.q))


class _TextPrinter(StrPrinter):
    """sympy's text, except Euler's number, which sympy writes ``E``: here ``E`` is the privacy
    parameter e^ε, so e is written ``exp(1)`` (and reads back as e)."""

    def _print_Exp1(self, expr):
        return "exp(1)"


def expr_text(value) -> str:
    """An expression as text that reads back unambiguously: ``exp(1)`` for Euler's number.

    >>> expr_text(sp.E / (1 + sp.E)), expr_text(sp.Symbol("E") + 1)
    ('exp(1)/(1 + exp(1))', 'E + 1')
    """
    return _TextPrinter().doprint(sp.sympify(value))


def show(value) -> str:
    """Exact text of a number: '3/8', '2', 'sqrt(2)'."""
    if isinstance(value, Fraction):   # exactly (nsimplify would round a fraction near 1 to 1)
        return str(sp.Rational(value.numerator, value.denominator))
    return str(sp.Integer(value)) if isinstance(value, int) else str(value)
