"""What the `dpcheck` commands read and write: one-line messages on stderr, the user's JSON files and
``--param`` values (read defensively), the JSON document of results, and the exit code of verdicts."""
from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import sys

from symbolic import DPCheckError, clip
from theorems.cli.audit_workers import cut

MAX_FILE_BYTES = 10 * 2 ** 20   # a mechanism or population file
MAX_LINE = 2000                 # an error line; the user's input in it is cut at ~80 characters
BUG = "this is a bug in dpcheck: please report it with the command line that caused it"


def say(kind, message):
    """One line on stderr; any run of over 100 non-blank characters (echoed input) is cut to 80."""
    line = re.sub(r"\S{101,}", lambda m: m.group()[:79] + "…", " ".join(str(message).splitlines()))
    print(f"dpcheck: {kind}: {cut(line, MAX_LINE)}", file=sys.stderr, flush=True)


def writable(path, flag):
    if os.path.isdir(path):
        raise DPCheckError(f"{flag} {clip(path)} is a directory; give a file name")
    if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
        raise DPCheckError(f"{flag} {clip(path)}: cannot write in its directory (missing or read-only)")


def output(results, file=None, run=None):
    """The JSON document of ``results`` (claim records), written to ``file`` if given; ``run``: the
    audit's {"date", "profile", "seconds"}, kept as the document's "run"."""
    from symbolic import tool_json
    doc = {"tool": tool_json(), **({"run": run} if run else {}), "claims": results}
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    if file:
        with open(file, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return text


def definite(r) -> bool:
    """Proved, derived, or refuted by a counterexample that exact re-verification confirmed."""
    return r["verdict"] in ("proved", "derived") or (r["verdict"] == "refuted" and r.get("verified_exactly") is True)


def exit_code(results):
    """0 only when every verdict is definite; unknown, vacuous, unverified, not run (or anything new): 1."""
    return 0 if all(definite(r) for r in results) else 1


def params(items):
    """--param NAME=VALUE items: names are identifiers, values exact numbers or restricted expressions in
    numbers (``exp``, ``log``, ``sqrt``; read by the restricted parser, never evaluated as code)."""
    from symbolic import parse_expr
    return {k: parse_expr(v, {}, what=f"--param {k}")
            for k, v in name_value_pairs(items, "--param", "NAME=VALUE with NAME a parameter name, e.g. E=3/2").items()}


def param_values(items, names, *, where):
    """--param NAME=VALUE items for the parameters ``names``: a value is an exact number or a
    restricted expression in numbers (``exp``, ``log``, ``sqrt``; never evaluated as code); ``eps=v``
    gives E = e^v (see :mod:`symbolic.notions.vocabulary`). Unknown names: one line listing the valid."""
    from symbolic import parse_expr, resolve_values
    pairs = name_value_pairs(items, "--param", "NAME=VALUE with NAME a parameter name, e.g. E=3/2 or eps=1/2")
    raw = {k: parse_expr(v, {}, what=f"--param {k}") for k, v in pairs.items()}
    return resolve_values(raw, names, where=where)


def name_value_pairs(items, flag, shape):
    """``flag NAME=TEXT`` items as {NAME: TEXT} (text stripped, not yet read), each name once; one line
    saying what ``shape`` they must have otherwise."""
    out = {}
    for kv in items:
        k, eq, v = kv.partition("=")
        k = k.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_ε][A-Za-z0-9_]{0,39}", k):
            raise DPCheckError(f"{flag} {clip(kv)} must look like {shape}")
        if k in out:
            raise DPCheckError(f"{flag} {k} is given twice; give it once")
        out[k] = v.strip()
    return out


def _no_duplicates(pairs):
    out = dict(pairs)
    if len(out) != len(pairs):
        keys = set()
        for k, _ in pairs:
            if k in keys:
                raise DPCheckError(f"key {clip(k, 40)} appears twice in one JSON object; give it once")
            keys.add(k)
    return out


def _no_constant(name):
    raise DPCheckError(f"{name} is not a probability; write exact numbers such as \"3/8\"")


@contextlib.contextmanager
def paused_gc():
    """The cyclic garbage collector off while a large table is read and checked, on again after: reading
    131,072 rows makes as many small objects, and each collection would walk all of them again (it halves
    the time of `dpcheck eval` on such a table). Nothing read there forms a cycle. On again, the objects
    alive then are frozen (left out of later collections, freed as usual when no longer referenced): else
    the first collection after would walk the whole table once more (70 ms for 131,072 rows)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.enable()


def load_json(path, what):
    """A JSON file of at most MAX_FILE_BYTES, UTF-8, without NaN/Infinity or repeated keys."""
    with open(path, "rb") as f:  # OSError: one line from main
        data = f.read(MAX_FILE_BYTES + 1)
    where = f"{what} file {clip(path, 60)}"
    if len(data) > MAX_FILE_BYTES:
        raise DPCheckError(f"{where} is over {MAX_FILE_BYTES // 2 ** 20} MB; dpcheck reads tables up to that size")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DPCheckError(f"{where} is not UTF-8 text (byte {e.start} is {data[e.start:e.start + 1]!r}); "
                           f"give a JSON file") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise DPCheckError(f"{where} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise DPCheckError(f"{where} nests JSON too deeply to read; a table needs three levels") from None
    except ValueError as e:  # an integer literal over Python's 4300-digit limit
        raise DPCheckError(f"{where} has a number too long to read ({cut(e, 60)}); write probabilities as "
                           f"strings \"a/b\" of at most 1000 digits each") from None
