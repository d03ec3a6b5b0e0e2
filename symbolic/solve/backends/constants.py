"""Transcendental constants in the solver's queries, enclosed in certified rational intervals.

Once every parameter a notion argument names is a number, a term such as log(E) at E = 3 or e^(6ε) at
ε = 1/5 is a constant, but not one the solver's polynomial arithmetic can write. Each such constant c
stands in the queries for a fresh real variable c′ confined to a certified rational enclosure
lo ≤ c′ ≤ hi of c (ball arithmetic, :mod:`symbolic.core.certified`), one variable per distinct constant,
so the same constant in a hypothesis and in the conclusion is the same variable:

- a proof (an unsatisfiable query) holds for every c′ in [lo, hi], hence for c itself;
- a counterexample is the solver's for some c′ ≠ c: it counts only once re-verified exactly at c
  (the re-verification evaluates the notions in sympy with c itself, deciding each sign by certified
  enclosures that are refined until they decide it).

A counterexample that fails that re-verification sits closer to the claim's boundary than the
enclosure's width: :func:`with_refinement` runs the check again with enclosures :data:`REFINEMENTS`
times narrower (each time with twice the bits), and says unknown, with the reason, when none settles it.

Where a parameter in the term still ranges (e^(6ε) for every 0 ≤ ε ≤ 9/40), ``exp`` and ``log`` are relaxed
instead: t = e^u stands for a fresh variable with T_k(u) ≤ t and t·T_k(−u) ≤ 1 wherever T_k(−u) > 0, T_k the
Taylor polynomial of e^x of odd order k (e^x ≥ T_k(x) for every real x when k is odd: the remainder
e^ξ·x^(k+1)/(k+1)! is ≥ 0); t = log x is the same with x = e^t, and x > 0 (where x ≤ 0 the claim's term is
undefined and the claim says nothing). Every true value meets these constraints, so a proof holds for it; a
counterexample is re-verified exactly, and each refinement raises the order (:data:`ORDERS`).
"""
from __future__ import annotations

import contextvars
from dataclasses import dataclass, replace

import sympy as sp

from symbolic.core.errors import Transcendental

START_BITS = 128          # a constant's first enclosure has a relative width of about 2^-128
REFINEMENTS = 3           # further runs, each with enclosures of twice the bits (256, 512, 1024)
ORDERS = (3, 5, 9, 15)    # the Taylor order of a relaxation at each run

_LEVEL = contextvars.ContextVar("constant_refinement_level", default=0)
_SEEN = contextvars.ContextVar("constants_enclosed", default=None)


def enclosure_bits() -> int:
    """The bits of the enclosures made now (:data:`START_BITS`, doubled at each refinement)."""
    return START_BITS << _LEVEL.get()


def relaxation_order() -> int:
    """The odd Taylor order of the relaxations made now (:data:`ORDERS`)."""
    return ORDERS[_LEVEL.get()]


@dataclass(frozen=True)
class Enclosure:
    """A constant ``value`` (an exact sympy number) and the rational interval [lower, upper] ∋ value the
    solver's variable for it is confined to, computed at ``bits`` bits."""

    value: sp.Expr
    lower: sp.Rational
    upper: sp.Rational
    bits: int

    def text(self) -> str:
        mid = sp.N(self.value, 12)
        return f"{self.value} ≈ {mid} in an interval of width {sp.N(self.upper - self.lower, 2)}"


@dataclass(frozen=True)
class Relaxation:
    """``function`` (exp or log) of the solver term ``argument`` (its text) replaced by a variable between
    Taylor bounds of odd ``order`` (see the module's docstring)."""

    function: str
    argument: str
    order: int

    def text(self) -> str:
        where = f", where {self.argument} > 0" if self.function == "log" else ""
        return f"{self.function}({self.argument}) between Taylor bounds of order {self.order}{where}"


def record(key, found) -> None:
    """Note a constant enclosed or a term relaxed by the run in force (for :func:`with_refinement`)."""
    seen = _SEEN.get()
    if seen is not None:
        seen[key] = found


def is_transcendental_atom(expr) -> bool:
    """Is ``expr`` a node :func:`symbolic.solve.backends.z3_ops.to_z3` cannot write as a polynomial term: a
    function application (exp, log, …), an irrational constant (π, e) or a power whose exponent is
    neither an integer nor ±1/2?"""
    if isinstance(expr, sp.Function) or expr in (sp.pi, sp.E):
        return True
    if expr.is_Pow:
        e = expr.exp
        return not (e.is_Integer or e in (sp.Rational(1, 2), -sp.Rational(1, 2)))
    return False


