"""The JSON file format of a mechanism table (what ``dpcheck eval`` and ``derive level`` read).

``{"n", "domain", "outputs", "rows"}``: ``rows`` maps each database, spelled "a,b,…", to a list of
probabilities aligned with the outputs (or an object output -> probability), or is a list with one row per
database in lexicographic order over 𝒟^n (the compact form of a large table). Probabilities are integers
or strings "3/8". Everything is checked (types, sizes before any enumeration, ranges, sums) and nothing is
evaluated: the file is data, never code.
"""
from __future__ import annotations

import itertools

from symbolic.core.errors import DPCheckError, InvalidDistribution, InvalidSize, clip
from symbolic.core.exact import MAX_DIGITS
from symbolic.model.mechanism import MAX_FILE_CELLS, MAX_TABLE_FILE_DATABASES, Mechanism, count_databases


TABLE_FORMAT = '{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}'


def _int_list(value, what):
    """A JSON list of distinct integers or strings (a domain, or the outputs)."""
    if not isinstance(value, list) or not value:
        raise InvalidSize(f'"{what}" must be a non-empty list such as [0, 1]; got {clip(value, 40)}')
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, str)) or (isinstance(v, int) and v.bit_length() > 64):
            raise InvalidSize(f'"{what}" entries must be integers (or strings for outputs); got {clip(v, 40)}')
    if len({str(v) for v in value}) != len(value):
        raise InvalidSize(f'"{what}" repeats a value: {clip(value)}; list each value once')
    return value


def parse_database(text, n: int, domain=None) -> tuple:
    """A database written as a JSON key: n comma-separated integers, e.g. "0,1"."""
    example = ",".join(["0"] * n) if n <= 8 else "0,0,…"
    if not isinstance(text, str):
        raise DPCheckError(f"database {clip(text, 40)} must be text such as {example!r}")
    parts = [p.strip() for p in text.split(",", n)]
    ok = len(parts) == n and all(p.lstrip("+-").isdigit() and p.isascii() and len(p) <= MAX_DIGITS for p in parts)
    if not ok:
        raise DPCheckError(f"database {clip(text, 40)} is not {n} comma-separated integer(s) such as {example!r}")
    d = tuple(int(p) for p in parts)
    if domain is not None and any(v not in domain for v in d):
        raise DPCheckError(f"database {clip(text, 40)} has a value outside the domain {clip(tuple(domain), 40)}")
    return d


def keyed_by_database(items: dict, n: int, domain, where: str) -> dict:
    """{database tuple: value} from a JSON object keyed by databases "a,b"; a database given twice
    (for instance "0" and "00") is an error naming ``where``."""
    table = {}
    by_text = {str(v): v for v in domain} if domain is not None else None
    for key, value in items.items():
        try:  # the common spelling "0,1,…" with each value as str(v): index arithmetic, no parsing
            d = tuple(map(by_text.__getitem__, key.split(",")))
            if len(d) != n:
                raise KeyError(key)
        except (AttributeError, KeyError, TypeError):
            d = parse_database(key, n, domain)
        if d in table:
            raise InvalidDistribution(f"database {clip(key, 40)} is given twice {where}")
        table[d] = value
    return table


