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

from symbolic.core.errors import FloatNotAllowed, ParseError, clip


def exact(value, *, what: str = "value") -> sp.Expr:
    """Return ``value`` as an exact sympy expression; reject floats.

    >>> exact(3) , exact("3/8"), exact(Fraction(1, 2))
    (3, 3/8, 1/2)
    """
    if isinstance(value, bool):
        raise FloatNotAllowed(f"{what}={value!r} is a bool; give a number such as 1 or '3/8'")
    if isinstance(value, float) or isinstance(value, sp.Float):
        raise FloatNotAllowed(
            f"{what}={clip(value)} is a float; dpcheck needs exact numbers: "
            f"use sympy.Rational or a string such as '3/8'")
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


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^(),]))")
_FUNCS = {"exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt}
MAX_EXPR_CHARS, MAX_DEPTH, MAX_POWER_BITS = 10_000, 50, 100_000


def _power(base, exponent, text):
    """base ** exponent, refusing exact powers too big to compute (9^9^9 has 3.7e8 digits)."""
    if exponent.is_Rational and base.is_Rational:
        bits = max(int(base.p).bit_length(), int(base.q).bit_length(), 1) * abs(int(exponent.p))
        if abs(int(exponent.p)) > MAX_POWER_BITS or bits > MAX_POWER_BITS:
            raise ParseError(f"the power {clip(text)} is too large to compute exactly (over {MAX_POWER_BITS} bits)")
    return base ** exponent


def parse_expr(text: str, symbols: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """Parse a restricted arithmetic expression (recursive descent, no eval).

    >>> E = sp.Symbol("E"); parse_expr("E^2 - 1/2", {"E": E})
    E**2 - 1/2
    >>> parse_expr("__import__")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.ParseError: unknown name '__import__' in '__import__'; known: exp, log, sqrt
    """
    symbols = dict(symbols or {})
    if not isinstance(text, str):
        raise ParseError(f"expression {clip(text)} is not text")
    if len(text) > MAX_EXPR_CHARS:
        raise ParseError(f"expression {clip(text)} has {len(text)} characters; at most {MAX_EXPR_CHARS} are read")
    toks, pos, depth = [], 0, 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character {text[pos:].strip()[0]!r} in {clip(text)}")
        tok = m.group(1) or m.group(2) or m.group(3)
        depth += {"(": 1, ")": -1}.get(tok, 0)
        if depth > MAX_DEPTH:
            raise ParseError(f"expression {clip(text)} nests parentheses more than {MAX_DEPTH} deep")
        toks.append(tok)
        pos = m.end()
    toks.append(None)
    i = 0

    def peek():
        return toks[i]

    def take(expected=None):
        nonlocal i
        t = toks[i]
        if expected is not None and t != expected:
            raise ParseError(f"expected {expected!r} in {clip(text)}, found {clip(t, 40)}")
        i += 1
        return t

    def atom():
        t = take()
        if t is None:
            raise ParseError(f"unexpected end of {clip(text)}")
        if t == "(":
            e = expr()
            take(")")
            return e
        if t == "-":
            return -power()
        if t == "+":
            return power()
        if t[0].isdigit():
            return parse_number(t, what="number")
        if t in _FUNCS and peek() == "(":
            take("(")
            e = expr()
            take(")")
            return _FUNCS[t](e)
        if t in symbols:
            return symbols[t]
        known = ", ".join(sorted(set(symbols) | set(_FUNCS)))
        raise ParseError(f"unknown name {clip(t, 40)} in {clip(text)}; known: {known}")

    def power():
        base = atom()
        if peek() in ("^", "**"):
            take()
            return _power(base, power(), text)
        return base

    def term():
        e = power()
        while peek() in ("*", "/"):
            op = take()
            r = power()
            e = e * r if op == "*" else e / r
        return e

    def expr():
        e = term()
        while peek() in ("+", "-"):
            op = take()
            r = term()
            e = e + r if op == "+" else e - r
        return e

    result = expr()
    if peek() is not None:
        raise ParseError(f"unexpected {peek()!r} in {clip(text)}")
    return result


def to_fraction(value) -> Fraction:
    """A sympy Rational (or int) as a Fraction; anything else raises."""
    v = sp.nsimplify(value) if not isinstance(value, (int, Fraction, sp.Rational)) else value
    if isinstance(v, Fraction):
        return v
    v = sp.Rational(v)
    return Fraction(int(v.p), int(v.q))


def show(value) -> str:
    """Exact text of a number: '3/8', '2', 'sqrt(2)'."""
    return str(sp.nsimplify(value)) if isinstance(value, (int, Fraction)) else str(value)
