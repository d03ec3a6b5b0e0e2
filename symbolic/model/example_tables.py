"""Symbolic mechanism tables of the usual mechanisms, as the JSON documents ``derive level`` reads
(:func:`symbolic.model.symbolic_table.symbolic_mechanism_from_json`): entries are expression texts in
declared parameters with their ranges."""
from __future__ import annotations

import itertools


def randomized_response_doc(k: int, p_range: str = "0<p<1") -> dict:
    """k-ary randomized response: keep the input with probability p, each other value with (1-p)/(k-1).

    >>> randomized_response_doc(2)["rows"]
    {'0': ['p', '(1-p)/1'], '1': ['(1-p)/1', 'p']}
    """
    rows = {str(i): ["p" if j == i else f"(1-p)/{k - 1}" for j in range(k)] for i in range(k)}
    return {"n": 1, "domain": list(range(k)), "outputs": list(range(k)), "params": {"p": p_range}, "rows": rows}


def truncated_geometric_doc(n: int) -> dict:
    """The truncated geometric mechanism on the count c of n bits (Ghosh, Roughgarden, Sundararajan 2009):
    Pr[o | c] = α^|o-c|/(1+α) at o ∈ {0, n} and (1-α)/(1+α)·α^|o-c| inside, 0 < α < 1."""
    rows = {}
    for d in itertools.product((0, 1), repeat=n):
        c = sum(d)
        rows[",".join(map(str, d))] = [f"a^{abs(o - c)}/(1+a)" if o in (0, n) else f"(1-a)*a^{abs(o - c)}/(1+a)"
                                       for o in range(n + 1)]
    return {"n": n, "domain": [0, 1], "outputs": list(range(n + 1)), "params": {"a": "0<a<1"}, "rows": rows}
