"""The tight privacy level of a mechanism with an infinite output space (a density or mass function).

For a :class:`~symbolic.model.continuous.ContinuousMechanism`, each notion's level is the largest value
over ordered neighbouring pairs (d, d′) (replace one record; every pair of inputs for local DP and
free-lunch privacy) of a quantity of the pair of laws p = law(d), q = law(d′), computed exactly by
:mod:`symbolic.derive.curves`:

- ε-DP (Dwork, McSherry, Nissim, Smith 2006): ε = sup_y log p(y)/q(y), with where it is reached; ∞ is
  said plainly (the Gaussian mechanism);
- (ε,δ)-DP: δ(ε) = ∫ max(0, p − e^ε·q), the privacy profile, as a formula in ε when ε is not given;
- total variation: δ(0);
- bounded range (Dong, Durfee, Rogers 2020): sup log p/q − inf log p/q;
- Rényi DP of real order α > 1 (Mironov 2017): D_α = log(∫ p^α q^(1−α))/(α − 1), in α when α is not given;
- ρ-zCDP (Bun, Steinke 2016, Def. 1.1): ρ = sup_{α>1} D_α/α: exact when D_α/α does not depend on α
  (the Gaussian mechanism), else a certified enclosure (:func:`symbolic.derive.curve_sup.sup_over_orders`);
- μ-GDP (Dong, Roth, Su 2022): μ exactly for a pair that is a Gaussian shift (the privacy loss is
  N(μ²/2, μ²) under p), 0 for equal laws; other pairs are not derived (unknown, said so).

Every value is given exactly (a sympy number) and as a certified enclosure (ball arithmetic), never as
a float; the checks recompute each value by 30-digit quadrature, independently of the closed form.
Where a sign depends on the parameters the level is a Piecewise over both cases.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import expr_text, parse_expr
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.tables import replace
from symbolic.derive.curves import LawPair, Undecided, by_cases, decide, hockey, loss_on, renyi_mass, sup_loss
from symbolic.model.continuous import ContinuousMechanism, continuous_from_json
from symbolic.model.param_space import ParamRange
from symbolic.model.real_line import OO, Signs, is_infinite

DIGITS = 15   # digits printed of an enclosure (its radius is below 10^-(DIGITS+2))

#: the notions whose level is derived for densities and mass functions, with the quantity's name
CURVE_NOTIONS = {
    "pure-dp": "epsilon", "local-dp": "epsilon", "free-lunch": "epsilon", "approx-dp": "delta",
    "total-variation": "tv", "bounded-range": "epsilon", "renyi-dp": "epsilon", "zcdp": "rho",
    "gaussian-dp": "mu",
}
_ALIASES = {"epsilon": "pure-dp", "dp": "pure-dp", "eps": "pure-dp", "ldp": "local-dp", "delta": "approx-dp",
            "tv": "total-variation", "br": "bounded-range", "rdp": "renyi-dp", "zcdp": "zcdp", "rho": "zcdp",
            "zeroconcentrateddp": "zcdp", "gdp": "gaussian-dp", "mu": "gaussian-dp", "gaussiandp": "gaussian-dp",
            "puredp": "pure-dp", "approxdp": "approx-dp", "renyidp": "renyi-dp", "totalvariation": "total-variation"}
_OWN = {"approx-dp": ("eps", "E"), "renyi-dp": ("alpha",)}


def curve_notion(key: str) -> tuple:
    """(notion id, fixed params) for a name or alias; renyi-2 / renyi-3 fix α."""
    norm = str(key).strip().lower().replace("_", "-")
    if norm in ("renyi-2", "renyi-3", "rdp-2", "rdp-3"):
        return "renyi-dp", {"alpha": sp.Integer(norm[-1])}
    if norm in CURVE_NOTIONS:
        return norm, {}
    flat = norm.replace("-", "")
    if flat in _ALIASES:
        return _ALIASES[flat], {}
    raise InvalidParameter(f"no level is derived for {clip(key)} on a density or mass function; derivable: "
                           f"{', '.join(CURVE_NOTIONS)}")


@dataclass(frozen=True)
class CurveLevel:
    """A derived level. ``formula``: exact, in the parameters left symbolic (a Piecewise over cases), or
    None when only the value at the given numbers was derived; ``value``: exact at the given numbers (None
    while symbols remain); ``enclosure``: (lower, upper) rationals certified to contain the level;
    ``exact``: the value is a closed form (False: only the enclosure is certified); ``where``: where the
    level is reached; ``steps``: the derivation in words; ``checks``: (text, ok) cross-checks. The notions
    derived are the keys of ``CURVE_NOTIONS``.

    >>> sorted(CURVE_NOTIONS)[:3]
    ['approx-dp', 'bounded-range', 'free-lunch']
    >>> from symbolic.model.continuous import gaussian
    >>> d = derive_curve_level("gaussian-dp", gaussian(), params={"sigma": 2})
    >>> d.value, d.exact, d.ok
    (1/2, True, True)
    """

    notion: str
    quantity: str
    formula: sp.Expr | None
    value: sp.Expr | None
    enclosure: tuple | None
    exact: bool
    where: str
    steps: tuple
    checks: tuple
    params: dict = field(default_factory=dict)
    assumptions: tuple = ()
    mechanism: ContinuousMechanism | None = field(default=None, compare=False, repr=False)
    unknown: str | None = None   # why no level was derived (then formula, value and enclosure are None)

    @property
    def infinite(self) -> bool:
        return self.value == OO or self.formula == OO

    @property
    def ok(self) -> bool:
        """A level was derived and every cross-check passed (a failed check fails the derivation)."""
        return self.unknown is None and bool(self.checks) and all(ok for _, ok in self.checks)

    def value_text(self) -> str:
        """The value for a reader: a rational as it is, else 15 significant digits (from the exact value,
        or the middle of the enclosure) with the enclosure's half-width."""
        if self.unknown is not None:
            return "unknown"
        if self.infinite:
            return "∞"
        if self.enclosure is None:
            return "(symbolic)"
        lo, hi = self.enclosure
        if self.value is not None and self.value.is_Rational:
            return str(self.value)
        radius = (hi - lo) / 2
        decimals = DIGITS if radius == 0 else max(2, min(DIGITS, int(sp.floor(-sp.log(radius, 10)))))
        return f"{fixed_decimal((lo + hi) / 2, decimals)} (± {sp.N(radius, 2)}, certified)"


