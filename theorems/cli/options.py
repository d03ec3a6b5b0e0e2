"""The value types of `dpcheck` options: seconds and whole-number counts, read as data with a one-line
reason when a value is refused (the frame turns it into ``dpcheck: error: --n: ...``, exit 2)."""
from __future__ import annotations

import math
import re

import click

from symbolic import clip

MAX_SECONDS = 86400.0
MAX_JOBS = 256
MAX_SIZE = 10 ** 6


class Seconds(click.ParamType):
    """A finite number of seconds up to a day; ``zero_ok``: 0 is allowed (it means "no limit" or "off")."""

    name = "SECONDS"

    def __init__(self, zero_ok: bool):
        self.zero_ok = zero_ok

    def convert(self, value, param, ctx):
        if isinstance(value, float):  # a default, already a number
            return value
        try:
            v = float(value)
        except (TypeError, ValueError):
            self.fail(f"{clip(value)} is not a number of seconds; write e.g. 10 or 0.5", param, ctx)
        if not math.isfinite(v) or v > MAX_SECONDS:
            self.fail(f"{clip(value)} must be a finite number of seconds, at most {MAX_SECONDS:g}", param, ctx)
        if self.zero_ok and v < 0:
            self.fail(f"{clip(value)} must be 0 or more seconds", param, ctx)
        if not self.zero_ok and v < 0.001:
            hint = ("; --budget 0 turns exploring off" if ctx is not None and ctx.info_name == "check"
                    and param is not None and param.name == "timeout" else "")
            self.fail(f"{clip(value)} must be positive (at least 0.001 s){hint}", param, ctx)
        return v


class EffortLevel(click.ParamType):
    """An effort level: quick, ci or thorough, or a positive number (a multiple of ci, at most 1000)."""

    name = "LEVEL"

    def convert(self, value, param, ctx):
        from symbolic import Settings
        text = str(value).strip()
        if text in Settings.level_names():
            return text
        if not re.fullmatch(r"\d{1,4}(\.\d{1,6})?|\d{1,4}/\d{1,4}", text):
            self.fail(f"{clip(value)} is no effort level; write quick, ci, thorough or a multiple of ci such as 4 "
                      f"or 1/2", param, ctx)
        from fractions import Fraction
        f = Fraction(text)
        if not 0 < f <= 1000:
            self.fail(f"{clip(value)} must be above 0 and at most 1000 (a multiple of the ci effort)", param, ctx)
        return text


def effort_options(f):
    """``--effort LEVEL`` (what decides) and ``--timeout SECONDS`` (the wall-clock safety net of a call)."""
    f = click.option("--timeout", type=Seconds(False), help="wall-clock safety net of one solver call, in seconds; "
                     "effort, not this, ends a call on a working machine (e.g. --timeout 600; default 120)")(f)
    return click.option("--effort", type=EffortLevel(), default="ci", help=EFFORT_HELP)(f)


class Factor(click.ParamType):
    """A positive number, at most 1000, that multiplies limits: a whole or decimal number or a fraction
    (4, 2.5, 1/2); the text is returned (Fraction reads it exactly)."""

    name = "K"

    def convert(self, value, param, ctx):
        text = str(value).strip()
        if not re.fullmatch(r"\d{1,4}(\.\d{1,6})?|\d{1,4}/\d{1,4}", text):
            self.fail(f"{clip(value)} is not a positive number; write e.g. 4, 2.5 or 1/2", param, ctx)
        from fractions import Fraction
        if not 0 < Fraction(text) <= 1000:
            self.fail(f"{clip(value)} must be above 0 and at most 1000", param, ctx)
        return text


CONFIRM_HELP = ("multiply the second solver's (cvc5's) limits by K to confirm more proofs: its step counts and its "
                "processor and wall-clock seconds a query; it changes how many proofs cvc5 confirms, not z3's verdicts "
                "(e.g. --confirm-effort 4; default 1)")


def confirm_option(f):
    """``--confirm-effort K``: the second solver's limits times K (:meth:`~symbolic.Settings.confirming`)."""
    return click.option("--confirm-effort", "confirm", type=Factor(), default="1", metavar="K",
                        help=CONFIRM_HELP)(f)


EFFORT_HELP = ("effort, which decides verdicts: quick, ci, thorough or a multiple of ci (e.g. --effort thorough "
               "or --effort 4; default ci); counted in solver steps and processor seconds, so the answer does not "
               "depend on the machine's load")


class Count(click.ParamType):
    """A whole number between ``lo`` and ``hi``; a longer digit string than any allowed value is refused
    without converting it (a 5,001-digit argument is not turned into an integer)."""

    name = "N"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):  # a default
            return value
        text = value if isinstance(value, str) else ""
        if not re.fullmatch(r"\s*[+-]?\d+\s*", text):
            self.fail(f"{clip(value)} is not a whole number", param, ctx)
        v = int(text) if len(text.strip()) <= 12 else self.hi + 1
        if not self.lo <= v <= self.hi:
            self.fail(f"{clip(value)} must be at least {self.lo} and at most {self.hi}", param, ctx)
        return v


def size_options(default: str):
    """``--n N``, ``--domain K``, ``--outputs M``: the largest sizes of the unknown tables a search
    ranges over (smallest first); ``default`` says what applies when an option is left out."""
    def add(fn):
        for flag, metavar, what, example in (
                ("--outputs", "M", "outputs of the mechanism, |𝒪|", "--outputs 3"),
                ("--domain", "K", "values of one data point, |𝒟|", "--domain 3"),
                ("--n", "N", "data points in a database, n", "--n 2")):
            fn = click.option(flag, type=Count(1, MAX_SIZE), metavar=metavar,
                              help=f"search up to this many {what} (e.g. {example}; default: {default})")(fn)
        return fn
    return add
