"""Checks of a derived tight level at exact sample points, by an evaluation that does not use the formula.

At each point (rational values of the parameters inside their ranges, and one point in each piece of a
Piecewise) the symbolic table becomes a numeric :class:`~symbolic.model.mechanism.Mechanism` (validated as
a table again), and:

- ε-DP, local DP, free-lunch, PML: the notion's own body (:mod:`symbolic.notions.families.dp`,
  :mod:`symbolic.notions.families.pml`), evaluated exactly, holds at E = the formula's level ratio and fails at
  a value just below it (E = 1 + (E* − 1)·999/1000); e^formula equals that ratio exactly;
- (ε,δ)-DP: the body of ``ApproxDP`` holds at (E, δ*) and fails at δ*·999/1000;
- total variation: max over neighbours and every event S ⊆ 𝒪 of P(S) − P'(S) (events enumerated up to
  12 outputs, else ½Σ|p − q|) equals the formula;
- Rényi, bounded range, maximal leakage: the defining maximum computed directly on the numbers equals the
  level ratio (E-levels, rational for rational tables), and e^((α−1)·formula) (resp. e^formula) equals it.

Every comparison is exact (:func:`symbolic.core.ops.exact_sign`).
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.errors import DPCheckError
from symbolic.core.exact import expr_text
from symbolic.core.ops import ExactOps, UndecidedComparison, exact_sign
from symbolic.core.tables import PopTable
from symbolic.model.param_space import sample_points, value_at
from symbolic.notions.families.dp import ApproxDP, FreeLunchPrivacy, PureDP
from symbolic.notions.families.pml import PMLUnder

MAX_EVENT_OUTPUTS = 12
MAX_POINTS = 8
BELOW = sp.Rational(999, 1000)


def _holds(notion, tab, P=None, **values) -> bool:
    if notion.fast is not None and P is None:
        res = notion.fast(tab, P=None, **values)
        if res is not None:
            return bool(res[0])
    return bool(notion.body(ExactOps(), tab, P=P, **values))


def _eq(a, b) -> bool:
    return exact_sign(sp.sympify(a) - sp.sympify(b)) == 0


def _show(point) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "the table"


def _points(sm, samples):
    pts = []
    for p in list(samples or ()) + sample_points(sm.params, 3):
        p = {k: v for k, v in p.items() if k in {r.symbol for r in sm.params}}
        if p not in pts:
            pts.append(p)
    return pts[:MAX_POINTS]


def _pairs(notion_id, tab):
    if notion_id in ("local-dp", "free-lunch"):
        return [(d, e) for d in tab.rows for e in tab.rows if d != e]
    return [(d, d[:i] + (v,) + d[i + 1:]) for i, d, v in tab.neighbours()]


def _tv(tab, pairs):
    best = sp.Integer(0)
    outs = range(len(tab.outputs))
    for d, e in pairs:
        p, q = tab.rows[d], tab.rows[e]
        if len(tab.outputs) <= MAX_EVENT_OUTPUTS:
            for k in range(len(tab.outputs) + 1):
                for S in itertools.combinations(outs, k):
                    v = sp.Add(*[p[j] - q[j] for j in S])
                    if exact_sign(v - best) > 0:
                        best = v
        else:
            v = sp.Add(*[abs(p[j] - q[j]) for j in outs]) / 2
            best = v if exact_sign(v - best) > 0 else best
    return best


def _renyi(tab, pairs, a):
    best = None
    for d, e in pairs:
        s = sp.Integer(0)
        for p, q in zip(tab.rows[d], tab.rows[e]):
            if exact_sign(p) == 0:
                continue
            if exact_sign(q) == 0:
                return sp.oo
            s += p ** a * q ** (1 - a)
        best = s if best is None or exact_sign(s - best) > 0 else best
    return best


def _range_ratio(tab, pairs):
    best = sp.Integer(1)
    for d, e in pairs:
        rs = []
        for p, q in zip(tab.rows[d], tab.rows[e]):
            zp, zq = exact_sign(p) == 0, exact_sign(q) == 0
            if zp and zq:
                continue
            if zp or zq:
                return sp.oo
            rs.append(p / q)
        hi = max(rs, key=lambda r: sp.N(r, 60))
        lo = min(rs, key=lambda r: sp.N(r, 60))
        v = hi / lo
        best = v if exact_sign(v - best) > 0 else best
    return best


def _max_leakage(tab, support):
    total = sp.Integer(0)
    for j in range(len(tab.outputs)):
        col = [tab.rows[x][j] for x in support]
        top = col[0]
        for c in col[1:]:
            top = c if exact_sign(c - top) > 0 else top
        total += top
    return total


def _tight(notion, tab, E, P=None) -> tuple:
    """(holds at E, fails just below E or E = 1)."""
    holds = _holds(notion, tab, P, E=E)
    if exact_sign(E - 1) <= 0:
        return holds, True
    return holds, not _holds(notion, tab, P, E=1 + (E - 1) * BELOW)


def _check_point(notion, own, sm, prior, formula, ratio, point):
    m = sm.at(point) if point else sm.mechanism
    tab = m.table()
    where = _show(point)
    val = sp.sympify(value_at(formula, point))
    r = None if ratio is None else sp.sympify(value_at(ratio, point))
    nid = notion.id
    pairs = _pairs(nid, tab) if nid not in ("pml", "maximal-leakage") else None
    if nid in ("pure-dp", "local-dp", "free-lunch", "pml"):
        if nid == "pml":
            pop = PopTable(m.n, m.domain, {d: value_at(p, point) for d, p in prior.items()})
            holds, tight = _tight(PMLUnder, tab, r, pop)
            name = "PMLUnder"
        else:
            body = PureDP if nid == "pure-dp" else FreeLunchPrivacy
            holds, tight = _tight(body, tab, r)
            name = body.name
        same = _eq(sp.exp(val), r)
        return (f"{where}: E = e^ε = {_cut(r)}; {name} holds at E and fails just below it; e^formula = E",
                holds and tight and same)
    if nid == "approx-dp":
        E = sp.sympify(value_at(own["E"], point))
        holds = _holds(ApproxDP, tab, E=E, delta=val)
        tight = exact_sign(val) == 0 or not _holds(ApproxDP, tab, E=E, delta=val * BELOW)
        return (f"{where}: δ = {_cut(val)} at E = {_cut(E)}; ApproxDP holds at δ and fails just below it",
                holds and tight)
    if nid == "total-variation":
        direct = _tv(tab, pairs)
        return (f"{where}: TV = {_cut(val)}; max over neighbours and events of P(S) − P'(S) = {_cut(direct)}",
                _eq(val, direct))
    if nid == "renyi-dp":
        a = own["alpha"]
        direct = _renyi(tab, pairs, a)
        ok = direct != sp.oo and _eq(r, direct) and _eq(sp.exp((a - 1) * val), direct)
        return (f"{where}: Σ_o p^{a} q^{1 - a} maximised over neighbours = {_cut(direct)}; the formula's "
                f"e^(({a}−1)ε) = {_cut(r)}", ok)
    if nid == "bounded-range":
        direct = _range_ratio(tab, pairs)
        ok = direct != sp.oo and _eq(r, direct) and _eq(sp.exp(val), direct)
        return f"{where}: max over neighbours of max_o r / min_o r = {_cut(direct)}; e^formula = {_cut(r)}", ok
    if nid == "maximal-leakage":
        support = list(tab.rows) if prior is None else [d for d, p in prior.items()
                                                        if exact_sign(value_at(p, point)) != 0]
        direct = _max_leakage(tab, support)
        return (f"{where}: Σ_y max_x P(y|x) = {_cut(direct)}; e^formula = {_cut(r)}",
                _eq(r, direct) and _eq(sp.exp(val), direct))
    raise DPCheckError(f"no check for {nid}")


def _check_infinite(notion, sm, label, point):
    m = sm.at(point) if point else sm.mechanism
    tab = m.table()
    pair, o = dict(label)["pair"], dict(label).get("output")
    p, q = tab.p(pair[0], o), tab.p(pair[1], o)
    ok = exact_sign(p) > 0 and exact_sign(q) == 0
    text = f"{_show(point)}: P({','.join(map(str, pair[0]))}, {o}) = {_cut(p)} > 0 = P({','.join(map(str, pair[1]))}, {o})"
    if notion.id in ("pure-dp", "local-dp", "free-lunch"):
        body = PureDP if notion.id == "pure-dp" else FreeLunchPrivacy
        big = sp.Integer(10) ** 9
        ok = ok and not _holds(body, tab, E=big)
        text += f"; {body.name} fails even at E = 10^9"
    return text, ok


def run_checks(notion, own, sm, prior, formula, ratio, *, samples=(), infinite=None) -> tuple:
    """The checks of a derivation: one (text, ok) per sample point (see the module docstring)."""
    out = []
    for point in _points(sm, samples):
        try:
            if infinite is not None:
                out.append(_check_infinite(notion, sm, infinite, point))
            else:
                out.append(_check_point(notion, own, sm, prior, formula, ratio, point))
        except (DPCheckError, UndecidedComparison, ZeroDivisionError, TypeError) as e:
            out.append((f"{_show(point)}: the check could not be made exactly ({_cut(e, 120)})", False))
    return tuple(out)


def _cut(value, limit=60) -> str:
    text = expr_text(value) if isinstance(value, sp.Basic) else str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