def fixed_decimal(x, decimals: int) -> str:
    """The rational x rounded to ``decimals`` places (half up), by integer arithmetic.

    >>> fixed_decimal(sp.Rational(5128835112945085956, 10 ** 19), 15), fixed_decimal(sp.Rational(-1, 8), 2)
    ('0.512883511294509', '-0.13')
    """
    x = sp.Rational(x)
    sign = "-" if x < 0 else ""
    k = int(sp.floor(abs(x) * 10 ** decimals + sp.Rational(1, 2)))
    whole, frac = divmod(k, 10 ** decimals)
    return f"{sign}{whole}." + str(frac).rjust(decimals, "0") if decimals else f"{sign}{whole}"


# ---------------------------------------------------------------- inputs
def _as_mechanism(mechanism, assumptions) -> ContinuousMechanism:
    if isinstance(mechanism, ContinuousMechanism):
        return mechanism
    return continuous_from_json(mechanism, assumptions=tuple(assumptions))


def _own_ranges(notion, fixed, values, symbols):
    """The notion's own parameters: given values (checked) or symbols with their ranges."""
    own, ranges = dict(fixed), []
    for k in ("eps", "E", "alpha"):
        if k in values:
            v = values[k]
            own[k] = parse_expr(v, symbols, what=f"{notion} parameter {k}") if isinstance(v, str) else sp.sympify(v)
    if notion == "approx-dp":
        if "eps" in own and "E" in own:
            raise InvalidParameter("approx-dp takes one of eps=… (ε ≥ 0) or E=… (E = e^ε ≥ 1), not both")
        if "E" in own:
            own["eps"] = sp.log(own.pop("E"))
        if "eps" not in own:
            r = ParamRange("eps", sp.Integer(0), False)
            ranges.append(r)
            own["eps"] = r.symbol
        elif not own["eps"].free_symbols and exact_sign(own["eps"]) < 0:
            raise InvalidParameter(f"eps={own['eps']} is negative; the privacy profile is for ε ≥ 0")
    if notion in ("renyi-dp", "zcdp"):
        if "alpha" not in own or notion == "zcdp":
            r = ParamRange("alpha", sp.Integer(1), True)
            ranges.append(r)
            own["alpha"] = r.symbol
        elif not own["alpha"].free_symbols and exact_sign(own["alpha"] - 1) <= 0:
            raise InvalidParameter(f"alpha={own['alpha']}: Rényi DP here is of an order α > 1")
    return own, tuple(ranges)


