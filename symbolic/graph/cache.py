"""A cache of pair results, keyed by everything that decides them, and checked when read back.

The key (:func:`pair_key`) covers both notions (name, parameters and their ranges, population kind,
arity, the listing's neighbour relation and class, and the source text of every file the body, its
sufficient family and whatever they call reach: the notion's module, the modules of the helpers it
names, a user's own file), the sizes, every effort setting (all of :class:`Settings` but the run's
hard stop), the recorded literature relation, the tool version and the engine's own source text.

A record holds its key and a digest of its content. A record read back is not trusted
(:meth:`PairCache.get`): one stored under another key, or whose digest does not match (edited by
hand), is ignored and the pair recomputed; a counterexample it carries is re-verified exactly
(:mod:`symbolic.graph.recheck`), and a qualitative separation's "B at no level" decided again on the
fixed table. One JSON file a pair, written atomically.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import json
import os
import tempfile
import types
from pathlib import Path

from symbolic.core import __version__
from symbolic.core.errors import DPCheckError

ENGINE = Path(__file__).resolve().parents[1]       # the symbolic package
OWN_ROOTS = (ENGINE, ENGINE.parent / "theorems")   # dpcheck's packages, wherever they are installed
NOT_EFFORT = ("stop_at",)                          # settings that are a moment of this run, not effort


def _file_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of every source file of the engine (a result depends on all of it)."""
    h = hashlib.sha256()
    for p in sorted(ENGINE.rglob("*.py")):
        h.update(str(p.relative_to(ENGINE)).encode() + b"\0" + _file_text(str(p)).encode() + b"\0")
    return h.hexdigest()


def _code_file(obj):
    obj = inspect.unwrap(obj) if callable(obj) else obj
    code = getattr(obj, "__code__", None)
    if code is not None:
        return code.co_filename
    try:
        return inspect.getsourcefile(obj)
    except (TypeError, OSError):
        return None


def _names(code) -> set:
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def _own(path: str) -> bool:
    """Is ``path`` one of dpcheck's own files (installed in site-packages, it is still read: the key needs it)?"""
    return any(Path(path).resolve().is_relative_to(root) for root in OWN_ROOTS)


def reached_files(*objs) -> list:
    """The source files of ``objs`` and of every function, class or module their code names,
    followed through the files they are in (the standard library and installed packages excluded)."""
    seen, files, todo = set(), [], list(objs)
    while todo:
        obj = todo.pop()
        if obj is None or id(obj) in seen:
            continue
        seen.add(id(obj))
        path = getattr(obj, "__file__", None) if isinstance(obj, types.ModuleType) else _code_file(obj)
        if not path or path.startswith(os.path.dirname(os.__file__)) or (
                "site-packages" in path and not _own(path)):
            continue
        if path not in files:
            files.append(path)
        target = inspect.unwrap(obj) if callable(obj) and not isinstance(obj, type) else obj
        code = getattr(target, "__code__", None)
        scope = getattr(target, "__globals__", None) or {}
        if isinstance(obj, types.ModuleType):
            continue
        if isinstance(obj, type):
            todo.extend(v for v in vars(obj).values() if isinstance(v, (types.FunctionType, type)))
            continue
        if code is not None:
            todo.extend(scope.get(n) for n in _names(code) if isinstance(scope.get(n), (types.FunctionType, type,
                                                                                          types.ModuleType)))
            todo.extend(c.cell_contents for c in (getattr(target, "__closure__", None) or ())
                        if isinstance(getattr(c, "cell_contents", None), (types.FunctionType, type)))
    return sorted(files)


_FINGERPRINTS: dict = {}   # id(notion) -> (notion, its fingerprint): each notion is read once a run, not once a pair


def notion_fingerprint(notion) -> str:
    """Name, parameters with their ranges, population kind, arity, and the text of every source file the
    body and the sufficient family reach (computed once a process for each notion object)."""
    known = _FINGERPRINTS.get(id(notion))
    if known is not None and known[0] is notion:
        return known[1]
    fp = _fingerprint(notion)
    _FINGERPRINTS[id(notion)] = (notion, fp)
    return fp


def _fingerprint(notion) -> str:
    spec = repr((notion.name, [(p.name, str(p.lower), str(p.upper), p.lower_strict, p.upper_strict)
                               for p in notion.params], notion.population, notion.arity))
    files = reached_files(notion.body, getattr(notion, "sufficient", None))
    body = getattr(notion.body, "__module__", "") + "." + getattr(notion.body, "__qualname__", type(notion.body).__name__)
    text = "".join(f"\0{os.path.basename(f)}\0{_file_text(f)}" for f in files) or body
    return hashlib.sha256((spec + text).encode()).hexdigest()


def _info_text(info) -> str:
    return repr((info.id, getattr(info, "neighbours", None), getattr(info, "cls", None)))


def effort_text(settings) -> str:
    return repr(sorted((f.name, repr(getattr(settings, f.name))) for f in dataclasses.fields(settings)
                       if f.name not in NOT_EFFORT))


class PairKey(str):
    """A cache key (hex text) that also knows what it keys: the two listing records and the settings,
    so that a record read back under it can be re-verified."""

    subject: tuple = ()


def pair_key(a, b, sizes, settings, literature) -> PairKey:
    parts = [__version__, engine_fingerprint(), _info_text(a), notion_fingerprint(a.notion), _info_text(b),
             notion_fingerprint(b.notion), repr(sizes.as_tuple()), effort_text(settings),
             json.dumps(literature.to_json() if literature is not None else None, sort_keys=True)]
    key = PairKey(hashlib.sha256("\x00".join(parts).encode()).hexdigest())
    key.subject = (a, b, settings, literature, sizes.n)
    return key


def digest(key: str, doc: dict) -> str:
    return hashlib.sha256((key + "\0" + json.dumps(doc, sort_keys=True, ensure_ascii=False)).encode()).hexdigest()


class PairCache:
    """Pair results as JSON files under ``root`` (created on first write)."""

    def __init__(self, root):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str):
        """The pair's JSON document, or None: no record, a record for another key or edited since it was
        written, or a counterexample (or a separation) that does not re-verify."""
        try:
            rec = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(rec, dict) or rec.get("key") != str(key) or not isinstance(rec.get("pair"), dict):
            return None
        if rec.get("digest") != digest(str(key), rec["pair"]):
            return None
        subject = getattr(key, "subject", ())
        if not subject:
            return rec["pair"]
        from symbolic.graph.pair import PairResult, reconfirm
        a, b, settings, literature, n = subject
        try:
            res = PairResult.from_json(rec["pair"])
            if (res.source, res.target) != (a.id, b.id):
                return None
            again = reconfirm(a, b, res, settings, literature, n)
        except (KeyError, TypeError, ValueError, AttributeError, DPCheckError):
            return None     # a record whose fields do not read as the engine writes them
        return again.to_json() if again is not None else None

    def put(self, key: str, doc: dict) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"key": str(key), "pair": doc, "digest": digest(str(key), doc)}, f, ensure_ascii=False)
        os.replace(tmp, path)
