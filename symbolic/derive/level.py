"""The tight privacy level of a user's mechanism, as a closed form in the mechanism's parameters.

For a finite mechanism A (a table with exact, possibly symbolic entries P(d, o), parameters with ranges),
each notion's smallest level is a finite maximum, which :func:`~symbolic.derive.piecewise_max.maximise`
turns into a closed form (a Piecewise where the maximiser changes):

- ε-DP (Dwork, McSherry, Nissim, Smith (2006), Def. 1): ε = log max over neighbours d ~ d' (replace one
  record) and outputs o of P(d,o)/P(d',o); E = e^ε is the maximum itself. P(d,o) > 0 = P(d',o) gives ε = ∞.
- local DP (Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith (2008), Def. 3.1; one record, n = 1): the
  same over every pair of inputs. ``free-lunch`` (Kifer and Machanavajjhala (2011)) is every pair of
  databases at any n.
- (ε,δ)-DP (Dwork, Kenthapadi, McSherry, Mironov, Naor (2006), Def. 1): the tight δ for a given ε is
  max over neighbours of Σ_o max(0, P(d,o) − e^ε P(d',o)) (the hockey-stick divergence; the worst event
  is {o : P(d,o) > e^ε P(d',o)}).
- Rényi DP of integer order α ≥ 2 (Mironov (2017), Def. 4): ε = (1/(α−1)) log max over neighbours of
  Σ_o P(d,o)^α P(d',o)^{1−α}; infinite when P(d,o) > 0 = P(d',o).
- total variation: max over neighbours of ½ Σ_o |P(d,o) − P(d',o)| = Σ_o max(0, P(d,o) − P(d',o)).
- bounded range (Dong, Durfee, Rogers (2020), Def. 3): ε = max over neighbours of
  max_o log(P(d,o)/P(d',o)) − min_o log(P(d,o)/P(d',o)), i.e. log max over output pairs of the ratio of
  ratios; infinite when some output has exactly one of P(d,o), P(d',o) zero.
- PML under a prior P_X (Saeidian et al. (2023), Def. 2.3 and Theorem 1): ε = log max_y max_{x: P(x)>0}
  P(y|x)/P_Y(y), through :func:`symbolic.notions.leakage.likelihood_ratios`.
- maximal leakage (Issa, Wagner, Kamath (2020), Thm 1): log Σ_y max_{x: P(x)>0} P(y|x); it depends on
  the prior only through its support (all inputs when no prior is given).

An entry counts as zero only when sympy simplifies it to 0 identically over the range. The formula is
checked at exact rational sample points against an independent exact evaluation of the notion on the
numeric table (:mod:`symbolic.derive.level_checks`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.budget import Budget
from symbolic.core.errors import DPCheckError, InvalidParameter, UnknownName, clip
from symbolic.core.exact import exact, expr_text, parse_expr
from symbolic.core.prob import Dist, Kernel
from symbolic.core.tables import database_key
from symbolic.core.verdicts import esc, latex_text, word_html
from symbolic.derive.piecewise_max import Unit, maximise
from symbolic.model.mechanism import Mechanism
from symbolic.model.table_file import keyed_by_database
from symbolic.model.neighbours import level_pairs
from symbolic.model.symbolic_table import (SymbolicMechanism, check_distribution, symbolic_mechanism,
                                           symbolic_mechanism_from_json)
from symbolic.notions.leakage import likelihood_ratios

MAX_RENYI_ORDER = 16


@dataclass(frozen=True)
class LevelNotion:
    """A notion whose tight level :func:`derive_level` computes: ``id``, what the formula is
    (``quantity``), its parameters, whether the formula is a log of ``level_ratio``."""

    id: str
    quantity: str
    summary: str
    params: tuple = ()
    aliases: tuple = ()
    log_scale: object = None  # the factor c in formula = c·log(level ratio); None: no log


LEVEL_NOTIONS = (
    LevelNotion("pure-dp", "epsilon", "ε = log max over neighbours d~d' and outputs o of P(d,o)/P(d',o)",
                aliases=("PureDP", "epsilon", "dp", "eps"), log_scale=1),
    LevelNotion("local-dp", "epsilon", "ε = log max over all pairs of inputs x, x' (n = 1) and outputs of "
                "P(x,o)/P(x',o)", aliases=("ldp", "LocalDP"), log_scale=1),
    LevelNotion("free-lunch", "epsilon", "ε = log max over all pairs of databases and outputs of P(d,o)/P(d',o)",
                aliases=("FreeLunchPrivacy",), log_scale=1),
    LevelNotion("approx-dp", "delta", "δ(ε) = max over neighbours of Σ_o max(0, P(d,o) − e^ε P(d',o))",
                params=("eps", "E"), aliases=("ApproxDP", "(eps,delta)-dp", "eps-delta-dp", "delta")),
    LevelNotion("renyi-dp", "epsilon", "ε = (1/(α−1)) log max over neighbours of Σ_o P(d,o)^α P(d',o)^(1−α)",
                params=("alpha",), aliases=("RenyiDP", "rdp"), log_scale="1/(alpha-1)"),
    LevelNotion("total-variation", "tv", "TV = max over neighbours of ½ Σ_o |P(d,o) − P(d',o)|",
                aliases=("tv", "TotalVariation")),
    LevelNotion("bounded-range", "epsilon", "ε = max over neighbours of max_o log(P(d,o)/P(d',o)) − "
                "min_o log(P(d,o)/P(d',o))", aliases=("br", "BoundedRange"), log_scale=1),
    LevelNotion("pml", "epsilon", "ε = log max_y max_{x: P(x)>0} P(y|x)/P_Y(y) under the given prior",
                aliases=("PMLUnder", "pointwise-maximal-leakage"), log_scale=1),
    LevelNotion("maximal-leakage", "leakage", "L = log Σ_y max_{x: P(x)>0} P(y|x)",
                aliases=("max-leakage", "MaximalLeakage"), log_scale=1),
)
_ALIASES = {"renyi-2": ("renyi-dp", 2), "renyi-3": ("renyi-dp", 3), "rdp-2": ("renyi-dp", 2),
            "rdp-3": ("renyi-dp", 3)}


def level_notion(key: str) -> tuple:
    """(LevelNotion, fixed params) for an ID, name or alias (case and ``_``/``-`` ignored); an unknown key raises
    :class:`~symbolic.core.errors.UnknownName`.

    >>> level_notion("renyi-3")[0].id, level_notion("renyi-3")[1]
    ('renyi-dp', {'alpha': 3})
    """
    norm = str(key).strip().lower().replace("_", "-")
    if norm in _ALIASES:
        ident, alpha = _ALIASES[norm]
        return next(n for n in LEVEL_NOTIONS if n.id == ident), {"alpha": sp.Integer(alpha)}
    for n in LEVEL_NOTIONS:
        if norm in (n.id, *(a.lower().replace("_", "-") for a in n.aliases)):
            return n, {}
    import difflib
    keys = [n.id for n in LEVEL_NOTIONS] + list(_ALIASES)
    close = difflib.get_close_matches(norm[:60], keys, n=3, cutoff=0.5)
    raise UnknownName(f"no tight level is derived for {clip(key)}" + (f"; did you mean {', '.join(close)}?" if close
                      else "") + f"; derivable: {', '.join(keys)}")


@dataclass(frozen=True)
class LevelDerivation:
    """A derived tight level. ``formula``: the level (ε, δ, TV or leakage; ``oo`` when infinite);
    ``level_ratio``: for log-type levels the quantity inside the log (E = e^ε for ε-DP; Σ p^α q^(1−α) for
    Rényi), else None; ``pieces``: (condition, expression, maximisers) per piece; ``steps``: how the
    maximum was decided (the certificate when ``proved``); ``checks``: (text, ok) at sample points;
    ``operation``: lines saying how an operation (subsampling) made the table, else empty.
    The notions it is derived for are ``LEVEL_NOTIONS`` (:func:`derive_level` takes their IDs).

    >>> [n.id for n in LEVEL_NOTIONS][:4]
    ['pure-dp', 'local-dp', 'free-lunch', 'approx-dp']
    >>> table = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> d = derive_level("total-variation", table)
    >>> d.quantity, d.formula, d.ok
    ('tv', 1/2, True)
    """

    notion: str
    quantity: str
    formula: sp.Expr
    level_ratio: sp.Expr | None
    assumptions: tuple
    pieces: tuple
    steps: tuple
    proved: bool
    checks: tuple
    sizes: dict
    params: dict = field(default_factory=dict)
    infinite: bool = False
    message: str | None = None
    mechanism: SymbolicMechanism | None = field(default=None, compare=False, repr=False)
    operation: tuple = ()   # lines saying which operation's tables these are (subsampling), else empty

    @property
    def ok(self) -> bool:
        """Every check passed (a failed check fails the derivation)."""
        return bool(self.checks) and all(ok for _, ok in self.checks)

    def _repr_html_(self):
        passed = sum(1 for _, ok in self.checks if ok)
        word = word_html("derived" if self.ok else "unknown")
        inf = f"<div>infinite: {esc(self.message)}</div>" if self.infinite and self.message else ""
        return (f'<div class="dpcheck-verdict">{word} {esc(self.notion)}: {esc(self.quantity)} = '
                f"<code>{esc(self.formula)}</code>{inf}"
                f"<div>assuming {esc(', '.join(self.assumptions) or 'nothing (a numeric table)')}</div>"
                f"<div>maximiser decided exactly: {'yes' if self.proved else 'no'}; "
                f"checks passed: {passed} of {len(self.checks)}</div></div>")

    def _repr_latex_(self):
        q = _QUANTITY_LATEX.get(self.quantity, rf"\text{{{latex_text(self.quantity)}}}")
        where = rf"\quad\text{{for {latex_text(' and '.join(self.assumptions))}}}" if self.assumptions else ""
        return rf"${q} = {sp.latex(self.formula)}{where}$"


_QUANTITY_LATEX = {"epsilon": r"\varepsilon", "delta": r"\delta", "tv": r"\mathrm{TV}", "leakage": r"\mathcal{L}"}


# ---------------------------------------------------------------- inputs
def _as_symbolic(mechanism, assumptions) -> SymbolicMechanism:
    if isinstance(mechanism, SymbolicMechanism):
        if assumptions:
            raise InvalidParameter("give the assumptions when the table is loaded (symbolic_mechanism_from_json)")
        return mechanism
    if isinstance(mechanism, dict):
        return symbolic_mechanism_from_json(mechanism, assumptions=tuple(assumptions))
    if isinstance(mechanism, Mechanism):
        return symbolic_mechanism(mechanism, tuple(assumptions))
    raise InvalidParameter(f"mechanism={clip(mechanism, 40)} must be a parsed JSON table, a Mechanism or a "
                           f"SymbolicMechanism")


def _value(v, symbols, what):
    if isinstance(v, str):
        return parse_expr(v, symbols, what=what)
    v = exact(v, what=what)
    swap = {s: symbols[s.name] for s in v.free_symbols if s.name in symbols}
    return v.xreplace(swap)


def _split_params(notion, fixed, params, sm):
    """Notion parameters (validated) and table parameters to fix; unknown names are errors."""
    params = dict(params or {})
    table_names = [r.name for r in sm.params]
    own, table = dict(fixed), {}
    for k, v in params.items():
        if k in fixed:
            raise InvalidParameter(f"{notion.id} with {k}={fixed[k]} is fixed by the name; drop --param {k} or "
                                   f"name the notion {notion.id} with {k}=…")
        if k in notion.params:
            own[k] = _value(v, sm.symbols, f"{notion.id} parameter {k}")
        elif k in table_names:
            table[k] = v
        else:
            valid = list(notion.params) + table_names
            raise InvalidParameter(f"{notion.id} has no parameter {clip(k, 40)}; valid: {', '.join(valid) or 'none'}"
                                   + ("" if table_names else " (the table has no parameters)"))
    if notion.id == "approx-dp":
        if ("eps" in own) == ("E" in own):
            raise InvalidParameter("approx-dp derives the tight δ for a given ε: give exactly one of eps=… (ε ≥ 0) "
                                   "or E=… (E = e^ε ≥ 1)")
        if "eps" in own:
            _nonneg_param(own["eps"], "eps", "ε ≥ 0")
            own["E"] = sp.exp(own.pop("eps"))
        else:
            _nonneg_param(own["E"] - 1, "E", "E ≥ 1")
    if notion.id == "renyi-dp":
        a = own.get("alpha")
        if a is None or not a.is_Integer or not 2 <= a <= MAX_RENYI_ORDER:
            raise InvalidParameter(f"renyi-dp needs alpha=… an integer order 2 ≤ α ≤ {MAX_RENYI_ORDER} (there is no "
                                   f"default; e.g. alpha=2, or the notion renyi-2); got "
                                   f"{'none' if a is None else clip(str(a), 40)}")
    return own, table


def _nonneg_param(v, name, rng):
    if not v.free_symbols:
        from symbolic.core.ops import exact_sign
        if exact_sign(v) < 0:
            raise InvalidParameter(f"{name} is outside its range {rng}")


def _prior(prior, sm: SymbolicMechanism):
    """A prior over the databases as a Dist keyed by database tuples (None stays None)."""
    if prior is None:
        return None
    m = sm.mechanism
    if isinstance(prior, Dist):
        items = dict(prior.items())
    elif hasattr(prior, "probs") and hasattr(prior, "domain"):  # a Population
        from symbolic.core.tables import databases
        items = dict(zip(databases(prior.n, prior.domain), prior.probs))
    elif isinstance(prior, dict):
        text_keys = {k: v for k, v in prior.items() if isinstance(k, str)}
        items = keyed_by_database(text_keys, m.n, m.domain, "in the prior") if text_keys else {}
        items.update({(k if isinstance(k, tuple) else (k,)): v for k, v in prior.items() if not isinstance(k, str)})
    else:
        raise InvalidParameter(f"prior={clip(prior, 40)} must be a Dist, a Population or a mapping database -> "
                               f"probability")
    dbs = [d for d, _ in m.rows]
    extra = [k for k in items if k not in dbs]
    if extra:
        raise InvalidParameter(f"the prior gives {clip(extra[0], 40)}, which is not a database of the table")
    probs = [_value(items.get(d, 0), sm.symbols, f"prior of {d}") for d in dbs]
    check_distribution(probs, sm.params, "the prior")
    return Dist(outcomes=tuple(dbs), probs=probs, what="prior")


# ---------------------------------------------------------------- candidates per notion
def _zero(e) -> bool:
    e = sp.sympify(e)
    return e == 0 or (not e.is_Rational and sp.simplify(e) == 0)


def _pairs(notion_id, m: Mechanism):
    return level_pairs(notion_id, [d for d, _ in m.rows], m.n, m.domain)


class _Infinite(Exception):
    def __init__(self, label, message):
        super().__init__(message)
        self.label, self.message = label, message


def _units(notion, own, sm: SymbolicMechanism, prior):
    m = sm.mechanism
    P = {d: dict(zip(dist.outcomes, dist.probs)) for d, dist in m.rows}
    zero = {}

    def z(e):
        if e not in zero:
            zero[e] = _zero(e)
        return zero[e]

    def inf(d, e, o, what):
        label = (("pair", (d, e)), ("output", o))
        raise _Infinite(label, f"P({database_key(d)}, {o}) = {P[d][o]} > 0 = P({database_key(e)}, {o}): {what} is infinite")

    nid, out = notion.id, []
    if nid in ("pure-dp", "local-dp", "free-lunch"):
        for d, e in _pairs(nid, m):
            for o in m.outputs:
                p, q = P[d][o], P[e][o]
                if z(p):
                    continue
                if z(q):
                    inf(d, e, o, "the privacy loss")
                out.append(Unit((("pair", (d, e)), ("output", o)), ((p / q,),)))
    elif nid in ("approx-dp", "total-variation"):
        E = own.get("E", sp.Integer(1))
        for d, e in _pairs(nid, m):
            terms = tuple((sp.Integer(0), P[d][o] - E * P[e][o]) for o in m.outputs if not z(P[d][o]))
            out.append(Unit((("pair", (d, e)),), terms or ((sp.Integer(0),),)))
    elif nid == "renyi-dp":
        a = own["alpha"]
        for d, e in _pairs(nid, m):
            terms = []
            for o in m.outputs:
                p, q = P[d][o], P[e][o]
                if z(p):
                    continue
                if z(q):
                    inf(d, e, o, f"the Rényi divergence of order {a}")
                terms.append((p ** a * q ** (1 - a),))
            out.append(Unit((("pair", (d, e)),), tuple(terms)))
    elif nid == "bounded-range":
        for d, e in _pairs(nid, m):
            live = []
            for o in m.outputs:
                p, q = P[d][o], P[e][o]
                if z(p) and z(q):
                    continue
                if z(q):
                    inf(d, e, o, "the privacy loss (so the range)")
                if z(p):
                    inf(e, d, o, "the privacy loss (so the range)")
                live.append((o, p / q))
            for o1, r1 in live:
                for o2, r2 in live:
                    if o1 != o2:
                        out.append(Unit((("pair", (d, e)), ("outputs", (o1, o2))), ((r1 / r2,),)))
            if len(live) == 1:
                out.append(Unit((("pair", (d, e)),), ((sp.Integer(1),),)))
    elif nid in ("pml", "maximal-leakage"):
        kernel = Kernel({d: dist for d, dist in m.rows}, outputs=m.outputs, what="mechanism")
        support = [d for d, _ in m.rows] if prior is None else [d for d, p in prior.items() if not z(p)]
        if nid == "pml":
            for o in m.outputs:
                for x, r in likelihood_ratios(kernel, prior, o).items():
                    out.append(Unit((("input", x), ("output", o)), ((r,),)))
        else:
            terms = tuple(tuple(P[x][o] for x in support) for o in m.outputs
                          if not all(z(P[x][o]) for x in support))
            out.append(Unit((("outputs", "all"),), terms))
    if not out:
        raise DPCheckError(f"{nid}: the table gives no candidate to maximise")
    return out


# ---------------------------------------------------------------- the derivation
def derive_level(notion_id: str, mechanism, *, params=None, assumptions=(), prior=None,
                 budget: float | None = None) -> LevelDerivation:
    """The tight level of ``notion_id`` (see :data:`LEVEL_NOTIONS`; e.g. ``"pure-dp"``, ``"renyi-2"``) for
    ``mechanism``: a parsed JSON table (entries may be expressions in parameters declared in its
    ``"params"``), a :class:`Mechanism` or a :class:`SymbolicMechanism`. ``params``: the notion's own
    parameters (``eps`` or ``E`` for approx-dp, ``alpha`` for renyi-dp), and table parameters to fix to a
    value; values are exact numbers or expression texts (``"log(2)"``). ``assumptions``: range texts such
    as ``"1/2<p<1"``. ``prior``: for pml (required) and maximal-leakage (its support; default all inputs).
    A density or mass-function mechanism (``{"kind": "density", ...}``, see
    :mod:`symbolic.model.continuous`) is derived by :func:`symbolic.derive.continuous.level.derive_curve_level`
    and gives a :class:`~symbolic.derive.continuous.level.CurveLevel`; so does a composition
    (``{"kind": "composition", "of": TABLE, "times": K}``); a subsampled table (``{"kind": "subsampled", …}``)
    gives what the table engine gives (see :func:`symbolic.derive.operation_level.operation_level`).
    ``budget``: processor seconds (counted work); when they are spent, :class:`~symbolic.core.budget.BudgetSpent`
    says which stage was reached (see :mod:`symbolic.core.budget`).

    >>> doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
    ...        "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    >>> d = derive_level("pure-dp", doc)
    >>> d.formula, d.level_ratio, d.ok
    (log(p/(1 - p)), p/(1 - p), True)
    """
    from symbolic.model.continuous import ContinuousMechanism, is_continuous_document
    from symbolic.model.operations import is_operation_document
    if is_operation_document(mechanism):
        from symbolic.derive.operation_level import operation_level
        try:
            notion, fixed = level_notion(notion_id)
            key = notion.id
        except UnknownName:
            key, fixed = str(notion_id), {}
        return operation_level(notion_id, mechanism, key=key, fixed=fixed, table_level=derive_level, params=params,
                               assumptions=assumptions, prior=prior, budget=budget)
    from symbolic.derive.continuous.level import curve_notion
    from symbolic.derive.continuous.table_curves import TABLE_CURVES, table_curve_level
    try:
        curve_id = curve_notion(notion_id)[0]
    except InvalidParameter:
        curve_id = None
    if curve_id in TABLE_CURVES and (isinstance(mechanism, SymbolicMechanism) or isinstance(mechanism, dict)
                                     and not is_continuous_document(mechanism)):
        if prior is not None:
            raise InvalidParameter(f"{curve_id} takes no prior; a prior goes with pml and maximal-leakage")
        return table_curve_level(curve_id, mechanism, params=params, assumptions=assumptions)
    if isinstance(mechanism, ContinuousMechanism) or is_continuous_document(mechanism):
        from symbolic.derive.continuous.level import derive_curve_level
        return derive_curve_level(notion_id, mechanism, params=params, assumptions=assumptions, prior=prior)
    with Budget(budget) as bud:
        return _derive_level(notion_id, mechanism, params, assumptions, prior, bud)


def _derive_level(notion_id, mechanism, params, assumptions, prior, bud):
    from symbolic.derive.level_checks import run_checks
    notion, fixed = level_notion(notion_id)
    bud.at("reading and validating the table")
    sm = _as_symbolic(mechanism, assumptions)
    own, table_values = _split_params(notion, fixed, params, sm)
    if table_values:
        sm = sm.fix(table_values)
    if notion.id == "pml" and prior is None:
        raise InvalidParameter("pml is relative to a prior: give prior=… (a distribution over the table's inputs)")
    pr = _prior(prior, sm)
    sizes = {"n": sm.mechanism.n, "domain": len(sm.mechanism.domain), "outputs": len(sm.mechanism.outputs)}
    shown = {k: v for k, v in own.items()}
    base = dict(notion=notion.id, quantity=notion.quantity, assumptions=sm.assumptions(), sizes=sizes,
                params=shown, mechanism=sm)
    bud.at(f"writing the level's candidates ({sizes['domain'] ** sizes['n']} rows)")
    try:
        units = _units(notion, own, sm, pr)
    except _Infinite as e:
        checks = run_checks(notion, own, sm, pr, None, None, infinite=e.label)
        piece = ("the whole range", sp.oo, (e.label,))
        return LevelDerivation(formula=sp.oo, level_ratio=sp.oo if notion.log_scale else None, pieces=(piece,),
                               steps=(e.message,), proved=True, checks=tuple(sm.checks) + checks, infinite=True,
                               message=e.message, **base)
    bud.at(f"maximising over {len(units)} candidates")
    result = maximise(units, sm.params)
    ratio = result.expr
    scale = _scale(notion, own)
    formula = _simplify(ratio if scale is None else _log(ratio, scale))
    level_ratio = ratio if scale is not None else None
    rng_text = " and ".join(sm.assumptions())
    pieces = tuple((p.condition_text(rng_text), _simplify(p.expr if scale is None else _log(p.expr, scale)),
                    p.labels) for p in result.pieces)
    bud.at("checking the formula at sample points")
    checks = run_checks(notion, own, sm, pr, formula, level_ratio, samples=[p.sample for p in result.pieces])
    return LevelDerivation(formula=formula, level_ratio=level_ratio, pieces=pieces, steps=result.steps,
                           proved=result.proved and sm.proved, checks=tuple(sm.checks) + checks, **base)


def _scale(notion, own):
    if notion.log_scale is None:
        return None
    if notion.log_scale == "1/(alpha-1)":
        return 1 / (own["alpha"] - 1)
    return sp.Integer(notion.log_scale)


def _log(ratio, scale):
    """scale·log(ratio), each piece of a Piecewise on its own; the simpler of the plain and the simplified form."""
    if isinstance(ratio, sp.Piecewise):
        return sp.Piecewise(*[(_log(e, scale), c) for e, c in ratio.args])
    plain = scale * _log_pulling_exp(ratio)
    try:
        s = sp.simplify(plain)
    except (TypeError, ValueError, RecursionError):
        return plain
    return s if sp.count_ops(s) < sp.count_ops(plain) else plain


def _log_pulling_exp(ratio):
    """log(ratio) with factors e^u taken out as u: log(e^u·r) = u + log(r) for real u and r > 0 (ratio is a
    positive level ratio, so r = ratio·e^(-u) is positive)."""
    factors = sp.Mul.make_args(ratio)
    exps = [f for f in factors if isinstance(f, sp.exp) and f.args[0].is_real]
    if not exps:
        return sp.log(ratio)
    rest = sp.Mul(*[f for f in factors if f not in exps])
    return sp.Add(*[f.args[0] for f in exps]) + sp.log(rest)


def _simplify(e):
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(_simplify(x), c) for x, c in e.args])
    if isinstance(e, sp.Expr) and (e.is_Rational or e.has(sp.log)):
        return e
    try:
        s = sp.simplify(e)
    except (TypeError, ValueError, RecursionError):
        return e
    return s if sp.count_ops(s) < sp.count_ops(e) else e


__all__ = ["LevelNotion", "LEVEL_NOTIONS", "LevelDerivation", "derive_level", "level_notion"]