def _pairs(notion, m: ContinuousMechanism):
    dbs = m.databases
    if notion in ("local-dp", "free-lunch"):
        if notion == "local-dp" and m.n != 1:
            raise InvalidParameter(f"local-dp compares the inputs of a one-record randomizer (n = 1); this "
                                   f"mechanism has n = {m.n}")
        return [(d, e) for d in dbs for e in dbs if d != e]
    return [(d, replace(d, i, v)) for d in dbs for i in range(m.n) for v in m.domain if v != d[i]]


# ---------------------------------------------------------------- the level of the whole mechanism
def _level(notion, own, m, pairs, signs):
    """(value, where) for the mechanism under ``signs``: the largest over the ordered pairs. Two values
    whose order cannot be decided (equal in disguise, as the two pairs of a symmetric mechanism whose
    constants are sums) are kept as their exact maximum, Max(a, b)."""
    best, where = None, None
    for d, e in pairs:
        pair = LawPair(m.law(d), m.law(e), m.y, m.outputs == "integers", (d, e))
        val, at = _pair_level(notion, own, pair, signs)
        label = f"{_db(d)} ~ {_db(e)}" + (f", {at}" if at else "")
        if best is None:
            best, where = val, label
            continue
        more = _more(val, best, signs)
        if more is None:
            best, where = sp.Max(best, val, evaluate=False), f"{where} or {label}"
        elif more:
            best, where = val, label
    return best, where


def _more(a, b, signs):
    """a > b (True/False); None when the order is not decided and cannot be split into cases (the
    difference has no parameters, or holds sums that sympy's assumptions do not read)."""
    if a == b:
        return False
    if a == OO or b == -OO:
        return True
    if b == OO or a == -OO:
        return False
    diff = sp.sympify(a - b)
    if diff.has(sp.Sum) or not diff.free_symbols:
        s = signs.sign(diff)
        return None if s is None else s > 0
    return decide(signs, diff, "which neighbouring pair gives the larger level") > 0


def _pair_level(notion, own, pair, signs):
    if notion in ("pure-dp", "local-dp", "free-lunch"):
        return sup_loss(pair, signs)
    if notion == "bounded-range":
        up, at_up = sup_loss(pair, signs)
        down, at_down = sup_loss(LawPair(pair.q, pair.p, pair.y, pair.integers, pair.label[::-1]), signs)
        return (OO if OO in (up, down) else up + down), f"largest loss {at_up}; smallest {at_down}"
    if notion == "approx-dp":
        return hockey(pair, sp.exp(own["eps"]), signs), ""
    if notion == "total-variation":
        return hockey(pair, sp.Integer(1), signs), ""
    if notion in ("renyi-dp", "zcdp"):
        mass = renyi_mass(pair, own["alpha"], signs)
        return (OO if is_infinite(mass) else sp.log(mass) / (own["alpha"] - 1)), ""
    if notion == "gaussian-dp":
        return _gaussian_mu(pair, signs)
    raise DPCheckError(f"{notion}: no level rule")


def _gaussian_mu(pair, signs):
    """μ of a pair that is exactly a Gaussian shift: on the whole line the loss is r = a·y + c and p is
    N(m, s²), so r(Y) ~ N(a·m + c, a²s²) under p; it is the loss of N(0,1) against N(μ,1) (μ = |a|·s)
    exactly when its mean is μ²/2, and then the pair's trade-off function is G_μ (Dong, Roth, Su 2022)."""
    pcs = pair.pieces(signs)
    if len(pcs) != 1 or pair.integers:
        raise Undecided("μ-GDP is derived for Gaussian-shift pairs of densities on ℝ; this pair is not one")
    r, cp, gp, _, _ = loss_on(pcs[0], pair.y)
    poly = sp.Poly(r, pair.y)
    a2, a1, a0 = (poly.coeff_monomial(pair.y ** k) for k in (2, 1, 0))
    if sp.simplify(a2) != 0:
        raise Undecided("the privacy loss is not linear in y: the pair is not a Gaussian shift")
    if sp.simplify(a1) == 0:
        if sp.simplify(a0) == 0:
            return sp.Integer(0), "equal laws"
        raise Undecided("the laws differ by a constant factor: not probability laws")
    gpoly = sp.Poly(gp, pair.y)
    A = -gpoly.coeff_monomial(pair.y ** 2)
    if decide(signs, A, "the y² coefficient of the density") <= 0:
        raise Undecided("the first law is not Gaussian: μ-GDP is derived for Gaussian shifts only")
    mean, var = gpoly.coeff_monomial(pair.y) / (2 * A), 1 / (2 * A)
    mu = sp.sqrt(sp.simplify(a1 ** 2 * var))
    if sp.simplify(a1 * mean + a0 - mu ** 2 / 2) != 0:
        raise Undecided("the privacy loss is Gaussian but not N(μ²/2, μ²): not a μ-GDP pair exactly")
    return sp.simplify(mu), "a Gaussian shift: the loss is N(μ²/2, μ²) under the first law"


