"""A run read from a mechanism file in the composition and subsampling format: its stages.

``{"kind": "composition", "of": [S1, S2, …]}`` runs the stages in turn; ``{"kind": "composition", "of": S,
"times": T}`` runs S T times; ``{"kind": "subsampled", "sampling": "poisson", "rate": Q, "of": M}`` is one step
of M on a Poisson subsample, M a density file of Gaussian laws with one variance (each pair of values is N(0, 1)
against N(μ, 1) with μ the shift over the standard deviation, i.e. the Gaussian mechanism of sensitivity 1 with
σ = 1/μ, the largest μ the worst pair: from the first value under Poisson sampling, between any two values
under sampling without replacement, ``"sampling": "without-replacement", "rate": m/N, "size": N``); a density on
its own is a step at rate 1. Numbers only.
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.errors import InvalidParameter, clip
from symbolic.core.exact import parse_expr
from symbolic.derive.accounting.run import Stage, repeated
from symbolic.derive.operations.density_composition import gaussian_location
from symbolic.model.continuous import continuous_from_json, is_continuous_document
from symbolic.model.symbolic_table import symbolic_mechanism_from_json
from symbolic.model.operations import composition_from_json, subsampled_from_json

MAX_STEPS = 10 ** 7


def _fraction(x, what: str) -> Fraction:
    v = parse_expr(str(x), what=what) if not isinstance(x, sp.Basic) else x
    if not v.is_Rational:
        raise InvalidParameter(f"{what} {clip(str(x), 30)}: the run is accounted at rational numbers (e.g. 1/100)")
    return Fraction(int(v.p), int(v.q))


def _gaussian_stage(doc, rate: Fraction, values: dict, sampling: str = "poisson") -> Stage:
    m = continuous_from_json(doc)
    given = {k: parse_expr(str(v), what=k) for k, v in values.items() if k in m.symbols}
    if given:
        m = m.fix(given)
    if m.params:
        raise InvalidParameter(f"the run's density has parameters ({', '.join(p.name for p in m.params)}): give "
                               f"each a value with --param NAME=VALUE")
    located = gaussian_location(m)
    if located is None:
        raise InvalidParameter("`account` takes Gaussian laws with one variance from a file (or --noise "
                               "gaussian:SIGMA | laplace:B); this density's laws are not")
    A, means = located
    firsts = m.databases[:1] if sampling == "poisson" else m.databases
    shifts = [abs(means[d] - means[e]) for e in firsts for d in m.databases if d != e]
    mu = sp.simplify(max(shifts) * sp.sqrt(2 * A))
    sigma = sp.nsimplify(1 / mu)
    if not sigma.is_Rational:
        raise InvalidParameter(f"the file's noise multiplier 1/μ = {clip(str(sigma), 30)} is not rational: give "
                               f"--noise gaussian:SIGMA instead")
    return Stage("gaussian", Fraction(int(sigma.p), int(sigma.q)), rate, 1, sampling=sampling)


def _table_stage(doc, rate: Fraction, absent) -> Stage:
    """A finite table of one record over two values: its rows at V (absent; the first value unless named) and x."""
    if not isinstance(doc, dict) or "rows" not in doc:
        raise InvalidParameter('`account` takes a subsampled Gaussian density or a finite table ("rows")')
    sm = symbolic_mechanism_from_json(doc, name="run table")
    if sm.params:
        raise InvalidParameter(f"the run's table has parameters ({', '.join(p.name for p in sm.params)}): `account` "
                               f"takes numbers")
    m = sm.mechanism
    if m.n != 1 or len(m.domain) != 2:
        raise InvalidParameter(f"`account` takes a table of one record over two values (absent, present); this one "
                               f"has n = {m.n} and {len(m.domain)} values")
    v = m.domain[0] if absent is None else next((d for d in m.domain if str(d) == str(absent)), None)
    if v is None:
        raise InvalidParameter(f'"absent" {clip(str(absent), 20)} is not a value of the table')
    x = next(d for d in m.domain if d != v)
    rows = dict(m.rows)
    return Stage("table", Fraction(0), rate, 1, tuple(tuple(sp.sympify(dict(rows[(d,)].items())[o]) for o in m.outputs)
                                                       for d in (v, x)))


def stages_from_document(doc, values=None, depth: int = 0) -> tuple:
    """The stages of a run document (see the module docstring); ``values``: numbers for its densities' parameters.

    >>> g = {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...      "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    >>> run = {"kind": "composition", "times": 1000, "of": {"kind": "subsampled", "sampling": "poisson",
    ...                                                      "rate": "1/100", "of": g}}
    >>> stages_from_document(run)
    (Stage(noise='gaussian', scale=Fraction(1, 1), rate=Fraction(1, 100), steps=1000, sampling='poisson'),)
    """
    if depth > 8:
        raise InvalidParameter("the run's operations nest more than eight deep")
    if not isinstance(doc, dict):
        raise InvalidParameter("a run is a JSON object: a composition, a subsampled mechanism or a density")
    kind = doc.get("kind")
    if kind == "composition":
        if isinstance(doc.get("of"), list):
            if not 1 <= len(doc["of"]) <= 64 or "times" in doc:
                raise InvalidParameter('a run\'s list of stages holds 1 to 64 entries, with no "times" beside it')
            return tuple(s for part in doc["of"] for s in stages_from_document(part, values, depth + 1))
        times = composition_from_json({**doc, "of": {"n": 1, "domain": [0, 1], "outputs": [0],
                                                     "rows": {"0": ["1"], "1": ["1"]}}}).times
        if not isinstance(times, int) or not 1 <= times <= MAX_STEPS:
            raise InvalidParameter(f'the run\'s "times" must be a number of steps from 1 to {MAX_STEPS}')
        return repeated(stages_from_document(doc["of"], values, depth + 1), times)
    if kind == "subsampled":
        sub = subsampled_from_json(doc)
        rate = _fraction(sub.rate, '"rate"')
        if sub.sampling != "poisson" and (rate * sub.size).denominator != 1:
            raise InvalidParameter(f'the run\'s "rate" {rate} times "size" {sub.size} is not a whole number of records '
                                   f"(sampling without replacement picks m = rate·size records)")
        if is_continuous_document(doc.get("of")):
            return (_gaussian_stage(doc["of"], rate, dict(values or {}), sub.sampling),)
        if sub.sampling != "poisson":
            raise InvalidParameter("sampling without replacement is accounted for Gaussian densities (and --noise "
                                   "gaussian:SIGMA | laplace:B); a table's step is accounted under Poisson sampling")
        return (_table_stage(doc.get("of"), rate, sub.absent),)
    if is_continuous_document(doc):
        return (_gaussian_stage(doc, Fraction(1), dict(values or {})),)
    if isinstance(doc, dict) and "rows" in doc:
        return (_table_stage(doc, Fraction(1), None),)
    raise InvalidParameter("`account` reads a run as a composition of subsampled Gaussian densities")


__all__ = ["stages_from_document"]
