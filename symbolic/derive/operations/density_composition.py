"""The level of the k-fold composition of a density mechanism.

Two routes, each exact:

- **Gaussian laws with one variance.** When every law is N(m_d, s²) (the same s), the likelihood ratio of
  k independent outputs depends on them only through their sum, and Σ y_i/√k ~ N(√k·m_d, s²). So the
  k-fold composition has the same pairs of laws, up to a bijection of the outputs, as the mechanism whose
  laws are N(√k·m_d, s²), and every level (pure, approx δ(ε), Rényi, zCDP, GDP, TV) is that mechanism's,
  derived by the density engine: μ-GDP becomes √k·μ (Dong, Roth, Su 2022), ρ becomes k·ρ.
- **Levels that add.** For any density, the pure-DP ε, the Rényi divergence at each order (Mironov 2017)
  and the zCDP ρ = sup_α D_α/α (Bun, Steinke 2016) of a k-fold product are k times one run's: the worst
  pair is the same for every k, and the loss of a product is the sum of the losses.

Other notions of other densities (δ(ε) of a k-fold Laplace, …) are an honest unknown: their exact level
needs the k-fold convolution of the privacy loss.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import expr_text
from symbolic.derive.continuous.level import curve_notion, derive_curve_level
from symbolic.derive.continuous.values import CurveLevel, enclosure
from symbolic.model.continuous import continuous_from_json, validated
from symbolic.model.operations import composition_from_json
from symbolic.core.ops import exact_sign
from symbolic.derive.continuous.pair import LawPair, renyi_mass
from symbolic.model.neighbours import level_pairs
from symbolic.model.real_line import Signs
from symbolic.model.symbolic_table import parse_ranges

ADDING = ("pure-dp", "renyi-dp", "zcdp")   # levels that are k times one run's for every mechanism
RECHECKED_ORDERS = (2, 3)                   # Rényi orders at which the Gaussian route is rechecked by additivity


def density_composition_level(notion_key: str, doc, *, params=None, assumptions=()) -> CurveLevel:
    """The tight level of ``notion_key`` for ``{"kind": "composition", "of": DENSITY, "times": K}``.

    >>> gauss = {"kind": "density", "outputs": "reals", "domain": [0, 1], "params": {"sigma": "sigma>0"},
    ...          "density": {"0": "exp(-y^2/(2*sigma^2))/sqrt(2*pi*sigma^2)",
    ...                      "1": "exp(-(y-1)^2/(2*sigma^2))/sqrt(2*pi*sigma^2)"}}
    >>> d = density_composition_level("renyi-2", {"kind": "composition", "of": gauss, "times": 16},
    ...                               params={"sigma": 2})
    >>> d.value, d.ok
    (4, True)
    """
    comp = composition_from_json(doc)
    k, params = comp.times_at(dict(params or {}))
    notion, _ = curve_notion(notion_key)
    try:
        m = continuous_from_json(comp.of, assumptions=tuple(assumptions))
    except DPCheckError as e:   # the line names the operand, so a nested file's fault is found
        raise type(e)(f'composition "of": {e}') from None
    located = gaussian_location(m)
    if located is not None:
        scale, means = located
        mk = _shifted(m, scale, means, k, comp)
        d = derive_curve_level(notion_key, mk, params=params)
        steps = (f"every law is Gaussian with variance {expr_text(1 / (2 * scale))}: the {k}-fold composition's pairs "
                 f"are, up to a bijection of the outputs (Σ y_i/√k), the pairs of the laws with means multiplied "
                 f"by √{k}: {', '.join(f'{_db(d_)} ↦ {expr_text(sp.sqrt(k) * mu)}' for d_, mu in means.items())}",)
        checks = tuple(_additivity_checks(m, mk, k, params)) if notion != "pure-dp" else ()
        return replace(d, steps=steps + tuple(d.steps), checks=tuple(d.checks) + checks)
    if notion not in ADDING:
        return CurveLevel(notion, _quantity(notion), None, None, None, False, "", (), (), dict(params or {}),
                          tuple(r.text() for r in m.params), m,
                          unknown=f"{notion} of a {k}-fold composition is derived for Gaussian laws with one variance "
                                  f"and, for any density, for {', '.join(ADDING)} (they add); this mechanism's laws "
                                  f"are not Gaussian")
    d = derive_curve_level(notion_key, m, params=params)
    if not d.ok or d.unknown:
        return d
    if not isinstance(k, int) and d.formula is None and d.value is None:   # only enclosed: no formula in k
        return replace(d, enclosure=None, exact=False,
                       unknown=f"one run's {notion} is only enclosed, not exact; a formula in {k} needs it exact: give "
                               f"{k} a value with --param {k}=…")
    times = lambda v: None if v is None else sp.simplify(k * v)
    enc = None if d.enclosure is None or not isinstance(k, int) else (k * d.enclosure[0], k * d.enclosure[1])
    step = {"pure-dp": "the loss of a product is the sum of the losses: ε_k = k·ε",
            "renyi-dp": "Rényi divergences add under independent composition: D_α of the product = k·D_α",
            "zcdp": "ρ = sup_α D_α/α and D_α adds: ρ_k = k·ρ"}[notion]
    value = times(d.value) if isinstance(k, int) else None
    if value is not None and value != sp.oo and enc is None:
        enc = enclosure(value)
    formula = times(d.formula if d.formula is not None else d.value)
    return replace(d, formula=formula, value=value, enclosure=enc,
                   steps=(f"one run: {d.value_text()}", f"{step}, k = {k}", *d.steps))


def gaussian_location(m):
    """(A, {database: mean}) when every law of ``m`` is exactly √(A/π)·exp(−A(y − m_d)²) with one A > 0, else None."""
    if m.outputs != "reals":
        return None
    y, found = m.y, {}
    for d, law in m.laws:
        try:
            poly = sp.Poly(sp.expand(sp.expand_log(sp.log(law), force=True)), y)
        except sp.PolynomialError:
            return None
        if poly.degree() != 2 or any(c.has(y) for c in poly.all_coeffs()):
            return None
        found[d] = (-poly.coeff_monomial(y ** 2), poly.coeff_monomial(y))
    A = next(iter(found.values()))[0]
    if any(sp.simplify(a - A) != 0 for a, _ in found.values()) or Signs(tuple(m.params)).sign(A) != 1:
        return None
    means = {d: sp.simplify(b / (2 * A)) for d, (_, b) in found.items()}
    for d, law in m.laws:   # the reading above used log rules with force=True: confirm each law exactly
        if sp.simplify(law - _gauss(A, means[d], y)) != 0:
            return None
    return A, means


def _gauss(A, mean, y):
    return sp.sqrt(A / sp.pi) * sp.exp(-A * (y - mean) ** 2)


def _shifted(m, A, means, k, comp=None):
    laws = {d: _gauss(A, sp.sqrt(k) * means[d], m.y) for d, _ in m.laws}
    ranges = tuple(m.params)
    if isinstance(k, sp.Symbol):   # a symbolic number of runs is a parameter of the shifted mechanism
        ranges += parse_ranges({k.name: comp.params[k.name]})
    return validated(f"{m.name} composed {k} times", m.outputs, m.n, m.domain, ranges, laws)


def _additivity_checks(m, mk, k, params):
    """At the given parameter values: the largest D_α over the ordered pairs of the shifted mechanism equals k
    times one run's, at orders 2 and 3, each integral computed by the density engine (divergences add)."""
    values = {n: v for n, v in (params or {}).items() if n in m.symbols}
    if len(values) < len(m.params):
        return []
    one, many = m.fix(values), mk.fix(values)
    out = []
    for a in RECHECKED_ORDERS:
        lhs, rhs = _largest_renyi(many, a), _largest_renyi(one, a)
        ok = exact_sign(lhs - k * rhs) == 0
        out.append((f"Rényi order {a}: the shifted mechanism's D_α = {expr_text(lhs)} equals {k} × one run's "
                    f"{expr_text(rhs)} (divergences add)", ok))
    return out


def _largest_renyi(m, alpha):
    best = None
    for d, e in level_pairs("renyi-dp", m.databases, m.n, m.domain, "mechanism"):
        pair = LawPair(m.law(d), m.law(e), m.y, False, (d, e))
        v = sp.log(renyi_mass(pair, sp.Integer(alpha), m.signs())) / (alpha - 1)
        best = v if best is None or exact_sign(v - best) > 0 else best
    return sp.simplify(best)


def _db(d) -> str:
    return ",".join(map(str, d))


def _quantity(notion):
    from symbolic.derive.continuous.level import CURVE_NOTIONS
    return CURVE_NOTIONS.get(notion, "epsilon")


__all__ = ["ADDING", "density_composition_level", "gaussian_location"]
