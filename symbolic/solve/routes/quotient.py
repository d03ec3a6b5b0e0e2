"""A change of parameters that takes divisions by a positive parameter out of a claim: R = q·δ.

A claim written with a parameter map such as E = R/δ (R ≥ 1, 0 < δ ≤ 1) hands the solver
quotients; multiplied out of each comparison they raise its degree in R and δ. Naming the
quotient instead removes them: with q a fresh parameter and R replaced by q·δ everywhere, every
parameter expression is a rational function of (q, δ) in which the powers of δ common to numerator
and denominator are divided out (δ > 0, so only they are: the zero set of every denominator is
the same as before for δ > 0, and a division left undefined stays undefined). R/δ becomes q,
R²/δ² becomes q², δ(R² + δ²)/(R(R − δ)) becomes δ(q² + 1)/(q(q − 1)).

Why the verdict is the same. On the set δ > 0 the map (q, δ) ↦ (R, δ) = (q·δ, δ) is a bijection
with inverse (R, δ) ↦ (R/δ, δ). R's range becomes a condition on q·δ (a hypothesis of arity 0,
:data:`ParameterBound`, :data:`StrictParameterBound`), and q's own range is only what the signs give (q ≥ 0 when R ≥ 0, q > 0
when R > 0), which the condition implies anyway. So the rewritten claim has a counterexample
exactly when the original has one: a proof of the rewritten claim is a proof of the original, and
a counterexample (q, δ, tables) is one of the original at R = q·δ, which the caller re-verifies
exactly on the original claim, never trusting the rewrite.

When. Only where the rewrite cannot meet a parameter outside the notion instances' arguments: no
fixed mechanism terms, populations, mechanisms or parameter values in the part, no parameter fixed
at a value. Among the pairs (R, δ) with δ's range proved positive, the one that lowers the total
degree in δ of the denominators the most is taken; none, when no pair lowers it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

import sympy as sp

from symbolic.core.terms import Fixed, Term
from symbolic.notions.base import Notion, NotionInstance, ParamSpec
from symbolic.notions.claims import Param


def _at_most(ops, P=None, *, low, high):
    return ops.le(low, high, why="a parameter out of its range")


def _below(ops, P=None, *, low, high):
    return ops.lt(low, high, why="a parameter out of its range")


_BOUNDS = (ParamSpec("low"), ParamSpec("high"))
ParameterBound = Notion("ParameterBound", _BOUNDS, _at_most, arity=0,
                        summary="low ≤ high: a range of the parameters as a hypothesis, for a range that is not a box")
StrictParameterBound = Notion("StrictParameterBound", _BOUNDS, _below, arity=0,
                              summary="low < high: an open end of a range that is not a box, as a hypothesis")


@dataclass(frozen=True)
class QuotientChange:
    """The claim part rewritten with ``numerator`` = ``fresh``·``divisor`` (see the module text)."""

    numerator: Param
    divisor: Param
    fresh: Param
    imp: object       # the rewritten implication
    params: tuple     # the rewritten parameter list: ``fresh`` in place of ``numerator``

    @property
    def text(self) -> str:
        return f"{self.numerator.name} = {self.fresh.name}·{self.divisor.name} ({self.divisor.name} > 0)"

    def original_parameters(self, values: dict) -> dict:
        """Exact parameter values of the rewritten claim → those of the original claim."""
        out = {k: v for k, v in values.items() if k != self.fresh.name}
        out[self.numerator.name] = sp.expand(sp.sympify(values[self.fresh.name]) * values[self.divisor.name])   # exactly
        return out


def _positive(p: Param) -> bool:
    return p.value is None and p.lower is not None and (sp.sympify(p.lower) > 0 or (p.lower == 0 and p.lower_strict))


def _den_degree(expr, d) -> int | None:
    """Degree in ``d`` of the denominator of ``expr`` (None: not a rational function in ``d``)."""
    _, den = sp.fraction(sp.together(expr))
    try:
        return sp.Poly(den, d).degree() if den.has(d) else 0
    except sp.PolynomialError:
        return None


def _lowest_power(poly_expr, d) -> int:
    p = sp.Poly(poly_expr, d)
    return min(m[0] for m in p.monoms()) if not p.is_zero else 0


def _substitute(expr, r, q, d):
    """``expr`` with r := q·d and the powers of d common to numerator and denominator divided out."""
    expr = sp.sympify(expr)
    if not expr.has(r):
        return expr
    num, den = sp.fraction(sp.together(expr.subs(r, q * d)))
    num, den = sp.expand(num), sp.expand(den)
    try:
        k = min(_lowest_power(num, d), _lowest_power(den, d))
    except sp.PolynomialError:
        return None
    return sp.expand(num / d ** k) / sp.expand(den / d ** k)


def _args(imp):
    return [a for ni in imp.instances for a in ni.args]


def _mentions_fixed(t) -> bool:
    if isinstance(t, Fixed):
        return True
    if isinstance(t, Term) and dataclasses.is_dataclass(t):
        return any(_mentions_fixed(getattr(t, f.name)) for f in dataclasses.fields(t))
    if isinstance(t, (tuple, list)):
        return any(_mentions_fixed(x) for x in t)
    return False


def _eligible(imp, params) -> bool:
    if imp.population is not None or imp.mechanisms is not None or imp.parameters:
        return False
    if any(p.value is not None for p in params):
        return False
    return not any(ni.on is not None and _mentions_fixed(ni.on) for ni in imp.instances)


def _fresh_name(r: Param, d: Param, params) -> str:
    name, taken = f"{r.name}_over_{d.name}", {p.name for p in params}
    while name in taken:
        name += "_"
    return name


def _rewrite_instance(ni, r, q, d):
    args = tuple(_substitute(a, r, q, d) for a in ni.args)
    return None if any(a is None for a in args) else NotionInstance(ni.notion, args, ni.on)


def _rewritten(imp, params, r: Param, d: Param) -> QuotientChange | None:
    name = _fresh_name(r, d, params)
    lower_sign = r.lower is not None and sp.sympify(r.lower) >= 0
    upper_sign = r.upper is not None and sp.sympify(r.upper) <= 0
    fresh = Param(name, lower=0 if lower_sign else None,
                  lower_strict=lower_sign and (sp.sympify(r.lower) > 0 or r.lower_strict),
                  upper=0 if upper_sign else None,
                  upper_strict=upper_sign and (sp.sympify(r.upper) < 0 or r.upper_strict))
    q, rs, ds = fresh.symbol, r.symbol, d.symbol
    hyps = [_rewrite_instance(ni, rs, q, ds) for ni in imp.hypotheses]
    concl = _rewrite_instance(imp.conclusion, rs, q, ds)
    if concl is None or any(h is None for h in hyps):
        return None
    qd = q * ds
    if r.lower is not None:
        hyps.append((StrictParameterBound if r.lower_strict else ParameterBound)(sp.sympify(r.lower), qd))
    if r.upper is not None:
        hyps.append((StrictParameterBound if r.upper_strict else ParameterBound)(qd, sp.sympify(r.upper)))
    new_params = tuple(fresh if p.name == r.name else p for p in params)
    return QuotientChange(r, d, fresh, replace(imp, hypotheses=tuple(hyps), conclusion=concl), new_params)


def _divided_degree(args, d) -> int | None:
    total = 0
    for a in args:
        k = _den_degree(a, d) if getattr(a, "free_symbols", None) else 0
        if k is None:
            return None
        total += k
    return total


def quotient_change(imp, params) -> QuotientChange | None:
    """The rewrite R = q·δ that lowers the degree in δ of the claim's denominators the most, or None."""
    if not _eligible(imp, params):
        return None
    args = [sp.sympify(a) for a in _args(imp)]
    best, best_gain = None, 0
    for d in params:
        if not _positive(d):
            continue
        before = _divided_degree(args, d.symbol)
        if not before:
            continue
        for r in params:
            if r.name == d.name or r.value is not None or not any(a.has(r.symbol) for a in args):
                continue
            change = _rewritten(imp, params, r, d)
            if change is None:
                continue
            after = _divided_degree(_args(change.imp), d.symbol)
            if after is not None and before - after > best_gain:
                best, best_gain = change, before - after
    return best
