"""Tables of a claim's part verdicts, for sources that state their results as a table.

:func:`relation_table` takes the parts of a claim in pairs, each pair checking one relation the
source states between a definition and a reference notion, and shows next to it the relation the
machine's verdicts bear out.
"""
from __future__ import annotations


def _machine(relation: str, pair) -> str:
    """'↔' when both parts are proved; '→' / '←' when the first is proved and the second refuted
    (the pair is "A ⇒ B, B ⇏ A" in the direction the symbol names); '?' otherwise."""
    first = len(pair) > 0 and pair[0].verdict.name == "proved"
    second = pair[1].verdict.name if len(pair) > 1 else None
    if relation == "↔":
        return "↔" if first and second == "proved" else "?"
    return relation if first and second == "refuted" else "?"


def relation_table(res, rows, title: str, labels=("row", "def")) -> str:
    """The table of ``res`` (a claim result): a ``title`` line, a header, then one line per row of
    ``rows`` = (row label, definition label, relation stated, index of the pair's first part), in the
    order given: the relation the source states ('↔', '→' or '←'), the one the two parts' verdicts bear
    out (see :func:`_machine`), their seconds and the largest sizes proved."""
    lines = [title, f"  {labels[0]:>3}  {labels[1]:<5}  source  machine  seconds  sizes"]
    for row, name, relation, idx in rows:
        pair = res.parts[idx: idx + 2]
        secs = sum(p.seconds for p in pair)
        sz = max((s.as_tuple() for p in pair for s, *_ in getattr(p.verdict, "sizes_proved", ())), default=None)
        lines.append(f"  {row:>3}  {name:<5}  {relation:^6}  {_machine(relation, pair):^7}  {secs:7.2f}  {sz}")
    return "\n".join(lines)