def mechanism_from_json(doc, *, name: str = "table") -> "Mechanism":
    """A mechanism from the JSON table format of ``dpcheck eval`` (the document already parsed):
    ``{"n", "domain", "outputs", "rows"}``; rows map "a,b" to a list of probabilities aligned with the
    outputs, or to an object output -> probability; or ``"rows"`` is a list, one row per database in
    lexicographic order over 𝒟^n (the compact form of a large table). Probabilities are integers or strings "3/8";
    everything is checked (types, sizes before any enumeration, ranges, sums) and nothing is evaluated.

    >>> m = mechanism_from_json({"n": 1, "domain": [0, 1], "outputs": [0, 1],
    ...                          "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}})
    >>> m, m[(1,)]
    (<table: n=1, domain=(0, 1), outputs=(0, 1)>, Dist({0: 1/4, 1: 3/4}))
    >>> mechanism_from_json({"n": 1, "domain": [0, 1], "outputs": [0, 1],
    ...                      "rows": {"0": ["3/4", "1/2"], "1": [0, 1]}})
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidDistribution: row (0,) sums to 5/4, not 1; entries 3/4, 1/2
    """
    if not isinstance(doc, dict):
        raise InvalidSize(f"the mechanism must be a JSON object like {TABLE_FORMAT}; got a {_kind(doc)}")
    if doc.get("kind") in ("composition", "subsampled"):   # an operation is a value only `derive level` reads so far
        raise InvalidSize(f"a {doc['kind']} mechanism is read by `derive level` so far; "
                          f"this command takes a table (n, domain, outputs, rows)")
    unknown = [k for k in doc if k not in ("n", "domain", "outputs", "rows")]
    if unknown:
        raise InvalidSize(f"unknown key {clip(unknown[0], 40)} in the mechanism; keys are n, domain, outputs, rows")
    if "n" not in doc or "rows" not in doc:
        raise InvalidSize(f'the mechanism needs "n" and "rows" (and usually "domain", "outputs"): {TABLE_FORMAT}')
    n, rows = doc["n"], doc["rows"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidSize(f'"n"={clip(n, 40)} must be a whole number >= 1')
    if isinstance(rows, list):   # the compact form: rows in lexicographic order, no database keys
        return _ordered(doc, n, rows, name)
    if not isinstance(rows, dict) or not rows:
        raise InvalidSize(f'"rows" must be a non-empty object mapping databases to rows, like '
                          f'{{"0": ["3/4", "1/4"]}}; got {"an empty object" if rows == {} else "a " + _kind(rows)}')
    domain = _int_list(doc["domain"], "domain") if "domain" in doc else None
    if domain is not None and any(isinstance(v, str) for v in domain):
        raise InvalidSize(f'"domain" entries must be integers; got {clip(domain, 40)}')
    if domain is not None:  # the size check comes before reading any row
        count_databases(n, len(domain), limit=MAX_TABLE_FILE_DATABASES, what="the mechanism file")
        in_order = _canonical_order(doc, n, domain, rows)
        if in_order is not None:
            return _ordered(doc, n, in_order, name)
    table = keyed_by_database(rows, n, domain, 'in "rows"')
    if domain is None:
        domain = sorted({v for d in table for v in d})
    count_databases(n, len(domain), limit=MAX_TABLE_FILE_DATABASES, what="the mechanism file")
    outputs = _int_list(doc["outputs"], "outputs") if "outputs" in doc else None
    if outputs is not None:
        _within_cell_limit(n, domain, outputs)
        by_text = {str(o): o for o in outputs}
        for d, row in table.items():
            if isinstance(row, dict):
                bad = [o for o in row if o not in by_text]
                if bad:
                    raise InvalidDistribution(f"row {clip(','.join(map(str, d)), 40)} names output {clip(bad[0], 40)},"
                                              f" which is not in \"outputs\" {clip(outputs, 40)}")
                table[d] = {by_text[o]: p for o, p in row.items()}
    for d, row in table.items():
        if not isinstance(row, (list, dict)):
            raise InvalidDistribution(
                f"row {clip(','.join(map(str, d)), 40)} is {clip(row, 40)} (a {_kind(row)}); give a list of "
                f"probabilities aligned with \"outputs\", such as [\"3/4\", \"1/4\"]")
    return Mechanism.from_table(table, n=n, domain=domain, outputs=outputs, name=name)


def _canonical_order(doc, n, domain, rows):
    """The rows of a keyed table as the compact form's list, when the keys are exactly the databases spelled
    "a,b,…" (each value as ``str(v)``), every row is a list and ``"outputs"`` is given; else None (the general
    reader then reads the keys one by one, with its errors). Rows of the wrong width go that way too, so the
    error names the row as the file spells it. With every canonical key present and no other,
    no database can be given twice."""
    width = len(doc["outputs"]) if isinstance(doc.get("outputs"), list) else None
    if width is None or len(rows) != len(domain) ** n:
        return None
    keys = [",".join(d) for d in itertools.product([str(v) for v in domain], repeat=n)]
    try:
        ordered = [rows[k] for k in keys]
    except KeyError:
        return None
    return ordered if all(type(r) is list and len(r) == width for r in ordered) else None


def _ordered(doc, n, rows, name):
    """The compact table form: ``"rows"`` a list of rows in lexicographic order over 𝒟^n; ``"domain"``
    and ``"outputs"`` must be given (they fix the order)."""
    if "domain" not in doc or "outputs" not in doc:
        raise InvalidSize('"rows" as a list (one row per database, in lexicographic order) needs "domain" and '
                          '"outputs", which fix that order')
    domain, outputs = _int_list(doc["domain"], "domain"), _int_list(doc["outputs"], "outputs")
    if any(isinstance(v, str) for v in domain):
        raise InvalidSize(f'"domain" entries must be integers; got {clip(domain, 40)}')
    count_databases(n, len(domain), limit=MAX_TABLE_FILE_DATABASES, what="the mechanism file")
    _within_cell_limit(n, domain, outputs)
    return Mechanism.from_ordered_rows(rows, n=n, domain=domain, outputs=outputs, name=name)


def _within_cell_limit(n: int, domain, outputs) -> None:
    """Refuse a table of more than MAX_FILE_CELLS entries (databases × outputs) before any row is read."""
    if len(domain) ** n * len(outputs) > MAX_FILE_CELLS:
        raise InvalidSize(f"the mechanism file would have {len(domain) ** n} × {len(outputs)} entries, over the "
                          f"limit of {MAX_FILE_CELLS}")


def _kind(value) -> str:
    return {dict: "JSON object", list: "list", str: "string", bool: "boolean", type(None): "null",
            int: "number", float: "number"}.get(type(value), type(value).__name__)
