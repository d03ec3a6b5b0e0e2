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

from .errors import FloatNotAllowed, ParseError


def exact(value, *, what: str = "value") -> sp.Expr:
    """Return ``value`` as an exact sympy expression; reject floats.

    >>> exact(3) , exact("3/8"), exact(Fraction(1, 2))
    (3, 3/8, 1/2)
    """
    if isinstance(value, bool):
        raise FloatNotAllowed(f"{what}={value!r} is a bool; give a number")
    if isinstance(value, float) or isinstance(value, sp.Float):
        raise FloatNotAllowed(
            f"{what}={value!r} is a float; dpcheck needs exact numbers: "
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
    raise FloatNotAllowed(f"{what}={value!r} of type {type(value).__name__} is not an exact number")


_NUMBER = re.compile(r"^\s*([+-]?\d+)(?:\s*/\s*(\d+)|\.(\d+))?\s*$")


def parse_number(text: str, *, what: str = "value") -> sp.Rational:
    """Parse an integer, ``a/b`` or a decimal (read exactly) from text.

    >>> parse_number("0.25"), parse_number("-3/6")
    (1/4, -1/2)
    """
    m = _NUMBER.match(text)
    if not m:
        raise ParseError(f"{what}={text!r} is not a number; write an integer, a/b or a decimal")
    whole, den, frac = m.groups()
    if den is not None:
        if int(den) == 0:
            raise ParseError(f"{what}={text!r} divides by zero")
        return sp.Rational(int(whole), int(den))
    if frac is not None:
        sign = -1 if whole.startswith("-") else 1
        return sign * (abs(sp.Integer(int(whole))) + sp.Rational(int(frac), 10 ** len(frac)))
    return sp.Integer(int(whole))


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(\*\*|[-+*/^(),]))")
_FUNCS = {"exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt}


def parse_expr(text: str, symbols: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """Parse a restricted arithmetic expression (recursive descent, no eval).

    >>> E = sp.Symbol("E"); parse_expr("E^2 - 1/2", {"E": E})
    E**2 - 1/2
    >>> parse_expr("__import__")
    Traceback (most recent call last):
    ...
    symbolic.errors.ParseError: unknown name '__import__' in '__import__'; known: exp, log, sqrt
    """
    symbols = dict(symbols or {})
    toks, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character {text[pos:].strip()[0]!r} in {text!r}")
        toks.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    toks.append(None)
    i = 0

    def peek():
        return toks[i]

    def take(expected=None):
        nonlocal i
        t = toks[i]
        if expected is not None and t != expected:
            raise ParseError(f"expected {expected!r} in {text!r}, found {t!r}")
        i += 1
        return t

    def atom():
        t = take()
        if t is None:
            raise ParseError(f"unexpected end of {text!r}")
        if t == "(":
            e = expr()
            take(")")
            return e
        if t == "-":
            return -power()
        if t == "+":
            return power()
        if t[0].isdigit():
            return parse_number(t)
        if t in _FUNCS and peek() == "(":
            take("(")
            e = expr()
            take(")")
            return _FUNCS[t](e)
        if t in symbols:
            return symbols[t]
        known = ", ".join(sorted(set(symbols) | set(_FUNCS)))
        raise ParseError(f"unknown name {t!r} in {text!r}; known: {known}")

    def power():
        base = atom()
        if peek() in ("^", "**"):
            take()
            return base ** power()
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
        raise ParseError(f"unexpected {peek()!r} in {text!r}")
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