def _db(d) -> str:
    return ",".join(map(str, d))


def tidy(v):
    """The shorter of ``v`` and its simplified form (sums left as they are)."""
    v = sp.sympify(v)
    if v.has(sp.Sum, sp.Max) or v in (OO, -OO) or v.is_Number:
        return v
    try:
        w = sp.simplify(sp.powsimp(sp.expand(v)))
    except (TypeError, ValueError, NotImplementedError):
        return v
    return w if sp.count_ops(w) <= sp.count_ops(v) else v


def _combine(cases):
    """One expression from [(facts, value)] (a Piecewise over the facts when there are several)."""
    cases = [(f, tidy(v)) for f, v in cases]
    if len(cases) == 1:
        return cases[0][1]
    args = []
    for facts, val in cases:
        cond = sp.And(*[sp.StrictGreaterThan(f, 0) for f in facts]) if facts else sp.true
        args.append((val, cond))
    return sp.Piecewise(*args)


def at_values(cases, values: dict):
    """The value of a by-cases result at exact values (the case whose facts hold there), or None on a
    boundary between cases."""
    for facts, val in cases:
        try:
            if all(exact_sign(sp.sympify(f).xreplace(values)) > 0 for f in facts):
                return _substitute(val, values)
        except UndecidedComparison:
            return None
    return None


def _substitute(val, values):
    """val at exact values; a Max of values sympy cannot order (sums) is rebuilt without evaluation."""
    val = sp.sympify(val)
    if val.has(sp.Max):
        with sp.evaluate(False):
            return val.xreplace(values)
    return val.xreplace(values)


def enclosure(value) -> tuple:
    """(lower, upper) rationals containing ``value``, within 10^-(DIGITS+2)."""
    for bits in (96, 192, 384, 768):
        b = C.enclose(value, bits)
        if b.upper() - b.lower() < sp.Rational(1, 10 ** (DIGITS + 2)):
            return b.lower(), b.upper()
    return b.lower(), b.upper()


def derive_curve_level(notion_key: str, mechanism, *, params=None, assumptions=()) -> CurveLevel:
    """The tight level of ``notion_key`` (see :data:`CURVE_NOTIONS`) for a density or mass-function
    mechanism (a parsed JSON document or a :class:`ContinuousMechanism`). ``params``: values for the
    mechanism's parameters and the notion's own (``eps`` or ``E`` for approx-dp, ``alpha`` for renyi-dp);
    a parameter without a value stays a symbol in the formula.

    >>> from symbolic.model.continuous import laplace
    >>> d = derive_curve_level("pure-dp", laplace(), params={"b": 1})
    >>> d.formula, d.value, d.where
    (1/b, 1, '0 ~ 1, every y in (-oo, 0)')
    """
    notion, fixed = curve_notion(notion_key)
    m = _as_mechanism(mechanism, assumptions)
    try:
        return _derive(notion, fixed, m, params)
    except Undecided as why:
        return CurveLevel(notion, CURVE_NOTIONS[notion], None, None, None, False, "", tuple(m.checks), (),
                          {k: v for k, v in (params or {}).items()}, tuple(r.text() for r in m.params), m,
                          unknown=str(why))


