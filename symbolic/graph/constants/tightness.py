"""Whether a proved edge of the implication graph carries the tight map, by `derive map` at the graph's sizes.

An ``implies`` edge A ⇒ B(f) is proved with some map f (the literature's, an inferred one, a composition).
The tight map at the sizes is f* = the least parameter of B that every A-table meets
(:func:`symbolic.graph.constants.derivation.derive_map`): fitted to a closed form, proved (A ⇒ B(f*) at the sizes) and
attained by an exact table re-verified from its text. The edge is **tight** when f* is tight in that sense and
equal to f (sympy); when f* is tight and differs, the edge keeps its proved map and names f* as the tight one;
otherwise the derivation's reason is kept and the edge is not called tight. For B with several parameters the
last one is derived (δ of (ε, δ)-DP) with the others fixed at the edge's values.
"""
from __future__ import annotations

import time
from dataclasses import replace

import sympy as sp

from symbolic.core.errors import DPCheckError, Transcendental
from symbolic.core.exact import at_values, expr_text
from symbolic.graph.pair import PairResult
from symbolic.graph.recheck import parse_map


def tighten(pair: PairResult, a, b, sizes, settings) -> PairResult:
    """``pair`` (decided) with ``tight`` and the tight map's record in ``extra["tightness"]`` when it is an
    ``implies`` edge with a map; any other pair unchanged. ``a``, ``b``: the two notions' records."""
    if pair.relation != "implies" or not pair.map or pair.map == "no parameters":
        return pair
    from symbolic.graph.constants.derivation import derive_map
    names = [p.name for p in b.notion.params]
    values = parse_map(pair.map, [p.name for p in a.notion.params])
    if values is None:
        return _said(pair, False, f"the edge's map {pair.map} is written in more than {a.id}'s parameters (a free "
                                  f"parameter of the conversion); derive map fits maps in A's parameters alone")
    if not names or set(values) != set(names):
        return _said(pair, False, f"the edge's map {pair.map} does not name each of {b.id}'s parameters once")
    if pair.extra.get("assuming"):
        side = ", ".join(pair.extra["assuming"])
        return _said(pair, False, f"not derived: the edge holds under a side condition ({side}) that derive map "
                                  f"does not state")
    target = names[-1]
    fix = {k: expr_text(v) for k, v in values.items() if k != target}
    try:
        quick = attains_edge(a, b, target, values, sizes)
    except (DPCheckError, Transcendental):
        quick = None
    except Exception:  # noqa: BLE001 -- a user's notion that crashes: the full derivation below says how
        quick = None
    if quick is not None:
        record = {"map": f"{target} = {expr_text(values[target])}", "tight": True, "proved": True,
                  "attained_by": quick, "how": "the edge's own map attained exactly (its proof is the edge's)"}
        return _said(pair, True, f"the edge's map is attained exactly at {sizes}", record)
    try:
        d = derive_map(a, b, sizes=sizes, target=target, fix=fix, settings=settings)
    except (DPCheckError, Transcendental) as e:
        return _said(pair, False, f"not derived: {e}")
    except Exception as e:  # noqa: BLE001 -- a user's notion that crashes: this edge only is left untightened
        return _said(pair, False, f"not derived: a notion raised {type(e).__name__}: {str(e)[:200]}")
    if d.formula is None:
        return _said(pair, False, f"not derived: {d.reason}")
    record = {"map": f"{target} = {expr_text(d.formula)}", "tight": d.tight, "proved": d.proof is not None,
              "attained_by": d.attained_by, **({"readings": list(d.readings)} if d.readings else {})}
    if not d.tight:
        why = d.proof_reason if d.proof is None else d.attained_reason
        if d.proof is None and (why or "").startswith("refuted"):
            return _said(pair, False, f"the fitted {record['map']} was refuted by the solver (the search's estimates "
                                      f"fell below the constant), so no tight map is known; the edge's map stands",
                         record)
        sup = _supremum(a, b, d, values[target]) if d.proof is not None else None
        if sup is not None:
            return _said(pair, False, f"the least map at {sizes}: {record['map']} is a supremum, approached by a "
                                      f"family of tables ({sup.family.name}) and not attained by any table found",
                         {**record, "supremum": sup.to_json()})
        return _said(pair, False, f"derived {record['map']}, not shown tight ({why})", record)
    edge = values[target]
    same = d.formula == sp.oo and edge == sp.oo or sp.simplify(_real(d.formula) - _real(edge)) == 0
    if same:
        return _said(pair, True, f"the edge's map is the tight one at {sizes}", record)
    adopted = _adopt(pair, a, b, sizes, values, target, d, record)
    if adopted is not None:
        return adopted
    return _said(pair, False, f"tight map at {sizes}: {record['map']}; the edge's {target} = {expr_text(edge)} is "
                              f"proved but not the least", record)


