"""A certified interval for the conversion constant at one value of A's parameters, when no closed form is found.

When the estimates of f(a) = sup { level_B(T) : A(a) holds on T } fit no formula, ``derive map`` does not
invent one: at each value a it brackets f(a) between two certified numbers.

- **Lower end**: an exact table near the search's best that satisfies A(a) exactly (rounded and mixed with
  the uniform table, :func:`~symbolic.graph.constants.attain.rounded_tables`); its exact B-level
  (:func:`~symbolic.graph.constants.table_level.table_level`) is a value f(a) is at least.
- **Upper end**: a rational u a little above the estimate with A(a) ⇒ B(u) proved by the solver at the sizes,
  A's parameters fixed at a. Then f(a) ≤ u.

When the proof fails (the search missed the supremum, or the solver gives up) only the lower end is kept, and
the interval is said to be open above.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.graph.constants.attain import rounded_tables
from symbolic.graph.constants.table_level import table_level
from symbolic.graph.sampling import holds_exactly

UPPER_SLACK = sp.Rational(1, 10 ** 6)   # the upper end tried: the estimate raised by this much, relatively


@dataclass(frozen=True)
class Bracket:
    """f(a) ∈ [lower, upper] at ``at`` (A's parameter values): ``lower`` the exact B-level of an exact A-table
    (``table``), ``upper`` a value with A(a) ⇒ B(upper) proved (None: not proved, ``why``).

    >>> b = Bracket({"E": sp.Integer(2)}, sp.Rational(5, 3), sp.Rational(1667, 1000), None, None)
    >>> b.text("delta")
    'at E = 2: 5/3 ≤ delta* ≤ 1667/1000 (width 1/3000)'
    """

    at: dict
    lower: sp.Expr | None
    upper: sp.Expr | None
    table: dict | None
    why: str | None

    def text(self, name: str) -> str:
        at = ", ".join(f"{k} = {expr_text(v)}" for k, v in self.at.items())
        lo = "?" if self.lower is None else expr_text(self.lower)
        if self.upper is None:
            return f"at {at}: {name}* ≥ {lo} (no upper end proved: {self.why})"
        width = "" if self.lower is None else f" (width {expr_text(sp.nsimplify(self.upper - self.lower))})"
        return f"at {at}: {lo} ≤ {name}* ≤ {expr_text(self.upper)}{width}"

    def to_json(self) -> dict:
        return {"at": {k: expr_text(v) for k, v in self.at.items()},
                "lower": None if self.lower is None else expr_text(self.lower),
                "upper": None if self.upper is None else expr_text(self.upper),
                "lower_attained_by": self.table, "upper_why_not": self.why}


def _upper_value(estimate: float) -> sp.Rational:
    """A decimal a little above a float estimate: the estimate raised by the slack, rounded up at the eighth
    significant digit.

    >>> _upper_value(1 / 3), _upper_value(0.0)
    (33333367/100000000, 1/100000000)
    """
    if estimate <= 0:
        return sp.Rational(1, 10 ** 8)
    k = 7 - math.floor(math.log10(estimate))
    return sp.ceiling(sp.Rational(estimate) * (1 + UPPER_SLACK) * 10 ** k) / sp.Integer(10) ** k


def bracket_at(est, hypothesis, conclusion, a_notion, b_notion, target, spec, fixed_b, shape, sizes, settings,
               params, prove) -> Bracket:
    """The certified interval at one estimate (see the module text). ``a_notion``/``b_notion``: the
    population-free readings (for exact tables); ``hypothesis``/``conclusion``: the notions the proof states;
    ``prove``: :func:`~symbolic.graph.constants.derivation.prove_map`."""
    from symbolic.graph.constants.attain import mechanism_doc
    fb = fixed_b(est.point)
    lower, table = None, None
    if math.isfinite(est.value):
        for _lam, t in rounded_tables(shape, est.rows):
            if holds_exactly(a_notion, t, None, est.point) is not True:
                continue
            lv = table_level(b_notion, t, target=target, fixed=fb)
            if lv.value is not None and lv.value != sp.oo:
                lower, table = lv.value, mechanism_doc(t)
                break
    if not math.isfinite(est.value):
        return Bracket(est.point, lower, None, table, "the search found no finite level")
    upper = _upper_value(est.value)
    if spec.upper is not None and upper > spec.upper:
        upper = sp.sympify(spec.upper)
    fixed_params = tuple(p.fixed_at(est.point[p.name]) for p in params)
    proof, why = prove(hypothesis, conclusion, target, fb, upper, sizes, settings, fixed_params)
    return Bracket(est.point, lower, upper if proof is not None else None, table, why)


__all__ = ["Bracket", "bracket_at"]