def numeric_value(expr, env):
    """``expr`` with each of its symbols replaced by its value in ``env`` (name -> z3 term), when every one
    is a z3 rational numeral; None when one is a solver variable (or has no term)."""
    import z3
    values = {}
    for s in expr.free_symbols:
        t = env.get(s.name)
        if t is None or not z3.is_rational_value(t):
            return None
        values[s] = sp.Rational(t.numerator_as_long(), t.denominator_as_long())
    return sp.sympify(expr).xreplace(values) if values else sp.sympify(expr)


def enclose_constant(value, bits: int | None = None) -> Enclosure:
    """A certified rational enclosure of the real number ``value`` at ``bits`` bits (by default the
    precision in force, :data:`START_BITS` unless :func:`with_refinement` raised it). A value that is not a
    finite real number (log of a negative number, a division by zero) raises :class:`Transcendental`."""
    from symbolic.core.certified import NotEnclosable, enclose
    bits = bits or enclosure_bits()
    try:
        ball = enclose(value, bits + 8)   # a few guard bits: the relative width is then below 2^-bits
        if not ball.is_finite():
            raise NotEnclosable(f"{value} is not a finite real number")
        lo, hi = ball.lower(), ball.upper()
    except (NotEnclosable, ValueError, TypeError) as e:
        raise Transcendental(f"the constant {value} cannot be enclosed in a rational interval: {e}") from None
    found = Enclosure(sp.sympify(value), lo, hi, bits)
    record(found.value, found)
    return found


def constants_note(seen: dict) -> str:
    """The enclosed constants and relaxed terms of a run, for a certificate or a reason."""
    enclosed = [c for c in seen.values() if isinstance(c, Enclosure)]
    relaxed = [c for c in seen.values() if isinstance(c, Relaxation)]
    out = []
    if enclosed:
        bits = max(c.bits for c in enclosed)
        out.append(f"constants enclosed in certified rational intervals (relative width < 2^-{bits}): "
                   + "; ".join(c.text() for c in enclosed))
    if relaxed:
        out.append("terms relaxed for every value of their arguments: " + "; ".join(c.text() for c in relaxed))
    return "; ".join(out)


def _failed_reverification(verdict) -> bool:
    """Did the run end on a counterexample that exact re-verification rejected: a Refuted not verified, or
    the unknown the search gives when parameters fixed at irrational values were enclosed too?"""
    from symbolic.core.verdicts import Refuted, Unknown
    if isinstance(verdict, Refuted):
        return not verdict.verified_exactly
    return isinstance(verdict, Unknown) and "fails exact re-verification" in verdict.reason


def with_refinement(run):
    """``run()`` (one check of a claim part, returning its verdict) with the constants its queries enclose and
    the terms they relax recorded: a proof's certificate names them; a counterexample that fails exact
    re-verification while some were met is sought again with narrower enclosures and higher-order
    relaxations, at most :data:`REFINEMENTS` times, and is unknown, saying so, when none re-verifies. A run
    that meets none is returned as it is."""
    from symbolic.core.verdicts import Proved, Refuted, Unknown
    seen, verdict = {}, None
    for k in range(REFINEMENTS + 1):
        seen_now = {}
        tokens = _LEVEL.set(k), _SEEN.set(seen_now)
        try:
            verdict = run()
        finally:
            _SEEN.reset(tokens[1])
            _LEVEL.reset(tokens[0])
        seen.update(seen_now)
        if not seen_now:
            return verdict
        if not _failed_reverification(verdict):
            break
    else:
        return Unknown(f"transcendental: the solver's counterexample fails exact re-verification at the true values "
                       f"after {REFINEMENTS} refinements (enclosures down to a relative width of "
                       f"2^-{START_BITS << REFINEMENTS}, relaxations up to order {ORDERS[-1]}): each lay closer to the "
                       f"claim's boundary than the enclosures or relaxations are tight; " + constants_note(seen_now))
    note = constants_note(seen_now)
    if isinstance(verdict, Proved):
        method = verdict.certificate.get("method", "")
        cert = {**verdict.certificate, "constants": note,
                "method": f"{method}; {note}; proved for every value they allow" if method else note}
        return replace(verdict, certificate=cert)
    if isinstance(verdict, Refuted):
        return replace(verdict, note=f"{verdict.note}; {note}; re-verified exactly at the true values".lstrip("; "))
    if isinstance(verdict, Unknown):
        return replace(verdict, reason=f"{verdict.reason}; {note}")
    return verdict
