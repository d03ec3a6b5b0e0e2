"""The level of a Poisson-subsampled density mechanism: the Rényi divergence of the subsampled Gaussian (and its
pure DP, zCDP and μ-GDP, which sampling does not lower: :mod:`.subsampled_limits`).

``{"kind": "subsampled", "of": DENSITY, "sampling": "poisson", "rate": Q}`` with every law Gaussian with one
variance s² (:func:`~symbolic.derive.operations.density_composition.gaussian_location`): the first database
V stands for the record's absence and the law at x is (1 − q)·N(m_V, s²) + q·N(m_x, s²). Shifted and scaled,
each pair (V, x) is the pair of N(0, 1) and (1 − q)·N(0, 1) + q·N(μ, 1) with μ = |m_x − m_V|/s, whose Rényi
divergence at order α, both directions, is :func:`~symbolic.derive.operations.subsampled_gaussian.
subsampled_gaussian_renyi` (Mironov, Talwar, Zhang 2019). The level is the largest over x. Other notions of
subsampled densities are an honest unknown for now.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import expr_text, parse_expr
from symbolic.derive.continuous.level import CURVE_NOTIONS, curve_notion
from symbolic.derive.continuous.values import CurveLevel, enclosure
from symbolic.derive.operations.accounted_level import ACCOUNTED, accounted_level
from symbolic.derive.operations.density_composition import gaussian_location
from symbolic.derive.operations.subsampled_gaussian import subsampled_gaussian_renyi
from symbolic.derive.operations.subsampled_limits import LIMIT_NOTIONS, subsampled_gaussian_limit
from symbolic.model.continuous import continuous_from_json
from symbolic.model.operations import composition_from_json, subsampled_from_json

NOTIONS = ("renyi-dp",)


def subsampled_density_level(notion_key: str, doc, *, params=None, assumptions=(), k: int = 1) -> CurveLevel:
    """The Rényi level of a Poisson-subsampled Gaussian density mechanism (see the module docstring).

    >>> gauss = {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...          "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    >>> d = subsampled_density_level("renyi-2", {"kind": "subsampled", "of": gauss, "sampling": "poisson",
    ...                                          "rate": "1/100"})
    >>> d.value, d.ok
    (log(E/10000 + 9999/10000), True)
    """
    sub = subsampled_from_json(doc)
    notion, fixed = curve_notion(notion_key)
    if notion in ACCOUNTED:
        return accounted_level(notion, doc, params)
    values = dict(params or {})
    try:
        m = continuous_from_json(sub.of, assumptions=tuple(assumptions))
    except DPCheckError as e:   # the line names the operand, so a nested file's fault is found
        raise type(e)(f'subsampled "of": {e}') from None
    own = {**fixed, **{k: values.pop(k) for k in list(values) if k == "alpha"}}
    rate = sub.rate
    if rate in sub.params:
        if rate not in values:
            raise InvalidParameter(f"the subsampled density's level is derived at numbers: give the rate a value "
                                   f"with --param {rate}=…")
        rate = values.pop(rate)
    unknown = [k for k in values if k not in m.symbols]
    if unknown:
        raise InvalidParameter(f"{notion} of a subsampled density has no parameter {clip(unknown[0], 40)}; valid: "
                               f"{', '.join([*m.symbols, *sub.params, 'alpha'])}")
    if values:
        m = m.fix({k: parse_expr(v, what=k) if isinstance(v, str) else v for k, v in values.items()})
    shown = {**{k: str(v) for k, v in (params or {}).items()}}
    if sub.sampling != "poisson":
        return _unknown(notion, m, shown, f"{notion} of a density sampled without replacement is not yet derived; "
                                          f"taken: approx-dp at an ε (--param eps=…) and total-variation")
    if notion in LIMIT_NOTIONS:
        return _limit_level(notion, sub, m, rate, shown, k)
    if notion not in NOTIONS:
        return _unknown(notion, m, shown, f"{notion} of a subsampled density is not yet derived; taken: "
                                          f"renyi-dp at an order α (--param alpha=…), {', '.join(LIMIT_NOTIONS)}, "
                                          f"approx-dp at an ε, total-variation")
    if "alpha" not in own:
        raise InvalidParameter("renyi-dp of a subsampled density needs alpha=… (a rational order 1 < α ≤ 256)")
    if m.params:
        raise InvalidParameter(f"the subsampled density's level is derived at numbers: give every parameter a value "
                               f"with --param ({', '.join(r.name for r in m.params)})")
    located = gaussian_location(m)
    if located is None:
        return _unknown(notion, m, shown, "the Rényi level of a subsampled density is derived for Gaussian laws with "
                                          "one variance; this mechanism's laws are not")
    A, means = located
    absent = m.databases[0] if sub.absent is None else _database(sub.absent, m.databases)
    results, done = [], {}
    for d in m.databases:
        if d == absent:
            continue
        mu = sp.simplify(sp.Abs(means[d] - means[absent]) * sp.sqrt(2 * A))
        if mu == 0:
            raise InvalidParameter(f"the laws at {_key(absent)} and {_key(d)} are equal: the subsampled pair is "
                                   f"private at every level; give a mechanism whose laws differ")
        if mu not in done:   # pairs with the same μ are the same pair up to a shift: one level
            done[mu] = subsampled_gaussian_renyi(parse_expr(str(rate)), mu, own["alpha"])
        results.append((d, mu, done[mu]))
    d, mu, best = _largest(results)
    steps = (f"Poisson sampling at rate q = {rate} (add or remove one record; {_key(absent)} stands for its "
             f"absence); every law is Gaussian with variance {expr_text(1 / (2 * A))}, so each pair ({_key(absent)}, x) "
             f"is N(0, 1) against (1 − q)·N(0, 1) + q·N(μ, 1) with μ = |m_x − m_{_key(absent)}|/s",
             *(f"x = {_key(x)}: μ = {expr_text(u)}, level in [{sp.Float(r.enclosure[0], 15)}, "
               f"{sp.Float(r.enclosure[1], 15)}] ({r.larger} direction)" for x, u, r in results),
             *best.steps)
    return CurveLevel(notion, "epsilon", best.value, best.value, best.enclosure, best.value is not None,
                      f"{_key(absent)} ~ {_key(d)}, the {best.larger} direction", steps, best.checks, shown,
                      tuple(r.text() for r in m.params), m)


def composed_subsampled_level(notion_key: str, doc, *, params=None, assumptions=()) -> CurveLevel:
    """The Rényi level of ``{"kind": "composition", "of": SUBSAMPLED_DENSITY, "times": K}``: K times the
    subsampled level (Rényi divergences add under independent composition; Mironov 2017, Prop. 1), the shape
    of a private training run with Poisson sampling.

    >>> gauss = {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...          "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    >>> sub = {"kind": "subsampled", "of": gauss, "sampling": "poisson", "rate": "1/100"}
    >>> composed_subsampled_level("renyi-2", {"kind": "composition", "of": sub, "times": 10}).value
    10*log(E/10000 + 9999/10000)
    """
    notion = curve_notion(notion_key)[0]
    if notion in ACCOUNTED:
        return accounted_level(notion, doc, params)
    comp = composition_from_json(doc)
    k, params = comp.times_at(dict(params or {}))
    if notion in LIMIT_NOTIONS:
        if not isinstance(k, int):
            raise InvalidParameter(f"give the number of runs {k} a value with --param {k}=…")
        return subsampled_density_level(notion_key, comp.of, params=params, assumptions=assumptions, k=k)
    one = subsampled_density_level(notion_key, comp.of, params=params, assumptions=assumptions)
    if not one.ok:
        return one
    steps = (f"Rényi divergences add under independent composition: {k} runs give {k} times one run's level",
             *one.steps)
    scaled = None if one.value is None else k * one.value
    if isinstance(k, int):
        return replace(one, formula=scaled, value=scaled, enclosure=(k * one.enclosure[0], k * one.enclosure[1]),
                       steps=steps)
    if scaled is None:   # only enclosed (a real order): k times an interval is no formula in k
        return replace(one, enclosure=None, exact=False, steps=steps,
                       unknown=f"one step's level is only enclosed at this order; a formula in {k} needs it exact "
                               f"(an integer α), or give {k} a value with --param {k}=…")
    return replace(one, formula=scaled, value=None, enclosure=None, exact=True, steps=steps)


def _limit_level(notion, sub, m, rate, shown, k):
    """Pure DP, zCDP or μ-GDP of k runs of a Poisson-subsampled Gaussian: the largest shift's (each grows with μ)."""
    if m.params:
        raise InvalidParameter(f"the subsampled density's level is derived at numbers: give every parameter a value "
                               f"with --param ({', '.join(r.name for r in m.params)})")
    located = gaussian_location(m)
    if located is None:
        return _unknown(notion, m, shown, f"{notion} of a subsampled density is derived for Gaussian laws with one "
                                          f"variance; this mechanism's laws are not")
    A, means = located
    absent = m.databases[0] if sub.absent is None else _database(sub.absent, m.databases)
    shifts = {d: sp.simplify(sp.Abs(means[d] - means[absent]) * sp.sqrt(2 * A)) for d in m.databases if d != absent}
    d, mu = max(shifts.items(), key=lambda kv: sp.N(kv[1], 30))
    value, steps, checks = subsampled_gaussian_limit(notion, parse_expr(str(rate)), mu, k)
    intro = (f"Poisson sampling at rate q = {rate}: each pair ({_key(absent)}, x) is N(0, 1) against (1 − q)·N(0, 1) + "
             f"q·N(μ, 1); the largest shift is at x = {_key(d)}, μ = {expr_text(mu)}, and every level here grows "
             f"with μ")
    enc = None if value == sp.oo else enclosure(value)
    return CurveLevel(notion, CURVE_NOTIONS[notion], value, value, enc, True, f"{_key(absent)} ~ {_key(d)}",
                      (intro, *steps), checks, shown, (), m)


def _largest(results):
    """The entry with the largest level, decided by disjoint enclosures (entries of one μ share their level);
    overlapping enclosures of different μ are refused in one line rather than guessed."""
    best = results[0]
    for r in results[1:]:
        if r[2] is best[2] or r[2].enclosure[1] < best[2].enclosure[0]:
            continue
        if r[2].enclosure[0] > best[2].enclosure[1]:
            best = r
        else:
            raise InvalidParameter("two present values give overlapping levels; give a mechanism with one present "
                                   "value (two databases)")
    return best


def _database(v, databases):
    for d in databases:
        if _key(d) == str(v):
            return d
    raise InvalidParameter(f'subsampled "absent" {clip(str(v), 30)} is not a database of the mechanism')


def _key(d) -> str:
    return ",".join(map(str, d))


def _unknown(notion, m, shown, why):
    return CurveLevel(notion, CURVE_NOTIONS.get(notion, "epsilon"), None, None, None, False, "", (), (), shown,
                      tuple(r.text() for r in m.params), m, unknown=why)


__all__ = ["NOTIONS", "composed_subsampled_level", "subsampled_density_level"]
