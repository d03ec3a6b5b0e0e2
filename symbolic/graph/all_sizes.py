"""When a bounded proof of "A ⇒ B" holds for every size: two arguments that reduce every size to one small table.

For the listed notions A and B (their declared :class:`~symbolic.notions.structure.Structure`, each part checked on
tables by :mod:`symbolic.graph.structure_checks`), suppose

1. both are pairwise, and every pair of neighbours for B is one for A: a table satisfies a notion iff every
   pair of its neighbouring rows does, read as a table of one record over two values;
2. the solver proved A(a) ⇒ B(f(a)) for every a at every size up to bounds that include n = 1, |𝒟| = 2 and
   |𝒪| = k, where k comes from one of
   (a) **a dominating pair of A** (P₀, Q₀) with k outputs: it satisfies A, and every pair satisfying A is
       (K·P₀, K·Q₀) for a stochastic map K (Kairouz, Oh, Viswanath 2015 for ε-DP and (ε, δ)-DP); and B is closed
       under post-processing;
   (b) **B decided on merges to k outputs**: a pair failing B has a merge of its outputs into k groups that fails
       B too (an event, for ε-DP, (ε, δ)-DP and TV); and A is closed under post-processing.

Then A(a) ⇒ B(f(a)) holds on every table of any size. Take a table satisfying A and a pair (P, Q) of neighbours
for B; it is a pair for A, so it satisfies A by (1). (a): (P, Q) = (K·P₀, K·Q₀); the table of rows P₀, Q₀
satisfies A, so B by (2); B survives K. (b): were B to fail on (P, Q), it would fail on a merge (K·P, K·Q) with k
outputs, which satisfies A since A survives K, against (2). So every pair of neighbours satisfies B, and the
table does by (1). :func:`all_sizes_argument` states the argument for a proved pair when its conditions hold, and
says nothing otherwise.
"""
from __future__ import annotations

from symbolic.core.verdicts import Sizes
from symbolic.graph.maps import claim_params
from symbolic.notions.structure import covers


def _routes(a_id: str, b_id: str, sa, sb, params) -> list:
    """(k, the two lines of the argument) for each route of the module text that the declarations allow."""
    out = []
    if sa.dominating is not None and sb.closed:
        k = len(sa.dominating(**params)[0])
        out.append((k, f"{a_id}: dominating pair, {k} outputs",
                    [f"every {a_id} pair is a post-processing of its dominating pair ({sa.dominating_source})",
                     f"{b_id} is closed under post-processing ({sb.post_processing})"]))
    if sb.coarsening is not None and sa.closed:
        k = sb.coarsening
        out.append((k, f"{b_id}: decided on merges to {k} outputs",
                    [f"a pair failing {b_id} has a merge to {k} outputs failing it ({sb.coarsening_reason})",
                     f"{a_id} is closed under post-processing ({sa.post_processing})"]))
    return sorted(out, key=lambda r: r[0])


def declared_structures(a, b, hypotheses: tuple):
    """(A's declared structure, B's, why B's neighbours are A's) when the argument can speak of the pair of listing
    records ``a``, ``b`` with the ``hypotheses`` (A's instance alone); None otherwise.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> declared_structures(find_notion("pure-dp"), find_notion("free-lunch"), (None,)) is None
    True
    """
    from symbolic.notions.listed.structures import STRUCTURES
    sa, sb = STRUCTURES.get(a.id), STRUCTURES.get(b.id)
    if len(hypotheses) != 1 or sa is None or sb is None:
        return None
    relation = covers(sa.pairwise, sb.pairwise)
    return None if relation is None else (sa, sb, relation)


def listed_pair(part, records: dict):
    """(A's listing record, B's) when the claim part is one plain "A ⇒ B" between listed notions: one hypothesis,
    any mechanism, no population; ``records`` maps ``id(notion)`` to its record (:func:`notion_records`). None
    otherwise."""
    hyp = part.hypotheses
    if (len(hyp) != 1 or part.mechanisms is not None or part.population is not None or hyp[0].on is not None
            or part.conclusion.on is not None):
        return None
    a, b = records.get(id(hyp[0].notion)), records.get(id(part.conclusion.notion))
    return None if a is None or b is None else (a, b)


def notion_records() -> dict:
    """Every listed notion's record by ``id`` of its notion object."""
    from symbolic.notions.listed.catalog import notion_catalog
    return {id(info.notion): info for info in notion_catalog()}


