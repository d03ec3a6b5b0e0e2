"""The locality route: a proof of one claim part at one size by refuting each disjunct of the negated
conclusion with only the hypotheses that share its unknowns.

Lemma. Let ¬conclusion = D_1 ∨ … ∨ D_k and let H be the conjunction of the hypotheses (with the ranges,
the simplex constraints and the side constraints). If for every j the query D_j ∧ H_j is unsatisfiable,
where H_j is any sub-conjunction of H, then D_j ∧ H is unsatisfiable (H implies H_j), hence
¬conclusion ∧ H is: the implication holds at this size. Only ``unsat`` answers are used; a model of a
weakened query is no counterexample, so anything else gives up (``unknown``). Each unsat query is kept
as an obligation for the second solver.
"""
from __future__ import annotations

import z3

from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import units
from symbolic.solve.backends.smt2 import Unsupported, dag_key, lower
from symbolic.solve.queries.encode import conjuncts, const_population
from symbolic.solve.queries.hockey import AUX_PREFIX
from symbolic.solve.queries.solver import structured_populations
from symbolic.solve.routes.route import RouteResult

ROUTE_EFFORT = units(45)    # z3 units for the whole route at one size (ci level): every disjunct refuted


def _unknowns(t, cache):
    """The uninterpreted constants (unknowns and parameters) of a z3 term (iterative, memoised by
    term id: deep sums must not hit Python's recursion limit)."""
    stack = [(t, False)]
    while stack:
        u, expanded = stack.pop()
        key = u.get_id()
        if key in cache:
            continue
        if z3.is_const(u) and u.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            name = u.decl().name()  # the bounds of hockey.py belong to whichever disjunct meets their comparison
            cache[key] = frozenset() if name.startswith(AUX_PREFIX) else frozenset([name])
        elif expanded or not u.num_args():
            cache[key] = frozenset().union(*[cache[c.get_id()] for c in u.children()])
        else:
            stack.append((u, True))
            stack.extend((c, False) for c in u.children() if c.get_id() not in cache)
    return cache[t.get_id()]


def copy_key(terms, memo: dict | None = None) -> str | None:
    """A key equal for two lists of z3 terms exactly when one is the other with its unknowns renamed
    (:func:`~symbolic.solve.backends.smt2.dag_key` of their DAG), so one is unsatisfiable exactly when the
    other is; None for terms outside the DAG's fragment (never taken for a copy). ``memo``: shared by calls
    whose terms stay alive meanwhile (:func:`~symbolic.solve.backends.smt2.lower`), so that the terms they
    share are read from z3 once.

    >>> x, y, u, v = z3.Reals("x y u v")
    >>> copy_key([x * y > 1, x < 1]) == copy_key([u * v > 1, u < 1]), copy_key([x * y > 1, y < 1]) == copy_key([u * v > 1, u < 1])
    (True, False)
    """
    try:
        return dag_key(lower(terms, memo))
    except Unsupported:
        return None


def decide(enc, settings, meter, effort=ROUTE_EFFORT):
    """Prove by locality: ¬conclusion = D_1 ∨ … ∨ D_k; each D_j is refuted together with only those
    hypothesis conjuncts (and range, simplex and side constraints) whose unknowns all occur in D_j.
    Dropping constraints weakens the query, so each "unsat" is a valid refutation of D_j under the full hypotheses;
    anything but "unsat" gives up (a model of the weakened query is no counterexample). Not used with
    ∀𝒫 hypotheses or a ∀𝒫 conclusion. At n ≥ 2 this decides notions that are conjunctions over
    neighbour pairs as fast as n=1: a pair's conclusion only meets the pair's own hypotheses.

    With a ∀𝒫 hypothesis, its instances at the point masses and at the uniform populations on two
    neighbouring databases (all of them product populations) stand for it: each instance is implied by the
    hypothesis, so a disjunct refuted with instances is refuted with the hypothesis. When ``enc`` was built with ``family``, a
    ∀𝒫 conclusion is its conjunction over the notion's finite sufficient family (its lemma), so ¬conclusion
    is a disjunction over the members like any other."""
    sizes = enc.sizes
    if enc.witness is not None:
        return RouteResult("unknown", reason="locality: the conclusion's ∀𝒫 has no finite family")
    meter = meter.sub(settings.scale(effort), "locality")
    cache = {}
    # simplified: a point mass weighs every other database by 0, and 0·x must not count x among the unknowns
    instances = [z3.simplify(enc.eval(ni, const_population(q))) for ni in enc.universal
                 for q in structured_populations(sizes, product=True)
                 if sum(1 for x in q.probs if x != 0) <= 2]   # point masses, uniform on two neighbours
    hyps = [(h, _unknowns(h, cache)) for h in conjuncts(enc.hyps + instances) if not z3.is_true(h)]
    # a disjunct's support grows to whole rows: a conditional probability given D = d divides by the row's
    # mass, which mentions every output of d (dropping no constraint makes a refutation invalid, only rarer)
    row_of = {v.decl().name(): frozenset(x.decl().name() for x in row) for row in enc.rows for v in row}
    by_unknown = {}
    for k, (h, u) in enumerate(hyps):
        for name in u:
            by_unknown.setdefault(name, []).append(k)
    # the base and side constraints indexed the same way: a disjunct looks only at those meeting its support
    base = [(c, _unknowns(c, cache)) for c in enc.base + enc.ops.side]
    base_by_unknown, base_closed = {}, [k for k, (c, u) in enumerate(base) if not u]
    for k, (c, u) in enumerate(base):
        for name in u:
            base_by_unknown.setdefault(name, []).append(k)
    parts = enc.negated_conclusion_parts()
    obligations, refuted, copies = [], set(), 0
    memo = {}   # the disjuncts' queries share their hypotheses' terms, alive until the route returns
    for part in parts:
        if part is False or (not isinstance(part, bool) and z3.is_false(part)):
            continue
        part = z3.BoolVal(part) if isinstance(part, bool) else part
        support = _unknowns(part, cache)
        support = support.union(*(row_of.get(name, ()) for name in support))
        near = sorted({k for name in support for k in by_unknown.get(name, ())})
        keep = [hyps[k][0] for k in near if hyps[k][1] <= support] + [h for h, u in hyps if not u]
        near_base = sorted({k for name in support for k in base_by_unknown.get(name, ())}.union(base_closed))
        keep += [base[k][0] for k in near_base if base[k][1] <= support]
        key = copy_key(keep + [part], memo)
        if key is not None and key in refuted:   # the same query as one refuted already, up to renaming
            obligations.append(tuple(keep) + (part,))
            copies += 1
            continue
        if meter.exhausted():
            return RouteResult("unknown", reason="locality: " + meter.reason())
        s = z3.Solver()
        s.add(keep)
        if check_within(s, settings.query_effort, part, meter=meter, safety=settings.timeout) != z3.unsat:  # as an assumption, like Solver.solve: z3's incremental core
            return RouteResult("unknown", reason="locality: a disjunct is not refuted by its own hypotheses")
        refuted.add(key)
        obligations.append(tuple(keep) + (part,))
    said = f" ({copies} of them copies of another up to renaming, refuted once)" if copies else ""
    return RouteResult("unsat", how=f"{len(parts)} part(s), each refuted with the hypotheses on its own unknowns{said}",
                       obligations=obligations)
