"""Parameter maps for a pair of notions: B's parameters as expressions in A's.

For a pair (A, B) the graph asks "A(a) ⇒ B(f(a))" for every value a of A's parameters in range.
The map f comes, in order of preference, from

1. a published relation between the two notions (:mod:`symbolic.graph.literature`), when its map
   is stated in A's parameters;
2. identity on the parameters both notions share by name (``E`` to ``E``), a multiplicative level
   to a multiplicative level (``gamma = E``), and B's remaining parameters at the least value of
   their range (``delta = 0``, ``E = 1``, ``rho = 0``: no loss at all; the statement is then the
   strongest of its kind, and a counterexample to it says only that);

and otherwise there is no map: the pair can then only be separated (or left unknown).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.exact import CURVE_CONSTANTS, CURVE_FUNCS, parse_expr
from symbolic.core.ranges import parse_assumption
from symbolic.notions.claims import Param

# parameters whose strongest value is one end of their range (the notion only gets weaker as the
# parameter grows): the identity map sets an unshared one there
STRONGEST = {"delta": 0}


@dataclass(frozen=True)
class ParameterMap:
    """``values``: B's parameter name → sympy expression in A's parameter symbols;
    ``how``: "literature", "identity"; ``text``: the map as a user reads it."""

    values: dict
    how: str
    text: str
    free: tuple = ()    # B's parameters the map names (claim parameters over B's range, e.g. δ in a zCDP map)


def claim_params(notion) -> tuple:
    """A notion's parameters as claim parameters (symbols with the notion's ranges)."""
    return tuple(Param(p.name, p.lower, p.upper, p.lower_strict, p.upper_strict) for p in notion.params)


def map_text(literature, syms=None) -> str:
    """A recorded relation's map, parsed and written as the graph writes maps."""
    syms = syms or {}
    names = {n: sp.Symbol(n, real=True) for v in literature.map.values() for n in _names(v)}
    return _text({k: parse_expr(v, {**names, **syms}, functions=CURVE_FUNCS, constants=CURVE_CONSTANTS)
                  for k, v in literature.map.items()})


def _names(text: str) -> list:
    import re
    return [w for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)
            if w not in ("exp", "log", "sqrt", "abs", "erf", "erfc", "erfinv", "Phi", "pi")]


def parameter_map(a, b, literature=None) -> ParameterMap | None:
    """The map to use for the pair (A, B) (NotionInfo records or Notions), or None when there is none:
    a recorded relation's map comes first (to be proved, or refuted when the record says it fails)."""
    a, b = _listed(a), _listed(b)
    syms = {p.name: p.symbol for p in claim_params(a.notion)}
    if literature is not None and literature.map is not None:
        return _literature_map(a, b, literature, syms)
    values, how = {}, "identity"
    for p in b.notion.params:
        if p.name in syms:
            values[p.name] = syms[p.name]
        elif p.name in STRONGEST:
            values[p.name] = sp.Integer(STRONGEST[p.name])
        elif _level(p) and len(a.notion.params) == 1 and _level(a.notion.params[0]):
            values[p.name] = syms[a.notion.params[0].name]
            how = "identity of multiplicative levels"
        elif p.lower is not None and not p.lower_strict:
            # no counterpart: B at its least level (no loss at all), the strongest statement to try
            values[p.name] = sp.sympify(p.lower)
            how = "identity, the rest at their least level"
        else:
            return None
    return ParameterMap(values, how, _text(values))


def _literature_map(a, b, literature, syms) -> ParameterMap:
    """A recorded map, read with Φ allowed; a name of B's own parameters in it (δ in "E = exp(ρ + 2√(ρ log 1/δ))")
    makes that parameter a claim parameter over B's range, narrowed by the record's ``ranges``."""
    free = {p.name: Param(p.name, p.lower, p.upper, p.lower_strict, p.upper_strict) for p in b.notion.params
            if p.name not in syms}
    for text in getattr(literature, "ranges", ()):
        name, lo, ls, hi, hs = parse_assumption(text)
        free[name] = free[name].assuming(lo, ls, hi, hs)
    names = {**syms, **{k: q.symbol for k, q in free.items()}}
    values = {k: parse_expr(v, names, functions=CURVE_FUNCS, constants=CURVE_CONSTANTS)
              for k, v in literature.map.items()}
    used = tuple(q for q in free.values() if any(q.symbol in sp.sympify(v).free_symbols for v in values.values()))
    return ParameterMap(values, "literature", _text(values), used)


def _listed(x):
    """A NotionInfo, or a bare Notion seen through the same ``.notion`` attribute."""
    return x if hasattr(x, "notion") else _Bare(x)


