"""The exact level of a k-fold composition of a finite table, through its privacy-loss distribution.

For each ordered neighbouring pair (d, e) of the base table, with rows p = P(d, ·) and q = P(e, ·) (exact
numbers; parameters fixed by ``params``), the k-fold composition's pair is (p^⊗k, q^⊗k). Its outputs are
k-tuples, but every notion taken here depends on a tuple only through how many times each likelihood
ratio p_o/q_o occurs in it. Outputs with the same ratio are merged into one class (its p and q summed);
a count vector c over the classes (c_i ≥ 0, Σ c_i = k) has P(c) = multinomial(k; c)·Π p_i^{c_i} and
Q(c) likewise, so the work is polynomial in k (C(k+g−1, g−1) vectors for g classes), never |𝒪|^k rows.

- pure-dp (Dwork, McSherry, Nissim, Smith 2006): ε_k = k·max_o log(p_o/q_o), ∞ when q_o = 0 < p_o.
- approx-dp at ε′ (E′ = e^ε′): δ = Σ over c with P(c) > E′Q(c) of P(c) − E′Q(c), an exact A − E′B; each
  comparison is a sign of Σ c_i log(p_i/q_i) − ε′ decided with certified enclosures (exactly when they
  touch). total-variation is the same sum at E′ = 1.
- renyi-dp at α > 1 (Mironov 2017): D_α adds under independent composition: k·D_α(p‖q).

The level is the largest over the pairs. Cross-checks recompute each pair independently: the explicit
product table by enumeration over output tuples in exact arithmetic (k ≤ 6 and |𝒪|^k ≤ 4096), and a
40-digit sum over count vectors of the original outputs.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from symbolic.core.errors import InvalidParameter, clip
from symbolic.core.exact import expr_text, parse_expr
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.tables import database_key
from symbolic.derive.composition_checks import mp_check, product_check
from symbolic.derive.continuous.values import CurveLevel, enclosure
from symbolic.derive.loss_counts import hockey_blocks, ratio_classes
from symbolic.model.magnitude import MAX_ORDER   # the largest Rényi order taken
from symbolic.model.neighbours import level_pairs
from symbolic.model.operations import composition_from_json
from symbolic.model.subsampling import operation_tables
from symbolic.model.symbolic_table import parse_ranges, symbolic_mechanism_from_json

COMPOSITION_NOTIONS = ("pure-dp", "approx-dp", "renyi-dp", "total-variation")
SHOWN_TERMS = 64        # an exact δ with more terms is given by its enclosure only
QUANTITY = {"pure-dp": "epsilon", "approx-dp": "delta", "renyi-dp": "epsilon", "total-variation": "tv"}


def composition_level(notion: str, doc, *, params=None, assumptions=(), fixed=None) -> CurveLevel:
    """The tight level of ``notion`` (one of :data:`COMPOSITION_NOTIONS`, as
    :func:`~symbolic.derive.level.level_notion` names it; ``fixed``: parameters its alias fixes, such as
    ``{"alpha": 3}`` for renyi-3) for the composition document ``doc``
    (``{"kind": "composition", "of": TABLE, "times": K}``), as a :class:`CurveLevel`.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> d = composition_level("total-variation", {"kind": "composition", "of": rr, "times": 2})
    >>> d.value, d.ok
    (1/2, True)
    """
    comp = composition_from_json(doc)
    if notion not in COMPOSITION_NOTIONS:
        raise InvalidParameter(f"{clip(str(notion), 40)} of a composition is not yet derived; taken: "
                               f"{', '.join(COMPOSITION_NOTIONS)}")
    k, params = comp.times_at(dict(params or {}))
    if not isinstance(k, int):
        return _symbolic_times(notion, comp, k, params, assumptions, fixed)
    return _level_at(notion, replace(comp, times=k), params, assumptions, fixed)


def _level_at(notion, comp, params, assumptions, fixed):
    """The level at a number of runs: every ordered neighbouring pair (d, e) is a product of blocks, block j the
    pair of rows of one table run k_j times."""
    if isinstance(comp.of, tuple):
        own, groups, pairs, sm, intro = _list_groups(notion, comp, params, assumptions, fixed)
    else:
        own, groups, pairs, sm, intro = _table_groups(notion, comp, params, assumptions, fixed)
    blocks_of = lambda d, e: [(rows[d], rows[e], k) for rows, k in groups]
    results = [(d, e, _pair_level(notion, own, blocks_of(d, e))) for d, e in pairs]
    shown = {name: expr_text(v) for name, v in (params or {}).items()}
    return _level(notion, own, sum(k for _, k in groups), blocks_of, results, shown, sm, intro)


def composed_pairs(comp, params, assumptions=()) -> tuple:
    """(blocks_of, pairs, the first table, intro) of a composition at a number of runs, every table parameter
    given: ``blocks_of(d, e)`` is the ordered pair's list of blocks (p_j, q_j, k_j), table j's rows run k_j times.

    >>> from symbolic.model.operations import composition_from_json
    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> blocks_of, pairs, _, _ = composed_pairs(composition_from_json({"kind": "composition", "of": rr, "times": 3}), {})
    >>> blocks_of(*pairs[0])
    [([3/4, 1/4], [1/4, 3/4], 3)]
    """
    groups_of = _list_groups if isinstance(comp.of, tuple) else _table_groups
    _, groups, pairs, sm, intro = groups_of("pure-dp", comp, params, assumptions, {})
    return (lambda d, e: [(rows[d], rows[e], k) for rows, k in groups]), pairs, sm, intro


def _table_groups(notion, comp, params, assumptions, fixed):
    """One table (or the two-row tables of a subsampled one) run ``times`` times: one block."""
    tables = operation_tables(comp.of, assumptions=tuple(assumptions))
    own, table = _split(notion, dict(fixed or {}), params, [r.name for r in tables[0][1].params])
    k, pairs, rows = comp.times, [], {}
    for _, sm in tables:
        m = _at_numbers(sm, table).mechanism
        part = {d: [dist[o] for o in m.outputs] for d, dist in m.rows}
        pairs += level_pairs("pure-dp", list(part), m.n, m.domain)
        rows.update(part)
    subsampled = tables[0][0] is not None or len(tables) > 1
    what = "subsampled table (its neighbours: add or remove the record)" if subsampled else "table"
    intro = (f"the {k}-fold composition of the {what}: each ordered neighbouring pair (d, e) becomes (p^⊗{k}, "
             f"q^⊗{k}); outputs with equal likelihood ratio are merged and the k-tuples are counted by count "
             "vectors (multinomial weights), never enumerated")
    return own, [(rows, k)], pairs, sm, intro


def _list_groups(notion, comp, params, assumptions, fixed):
    """A heterogeneous composition: the tables of the list, each run ``times`` times, on one database; equal
    tables are one block run as many times as they occur."""
    sms = [symbolic_mechanism_from_json(doc, assumptions=tuple(assumptions)) for doc in comp.of]
    names = sorted({r.name for sm in sms for r in sm.params})
    own, table = _split(notion, dict(fixed or {}), params, names)
    first = sms[0].mechanism
    groups = []   # [[rows, runs]]
    for j, sm in enumerate(sms):
        m = _at_numbers(sm, {k: v for k, v in table.items() if k in sm.symbols}).mechanism
        if (m.n, tuple(m.domain), [d for d, _ in m.rows]) != (first.n, tuple(first.domain), [d for d, _ in first.rows]):
            raise InvalidParameter(f'composition "of" entry {j + 1} is over other databases (n = {m.n}, domain '
                                   f"{clip(repr(list(m.domain)), 40)}) than entry 1 (n = {first.n}, domain "
                                   f"{clip(repr(list(first.domain)), 40)}): composed mechanisms share the database")
        rows = {d: [dist[o] for o in m.outputs] for d, dist in m.rows}
        for g in groups:
            if g[0] == rows:
                g[1] += comp.times
                break
        else:
            groups.append([rows, comp.times])
    pairs = level_pairs("pure-dp", [d for d, _ in first.rows], first.n, first.domain)
    runs = ", ".join(f"table {i + 1} × {k}" for i, (_, k) in enumerate(groups))
    intro = (f"the composition of {len(comp.of)} tables on one database ({runs} after merging equal tables): each "
             "ordered neighbouring pair (d, e) becomes the product of the tables' pairs; per table, outputs with equal "
             "likelihood ratio are merged and the runs are counted by count vectors, never enumerated")
    return own, groups, pairs, sms[0], intro


def _symbolic_times(notion, comp, k, params, assumptions, fixed):
    """k runs with k a symbol: the levels that grow linearly in k (pure-dp, renyi-dp) as k times one run's; δ(ε′)
    and TV of a table whose pairs have two likelihood ratios as the binomial sum of :mod:`.composition_sums`."""
    if notion in ("approx-dp", "total-variation") and not isinstance(comp.of, tuple):
        from symbolic.derive.composition_sums import two_ratio_level
        names = [r.name for r in operation_tables(comp.of, assumptions=tuple(assumptions))[0][1].params]
        own, table = _split(notion, dict(fixed or {}), params, names)
        got = two_ratio_level(notion, comp, k, own, table, assumptions)
        if got is not None:
            return got
    if notion not in ("pure-dp", "renyi-dp"):
        raise InvalidParameter(f'{notion} of a composition with a symbolic "times" ({k}) is not linear in k: give it '
                               f"a value with --param {k}=…; pure-dp and renyi-dp are derived as formulas in {k}")
    one = _level_at(notion, replace(comp, times=1), params, assumptions, fixed)
    if one.value == sp.oo:
        return one
    if one.value is None:   # only enclosed: k times an interval is no formula in k
        return replace(one, enclosure=None, exact=False,
                       unknown=f"one run's level is only enclosed, not exact; a formula in {k} needs it exact: give "
                               f"{k} a value with --param {k}=…")
    rng = parse_ranges({str(k): comp.params[str(k)]})[0].text()
    return CurveLevel(one.notion, one.quantity, k * one.value, None, None, True, one.where,
                      (f"{one.notion} grows linearly in the number of runs: {k} times one run's level",
                       *one.steps), one.checks, one.params, (*one.assumptions, rng), None)


def _at_numbers(sm, values):
    if values:
        sm = sm.fix(values)
    if sm.params:
        raise InvalidParameter(f"a composition's level is derived at numbers: give every table parameter a value "
                               f"with --param ({', '.join(r.name for r in sm.params)})")
    return sm


def _split(notion, fixed, params, table_names):
    """The notion's own parameters (validated, exact) and the table's parameters to fix."""
    own, table = dict(fixed), {}
    takes = {"approx-dp": ("eps", "E"), "renyi-dp": ("alpha",)}.get(notion, ())
    for name, v in (params or {}).items():
        if name in takes and name not in own:
            own[name] = v if isinstance(v, sp.Basic) else parse_expr(str(v), what=f"{notion} parameter {name}")
        elif name in table_names:
            table[name] = v
        else:
            raise InvalidParameter(f"{notion} of a composition has no parameter {clip(name, 40)}; valid: "
                                   f"{', '.join(list(takes) + table_names) or 'none'}")
    if notion == "approx-dp":
        if ("eps" in own) == ("E" in own):
            raise InvalidParameter("approx-dp derives the tight δ for a given ε: give exactly one of eps=… (ε ≥ 0) "
                                   "or E=… (E = e^ε ≥ 1)")
        if "eps" in own:
            _at_least(own["eps"], 0, "eps", "ε ≥ 0")
            own["E"] = sp.exp(own.pop("eps"))
        _at_least(own["E"], 1, "E", "E ≥ 1")
    if notion == "renyi-dp":
        a = own.get("alpha")
        if a is None:
            raise InvalidParameter("renyi-dp of a composition needs alpha=… (a number α > 1, e.g. alpha=2)")
        if exact_sign(a - 1) <= 0 or exact_sign(a - MAX_ORDER) > 0:
            raise InvalidParameter(f"renyi-dp alpha must be a number with 1 < α ≤ {MAX_ORDER}; got {clip(str(a), 40)}")
    return own, table


def _at_least(v, low, name, rng):
    if v.free_symbols or exact_sign(v - low) < 0:
        raise InvalidParameter(f"{name} must be a number in its range {rng}; got {clip(str(v), 40)}")


def _pair_level(notion, own, blocks):
    """(exact value or oo, enclosure or None, note) of one ordered pair's level: the product of its blocks,
    block j the pair (p_j, q_j) run k_j times."""
    if notion in ("approx-dp", "total-variation"):
        E = own.get("E", sp.Integer(1))
        A, B, hits, total = hockey_blocks(blocks, E)
        value = A - E * B
        note = f"{hits} of {total} count vectors in the event P > {'E′' if notion == 'approx-dp' else ''}Q"
        return value, enclosure(value), note
    parts, notes = [], []
    for p, q, k in blocks:
        classes = ratio_classes(p, q)
        if any(kind == "inf" for _, _, kind in classes):
            return sp.oo, None, "an output has probability 0 under one row only (the second)"
        if notion == "pure-dp":
            best = None
            for a, b, kind in classes:
                if kind == "finite" and (best is None or exact_sign(a * best[1] - best[0] * b) > 0):
                    best = (a, b)
            parts.append(k * sp.log(sp.simplify(best[0] / best[1])))
            notes.append(f"largest ratio p/q = {expr_text(sp.simplify(best[0] / best[1]))}")
        else:
            alpha = own["alpha"]
            mass = sp.Add(*(a ** alpha * b ** (1 - alpha) for a, b, kind in classes if kind == "finite"))
            parts.append(k * sp.log(mass) / (alpha - 1))
            notes.append(f"D_α of one run = log({expr_text(mass)})/(α − 1)")
    value = sp.Add(*parts)
    return value, enclosure(value), "; ".join(notes)


def largest(results):
    """Index of an entry (d, e, (value or oo, enclosure, note)) whose level is the largest (decided by
    enclosures, exactly where they overlap), or None when an exact comparison is undecided.

    >>> largest([(0, 1, (sp.Integer(1), (1, 1), "")), (1, 0, (sp.log(3), enclosure(sp.log(3)), ""))])
    1
    """
    best = 0
    for i, (_, _, (v, enc, _)) in enumerate(results):
        bv, benc = results[best][2][0], results[best][2][1]
        if i == best:
            continue
        if v == sp.oo or bv == sp.oo:
            best = i if (v == sp.oo and bv != sp.oo) else best
            continue
        if enc[0] > benc[1]:
            best = i
        elif enc[1] >= benc[0]:
            if v is None or bv is None:   # only enclosures, and they overlap
                return None
            try:
                if exact_sign(v - bv) > 0:
                    best = i
            except UndecidedComparison:
                return None
    return best


def _level(notion, own, k, blocks_of, results, shown, sm, intro):
    where_of = lambda d, e: f"{database_key(d)} ~ {database_key(e)}"
    quantity = QUANTITY[notion]
    steps = [intro]
    steps += [f"{where_of(d, e)}: {note}" for d, e, (_, _, note) in results]
    steps.append({"pure-dp": f"ε of a product is the sum over its runs of the largest log-ratio ({k} runs)",
                  "approx-dp": "δ = Σ over count vectors c with P(c) > E′Q(c) of P(c) − E′Q(c), each comparison "
                               "of Σ c_i log(p_i/q_i) with ε′ decided by certified enclosures (exactly where they touch)",
                  "total-variation": "TV = Σ over count vectors c with P(c) > Q(c) of P(c) − Q(c)",
                  "renyi-dp": f"Rényi divergences add under independent composition ({k} runs)"}[notion])
    checks = [product_check(notion, own, blocks_of, results), mp_check(notion, own, blocks_of, results)]
    checks = tuple(c for c in checks if c is not None)
    infinite = [r for r in results if r[2][0] == sp.oo]
    if infinite:
        d, e, _ = infinite[0]
        return CurveLevel(notion, quantity, sp.oo, sp.oo, None, True, where_of(d, e), tuple(steps), checks, shown,
                          sm.assumptions(), None)
    best = largest(results)
    lo = max(r[2][1][0] for r in results)
    hi = max(r[2][1][1] for r in results)
    if best is None:
        steps.append("which pair is largest was not decided exactly: the enclosure is the largest of the pairs'")
        return CurveLevel(notion, quantity, None, None, (lo, hi), False, "", tuple(steps), checks, shown,
                          sm.assumptions(), None)
    d, e, (value, enc, _) = results[best]
    small = len(sp.Add.make_args(value)) <= SHOWN_TERMS
    if not small:
        steps.append(f"the exact value is a sum of {len(sp.Add.make_args(value))} terms; given by its enclosure")
    value = value if small else None
    return CurveLevel(notion, quantity, value, value, enc, value is not None, where_of(d, e), tuple(steps), checks,
                      shown, sm.assumptions(), None)


__all__ = ["COMPOSITION_NOTIONS", "composed_pairs", "composition_level", "largest"]
