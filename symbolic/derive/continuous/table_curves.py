"""ρ-zCDP and μ-GDP of a finite table: the largest over neighbouring pairs of rows, as certified enclosures.

For each ordered pair (d, d′) of neighbouring databases (every pair of inputs for local DP is not asked
here: these are the DP-type levels), the rows p = P(d, ·) and q = P(d′, ·) are exact numbers, and
:mod:`symbolic.derive.continuous.finite_pairs` encloses sup_{α>1} D_α(p‖q)/α (zCDP; Bun, Steinke 2016)
or the least μ with the pair μ-GDP (Dong, Roth, Su 2022). The table's level is the largest over the
pairs: its enclosure is [max of the lower ends, max of the upper ends]. ∞ when some output has
probability 0 under one row of a pair and not under the other (no finite ρ or μ). A table with symbolic
entries needs its parameters' values (``--param``): the enclosures are of numbers.
"""
from __future__ import annotations

import mpmath
import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import expr_text
from symbolic.core.tables import database_key
from symbolic.derive.continuous.checks import (DIGITS, MAX_DIGITS, REL_TOL, digits_for, floor_of,
                                               gdp_profile_numeric, to_mpf)
from symbolic.derive.continuous.finite_pairs import gdp_of_pair, zcdp_of_pair
from symbolic.derive.continuous.values import CurveLevel
from symbolic.model.neighbours import level_pairs
from symbolic.model.symbolic_table import SymbolicMechanism, symbolic_mechanism_from_json

TABLE_CURVES = {"zcdp": "rho", "gaussian-dp": "mu"}


def table_curve_level(notion: str, doc, *, params=None, assumptions=()) -> CurveLevel:
    """ρ (zcdp) or μ (gaussian-dp) of a table document at the given parameter values.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> d = table_curve_level("zcdp", rr)
    >>> d.enclosure[0] < sp.Rational(55, 100) < d.enclosure[1] + sp.Rational(1, 100), d.ok
    (True, True)
    """
    if isinstance(doc, SymbolicMechanism):   # a table built by an operation (already checked)
        sm = doc
    else:
        sm = symbolic_mechanism_from_json(doc, assumptions=tuple(assumptions))
    if params:   # numbers or expressions in numbers (exp(-1)), read by the restricted parser
        sm = sm.fix(dict(params))
    if sm.params:
        raise InvalidParameter(f"{notion} of a table is enclosed at numbers: give every parameter a value with "
                               f"--param ({', '.join(r.name for r in sm.params)})")
    m = sm.mechanism
    rows = {d: [dist[o] for o in m.outputs] for d, dist in m.rows}
    lo, hi, where, steps, kl_note = sp.Integer(0), sp.Integer(0), "", [], None
    for d, e in level_pairs("pure-dp", list(rows), m.n, m.domain):
        p, q = rows[d], rows[e]
        if notion == "zcdp":
            got = zcdp_of_pair(p, q)
            pair_lo, pair_hi = (sp.oo, sp.oo) if got is None else (got.sup.lower, got.sup.upper)
        else:
            pair_lo, pair_hi, _ = gdp_of_pair(p, q)
            if pair_hi is None:
                return CurveLevel(notion, TABLE_CURVES[notion], None, None, None, False, "", tuple(steps), (),
                                  dict(params or {}), sm.assumptions(), None,
                                  unknown=f"{database_key(d)} ~ {database_key(e)}: no upper end of μ was certified "
                                          f"(the GDP check was undecided while μ doubled)")
        if pair_hi == sp.oo:
            steps.append(f"{database_key(d)} ~ {database_key(e)}: an output has probability 0 under one row only: no finite level")
            lo = hi = sp.oo
            where = f"{database_key(d)} ~ {database_key(e)}"
            break
        if pair_hi > hi:
            where = f"{database_key(d)} ~ {database_key(e)}"
            if notion == "zcdp" and got.sup.where:
                where += f"; {got.sup.where}"
            kl_note = _kl_note(got) if notion == "zcdp" else None
        lo, hi = max(lo, pair_lo), max(hi, pair_hi)
    steps.append("the largest over the ordered neighbouring pairs of rows; each pair's level enclosed by "
                 + ("branch and bound over α (D_α nondecreasing, D_α ≤ D_∞)" if notion == "zcdp" else
                    "bisection on μ with the certified GDP covering"))
    if kl_note and hi != sp.oo:
        steps.append(kl_note)
    value = sp.oo if hi == sp.oo else None
    checks = [] if hi == sp.oo else _checks(notion, rows, m, lo, hi)
    return CurveLevel(notion, TABLE_CURVES[notion], None, value, None if hi == sp.oo else (lo, hi), False, where,
                      tuple(steps), tuple(checks), dict(params or {}), sm.assumptions(), None)


def _kl_note(got) -> str:
    """The pair's limit of D_α/α as α → 1 (its KL divergence, exact), stated beside the enclosure."""
    kl = expr_text(got.kl)
    return (f"the limit of D_α/α as α → 1 (the KL divergence) is {kl}" +
            (", inside the enclosure" if got.kl_inside else ", outside the enclosure: the supremum is reached at "
                                                            "an order α > 1"))


def _checks(notion, rows, m, lo, hi):
    """Cross-checks that can fail: no pair's D_α/α at sample orders exceeds ρ's upper end (zCDP); no pair's
    δ(ε) exceeds the μ-GDP profile at μ's upper end (GDP); each relatively, above the rounding floor of the
    working digits (raised for a tiny value: :func:`~symbolic.derive.continuous.checks.digits_for`)."""
    ok, worst = True, mpmath.mpf(-1)
    orders, profile_eps = ("1.001", "1.5", "2", "4", "10"), ("0", "0.5", "1", "2")
    for d, e in level_pairs("pure-dp", list(rows), m.n, m.domain):
        for x in (orders if notion == "zcdp" else profile_eps):
            mpmath.mp.dps = DIGITS
            top = to_mpf(hi, MAX_DIGITS)
            ref = top if notion == "zcdp" else gdp_profile_numeric(top, mpmath.mpf(x))
            mpmath.mp.dps = digits_for(ref)
            top = to_mpf(hi, mpmath.mp.dps)
            p, q = [to_mpf(v, mpmath.mp.dps) for v in rows[d]], [to_mpf(v, mpmath.mp.dps) for v in rows[e]]
            if notion == "zcdp":
                a = mpmath.mpf(x)
                mass = sum(pi ** a * qi ** (1 - a) for pi, qi in zip(p, q) if pi > 0)
                got, ref, floor = mpmath.log(mass) / (a - 1) / a, top, floor_of("renyi-dp", {"alpha": x})
            else:
                eps = mpmath.mpf(x)
                got = sum(max(mpmath.mpf(0), pi - mpmath.e ** eps * qi) for pi, qi in zip(p, q))
                ref, floor = gdp_profile_numeric(top, eps), floor_of("approx-dp", {"eps": x})
            ok = ok and got <= ref + REL_TOL * abs(ref) + floor
            worst = max(worst, got - ref)
    what = ("the largest D_α/α at α in {1.001, 1.5, 2, 4, 10} is ≤ ρ's upper end" if notion == "zcdp" else
            "every pair's δ(ε) at ε in {0, 1/2, 1, 2} is ≤ the μ-GDP profile at μ's upper end")
    return [(f"{what} (largest excess {mpmath.nstr(worst, 3)})", bool(ok))]