def _derive(notion, fixed, m, params):
    from symbolic.derive.curve_checks import run_checks
    values = dict(params or {})
    unknown = [k for k in values if k not in m.symbols and k not in ("eps", "E", "alpha")]
    if unknown:
        raise InvalidParameter(f"{notion} has no parameter {clip(unknown[0], 40)}; valid: "
                               f"{', '.join(list(m.symbols) + list(_OWN.get(notion, ()))) or 'none'}")
    own, own_ranges = _own_ranges(notion, fixed, values, m.symbols)
    fixing = {}
    for k, v in values.items():
        if k in m.symbols:
            fixing[m.symbols[k]] = parse_expr(v, {}, what=k) if isinstance(v, str) else sp.sympify(v)
    signs = Signs(tuple(m.params) + own_ranges)
    pairs = _pairs(notion, m)
    steps = list(m.checks)
    if notion == "zcdp":
        try:
            return _zcdp(m, own, pairs, signs, fixing, steps, values, run_checks)
        except Undecided as why:
            if not fixing:
                raise
            m_at = m.fix({str(k): v for k, v in fixing.items()})
            steps.append(f"no formula in the parameters ({why}); derived at the given values")
            return _zcdp(m_at, own, _pairs(notion, m_at), Signs(tuple(m_at.params) + own_ranges), {}, steps,
                         values, run_checks)
    try:
        cases = by_cases(lambda s: _level(notion, own, m, pairs, s), signs)
        formula = _combine([(f, v) for f, (v, _) in cases])
        where = cases[0][1][1] if len(cases) == 1 else "; ".join(f"when {' and '.join(f'{x} > 0' for x in f)}: {w}"
                                                                    for f, (_, w) in cases)
        steps.append("every sign decided exactly under the ranges" if len(cases) == 1 else
                     f"{len(cases)} cases, by the signs of {', '.join(sorted({str(x) for f, _ in cases for x in f}))}")
    except Undecided as why:
        formula, cases = None, None
        steps.append(f"no formula in the parameters ({why}); derived at the given values")
    val_map = {**fixing, **{r.symbol: own[r.name] for r in own_ranges if r.name in values}}
    value, exact_value = None, True
    if cases is not None and not formula.has(sp.Sum):   # a formula with sums: recomputed at the values instead
        value = at_values([(f, v) for f, (v, _) in cases], val_map) if val_map or not formula.free_symbols else None
        if value is not None and value.free_symbols:
            value = None
    if value is None and (formula is None or not formula.free_symbols or val_map):
        m_at = m.fix({str(k): v for k, v in fixing.items()})
        own_at = {k: (v.xreplace(val_map) if hasattr(v, "xreplace") else v) for k, v in own.items()}
        signs_at = Signs(tuple(m_at.params) + tuple(r for r in own_ranges if r.symbol in
                                                    {s for v in own_at.values() for s in sp.sympify(v).free_symbols}))
        try:
            v, w = _level(notion, own_at, m_at, _pairs(notion, m_at), signs_at)
            value = v if not sp.sympify(v).free_symbols else None
            where = where if cases is not None else w
        except Undecided as why:
            if formula is None:
                raise Undecided(f"{notion}: {why}") from None
    enc = None
    if value is not None and value != OO:
        enc = enclosure(value)
    shown = {k: v for k, v in values.items()}
    checks = run_checks(notion, own, m, pairs, formula, value, fixing, own_ranges)
    return CurveLevel(notion, CURVE_NOTIONS[notion], formula, value, enc, exact_value, where, tuple(steps),
                      tuple(checks), shown, tuple(r.text() for r in m.params), m)


def _zcdp(m, own, pairs, signs, fixing, steps, values, run_checks):
    """ρ = sup_{α>1} D_α/α (see :mod:`symbolic.derive.curve_sup`)."""
    from symbolic.derive.curve_sup import constant_ratio, sup_over_orders
    alpha = own["alpha"]
    cases = by_cases(lambda s: _level("renyi-dp", own, m, pairs, s), signs)
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
            formula = _combine(ratios)
            steps.append("D_α/α does not depend on α: ρ is that constant, exactly")
            value = formula.xreplace(fixing) if not formula.xreplace(fixing).free_symbols else None
            if len(ratios) > 1 and fixing:
                value = at_values(ratios, fixing)
        elif not [r for r in m.params if r.symbol not in fixing]:
            d_fixed = [(tuple(f_.xreplace(fixing) for f_ in f), v.xreplace(fixing)) for f, v in d_cases]
            m_at = m.fix({str(k): v for k, v in fixing.items()})
            d_inf, _ = _level("pure-dp", {}, m_at, _pairs("pure-dp", m_at), Signs(tuple(m_at.params)))
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
            sup = sup_over_orders(d_at, d_inf)
            enc, exact = (sup.lower, sup.upper), False
            where = f"{where}; {sup.where}"
            steps.append(f"sup over α by branch and bound on {sup.cells} cells of α (D_α nondecreasing, "
                         f"D_α ≤ D_∞ = {d_inf}): certified enclosure" + ("" if sup.closed else " (cell budget spent)"))
            if kl is not None:
                b = C.enclose(kl, 256)
                inside = b.lower() >= sup.lower and b.upper() <= sup.upper
                steps.append(f"the limit of D_α/α as α → 1 (the KL divergence) is {sp.simplify(kl)}"
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
