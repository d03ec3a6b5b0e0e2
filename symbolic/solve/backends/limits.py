"""Which limit left the second solver's query undecided, in words that tell two runs apart.

"resource": a count ended it (cvc5's resource units, the rewrite's operations, the proof's cvc5 units): the
same query gives up at the same point on every machine and under any load. "time": a time limit ended it
(a processor-time slice, which cvc5's coverings needs because it looks at its count only between its steps,
or the wall-clock safety net): a faster or idler machine might have decided it, a slower one might leave more
undecided. "incomplete": cvc5's procedure gave up without a limit (the same everywhere). "unsupported" and
"error": the query was not decided at all (a term outside the translated fragment, a cvc5 error or crash).
"""
from __future__ import annotations

RESOURCE, TIME, INCOMPLETE = "resource", "time", "incomplete"


def query_limit(stages) -> str | None:
    """The limit that left a query undecided, from its stages' (stage, limit) pairs: "time" when any stage
    was ended by time (on a faster or idler machine it might have been decided), else "resource" when any
    was ended by a count (the same on every machine), else the first stage's limit (None: no stage ran).

    >>> query_limit([("coverings", "incomplete"), ("linearisation", "resource")])
    'resource'
    >>> query_limit([("coverings", "time"), ("linearisation", "resource")]), query_limit([])
    ('time', None)
    """
    limits = [limit for _, limit in stages]
    return TIME if TIME in limits else RESOURCE if RESOURCE in limits else (limits[0] if limits else None)


def machine_independent(limit: str | None) -> bool:
    """Whether a query left undecided by ``limit`` is left so on every machine (anything but "time").

    >>> machine_independent("resource"), machine_independent("time")
    (True, False)
    """
    return limit != TIME
