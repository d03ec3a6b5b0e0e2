"""The binary counting table, the test table of exact evaluation at scale.

n binary records; the mechanism answers 1 with probability (1 + c(x))/(n + 2), where c(x) is the
number of ones in x, and 0 otherwise: randomized response on the count, with rational entries.
Neighbours change c by one, so the largest ratio is 2 (at c = 0 for output 1, c = n for output 0):
the table is exactly ln 2-DP, ``PureDP(E=2)`` holds with ties, and any E < 2 fails.

    python bench/counting.py 17 > counting17.json     # the JSON file ``dpcheck eval`` reads
"""
from __future__ import annotations

import json
import sys
from fractions import Fraction


def counting_rows(n: int) -> dict:
    """{"0,1,…": ["p0", "p1"]} in lexicographic database order (entries as text "a/b", reduced)."""
    cells = [(str(Fraction(n + 1 - c, n + 2)), str(Fraction(1 + c, n + 2))) for c in range(n + 1)]
    rows = {}
    for x in range(2 ** n):
        bits = format(x, f"0{n}b")
        rows[",".join(bits)] = list(cells[bits.count("1")])
    return rows


def counting_doc(n: int) -> dict:
    """The table as the JSON document of ``dpcheck eval --mechanism FILE``."""
    return {"n": n, "domain": [0, 1], "outputs": [0, 1], "rows": counting_rows(n)}


def counting_json(n: int) -> str:
    return json.dumps(counting_doc(n), separators=(",", ":"))


if __name__ == "__main__":
    sys.stdout.write(counting_json(int(sys.argv[1])) + "\n")