def _adopt(pair, a, b, sizes, values, target, d, record) -> PairResult | None:
    """The edge with the tight map f* in place of its own, when f* is proved and attained over all of A's range
    and keeps the edge's scope: an edge proved at every size takes f* only when the all-sizes argument covers f*'s
    proof at these sizes (:func:`~symbolic.graph.all_sizes.all_sizes_argument`). None otherwise: the edge keeps
    its map and names f*."""
    from symbolic.graph.all_sizes import all_sizes_argument, holds_at_every_size, scope_record
    if d.proof is None or d.restricted or d.formula == sp.oo:
        return None
    scope = {"scope": pair.extra.get("scope", "within bounds")}
    if holds_at_every_size(pair.extra):
        argument = all_sizes_argument(a, b, sizes, (None,))
        if argument is None:
            return None
        scope = scope_record(argument)
    names = [p.name for p in b.notion.params]
    new_values = {**values, target: d.formula}
    text = ", ".join(f"{k} = {expr_text(new_values[k])}" for k in names)
    former = {"map": pair.map, "map_source": pair.extra.get("map_source"), "certificate": pair.certificate}
    adopted = replace(pair, map=text, certificate=d.proof,
                      extra={**pair.extra, **scope, "map_source": "the tight map (derive map at the sizes)",
                             "former_map": former})
    return _said(adopted, True, f"the tight map at {sizes} ({record['map']}, proved and attained) replaces the "
                                f"edge's {target} = {expr_text(values[target])}", record)


def _supremum(a, b, d, edge):
    """The family showing the derived map is the least (:func:`~symbolic.graph.constants.supremum.supremum_family`)
    when it equals the edge's own map, else None."""
    from symbolic.graph.constants.supremum import supremum_family
    if d.formula is None or d.formula == sp.oo or sp.simplify(_real(d.formula) - _real(edge)) != 0:
        return None
    try:
        return supremum_family(a, b, _real(d.formula))
    except (DPCheckError, NotImplementedError, ValueError, TypeError):
        return None


QUICK_POINTS = 2   # sample values of A's parameters searched before trying to attain the edge's own map


def attains_edge(a, b, target, values, sizes) -> dict | None:
    """The attaining table (JSON, re-verified from its text) when an exact table satisfying A at a sample value a
    has B-level exactly the edge's map f(a), else None. The edge's map is proved already (it is an ``implies``
    edge), so such a table makes it tight without fitting or proving a formula again: the cheap first try of
    :func:`tighten`; when it finds none, the full derivation runs.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> from symbolic.core.verdicts import Sizes
    >>> E = sp.Symbol("E", real=True)
    >>> att = attains_edge(find_notion("pure-dp"), find_notion("tv-privacy"), "delta", {"delta": (E - 1) / (E + 1)},
    ...                    Sizes(1, 2, 2))
    >>> att["level"], att["reverified"]
    ('exact', True)
    """
    from symbolic.graph.constants.derivation import attain
    from symbolic.graph.constants.fit import Shape, UNBOUNDED, search
    from symbolic.graph.constants.samples import sample_points
    from symbolic.graph.maps import claim_params
    from symbolic.notions.listed.readings import reading
    an = reading(a.notion, sizes.n, sizes.domain).notion
    bn = reading(b.notion, sizes.n, sizes.domain).notion
    params = claim_params(an)
    syms = [p.symbol for p in params]
    f = _real(values[target])
    others = {k: _real(v) for k, v in values.items() if k != target}

    def fixed_b(point):
        return {k: at_values(v, point) for k, v in others.items()}
    shape = Shape(sizes.n, sizes.domain, sizes.outputs)
    points = sample_points(params)[:QUICK_POINTS]
    key = (a.id, an.name, sizes.as_tuple())
    for point, rows in ATTAINING.get(key, ()):   # a table that attained another edge from A: often this one's too
        doc = exact_attainment(an, bn, target, fixed_b(point), at_values(f, point), rows, shape, point)
        if doc is not None:
            return doc
    estimates, warm = [], None
    for point in points:
        est = search(an, bn, target, fixed_b, point, shape, starts=6, seed=f"{a.id}->{b.id}", warm=warm)
        if not (est.value <= UNBOUNDED):
            return None
        estimates.append(est)
        warm = est.x
    attained, _why, _checks, *_near = attain(an, bn, target, fixed_b, f, estimates, shape, syms)
    if attained is None or attained.get("level") != "exact" or attained.get("reverified") is not True:
        return None
    point = {k: sp.sympify(v) for k, v in attained["at"].items()} if "at" in attained else points[0]
    names = {k: sp.Symbol(k) for k in point}
    rows = [[sp.sympify(x, locals=names).xreplace({names[k]: v for k, v in point.items()}) for x in r]
            for r in attained["mechanism"]["rows"].values()]
    ATTAINING.setdefault(key, []).insert(0, (point, rows))
    del ATTAINING[key][CANDIDATES:]
    return attained


