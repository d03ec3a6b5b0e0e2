"""Mechanisms with infinite output spaces: a density over ℝ or a mass function over ℤ per database.

A mechanism file of this kind gives, per database d, an expression in the output variable ``y`` (and
declared parameters) for the density p_d(y) (``"outputs": "reals"``) or the mass P_d(y)
(``"outputs": "integers"``)::

    {"kind": "density", "outputs": "reals", "domain": [0, 1], "params": {"b": "b>0"},
     "density": {"0": "exp(-abs(y)/b)/(2*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}}

Expressions are read by the restricted parser (numbers, parameters, ``y``, + − × ÷ ^, exp, log, sqrt,
abs, erf, Phi, floor, pi); nothing is evaluated as code. Every law is checked before use:

- **non-negative** for every y and every parameter value in range: shown exactly from the form
  (products, quotients and sums of positive constants, positive parameters, exp, abs, erfc and even
  powers), after a certified probe at sample points that refuses a negative value with its point;
- **normalised**: the integral over ℝ (the sum over ℤ), computed piece by piece in closed form
  (:mod:`symbolic.model.real_line`), equals 1 exactly; a sum without closed form (the discrete
  Gaussian's) is enclosed by certified arithmetic with a proved tail. With ``"normalise": true`` the
  file gives an unnormalised form and the tool divides by that total.

A law that fails either check, or whose check cannot be carried out, is refused with one line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.errors import InvalidDistribution, InvalidParameter, InvalidSize, clip
from symbolic.core.exact import CURVE_CONSTANTS, DENSITY_FUNCS, expr_text, parse_expr
from symbolic.model.magnitude import constants_within_magnitude, within_magnitude
from symbolic.model.mechanism import count_databases
from symbolic.model.table_file import keyed_by_database
from symbolic.model.param_space import ParamRange
from symbolic.model.line_cuts import pieces
from symbolic.model.real_line import Signs, Undecided, is_infinite, total
from symbolic.model.symbolic_table import parse_ranges

OUTPUT_SPACES = {"reals": "density", "integers": "mass"}
MAX_DATABASES = 64
KEYS = ("kind", "outputs", "n", "domain", "params", "density", "mass", "normalise")
FORMAT = ('{"kind": "density", "outputs": "reals", "domain": [0, 1], "params": {"b": "b>0"}, '
          '"density": {"0": "exp(-abs(y)/b)/(2*b)", "1": "exp(-abs(y-1)/b)/(2*b)"}}')


def output_symbol(outputs: str) -> sp.Symbol:
    """The output variable y: real for densities, integer for mass functions."""
    return sp.Symbol("y", integer=True) if outputs == "integers" else sp.Symbol("y", real=True)


@dataclass(frozen=True)
class ContinuousMechanism:
    """Laws with an infinite output space. ``outputs``: "reals" (densities) or "integers" (mass
    functions); ``laws``: ((database, normalised expression in :attr:`y`), ...); ``params``: the
    parameters' ranges; ``checks``: how each law was found valid, in words, with ``exact`` False
    where a check rests on a certified enclosure rather than an identity.

    >>> m = laplace(1)
    >>> m.kind, m.outputs, m.law((1,))
    ('density', 'reals', exp(-Abs(y - 1))/2)
    """

    name: str
    outputs: str
    n: int
    domain: tuple
    params: tuple
    laws: tuple
    checks: tuple = field(default=(), compare=False)
    exact: bool = field(default=True, compare=False)

    @property
    def y(self) -> sp.Symbol:
        return output_symbol(self.outputs)

    @property
    def kind(self) -> str:
        return OUTPUT_SPACES[self.outputs]

    @property
    def symbols(self) -> dict:
        return {r.name: r.symbol for r in self.params}

    @property
    def databases(self) -> tuple:
        return tuple(d for d, _ in self.laws)

    def law(self, d) -> sp.Expr:
        return dict(self.laws)[tuple(d)]

    def signs(self) -> Signs:
        return Signs(tuple(self.params))

    def fix(self, values: dict) -> "ContinuousMechanism":
        """The mechanism at exact parameter values (each checked against its range)."""
        subs, kept = {}, []
        for r in self.params:
            if r.name in values:
                v = sp.sympify(values[r.name])
                within_magnitude(v, r.name)
                if not r.contains(v):
                    raise InvalidParameter(f"{r.name}={v} is outside its range {r.text()}")
                subs[r.symbol] = v
            else:
                kept.append(r)
        laws = tuple((d, sp.sympify(e).xreplace(subs)) for d, e in self.laws)
        return ContinuousMechanism(self.name, self.outputs, self.n, self.domain, tuple(kept), laws, self.checks,
                                   self.exact)

    def __repr__(self):
        return f"<{self.kind} mechanism {self.name}: n={self.n}, domain={self.domain}, outputs={self.outputs}>"


def is_continuous_document(doc) -> bool:
    """Does a parsed JSON document describe a density or mass-function mechanism (not a finite table)?

    >>> is_continuous_document({"kind": "density", "outputs": "reals", "domain": [0, 1], "density": {}})
    True
    >>> is_continuous_document({"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {}})
    False
    """
    if not isinstance(doc, dict):
        return False
    kind, outputs = doc.get("kind"), doc.get("outputs")
    return ("density" in doc or "mass" in doc or (isinstance(kind, str) and kind in ("density", "mass"))
            or (isinstance(outputs, str) and outputs in OUTPUT_SPACES))


def continuous_from_json(doc, *, name: str = "mechanism", assumptions=()) -> ContinuousMechanism:
    """A :class:`ContinuousMechanism` from a parsed JSON document (see the module docstring), validated.

    >>> doc = {"kind": "mass", "outputs": "integers", "domain": [0, 1], "normalise": True,
    ...        "mass": {"0": "exp(-abs(y))", "1": "exp(-abs(y-1))"}}
    >>> continuous_from_json(doc).checks[0]
    'the mass at database 0: normalised by its total (1 + exp(1))/(-1 + exp(1))'
    """
    if not isinstance(doc, dict):
        raise InvalidSize(f"the mechanism must be a JSON object like {FORMAT}")
    unknown = [k for k in doc if k not in KEYS]
    if unknown:
        raise InvalidSize(f"unknown key {clip(unknown[0], 40)} in the mechanism; keys are {', '.join(KEYS)}")
    outputs = doc.get("outputs", "integers" if doc.get("kind") == "mass" or "mass" in doc else "reals")
    if outputs not in OUTPUT_SPACES:
        raise InvalidSize(f'"outputs" is {clip(outputs, 40)}; a density or mass function needs "reals" or "integers"')
    kind = doc.get("kind", "density")
    if kind not in ("density", "mass"):
        raise InvalidSize(f'"kind" is {clip(kind, 40)}; write "density" (outputs over ℝ or ℤ) or "mass" (over ℤ)')
    if kind == "mass" and outputs == "reals":
        raise InvalidSize('"kind": "mass" goes with "outputs": "integers"; a law over the reals is a density')
    given = [k for k in ("density", "mass") if k in doc]
    if len(given) != 1:
        raise InvalidSize(f'give the laws once, under "density" (or "mass"), mapping databases to expressions in y: '
                          f'{FORMAT}')
    n = doc.get("n", 1)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidSize(f'"n"={clip(n, 40)} must be a whole number >= 1')
    domain = doc.get("domain")
    if (not isinstance(domain, list) or not domain
            or any(isinstance(v, bool) or not isinstance(v, int) for v in domain) or len(set(domain)) != len(domain)):
        raise InvalidSize(f'"domain" must be a list of distinct integers such as [0, 1]; got {clip(domain, 40)}')
    count_databases(n, len(domain), limit=MAX_DATABASES, what="the mechanism file")
    normalise = doc.get("normalise", False)
    if not isinstance(normalise, bool):
        raise InvalidSize(f'"normalise" must be true or false; got {clip(normalise, 40)}')
    ranges = parse_ranges(doc.get("params"), tuple(assumptions))
    if "y" in {r.name for r in ranges}:
        raise InvalidParameter("y is the output variable; name the parameter otherwise")
    laws = doc[given[0]]
    if not isinstance(laws, dict) or not laws:
        raise InvalidSize(f'"{given[0]}" must map each database to an expression in y, like {{"0": "exp(-abs(y))/2"}}')
    table = keyed_by_database(laws, n, domain, f'in "{given[0]}"')
    from symbolic.core.tables import databases
    missing = [d for d in databases(n, tuple(domain)) if d not in table]
    if missing:
        raise InvalidDistribution(f"database {','.join(map(str, missing[0]))} has no {kind}; every database of the "
                                  f"domain needs one")
    y = output_symbol(outputs)
    symbols = {r.name: r.symbol for r in ranges}
    symbols["y"] = y
    parsed = {}
    for d, text in table.items():
        where = f"the {kind} at database {','.join(map(str, d))}"
        if not isinstance(text, str):
            raise InvalidDistribution(f"{where} is {clip(text, 40)}; give an expression in y as text")
        parsed[d] = parse_expr(text, symbols, what=where, functions=DENSITY_FUNCS, constants=CURVE_CONSTANTS)
        constants_within_magnitude(parsed[d], where)
    return validated(name, outputs, n, tuple(domain), ranges, parsed, normalise=normalise)


def validated(name, outputs, n, domain, ranges, parsed: dict, *, normalise=False) -> ContinuousMechanism:
    """Check each law (non-negative, total mass 1 or normalised) and build the mechanism."""
    y = output_symbol(outputs)
    signs = Signs(tuple(ranges))
    laws, checks, exact = [], [], True
    for d, e in parsed.items():
        where = f"the {OUTPUT_SPACES[outputs]} at database {','.join(map(str, d))}"
        _check_nonnegative(e, y, ranges, where)
        try:
            mass = sp.simplify(sum(total(pc.exprs[0], y, pc, signs)
                                   for pc in pieces([e], y, signs, integers=outputs == "integers")))
        except Undecided as why:
            raise InvalidDistribution(f"{where}: its total mass could not be computed ({why})") from None
        if is_infinite(mass):
            raise InvalidDistribution(f"{where} has infinite total mass: it is not a probability law")
        if normalise:
            if not _positive_form(e, y, signs) and signs.sign(mass) != 1:
                raise InvalidDistribution(f"{where} has total mass {expr_text(mass)}, not shown positive: it cannot be "
                                          f"normalised")
            laws.append((d, e / mass))
            checks.append(f"{where}: normalised by its total {expr_text(mass)}")
            continue
        s = signs.sign(sp.simplify(mass - 1))
        if s == 0:
            laws.append((d, e))
            checks.append(f"{where}: total mass 1 (exact)")
            continue
        if s is not None:
            raise InvalidDistribution(f"{where} has total mass {_short(mass)}, not 1; divide by it or set "
                                      f'"normalise": true')
        raise InvalidDistribution(f"{where} has total mass {_short(mass)}, which is not shown to be 1 for every value "
                                  f'in the ranges; set "normalise": true to divide by it')
    return ContinuousMechanism(name, outputs, n, domain, tuple(ranges), tuple(laws), tuple(checks), exact)


def _short(e) -> str:
    text = expr_text(e)
    if e.free_symbols or len(text) < 60:
        return text if len(text) <= 80 else text[:79] + "…"
    return f"{text[:40]}… ≈ {sp.N(e, 12)}"


# ---------------------------------------------------------------- non-negativity
def _nonnegative_form(e, y, signs) -> bool:
    """Is e ≥ 0 for every real y and every parameter value in range, by its form? Parts without y are
    decided by their sign under the ranges; parts with y must be exp, abs, erfc, even powers, or
    products, quotients and sums of nonnegative parts."""
    if not e.has(y):
        return signs.sign(e) in (0, 1)
    if isinstance(e, (sp.exp, sp.Abs, sp.erfc)):
        return True
    if e.is_Pow:
        if e.exp.is_Integer and int(e.exp) % 2 == 0:
            return True
        return _positive_form(e.base, y, signs) or (_nonnegative_form(e.base, y, signs) and bool(e.exp.is_nonnegative))
    if e.is_Mul or e.is_Add:
        return all(_nonnegative_form(a, y, signs) for a in e.args)
    return False


def _positive_form(e, y, signs) -> bool:
    """Is e > 0 for every y and parameter value, by its form (as :func:`_nonnegative_form`)?"""
    if not e.has(y):
        return signs.sign(e) == 1
    if isinstance(e, (sp.exp, sp.erfc)):
        return True
    if e.is_Pow:
        return _positive_form(e.base, y, signs)
    if e.is_Mul:
        return all(_positive_form(a, y, signs) for a in e.args)
    if e.is_Add:
        return (all(_nonnegative_form(a, y, signs) for a in e.args)
                and any(_positive_form(a, y, signs) for a in e.args))
    return False


def _check_nonnegative(e, y, ranges, where):
    """Refuse ``e`` unless it is shown ≥ 0 everywhere; a negative sample value is named first."""
    from symbolic.core.ops import UndecidedComparison, exact_sign
    points = [sp.Rational(k, 2) for k in range(-8, 9)]
    samples = [dict()] if not ranges else [dict(zip([r.symbol for r in ranges], vals))
                                          for vals in zip(*[r.samples(2) for r in ranges])]
    for vals in samples:
        for t in points:
            v = e.xreplace({**vals, y: t})
            try:
                if exact_sign(v) < 0:
                    at = ", ".join([f"y = {t}"] + [f"{k} = {x}" for k, x in vals.items()])
                    raise InvalidDistribution(f"{where} is negative at {at} ({sp.N(v, 6)}): a density is ≥ 0")
            except UndecidedComparison:
                pass
    if not _nonnegative_form(sp.sympify(e), y, Signs(tuple(ranges))):
        raise InvalidDistribution(f"{where}, {clip(str(e), 60)}, is not shown ≥ 0 for every y: write it as products "
                                  f"and sums of positive constants and parameters, exp(…), abs(…), even powers")


# ---------------------------------------------------------------- factories
def _factory(name, outputs, laws: dict, params: dict, values: dict, normalise=False) -> ContinuousMechanism:
    ranges = parse_ranges({k: v for k, v in params.items()})
    m = validated(name, outputs, 1, (0, 1), ranges, laws, normalise=normalise)
    return m.fix(values) if values else m


def _param(name, value):
    sym = ParamRange(name, sp.Integer(0), True).symbol
    return sym, ({} if value is None else {name: sp.Rational(value) if not isinstance(value, sp.Basic) else value})


def laplace(b=None) -> ContinuousMechanism:
    """The Laplace mechanism on one count (neighbours 0 ~ 1): density e^(−|y−x|/b)/(2b) (Dwork, McSherry,
    Nissim, Smith 2006). ``b`` a positive exact number, or None to keep it a parameter b > 0.

    >>> laplace().law((0,))
    exp(-Abs(y)/b)/(2*b)
    """
    s, val = _param("b", b)
    y = output_symbol("reals")
    laws = {(x,): sp.exp(-sp.Abs(y - x) / s) / (2 * s) for x in (0, 1)}
    return _factory("laplace", "reals", laws, {"b": "b>0"}, val)


def laplace_count_given_record(n: int, p) -> ContinuousMechanism:
    """The counting query K/n + Lap(b), b = 1/(nε), seen from one record x_i ∈ {0, 1} when the other n − 1
    records are i.i.d. Bernoulli(p): density Σ_k C(n−1, k) p^k (1−p)^(n−1−k)·Lap(y; (x_i + k)/n, b), a mixture
    over the other records' count (the law the pointwise maximal leakage of one record is taken over).
    ``n`` ≥ 1 and ``0 < p < 1`` exact; ε stays a parameter ε > 0.

    >>> laplace_count_given_record(1, sp.Rational(1, 2)).law((1,))
    eps*exp(-eps*Abs(y - 1))/2
    """
    n, p = int(n), sp.Rational(p)
    if n < 1 or not 0 < p < 1:
        raise InvalidParameter(f"the count needs n ≥ 1 records and a probability 0 < p < 1; got n = {n}, p = {p}")
    eps, _ = _param("eps", None)
    y = output_symbol("reals")
    b = 1 / (n * eps)
    laws = {(x,): sp.Add(*[sp.binomial(n - 1, k) * p ** k * (1 - p) ** (n - 1 - k)
                           * sp.exp(-sp.Abs(y - sp.Rational(x + k, n)) / b) / (2 * b) for k in range(n)])
            for x in (0, 1)}
    return _factory(f"laplace-count-given-record(n={n}, p={p})", "reals", laws, {"eps": "eps>0"}, {})


def gaussian(sigma=None) -> ContinuousMechanism:
    """The Gaussian mechanism on one count: density e^(−(y−x)²/(2σ²))/√(2πσ²).

    >>> gaussian(1).checks[0]
    'the density at database 0: total mass 1 (exact)'
    """
    s, val = _param("sigma", sigma)
    y = output_symbol("reals")
    laws = {(x,): sp.exp(-(y - x) ** 2 / (2 * s ** 2)) / sp.sqrt(2 * sp.pi * s ** 2) for x in (0, 1)}
    return _factory("gaussian", "reals", laws, {"sigma": "sigma>0"}, val)


def discrete_laplace(b=None) -> ContinuousMechanism:
    """The discrete Laplace (two-sided geometric) mechanism: mass (1−a)/(1+a)·a^|y−x| on ℤ, a = e^(−1/b).

    >>> discrete_laplace(1).outputs
    'integers'
    """
    s, val = _param("b", b)
    y = output_symbol("integers")
    a = sp.exp(-1 / s)
    laws = {(x,): (1 - a) / (1 + a) * sp.exp(-sp.Abs(y - x) / s) for x in (0, 1)}
    return _factory("discrete-laplace", "integers", laws, {"b": "b>0"}, val)


def discrete_gaussian(sigma=None) -> ContinuousMechanism:
    """The discrete Gaussian (Canonne, Kamath, Steinke 2020): mass ∝ e^(−(y−x)²/(2σ²)) on ℤ, normalised by
    the tool (the constant has no closed form; it is enclosed with a proved tail).

    >>> discrete_gaussian(1).law((0,))
    exp(-y**2/2)/Sum(exp(-y**2/2), (y, -oo, oo))
    """
    s, val = _param("sigma", sigma)
    y = output_symbol("integers")
    laws = {(x,): sp.exp(-(y - x) ** 2 / (2 * s ** 2)) for x in (0, 1)}
    if val:
        laws = {d: e.xreplace({s: val["sigma"]}) for d, e in laws.items()}
        return _factory("discrete-gaussian", "integers", laws, {}, {}, normalise=True)
    return _factory("discrete-gaussian", "integers", laws, {"sigma": "sigma>0"}, {}, normalise=True)


def staircase(eps0=None, gamma=None) -> ContinuousMechanism:
    """The staircase mechanism (Geng, Viswanath 2014) on one count, sensitivity 1: density
    a·e^(−ε₀·(⌊|y − x| − γ⌋ + 1)), a step function that is a on [0, γ), a·e^(−ε₀) on [γ, 1) and then falls by
    e^(−ε₀) every unit, with a = (1 − e^(−ε₀))/(2(γ + (1 − γ)e^(−ε₀))). ``gamma`` in [0, 1], by default the
    optimal γ* = 1/(1 + e^(ε₀/2)); ``eps0`` a positive exact number, or None to keep it a parameter
    (named ε₀ so that it does not clash with the ε of a privacy profile).

    >>> staircase(1, sp.Rational(1, 2)).law((0,))
    (1 - exp(-1))*exp(-floor(Abs(y) - 1/2) - 1)/(exp(-1) + 1)
    """
    s, val = _param("eps0", eps0)
    if gamma is None:
        g = 1 / (1 + sp.exp(s / 2))
    else:
        g = sp.Rational(gamma) if not isinstance(gamma, sp.Basic) else gamma
        if not 0 <= g <= 1:
            raise InvalidParameter(f"the staircase's gamma={g} must lie in [0, 1]")
    y = output_symbol("reals")
    a = (1 - sp.exp(-s)) / (2 * (g + (1 - g) * sp.exp(-s)))
    laws = {(x,): a * sp.exp(-s * (sp.floor(sp.Abs(y - x) - g) + 1)) for x in (0, 1)}
    return _factory("staircase", "reals", laws, {"eps0": "eps0>0"}, val)
