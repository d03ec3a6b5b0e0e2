"""The level of a composition of different density mechanisms, ``{"kind": "composition", "of": [D1, D2, …]}``:
each run reads the same database and adds its own noise.

Two routes, each exact:

- **Gaussian laws.** When run i's laws are N(m_d^i, s_i²) (one variance per run), a pair of databases (d, e)
  gives the product of the pairs N(m_d^i, s_i²), N(m_e^i, s_i²), whose privacy loss is Σ_i (m_d^i − m_e^i)·y_i/s_i²
  + const: the pair is, up to a bijection of the outputs, the single Gaussian shift of
  μ_de = √(Σ_i ((m_d^i − m_e^i)/s_i)²) (Dong, Roth, Su 2022, Cor. 3.3: μ's add in squares). Every level here
  (pure, δ(ε), Rényi, zCDP, GDP, TV) grows with μ, so the composition's is the shift's of the largest μ_de,
  derived by the density engine.
- **Levels that add pair by pair.** For any densities, the pure-DP ε and the Rényi divergence at an order α of a
  pair of products are the sums of the runs' (the loss of a product is the sum of the losses); the level is the
  largest over the pairs of the sum, which is the sum of the runs' levels when one pair attains them all.

Other notions of other densities are an honest unknown (they need the convolution of the losses).
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import expr_text, parse_expr
from symbolic.core.ops import exact_sign
from symbolic.core.tables import database_key
from symbolic.derive.continuous.level import CURVE_NOTIONS, OWN_PARAMETERS, curve_notion, derive_curve_level
from symbolic.derive.continuous.pair import LawPair, Undecided, renyi_mass, sup_loss
from symbolic.derive.continuous.values import CurveLevel, enclosure
from symbolic.derive.operations.density_composition import gaussian_location
from symbolic.model.continuous import continuous_from_json, validated
from symbolic.model.neighbours import level_pairs
from symbolic.model.operations import composition_from_json
from symbolic.model.real_line import OO, Signs, is_infinite

ADDING_PAIRWISE = ("pure-dp", "renyi-dp")


def density_list_level(notion_key: str, doc, *, params=None, assumptions=()) -> CurveLevel:
    """The tight level of ``notion_key`` for a composition of a list of density mechanisms over one domain.

    >>> g = lambda s: {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...     "density": {"0": f"exp(-y^2/(2*{s}^2))/sqrt(2*pi*{s}^2)", "1": f"exp(-(y-1)^2/(2*{s}^2))/sqrt(2*pi*{s}^2)"}}
    >>> density_list_level("gaussian-dp", {"kind": "composition", "of": [g(1), g(2), g(2)]}).value
    sqrt(6)/2
    """
    notion, _ = curve_notion(notion_key)
    k, values = composition_from_json(doc).times_at(dict(params or {}))
    if not isinstance(k, int):
        raise InvalidParameter(f"a list of densities repeated {k} times is derived at a number of runs: give {k} a "
                               f"value with --param {k}=…")
    runs = _runs(doc, assumptions)
    names = {n for m in runs for n in m.symbols}
    own = OWN_PARAMETERS.get(notion, ())
    stray = [n for n in values if n not in names and n not in own]
    if stray:
        raise InvalidParameter(f"{notion} of a composition has no parameter {clip(stray[0], 40)}; valid: "
                               f"{', '.join(sorted(names - {'y'}) + list(own)) or 'none'}")
    runs = [m.fix({n: v for n, v in values.items() if n in m.symbols}) if any(n in m.symbols for n in values)
            else m for m in runs]
    first = runs[0]
    pairs = level_pairs(notion, first.databases, first.n, first.domain, "mechanism")
    located = [gaussian_location(m) for m in runs]
    if all(x is not None for x in located):
        return _gaussian_route(notion_key, runs, located, pairs, {n: v for n, v in values.items() if n in own}, k)
    if notion in ADDING_PAIRWISE:
        return _adding_route(notion, runs, pairs, values, own, k)
    return CurveLevel(notion, CURVE_NOTIONS[notion], None, None, None, False, "", (), (), values, (), first,
                      unknown=f"{notion} of a composition of different densities is derived when every run's laws are "
                              f"Gaussian with one variance, and for {', '.join(ADDING_PAIRWISE)} of any densities "
                              f"(they add pair by pair); these runs are not all Gaussian")


def _runs(doc, assumptions) -> list:
    of = doc.get("of")
    runs = []
    for i, part in enumerate(of, 1):
        try:
            runs.append(continuous_from_json(part, assumptions=tuple(assumptions)))
        except DPCheckError as e:   # the line names the run, so a fault in a nested file is found
            raise type(e)(f'composition "of" entry {i}: {e}') from None
    first = runs[0]
    for i, m in enumerate(runs[1:], 2):
        if m.n != first.n or tuple(m.domain) != tuple(first.domain) or m.outputs != first.outputs:
            raise InvalidParameter(f'composition "of" entry {i} is over n = {m.n}, domain {list(m.domain)}, outputs '
                                   f"{m.outputs}, entry 1 over n = {first.n}, domain {list(first.domain)}, outputs "
                                   f"{first.outputs}: the runs of a composition read one database")
    return runs


def _gaussian_route(notion_key, runs, located, pairs, own_values, k) -> CurveLevel:
    squares = {}
    for d, e in pairs:
        squares[(d, e)] = sp.simplify(k * sum(2 * A * (means[d] - means[e]) ** 2 for A, means in located))
    (d, e), mu2 = _largest(squares)
    mu = sp.sqrt(mu2)
    ranges = tuple({r.name: r for m in runs for r in m.params}.values())
    y = runs[0].y
    laws = {(0,): _standard(y, 0), (1,): _standard(y, mu)}
    shift = validated(f"{k * len(runs)} runs composed", "reals", 1, (0, 1), ranges, laws)
    level = derive_curve_level(notion_key, shift, params=own_values)
    lines = (f"every run's laws are Gaussian with one variance: a pair (d, e) of the composition is the Gaussian "
             f"shift of μ = √(Σ_i ((m_d − m_e)/s_i)²) (μ's add in squares)"
             + (f"; the list runs {k} times" if k > 1 else ""),
             *(f"{database_key(a)} ~ {database_key(b)}: μ² = {expr_text(v)}" for (a, b), v in squares.items()),
             f"the largest is at {database_key(d)} ~ {database_key(e)}: μ = {expr_text(mu)}; the level is that "
             f"shift's, N(0, 1) against N(μ, 1)")
    return CurveLevel(level.notion, level.quantity, level.formula, level.value, level.enclosure, level.exact,
                      f"{database_key(d)} ~ {database_key(e)}", lines + tuple(level.steps), level.checks,
                      level.params, level.assumptions, level.mechanism, level.unknown)


def _standard(y, mean):
    return sp.exp(-(y - mean) ** 2 / 2) / sp.sqrt(2 * sp.pi)


def _largest(values: dict):
    """The entry with the largest value, decided exactly (equal values: the first)."""
    best = None
    for key, v in values.items():
        if best is None:
            best = (key, v)
            continue
        s = exact_sign(v - best[1]) if not (v - best[1]).free_symbols else (0 if sp.simplify(v - best[1]) == 0
                                                                             else None)
        if s is None:
            raise InvalidParameter("which pair of databases gives the largest shift depends on the parameters: give "
                                   "them values with --param")
        if s > 0:
            best = (key, v)
    return best


def _adding_route(notion, runs, pairs, values, own, k) -> CurveLevel:
    if any(m.params for m in runs):
        raise InvalidParameter(f"{notion} of a composition of different densities is derived at numbers: give every "
                               f"parameter a value with --param "
                               f"({', '.join(sorted({r.name for m in runs for r in m.params}))})")
    alpha = None
    if notion == "renyi-dp":
        if "alpha" not in values:
            raise InvalidParameter("renyi-dp of a composition of different densities needs alpha=… (an order > 1)")
        alpha = parse_expr(str(values["alpha"]), what="alpha")
        if not (alpha.is_Rational and alpha > 1):
            raise InvalidParameter(f"alpha={clip(str(values['alpha']), 20)}: a rational order above 1 is expected")
    sums, lines = {}, []
    try:
        for d, e in pairs:
            parts = [_pair_value(notion, m, d, e, alpha) for m in runs]
            sums[(d, e)] = OO if any(p == OO for p in parts) else sp.simplify(k * sp.Add(*parts))
            lines.append(f"{database_key(d)} ~ {database_key(e)}: " + (f"{k}·(" if k > 1 else "")
                         + " + ".join(expr_text(p) for p in parts) + (")" if k > 1 else "")
                         + f" = {expr_text(sums[(d, e)])}")
    except Undecided as why:
        return CurveLevel(notion, CURVE_NOTIONS[notion], None, None, None, False, "", (), (), values, (), runs[0],
                          unknown=f"{notion}: {why}")
    finite = {k: v for k, v in sums.items() if v != OO}
    (d, e), value = next(((k, v) for k, v in sums.items() if v == OO), None) or _largest(finite)
    own_values = {k: v for k, v in values.items() if k in own}
    singles = [derive_curve_level(notion, m, params=own_values) for m in runs]
    total = None if any(s.value is None for s in singles) else k * sp.Add(*[s.value for s in singles])
    checks = [(f"at most the sum of the runs' own levels, {expr_text(total)} (basic composition)",
               total is not None and (total == OO or (value != OO and exact_sign(total - value) >= 0)))]
    step = ("the loss of a product is the sum of the losses: each pair's ε is the sum of the runs'" if alpha is None
            else f"Rényi divergences add under independent composition: each pair's D_{alpha} is the sum of the runs'")
    enc = None if value == OO else enclosure(value)
    return CurveLevel(notion, CURVE_NOTIONS[notion], value, value, enc, True, f"{database_key(d)} ~ {database_key(e)}",
                      (step, *lines, f"the largest is at {database_key(d)} ~ {database_key(e)}"), tuple(checks),
                      values, (), runs[0])


def _pair_value(notion, m, d, e, alpha):
    pair = LawPair(m.law(d), m.law(e), m.y, m.outputs == "integers", (d, e))
    if notion == "pure-dp":
        return sup_loss(pair, Signs(()))[0]
    mass = renyi_mass(pair, alpha, Signs(()))
    return OO if is_infinite(mass) else sp.log(mass) / (alpha - 1)


__all__ = ["density_list_level"]