ATTAINING: dict = {}   # (A's ID, A's reading, sizes) -> recent attaining rational tables, newest first, in this process
CANDIDATES = 4


def exact_attainment(an, bn, target, fixed, f0, rows, shape, point) -> dict | None:
    """The attaining-table record when the exact ``rows`` satisfy A at ``point`` and B's level there is exactly
    ``f0``, read back from the record's text and checked again; else None."""
    from symbolic.graph.constants.attain import exact_table, level_is_exactly, rational_record
    from symbolic.graph.sampling import holds_exactly
    t = exact_table(shape, rows)
    spec = next(p for p in bn.params if p.name == target)
    if holds_exactly(an, t, None, point) is not True or level_is_exactly(bn, target, spec, t, fixed, f0) != "exact":
        return None
    return rational_record(an, bn, target, spec, t, fixed, point, f0,
                           "an attaining table of another edge from the same notion")


def _real(x):
    """Every symbol as a real one (the edge's map and the derivation's formula spell A's symbols alike)."""
    x = sp.sympify(x)
    return x.xreplace({s: sp.Symbol(s.name, real=True) for s in x.free_symbols})


def _said(pair, tight: bool, text: str, record: dict | None = None) -> PairResult:
    return replace(pair, tight=tight, extra={**pair.extra, "tight": tight,
                                             "tightness": {"text": text, **({"derived": record} if record else {})}})


def tighten_graph(g, settings, *, jobs: int = 1, specs: dict | None = None, progress=None):
    """The graph ``g`` (a :class:`~symbolic.graph.sweep.GraphResult`) with every ``implies`` edge tightened
    (:func:`tighten`), in ``jobs`` worker processes when more than one; ``specs``: how to name each notion
    ID to a worker (``FILE.py:NAME`` for a user's own; default the ID); ``progress(done, total)`` as edges
    finish. Returns the new result, its ``seconds`` including this pass.

    >>> from symbolic.core.verdicts import Sizes
    >>> from symbolic.graph.sweep import graph_settings, run_graph
    >>> g = run_graph(["pure-dp", "tv-privacy"], sizes=Sizes(1, 2, 2), settings=graph_settings(3))
    >>> [(p.source, p.target, p.tight) for p in tighten_graph(g, graph_settings(3)).pairs]
    [('pure-dp', 'tv-privacy', True), ('tv-privacy', 'pure-dp', False)]
    """
    from symbolic.graph.sweep import map_in_processes
    t0 = time.monotonic()
    specs = specs or {}
    pairs = list(g.pairs)
    edges = [i for i, p in enumerate(pairs) if p.relation == "implies"]
    args = [(pairs[i].to_json(), specs.get(pairs[i].source, pairs[i].source),
             specs.get(pairs[i].target, pairs[i].target), g.sizes.as_tuple(), settings) for i in edges]
    done = []

    def finish(k, doc):
        pairs[edges[k]] = PairResult.from_json(doc)
        done.append(k)
        if progress:
            progress(len(done), len(edges))
    if jobs > 1 and len(edges) > 1:
        map_in_processes(_tighten_task, args, jobs, finish)
    else:
        for k, a in enumerate(args):
            finish(k, _tighten_task(*a))
    return replace(g, pairs=tuple(pairs), seconds=g.seconds + time.monotonic() - t0)


def _tighten_task(pair_doc: dict, spec_a: str, spec_b: str, sizes: tuple, settings) -> dict:
    """One edge, tightened where it runs (a worker process, or this one)."""
    from symbolic.core.verdicts import Sizes
    from symbolic.graph.sweep import resolve
    from symbolic.solve.queries.solver import fresh_context
    fresh_context()
    return tighten(PairResult.from_json(pair_doc), resolve(spec_a, settings), resolve(spec_b, settings), Sizes(*sizes),
                   settings).to_json()
