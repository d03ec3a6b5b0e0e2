"""What the reports say about the second solver's undecided queries: which limit ended each one.

A proof's certificate (:mod:`symbolic.solve.backends.second_opinion`) lists, when cvc5 did not confirm it,
each query left undecided with the limit that ended it (``second_undecided``) and the proof's overall limit
(``second_limit``). A count ("resource") ends a query at the same point on every machine, so two runs agree
there; a time limit does not (a faster or idler machine may decide the query, a slower one may leave more
undecided). The records may come from a file (``audit --from``), so anything malformed is passed over.
"""
from __future__ import annotations

WORDS = {"resource": "a count (the same on every machine)",
         "time": "a time limit (machine-dependent: a faster machine may decide it)",
         "incomplete": "cvc5 gave up (no limit; the same on every machine)",
         "unsupported": "a term cvc5 is not given",
         "error": "a cvc5 error or crash"}


def limit_words(limit) -> str:
    """The limit in words, saying whether another machine would end the query the same way.

    >>> limit_words("resource"), limit_words("time")
    ('a count (the same on every machine)', 'a time limit (machine-dependent: a faster machine may decide it)')
    """
    return WORDS.get(limit, str(limit))


def undecided(cert) -> list:
    """The well-formed entries of a certificate's ``second_undecided``: (query, limit, [(stage, limit), …]).

    >>> undecided({"second_undecided": [{"query": "q 4", "limit": "resource",
    ...            "stages": [{"stage": "coverings", "limit": "resource"}]}, "not an entry"]})
    [('q 4', 'resource', [('coverings', 'resource')])]
    """
    entries = cert.get("second_undecided") if isinstance(cert, dict) else None
    out = []
    for e in entries if isinstance(entries, list) else ():
        if isinstance(e, dict) and isinstance(e.get("query"), str) and isinstance(e.get("limit"), str):
            stages = [(s["stage"], s["limit"]) for s in e.get("stages") or ()
                      if isinstance(s, dict) and isinstance(s.get("stage"), str) and isinstance(s.get("limit"), str)]
            out.append((e["query"], e["limit"], stages))
    return out


def stages_text(stages) -> str:
    """``substitution: time, linearisation: resource``."""
    return ", ".join(f"{stage}: {limit}" for stage, limit in stages)


def undecided_lines(cert) -> list:
    """One line for each undecided query: its label, the limit in words, each stage's limit.

    >>> cert = {"second_undecided": [{"query": "q 4", "limit": "time",
    ...         "stages": [{"stage": "coverings", "limit": "time"}, {"stage": "linearisation", "limit": "resource"}]}]}
    >>> print(*undecided_lines(cert))
    q 4: ended by a time limit (machine-dependent: a faster machine may decide it); stages: coverings: time, linearisation: resource
    """
    return [f"{query}: ended by {limit_words(limit)}" + (f"; stages: {stages_text(stages)}" if stages else "")
            for query, limit, stages in undecided(cert)]


def limit_counts(docs) -> dict:
    """{limit: number of proved claims that cvc5 did not confirm, by the certificate's ``second_limit``}.

    >>> limit_counts([{"verdict": "proved", "certificate": {"second_verdict": "unknown", "second_limit": "time"}},
    ...               {"verdict": "proved", "certificate": {"second_verdict": "unsat"}}])
    {'time': 1}
    """
    out: dict = {}
    for d in docs:
        cert = d.get("certificate") if isinstance(d, dict) else None
        if d.get("verdict") == "proved" and isinstance(cert, dict) and cert.get("second_verdict") == "unknown":
            limit = cert.get("second_limit") if isinstance(cert.get("second_limit"), str) else "not recorded"
            out[limit] = out.get(limit, 0) + 1
    return out
