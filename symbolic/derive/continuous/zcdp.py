"""ρ-zCDP of a density or mass-function mechanism: ρ = sup_{α>1} D_α/α over its neighbouring pairs.

Exact when D_α/α does not depend on α (the Gaussian mechanism: D_α = α/(2σ²)); otherwise, at given
parameter values, a certified enclosure by :func:`symbolic.derive.continuous.orders.sup_over_orders`, with the
limit as α → 1 (the KL divergence) stated beside it. Called by
:func:`symbolic.derive.continuous.level.derive_curve_level`.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.core.exact import expr_text
from symbolic.core.ops import exact_sign
from symbolic.derive.continuous.values import CurveLevel, at_values, combine, enclosure
from symbolic.derive.continuous.pair import Undecided, by_cases
from symbolic.model.real_line import OO, Signs


def zcdp_level(m, own, pairs, signs, fixing, steps, values, run_checks, level_of, pairs_of):
    """ρ for the mechanism; ``level_of``/``pairs_of``: the level and neighbour-pair functions of
    :mod:`symbolic.derive.continuous.level` (passed in: this module sits below it). ρ = sup_{α>1} D_α/α
    (see :mod:`symbolic.derive.continuous.orders`)."""
    from symbolic.derive.continuous.orders import constant_ratio, sup_over_orders
    alpha = own["alpha"]
    cases = by_cases(lambda s: level_of("renyi-dp", own, m, pairs, s), signs)
    d_cases = [(f, v) for f, (v, _) in cases]
    where = cases[0][1][1]
    formula, value, enc, exact = None, None, None, True
    if any(v == OO for _, v in d_cases):
        if len(d_cases) == 1:
            formula = value = OO
            steps.append("D_α is infinite for every α > 1 (some output has probability 0 under one law only)")
    else:
        ratios = [(f, constant_ratio(v, alpha)) for f, v in d_cases]
        if all(r is not None for _, r in ratios):
            formula = combine(ratios)
            steps.append("D_α/α does not depend on α: ρ is that constant, exactly")
            value = at_values(ratios, fixing)
            value = None if value is None or value.free_symbols else value
        elif not [r for r in m.params if r.symbol not in fixing]:
            d_fixed = [(tuple(f_.xreplace(fixing) for f_ in f), v.xreplace(fixing)) for f, v in d_cases]
            m_at = m.fix({str(k): v for k, v in fixing.items()})
            d_inf, _ = level_of("pure-dp", {}, m_at, pairs_of("pure-dp", m_at), Signs(tuple(m_at.params)))
            if d_inf == OO:
                raise Undecided("D_α/α depends on α and the pure-DP level is infinite: the supremum over α is not "
                                "bounded by this method")
            near_one = {alpha: sp.Rational(1000001, 1000000)}
            one = next((v for f, v in d_fixed if all(exact_sign(x.xreplace(near_one)) > 0 for x in f)), None)
            try:   # the limit is only stated beside the enclosure, never used as one of its ends
                kl = sp.limit(one, alpha, 1, "+") if one is not None else None
                kl = None if kl is None or kl.free_symbols or kl.has(sp.oo, sp.nan, sp.zoo) else kl
            except (NotImplementedError, ValueError, TypeError):
                kl = None
            compiled = [(f, I.compile_enclosure(v, alpha)) for f, v in d_fixed]

            def d_at(a):
                for f, run in compiled:
                    if all(exact_sign(x.xreplace({alpha: a})) > 0 for x in f):
                        return run(a, 256)
                raise Undecided(f"no case of D_α holds at α = {a}")
            try:
                sup = sup_over_orders(d_at, d_inf)
            except C.NotEnclosable as e:   # every digit lost at the working precision (a Laplace scale of 10^-19)
                raise Undecided(f"the Rényi levels could not be enclosed at the working precision ({e})") from None
            enc, exact = (sup.lower, sup.upper), False
            where = f"{where}; {sup.where}"
            steps.append(f"sup over α by branch and bound on {sup.cells} cells of α (D_α nondecreasing, "
                         f"D_α ≤ D_∞ = {expr_text(d_inf)}): certified enclosure" + ("" if sup.closed else " (cell budget spent)"))
            if kl is not None:
                b = C.enclose(kl, 256)
                inside = b.lower() >= sup.lower and b.upper() <= sup.upper
                steps.append(f"the limit of D_α/α as α → 1 (the KL divergence) is {expr_text(sp.simplify(kl))}"
                             + (", inside the enclosure" if inside else ", outside the enclosure: the supremum is "
                                "reached at an order α > 1"))
        else:
            raise Undecided("D_α/α depends on α: give every mechanism parameter a value (--param) for a certified "
                            "enclosure of the supremum")
    if value is not None and value != OO and enc is None:
        enc = enclosure(value)
    checks = run_checks("zcdp", own, m, pairs, formula, value if value is not None else
                        (enc and (enc[0] + enc[1]) / 2), fixing, (), enclosure_given=enc if not exact else None)
    return CurveLevel("zcdp", "rho", formula, value, enc, exact, where, tuple(steps), tuple(checks), dict(values),
                      tuple(r.text() for r in m.params), m)