def all_sizes_argument(a, b, sizes: Sizes, hypotheses: tuple, min_sizes: Sizes = Sizes(1, 2, 2)) -> dict | None:
    """The all-sizes argument (see the module text) for the proved pair A ⇒ B of listing records ``a``, ``b``,
    proved at every size from ``min_sizes`` up to ``sizes`` with the ``hypotheses`` (A's instance alone), or None
    when a condition fails.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> arg = all_sizes_argument(find_notion("pure-dp"), find_notion("tv-privacy"), Sizes(1, 2, 2), (None,))
    >>> arg["scope"], arg["reduction"]
    ('all sizes', 'pure-dp: dominating pair, 2 outputs')
    >>> all_sizes_argument(find_notion("renyi-dp"), find_notion("approx-dp"), Sizes(1, 2, 2), (None,))["reduction"]
    'approx-dp: decided on merges to 2 outputs'
    >>> all_sizes_argument(find_notion("approx-dp"), find_notion("renyi-dp"), Sizes(1, 2, 2), (None,)) is None
    True
    """
    declared = declared_structures(a, b, hypotheses)
    if declared is None or sizes.domain < 2 or min_sizes.n > 1 or min_sizes.domain > 2:
        return None
    sa, sb, relation = declared
    params = {p.name: p.symbol for p in claim_params(a.notion)}
    for k, name, lines in _routes(a.id, b.id, sa, sb, params):
        if min_sizes.outputs <= k <= sizes.outputs:
            return {"scope": "all sizes", "reduction": name,
                    "argument": [f"{a.id} and {b.id} are pairwise and {relation} (declared; checked on tables)",
                                 *lines,
                                 f"the bounded proof covers the tables of one pair (n = 1, |D| = 2, |O| = {k})"]}
    return None


def claim_scope(claim) -> dict:
    """The scope keys of a proved claim (:func:`scope_record`): every size when each of its parts is "A ⇒ B"
    between listed notions with declared structure, one hypothesis, any mechanism, and the argument lifts it at the
    claim's sizes; within bounds otherwise.

    >>> from symbolic.notions.claims import E, Claim, Implies
    >>> from symbolic.notions.families.dp import ApproxDP, PureDP, FreeLunchPrivacy
    >>> c = Claim("x", "⇒", "", "", "holds", (Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)),))
    >>> claim_scope(c)["all_sizes"]["argument"][-1]
    'the bounded proof covers the tables of one pair (n = 1, |D| = 2, |O| = 2)'
    >>> claim_scope(Claim("y", "⇒", "", "", "holds", (Implies(PureDP(E.symbol), FreeLunchPrivacy(E.symbol)),)))
    {'scope': 'within bounds'}
    """
    records = notion_records()
    args = []
    for part in claim.parts:
        pair = listed_pair(part, records) if part.expect_holds else None
        arg = (all_sizes_argument(*pair, part.sizes or claim.sizes, part.hypotheses, claim.min_sizes)
               if pair is not None else None)
        if arg is None:
            return scope_record(None)
        args.append((str(part), arg))
    if not args:
        return scope_record(None)
    if len(args) == 1:
        return scope_record(args[0][1])
    return scope_record({"scope": "all sizes", "reduction": "; ".join(a["reduction"] for _, a in args),
                         "argument": [f"{text}: {line}" for text, a in args for line in a["argument"]]})


def scope_record(argument: dict | None) -> dict:
    """The scope keys of a proved result: ``{"scope": "all sizes", "all_sizes": argument}`` with an argument,
    ``{"scope": "within bounds"}`` without one.

    >>> scope_record(None)
    {'scope': 'within bounds'}
    """
    return {"scope": "all sizes", "all_sizes": argument} if argument else {"scope": "within bounds"}


def holds_at_every_size(result_extra: dict) -> bool:
    """Does a pair's record (its ``extra`` keys) say it holds at every size?

    >>> holds_at_every_size({"scope": "all sizes"}), holds_at_every_size({"scope": "within bounds"})
    (True, False)
    """
    return result_extra.get("scope") == "all sizes"


__all__ = ["all_sizes_argument", "claim_scope", "declared_structures", "holds_at_every_size", "listed_pair",
           "notion_records", "scope_record"]