@dataclass(frozen=True)
class _Bare:
    notion: object


def implication_with_map(a, b, *, sizes):
    """The ad hoc claim "A(a) ⇒ B(f(a))" for two notions with any parameters (Notions or NotionInfo
    records), f as :func:`parameter_map` chooses it without a recorded relation; returns (claim, map
    text), or raises :class:`DPCheckError` when no map exists.

    >>> from symbolic.core.verdicts import Sizes
    >>> from symbolic.notions.listed.catalog import find_notion
    >>> claim, text = implication_with_map(find_notion("pure-dp"), find_notion("approx-dp"), sizes=Sizes(1, 2, 2))
    >>> claim.statement, text
    ('PureDP(E) ⇒ ApproxDP(E, 0)', 'E = E, delta = 0')
    """
    from symbolic.core.errors import DPCheckError
    from symbolic.notions.claims import Claim, Implies
    a, b = _listed(a), _listed(b)
    pmap = parameter_map(a, b)
    if pmap is None:
        names = ", ".join(p.name for p in b.notion.params)
        raise DPCheckError(f"no parameter map from {a.notion.name}'s parameters to {b.notion.name}'s ({names}): "
                           f"parameters are matched by name, levels in [1, ∞) to each other, and the rest "
                           f"set to the least value of their range")
    params = claim_params(a.notion)
    hyp = a.notion(*(p.symbol for p in params)) if params else a.notion()
    con = b.notion(**pmap.values)
    claim = Claim("adhoc", "⇒", "-", f"{hyp} ⇒ {con}", "(ad hoc)", (Implies(hyp, con),), params=params,
                  sizes=sizes)
    return claim, pmap.text


def _level(spec) -> bool:
    """A multiplicative privacy level: a parameter ranging over [1, ∞) (E = e^ε, γ, ...)."""
    return spec.lower == 1 and not spec.lower_strict and spec.upper is None


def coarser_maps(pmap: ParameterMap, a, b, n: int) -> list:
    """Weaker maps to try once ``pmap`` is refuted without a qualitative separation: each level
    parameter of B raised to the powers 2, n and 2n of its image (group-privacy-style maps)."""
    names = [p.name for p in b.notion.params if _level(p) and pmap.values.get(p.name) is not None
             and pmap.values[p.name].free_symbols]
    out = []
    for k in sorted({2, n, 2 * n} - {1}) if names else ():
        values = {k2: (v ** k if k2 in names else v) for k2, v in pmap.values.items()}
        out.append(ParameterMap(values, f"{pmap.how}, raised to the power {k}", _text(values)))
    return out


def shaped_maps(pmap: ParameterMap, a, b) -> list:
    """Maps of other shapes to try for a pair whose map was refuted and that no chain of proved maps settles:
    two parameters moved together, or a square root (:func:`_two_parameter_forms`, :func:`_mass_forms`)."""
    return _two_parameter_forms(pmap, b) + _mass_forms(pmap, a, b)


def _mass_forms(pmap: ParameterMap, a, b) -> list:
    """For a target with a mass δ alone (TV privacy) that the image puts at 0, from a source with a ratio E:
    δ ↦ √(E − 1)/2 (Cauchy–Schwarz: TV ≤ √(χ²)/2, and χ² = Σ p²/q − 1 is what a Rényi bound of order 2 bounds).
    A candidate only, proved or refuted by the engine."""
    if [p.name for p in b.notion.params] != ["delta"] or pmap.free or sp.sympify(pmap.values.get("delta")) != 0:
        return []
    e = next((q.symbol for q in claim_params(_listed(a).notion) if q.name == "E"), None)
    if e is None:
        return []
    values = {"delta": sp.sqrt(e - 1) / 2}
    return [ParameterMap(values, f"{pmap.how}; δ ↦ √(E − 1)/2", _text(values))]


