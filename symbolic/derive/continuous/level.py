"""The tight privacy level of a mechanism with an infinite output space (a density or mass function).

For a :class:`~symbolic.model.continuous.ContinuousMechanism`, each notion's level is the largest value
over ordered neighbouring pairs (d, d′) (replace one record; every pair of inputs for local DP and
free-lunch privacy) of a quantity of the pair of laws p = law(d), q = law(d′), computed exactly by
:mod:`symbolic.derive.continuous.pair`:

- ε-DP (Dwork, McSherry, Nissim, Smith 2006): ε = sup_y log p(y)/q(y), with where it is reached; ∞ is
  said plainly (the Gaussian mechanism);
- (ε,δ)-DP: δ(ε) = ∫ max(0, p − e^ε·q), the privacy profile, as a formula in ε when ε is not given;
- total variation: δ(0);
- bounded range (Dong, Durfee, Rogers 2020): sup log p/q − inf log p/q;
- Rényi DP of real order α > 1 (Mironov 2017): D_α = log(∫ p^α q^(1−α))/(α − 1), in α when α is not given;
- ρ-zCDP (Bun, Steinke 2016, Def. 1.1): ρ = sup_{α>1} D_α/α: exact when D_α/α does not depend on α
  (the Gaussian mechanism), else a certified enclosure (:func:`symbolic.derive.continuous.orders.sup_over_orders`);
- μ-GDP (Dong, Roth, Su 2022): μ exactly for a pair that is a Gaussian shift (the privacy loss is
  N(μ²/2, μ²) under p), 0 for equal laws; other pairs are not derived (unknown, said so).

Every value is given exactly (a sympy number) and as a certified enclosure (ball arithmetic), never as
a float; the checks recompute each value by 30-digit quadrature, independently of the closed form.
Where a sign depends on the parameters the level is a Piecewise over both cases.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import exact, parse_expr
from symbolic.core.ops import exact_sign
from symbolic.core.tables import database_key
from symbolic.derive.continuous.pair import LawPair, Undecided, by_cases, decide, hockey, loss_on, renyi_mass, sup_loss
from symbolic.model.continuous import ContinuousMechanism, continuous_from_json
from symbolic.model.line_cuts import breakpoints
from symbolic.model.magnitude import within_magnitude, within_order
from symbolic.model.param_space import ParamRange
from symbolic.model.neighbours import level_pairs
from symbolic.model.real_line import OO, Signs, is_infinite
from symbolic.derive.continuous.values import CurveLevel, at_values, combine, enclosure


#: the notions whose level is derived for densities and mass functions, with the quantity's name
CURVE_NOTIONS = {
    "pure-dp": "epsilon", "local-dp": "epsilon", "free-lunch": "epsilon", "approx-dp": "delta",
    "total-variation": "tv", "bounded-range": "epsilon", "renyi-dp": "epsilon", "zcdp": "rho",
    "gaussian-dp": "mu", "pml": "epsilon", "maximal-leakage": "leakage",
}
_ALIASES = {"epsilon": "pure-dp", "dp": "pure-dp", "eps": "pure-dp", "ldp": "local-dp", "delta": "approx-dp",
            "tv": "total-variation", "br": "bounded-range", "rdp": "renyi-dp", "zcdp": "zcdp", "rho": "zcdp",
            "zeroconcentrateddp": "zcdp", "gdp": "gaussian-dp", "mu": "gaussian-dp", "gaussiandp": "gaussian-dp",
            "puredp": "pure-dp", "approxdp": "approx-dp", "renyidp": "renyi-dp", "totalvariation": "total-variation",
            "pointwisemaximalleakage": "pml", "maxleakage": "maximal-leakage", "maximalleakage": "maximal-leakage"}
#: the notions' own parameters, beside the mechanism's (ε of a δ(ε), the order of a Rényi level)
OWN_PARAMETERS = {"approx-dp": ("eps", "E"), "renyi-dp": ("alpha",)}
#: the names a level's own parameters take (zCDP's α is the order its supremum runs over)
_TAKEN = {**OWN_PARAMETERS, "zcdp": ("alpha",)}


def curve_notion(key: str) -> tuple:
    """(notion id, fixed params) for a name or alias; renyi-2 / renyi-3 fix α.

    >>> curve_notion("renyi-2"), curve_notion("zCDP")
    (('renyi-dp', {'alpha': 2}), ('zcdp', {}))
    """
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
            within_magnitude(own[k], k)
            if k == "alpha":
                within_order(own[k])
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
    return level_pairs(notion, m.databases, m.n, m.domain, "mechanism")


# ---------------------------------------------------------------- the level of the whole mechanism
def _level(notion, own, m, pairs, signs):
    """(value, where) for the mechanism under ``signs``: the largest over the ordered pairs. Two values
    whose order cannot be decided (equal in disguise, as the two pairs of a symmetric mechanism whose
    constants are sums) are kept as their exact maximum, Max(a, b)."""
    if notion in ("pml", "maximal-leakage"):
        from symbolic.derive.continuous.leakage import maximal_leakage, pml
        kept = [(m.law(d), w, database_key(d)) for d, w in zip(m.databases, own["prior"]) if w != 0]
        laws, weights, names = [x for x, _, _ in kept], [w for _, w, _ in kept], [t for _, _, t in kept]
        if notion == "pml":
            return pml(laws, weights, m.y, signs, m.outputs == "integers", names)
        return maximal_leakage(laws, m.y, signs, m.outputs == "integers")
    best, where, done = None, None, set()
    for d, e in pairs:
        if (e, d) in done and mirrored(m.law(e), m.law(d), m.y, m.outputs == "integers"):
            continue
        done.add((d, e))
        pair = LawPair(m.law(d), m.law(e), m.y, m.outputs == "integers", (d, e))
        val, at = _pair_level(notion, own, pair, signs)
        label = f"{database_key(d)} ~ {database_key(e)}" + (f", {at}" if at else "")
        if best is None:
            best, where = val, label
            continue
        more = _more(val, best, signs)
        if more is None:
            best, where = sp.Max(best, val, evaluate=False), f"{where} or {label}"
        elif more:
            best, where = val, label
    return best, where


def _centre(law, y):
    """The point a law is symmetric about, if it has one in plain sight: the middle of its abs kinks, or
    the vertex of its exponent (a Gaussian's mean); None otherwise."""
    try:
        kinks = breakpoints([law], y, Signs())
    except Undecided:
        return None
    if kinks:
        return (kinks[0] + kinks[-1]) / 2
    law = sp.sympify(law)
    for e in law.atoms(sp.exp):
        g = sp.expand(e.args[0])
        if g.is_polynomial(y) and sp.Poly(g, y).degree() == 2:
            a2, a1 = sp.Poly(g, y).coeff_monomial(y ** 2), sp.Poly(g, y).coeff_monomial(y)
            return sp.simplify(-a1 / (2 * a2))
    return None


def mirrored(p, q, y, integers) -> bool:
    """Is the reversed pair (q, p) the pair (p, q) seen in a mirror: q(y) = p(c − y) for one c (an integer
    for mass functions), shown by exact simplification? (Then p(y) = q(c − y) too.) The map y ↦ c − y
    carries one pair onto the other, so every level here (the largest log ratio, ∫ max(0, p − E·q),
    ∫ p^α q^(1−α), the trade-off function) is the same for both."""
    cp, cq = _centre(p, y), _centre(q, y)
    if cp is None or cq is None or (cp.free_symbols | cq.free_symbols):
        return False
    c = cp + cq
    if integers and not c.is_Integer:
        return False
    try:
        return sp.simplify(sp.sympify(p).xreplace({y: c - y}) - q) == 0
    except (TypeError, ValueError):
        return False


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


def derive_curve_level(notion_key: str, mechanism, *, params=None, assumptions=(), prior=None) -> CurveLevel:
    """The tight level of ``notion_key`` (see :data:`CURVE_NOTIONS`) for a density or mass-function
    mechanism (a parsed JSON document or a :class:`ContinuousMechanism`). ``params``: values for the
    mechanism's parameters and the notion's own (``eps`` or ``E`` for approx-dp, ``alpha`` for renyi-dp);
    a parameter without a value stays a symbol in the formula. ``prior``: for pml (required) and
    maximal-leakage (its support; default every input), a mapping database text -> probability.

    >>> "zcdp" in CURVE_NOTIONS and "gaussian-dp" in CURVE_NOTIONS
    True
    >>> from symbolic.model.continuous import laplace
    >>> d = derive_curve_level("pure-dp", laplace(), params={"b": 1})
    >>> d.formula, d.value, d.where
    (1/b, 1, '0 ~ 1, every y in (-oo, 0)')
    """
    notion, fixed = curve_notion(notion_key)
    m = _as_mechanism(mechanism, assumptions)
    weights = _prior_weights(notion, prior, m)
    try:
        return _derive(notion, fixed, m, params, weights)
    except Undecided as why:
        return CurveLevel(notion, CURVE_NOTIONS[notion], None, None, None, False, "", tuple(m.checks), (),
                          {k: v for k, v in (params or {}).items()}, tuple(r.text() for r in m.params), m,
                          unknown=str(why))


def _prior_weights(notion, prior, m):
    """The prior as exact weights aligned with ``m.databases`` (None when the notion takes none)."""
    from symbolic.model.table_file import keyed_by_database
    from symbolic.model.symbolic_table import check_distribution
    if notion not in ("pml", "maximal-leakage"):
        if prior is not None:
            raise InvalidParameter(f"{notion} takes no prior; a prior goes with pml and maximal-leakage")
        return None
    if prior is None:
        if notion == "pml":
            raise InvalidParameter("pml is relative to a prior: give prior=… (a distribution over the inputs)")
        return [sp.Integer(1) / len(m.databases)] * len(m.databases)
    if not isinstance(prior, dict):
        raise InvalidParameter(f"the prior must map databases to probabilities, like {{\"0\": \"1/3\"}}; got "
                               f"{clip(prior, 40)}")
    items = keyed_by_database(prior, m.n, m.domain, "in the prior")
    weights = [_weight(items.get(d, 0), f"the prior of {database_key(d)}") for d in m.databases]
    check_distribution(weights, (), "the prior")
    return weights


def _weight(v, what):
    """An exact number from a prior's entry: text read by the restricted parser, else an exact number."""
    return parse_expr(v, {}, what=what) if isinstance(v, str) else exact(v, what=what)


def _derive(notion, fixed, m, params, weights=None):
    from symbolic.derive.continuous.checks import run_checks
    values = dict(params or {})
    unknown = [k for k in values if k not in m.symbols and k not in OWN_PARAMETERS.get(notion, ())]
    if unknown:
        raise InvalidParameter(f"{notion} has no parameter {clip(unknown[0], 40)}; valid: "
                               f"{', '.join(list(m.symbols) + list(OWN_PARAMETERS.get(notion, ()))) or 'none'}")
    clash = [k for k in _TAKEN.get(notion, ()) if k in m.symbols]
    if clash:
        raise InvalidParameter(f"the mechanism's parameter {clash[0]} has the name of {notion}'s own parameter; "
                               f"rename it in the mechanism (e.g. {clash[0]}0)")
    own, own_ranges = _own_ranges(notion, fixed, values, m.symbols)
    if weights is not None:
        own["prior"] = tuple(weights)
    fixing = {}
    for k, v in values.items():
        if k in m.symbols:
            fixing[m.symbols[k]] = parse_expr(v, {}, what=k) if isinstance(v, str) else sp.sympify(v)
    signs = Signs(tuple(m.params) + own_ranges)
    pairs = _pairs(notion, m)
    steps = list(m.checks)
    if notion == "zcdp":
        try:
            from symbolic.derive.continuous.zcdp import zcdp_level
            return zcdp_level(m, own, pairs, signs, fixing, steps, values, run_checks, _level, _pairs)
        except Undecided as why:
            if not fixing:
                raise
            m_at = m.fix({str(k): v for k, v in fixing.items()})
            steps.append(f"no formula in the parameters ({why}); derived at the given values")
            return zcdp_level(m_at, own, _pairs(notion, m_at), Signs(tuple(m_at.params) + own_ranges), {}, steps,
                              values, run_checks, _level, _pairs)
    try:
        cases = by_cases(lambda s: _level(notion, own, m, pairs, s), signs)
        formula = combine([(f, v) for f, (v, _) in cases])
        where = cases[0][1][1] if len(cases) == 1 else "; ".join(f"when {' and '.join(f'{x} > 0' for x in f)}: {w}"
                                                                    for f, (_, w) in cases)
        steps.append("every sign decided exactly under the ranges" if len(cases) == 1 else
                     f"{len(cases)} cases, by the signs of {', '.join(sorted({str(x) for f, _ in cases for x in f}))}")
    except Undecided as why:
        formula, cases = None, None
        steps.append(f"no formula in the parameters ({why}); derived at the given values")
    val_map = {**fixing, **{r.symbol: own[r.name] for r in own_ranges if r.name in values}}
    value = None
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
    checks = run_checks(notion, own, m, pairs, formula, value, fixing, own_ranges)
    return CurveLevel(notion, CURVE_NOTIONS[notion], formula, value, enc, True, where, tuple(steps),
                      tuple(checks), dict(values), tuple(r.text() for r in m.params), m)
