"""SMT-LIB files for a checked claim, printed by :func:`symbolic.solve.backends.smt2.script`.

For a proved claim the files are the proof's own obligations (CEGIS hypotheses instantiated at
the populations it used): each is unsat on its own, and all of them together imply the claim at
the stated sizes. Otherwise each part's negated claim at its largest sizes (not a certificate;
hypotheses over all populations are then left out, and the file says so).
"""
from __future__ import annotations

import os

from symbolic.core.errors import DPCheckError, Transcendental
from symbolic.core.verdicts import Proved
from symbolic.solve.queries.encode import Encoding, z3_or
from symbolic.solve.backends.smt2 import Unsupported, script


def smt2_queries(res) -> list:
    """The solver queries of a claim result, as (comment, assertions) pairs: a proof's obligations
    if it has them, else the negated claim of every part. Raises :class:`DPCheckError` when the
    claim has no query (a derivation, a claim without parts).

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> [comment.splitlines()[0] for comment, _ in smt2_queries(res)]
    ['adhoc: proof obligation 1 of 1: PureDP(E) ⇒ PureDP(2*E) at n=1, |D|=2, |O|=2, query 1']
    """
    claim, v = res.claim, res.verdict
    queries = []
    if isinstance(v, Proved) and v.obligations:
        head = (f"{claim.id}: proof obligation {{i}} of {len(v.obligations)}: {{label}}\n"
                f"unsat of this file alone is what the proof claims for this query")
        queries = [(head.format(i=i + 1, label=ob.label), ob.assertions) for i, ob in enumerate(v.obligations)]
    else:
        for imp in claim.parts:
            try:
                enc = Encoding(imp, claim.params, imp.sizes or claim.sizes, {**imp.parameters})
            except Transcendental as e:
                raise DPCheckError(f"{claim.id}: no SMT-LIB query to export: {e}") from None
            note = "\nNOTE: hypotheses over all populations are not in this query (CEGIS refines them)" if enc.universal else ""
            queries.append((f"{claim.id}: negation of {imp} at {imp.sizes or claim.sizes} (not a proof certificate)"
                            f"{note}", enc.base + enc.hyps + enc.ops.side + [z3_or(enc.negated_conclusion_parts())]))
    if not queries:
        raise DPCheckError(f"{claim.id} has no solver query to export (it is a {claim.kind} claim)")
    return queries


def write_smt2(res, path) -> list:
    """Write one SMT-LIB file per query of :func:`smt2_queries`: ``path`` itself for one query, else
    ``path`` with ``-1``, ``-2``, … before its extension (``.smt2`` if it has none). Returns the
    file names. Raises :class:`DPCheckError` if a query is outside what SMT-LIB export translates.

    >>> import os, tempfile
    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(2 * E.symbol), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [path] = write_smt2(res, os.path.join(tmp, "proof.smt2"))
    ...     print(os.path.basename(path), "(check-sat)" in open(path).read())
    proof.smt2 True
    """
    claim = res.claim
    queries = smt2_queries(res)
    base, ext = os.path.splitext(path)
    names = [path] if len(queries) == 1 else [f"{base}-{i + 1}{ext or '.smt2'}" for i in range(len(queries))]
    for name, (comment, assertions) in zip(names, queries):
        try:
            text = script(list(assertions), comment=comment)
        except Unsupported as e:
            raise DPCheckError(f"cannot export {claim.id} as SMT-LIB: {e}") from None
        with open(name, "w", encoding="utf-8") as f:
            f.write(text)
    return names