def _two_parameter_forms(pmap: ParameterMap, b) -> list:
    """For a target with a ratio E and a mass δ (probabilistic or approximate DP): the image's E doubled and δ
    tripled (from P(S) − E·Q(S) ≤ δ in both orders, the mass where p > 2E·q is below 2δ and where p < q/(2E) below
    δ/E), and, when the image puts δ at 0, δ left free over (0, 1] and E ↦ 2E/δ (Markov's inequality on p/q and
    on q/p, whose means a Rényi bound of order 2 bounds in both orders). Candidates only: each is proved or
    refuted by the engine like any map."""
    if {p.name for p in b.notion.params} != {"E", "delta"} or pmap.free:
        return []
    e_img, d_img = pmap.values.get("E"), pmap.values.get("delta")
    if e_img is None or d_img is None:
        return []
    if sp.sympify(d_img) != 0:
        values = {"E": 2 * e_img, "delta": 3 * d_img}
        return [ParameterMap(values, f"{pmap.how}, E doubled and δ tripled", _text(values))]
    spec = next(p for p in b.notion.params if p.name == "delta")
    free = Param("delta", spec.lower, spec.upper, spec.lower_strict, spec.upper_strict).assuming(0, True, 1, False)
    values = {"E": 2 * e_img / free.symbol, "delta": free.symbol}
    return [ParameterMap(values, f"{pmap.how}, δ free and E ↦ 2E/δ", _text(values), (free,))]


def _stays_by_sign(expr, spec, a_params) -> bool:
    """:func:`stays_in_range` for an expression in several of A's parameters: the sign of its distance to each end
    of ``spec``'s range over the box of A's ranges, decided by sympy (False when undecided)."""
    from symbolic.model.param_space import ParamRange, symbolic_sign
    ranges = [ParamRange.of(p) for p in a_params]
    by_name = {r.name: r.symbol for r in ranges}
    if any(str(s) not in by_name for s in expr.free_symbols):
        return False
    e = expr.xreplace({s: by_name[str(s)] for s in expr.free_symbols})
    gaps = ([] if spec.lower is None else [(e - sp.sympify(spec.lower), spec.lower_strict)]) + \
        ([] if spec.upper is None else [(sp.sympify(spec.upper) - e, spec.upper_strict)])
    try:
        return all(symbolic_sign(sp.simplify(g), ranges) in ((1,) if strict else (1, 0, "≥")) for g, strict in gaps)
    except (NotImplementedError, TypeError, ValueError):
        return False


def _text(values: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items()) or "no parameters"


def stays_in_range(expr, spec, a_params) -> bool:
    """Whether ``expr`` (in A's parameters) lies in ``spec``'s range for every value in the ranges of
    ``a_params`` (A's parameters), decided exactly (a constant, or one parameter of A by sympy's univariate
    inequality solver)."""
    free = sorted(expr.free_symbols, key=str)
    conds = []
    if spec.lower is not None:
        conds.append(expr < spec.lower if not spec.lower_strict else expr <= spec.lower)
    if spec.upper is not None:
        conds.append(expr > spec.upper if not spec.upper_strict else expr >= spec.upper)
    if not free:
        return not any(bool(c) for c in conds)
    if len(free) != 1:
        return _stays_by_sign(expr, spec, a_params)
    x = free[0]
    a = next((p for p in a_params if p.name == str(x)), None)
    if a is None:
        return False
    dom = sp.Interval(sp.sympify(a.lower) if a.lower is not None else -sp.oo,
                      sp.sympify(a.upper) if a.upper is not None else sp.oo,
                      left_open=bool(a.lower_strict) or a.lower is None, right_open=bool(a.upper_strict) or a.upper is None)
    try:
        for c in conds:
            bad = sp.solve_univariate_inequality(c, x, relational=False, domain=dom)
            if bad != sp.EmptySet:
                return False
    except (NotImplementedError, TypeError, ValueError):
        return _stays_monotone(expr, a, spec) or _stays_by_sign(expr, spec, a_params)
    return True


def _stays_monotone(expr, a, spec) -> bool:
    """For a function of one parameter of A that sympy shows monotone on its range (the sign of its derivative):
    its values at the two ends (limits) inside ``spec``'s range, so every value between is."""
    from symbolic.model.param_space import ParamRange, symbolic_sign
    rng = ParamRange.of(a)
    lo, hi, x = rng.lower, rng.upper, rng.symbol
    e = expr.xreplace({s: x for s in expr.free_symbols})
    try:
        slope = symbolic_sign(sp.simplify(sp.diff(e, x)), (rng,))
        if slope not in (1, -1, 0, "≥", "≤"):
            return False
        ends = [sp.limit(e, x, v, "+" if i == 0 else "-") if v is not None else sp.limit(e, x, (-1) ** (i + 1) * sp.oo)
                for i, v in enumerate((lo, hi))]
        for v in ends:
            if not v.is_real and v not in (sp.oo, -sp.oo):
                return False
            if spec.lower is not None and (v < spec.lower if not spec.lower_strict else v <= spec.lower) is not \
                    sp.false:
                return False
            if spec.upper is not None and (v > spec.upper if not spec.upper_strict else v >= spec.upper) is not \
                    sp.false:
                return False
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return False
    return True
