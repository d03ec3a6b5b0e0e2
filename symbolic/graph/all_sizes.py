"""When a bounded proof of "A ⇒ B" holds for every size: the argument of a dominating pair.

Suppose, for the listed notions A and B (their declared :class:`~symbolic.notions.structure.Structure`, each part
checked on tables by :mod:`symbolic.graph.structure_checks`):

1. both are pairwise over the same neighbour relation: a table satisfies the notion iff every pair of
   neighbouring rows does, read as a table of one record over two values;
2. A has a dominating pair (P₀, Q₀) with k outputs: it satisfies A, and every pair satisfying A is
   (K·P₀, K·Q₀) for a stochastic map K (Kairouz, Oh, Viswanath 2015 for ε-DP and (ε, δ)-DP);
3. B is closed under post-processing;
4. the solver proved A(a) ⇒ B(f(a)) for every a at every size up to bounds that include n = 1, |𝒟| = 2, |𝒪| = k.

Then A(a) ⇒ B(f(a)) holds on every table of any size: a table satisfying A has each neighbouring pair (P, Q)
equal to (K·P₀, K·Q₀); the table of rows P₀, Q₀ satisfies A, so B by (4); B survives K by (3); so every
neighbouring pair satisfies B, and the table does by (1). :func:`all_sizes_argument` states this argument for a
proved pair when its conditions hold, and says nothing otherwise.
"""
from __future__ import annotations

from symbolic.core.verdicts import Sizes
from symbolic.graph.maps import claim_params


def all_sizes_argument(a, b, sizes: Sizes, hypotheses: tuple, min_sizes: Sizes = Sizes(1, 2, 2)) -> dict | None:
    """The all-sizes argument (see the module text) for the proved pair A ⇒ B of listing records ``a``, ``b``,
    proved at every size from ``min_sizes`` up to ``sizes`` with the ``hypotheses`` (A's instance alone), or None
    when a condition fails.

    >>> from symbolic.notions.listed.catalog import find_notion
    >>> arg = all_sizes_argument(find_notion("pure-dp"), find_notion("tv-privacy"), Sizes(1, 2, 2), (None,))
    >>> arg["scope"], arg["dominating_pair"]
    ('all sizes', 'pure-dp: 2 outputs')
    >>> all_sizes_argument(find_notion("approx-dp"), find_notion("tv-privacy"), Sizes(1, 2, 2), (None,)) is None
    True
    """
    from symbolic.notions.listed.structures import STRUCTURES
    sa, sb = STRUCTURES.get(a.id), STRUCTURES.get(b.id)
    if len(hypotheses) != 1 or sa is None or sb is None or sa.dominating is None or not sb.closed:
        return None
    if sa.pairwise is None or sa.pairwise != sb.pairwise:
        return None
    pair = sa.dominating(**{p.name: p.symbol for p in claim_params(a.notion)})
    k = len(pair[0])
    if sizes.domain < 2 or sizes.outputs < k or min_sizes.n > 1 or min_sizes.domain > 2 or min_sizes.outputs > k:
        return None
    return {"scope": "all sizes", "dominating_pair": f"{a.id}: {k} outputs",
            "argument": [f"{a.id} and {b.id} are pairwise over '{sa.pairwise}' (declared; checked on tables)",
                         f"every {a.id} pair is a post-processing of its dominating pair ({sa.dominating_source})",
                         f"{b.id} is closed under post-processing ({sb.post_processing})",
                         f"the bounded proof covers the dominating pair's table (n = 1, |D| = 2, |O| = {k})"]}


def scope_record(argument: dict | None) -> dict:
    """The scope keys of a proved result: ``{"scope": "all sizes", "all_sizes": argument}`` with an argument,
    ``{"scope": "within bounds"}`` without one.

    >>> scope_record(None)
    {'scope': 'within bounds'}
    """
    return {"scope": "all sizes", "all_sizes": argument} if argument else {"scope": "within bounds"}


__all__ = ["all_sizes_argument", "scope_record"]
