"""The all-size argument held against the bounded search: where they disagree, the run stops.

The argument of :mod:`symbolic.graph.all_sizes` rests on declarations (:mod:`symbolic.notions.listed.structures`):
a notion's pairwise form, its dominating pair, its closure under post-processing, the merges that decide it. If one
of them were wrong, an edge could be drawn "at every size" that fails at some size. Each declaration is tested on
tables (:mod:`symbolic.graph.structure_checks`); here every answer the search gives is tested against it too, by
exact evaluation, independent of the solver:

- **A refutation** of "A(a) ⇒ B(b)" on a table of any size, for notions the argument covers, must reduce to the
  argument's small table. Some pair of neighbouring rows fails B and satisfies A (both pairwise, B's neighbours
  A's); then (route a) B fails on A's dominating pair at a, which satisfies A; (route b) some merge of that pair to
  k outputs fails B and satisfies A. A step that does not go through contradicts a declaration.
- **A proof** that the argument lifts must hold on the argument's own table: B(f(a)) holds on A's dominating pair
  (route a) at sample values of a in range.

A disagreement raises :class:`~symbolic.core.errors.EngineContradiction`, which no pair or claim swallows: the
graph, ``implies`` and the audit stop with an internal error (exit 3) that names the notions, the values and the
step that failed.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.errors import DPCheckError, EngineContradiction
from symbolic.core.exact import at_values, parse_expr
from symbolic.graph.sampling import holds_exactly, sample_grid
from symbolic.graph.all_sizes import declared_structures, listed_pair, notion_records
from symbolic.notions.structure import neighbour_pairs, pair_table


def _structures(a, b, hypotheses: tuple):
    """(A's structure, B's) when the argument can speak of the pair, else None."""
    declared = declared_structures(a, b, hypotheses)
    return None if declared is None else declared[:2]


def _stop(a, b, avals: dict, bvals: dict, what: str):
    shown = lambda vals: ", ".join(f"{k} = {v}" for k, v in vals.items()) or "no parameters"
    raise EngineContradiction(f"the all-size argument and the bounded search disagree on {a.id} ⇒ {b.id} at "
                              f"{shown(avals)} ({b.id} at {shown(bvals)}): {what}. A declared structure of "
                              f"{a.id} or {b.id} is wrong, or the search is; the run stops")


def _failing_pair(a, b, sb, table, avals, bvals):
    """A pair of neighbouring rows of ``table`` (a refutation's) on which B fails and A holds; None when exact
    evaluation leaves a pair undecided. Stops the run when the table fails B and every pair of it is decided to hold
    (B is not pairwise after all), or A fails on the pair."""
    undecided = False
    for d, e in neighbour_pairs(table, sb.pairwise):
        pq = (table.rows[d], table.rows[e])
        hb = holds_exactly(b.notion, pair_table(*pq), None, bvals)
        if hb is False:
            if holds_exactly(a.notion, pair_table(*pq), None, avals) is False:
                _stop(a, b, avals, bvals, f"{a.id} holds on the table but fails on its rows {d} and {e}, which "
                                          f"are neighbours for it, so it is not pairwise as declared")
            return pq
        undecided = undecided or hb is None
    if not undecided:
        _stop(a, b, avals, bvals, f"{b.id} fails on the table but on none of its pairs of neighbouring rows, so it "
                                  f"is not pairwise as declared")
    return None


def refutation_reduces(a, b, hypotheses: tuple, table, avals: dict, bvals: dict) -> str | None:
    """Check that a refutation of A(``avals``) ⇒ B(``bvals``) on ``table`` (A holds there and B fails, as
    re-verified) reduces to the argument's small table (see the module text); return how it reduced, or None when
    the argument does not speak of the pair or a step cannot be evaluated exactly. Raises
    :class:`~symbolic.core.errors.EngineContradiction` when a step fails.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> t = pair_table((sp.Rational(3, 4), sp.Rational(1, 4)), (sp.Rational(1, 4), sp.Rational(3, 4)))
    >>> refutation_reduces(find_notion("pure-dp"), find_notion("tv-privacy"), (None,), t, {"E": 3},
    ...                    {"delta": sp.Rational(1, 3)})
    "pure-dp's dominating pair fails tv-privacy; a merge to 2 outputs fails it"
    """
    found = _structures(a, b, hypotheses)
    if found is None:
        return None
    sa, sb = found
    pq = _failing_pair(a, b, sb, table, avals, bvals)
    if pq is None:
        return None
    steps = []
    if sa.dominating is not None and sb.closed:
        try:
            dom = pair_table(*sa.dominating(**avals))
        except (DPCheckError, ArithmeticError, ValueError, TypeError):   # not evaluable at these values
            dom = None
        ha, hb = ((None, None) if dom is None else
                  (holds_exactly(a.notion, dom, None, avals), holds_exactly(b.notion, dom, None, bvals)))
        if ha is False:
            _stop(a, b, avals, bvals, f"{a.id} fails on its own declared dominating pair {tuple(dom.rows.values())}")
        if hb is True:
            _stop(a, b, avals, bvals, f"{b.id} holds on {a.id}'s dominating pair {dom.rows}, yet fails on the pair "
                                      f"{pq}, which satisfies {a.id} and so is a post-processing of it, and {b.id} "
                                      f"is declared closed under post-processing")
        if ha is True and hb is False:
            steps.append(f"{a.id}'s dominating pair fails {b.id}")
    if sb.coarsening is not None and sa.closed:
        from symbolic.graph.structure_checks import merge_failure   # exact levels: loaded when a merge is asked
        k = sb.coarsening
        merge, decided = merge_failure(b.notion, *pq, bvals, k)
        if merge is None and decided:
            _stop(a, b, avals, bvals, f"the pair {pq} fails {b.id}, but no merge of it to {k} outputs does, and "
                                      f"{b.id} is declared decided on such merges")
        if merge is not None:
            steps.append(f"a merge to {k} outputs fails it")
    return "; ".join(steps) or None


def proof_holds_on_dominating_pair(a, b, hypotheses: tuple, params: tuple, a_values: dict, b_values: dict) -> int:
    """Check a proof of A(``a_values``) ⇒ B(``b_values``) (each a dict of parameter name → expression in the claim
    parameters ``params``) on A's dominating pair at sample values of ``params`` in range, where the argument uses
    that pair (route a); return how many points were checked. Raises
    :class:`~symbolic.core.errors.EngineContradiction` where B fails on it.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> from symbolic.graph.maps import claim_params
    >>> a, b = find_notion("pure-dp"), find_notion("approx-dp")
    >>> E = sp.Symbol("E", real=True)
    >>> proof_holds_on_dominating_pair(a, b, (None,), claim_params(a.notion), {"E": E}, {"E": E, "delta": 0})
    3
    >>> proof_holds_on_dominating_pair(a, b, (None,), claim_params(a.notion), {"E": E}, {"E": sp.sqrt(E), "delta": 0})
    Traceback (most recent call last):
    ...
    symbolic.core.errors.EngineContradiction: the all-size argument and the bounded search disagree on pure-dp ⇒ approx-dp at E = 3/2 (approx-dp at E = sqrt(6)/2, delta = 0): the search proved it, and approx-dp fails on pure-dp's dominating pair ((3/5, 2/5), (2/5, 3/5)). A declared structure of pure-dp or approx-dp is wrong, or the search is; the run stops
    """
    found = _structures(a, b, hypotheses)
    if found is None or found[0].dominating is None or not found[1].closed:
        return 0
    checked = 0
    for combo in itertools.product(*sample_grid(params)):
        point = {p.name: v for p, v in zip(params, combo)}
        avals = {k: at_values(v, point) for k, v in a_values.items()}
        bvals = {k: at_values(v, point) for k, v in b_values.items()}
        try:
            dom = pair_table(*found[0].dominating(**avals))
        except (DPCheckError, ArithmeticError, ValueError, TypeError):   # not evaluable at this point
            continue
        ha = holds_exactly(a.notion, dom, None, avals)
        if ha is False:
            _stop(a, b, avals, bvals, f"{a.id} fails on its own declared dominating pair {tuple(dom.rows.values())}")
        if ha is None:
            continue
        if holds_exactly(b.notion, dom, None, bvals) is False:
            _stop(a, b, avals, bvals, f"the search proved it, and {b.id} fails on {a.id}'s dominating pair "
                                      f"{tuple(dom.rows.values())}")
        checked += 1
    return checked


def pair_reduces(a, b, res) -> list:
    """Hold each re-verified counterexample of the graph's pair result ``res`` (A ⇒ B: a separation's, a refuted
    map's) against the argument (:func:`refutation_reduces`); return how each reduced. A pair with side conditions
    (``assuming``) is not the argument's."""
    from symbolic.graph.recheck import source_values, table_of
    if res.extra.get("assuming"):
        return []
    out = []
    records = [(res.counterexample, res.extra.get("fails_at"))] if res.verified_exactly else []
    records.append((res.extra.get("map_counterexample"), res.extra.get("map_fails_at")))
    for cx, fails_at in records:
        if not cx or not fails_at:
            continue
        table, pop = table_of(cx)
        if pop is not None:
            continue
        bvals = {k: v if isinstance(v, sp.Basic) else parse_expr(str(v)) for k, v in fails_at.items()}
        how = refutation_reduces(a, b, (a.notion,), table, source_values(a.notion, cx), bvals)
        if how is not None:
            out.append(how)
    return out


def _plain_part(claim):
    """(A's record, B's record, the part) of a claim that is one plain "A ⇒ B" between listed notions
    (:func:`~symbolic.graph.all_sizes.listed_pair`), or None."""
    if len(claim.parts) != 1:
        return None
    pair = listed_pair(claim.parts[0], notion_records())
    return None if pair is None else (*pair, claim.parts[0])


def claim_holds_on_dominating_pair(claim) -> int:
    """:func:`proof_holds_on_dominating_pair` for a proved claim that is one plain "A ⇒ B" between listed notions;
    0 when the argument does not speak of it.

    >>> from symbolic.notions.claims import E, Claim, Implies
    >>> from symbolic.notions.families.dp import ApproxDP, PureDP
    >>> claim_holds_on_dominating_pair(Claim("x", "⇒", "", "", "holds", (Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)),)))
    3
    """
    found = _plain_part(claim)
    if found is None:
        return 0
    a, b, part = found
    return proof_holds_on_dominating_pair(a, b, part.hypotheses, claim.params, part.hypotheses[0].param_values(),
                                          part.conclusion.param_values())


def claim_reduces(claim, verdict) -> str | None:
    """Hold a refuted claim's re-verified counterexample against the argument (:func:`refutation_reduces`) when the
    claim is one plain "A ⇒ B" between listed notions (as :func:`~symbolic.graph.all_sizes.claim_scope` asks of a
    proof it lifts); return how it reduced, or None when the argument does not speak of the claim.

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(2 * E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> claim_reduces(res.claim, res.verdict)
    "pure-dp's dominating pair fails pure-dp; a merge to 2 outputs fails it"
    """
    cx = getattr(verdict, "counterexample", None)
    if verdict.name != "refuted" or cx is None or verdict.verified_exactly is not True:
        return None
    found = _plain_part(claim)
    if found is None:
        return None
    a, b, part = found
    table = cx.mechanisms.get("A")
    if cx.populations or not hasattr(table, "rows"):
        return None
    at = lambda inst: {k: at_values(v, cx.parameters) for k, v in inst.param_values().items()}
    return refutation_reduces(a, b, part.hypotheses, table, at(part.hypotheses[0]), at(part.conclusion))


__all__ = ["claim_holds_on_dominating_pair", "claim_reduces", "pair_reduces", "proof_holds_on_dominating_pair", "refutation_reduces"]
