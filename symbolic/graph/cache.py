"""A cache of pair results, keyed by what decides them: both notions' definitions, the sizes, the
settings, the recorded literature relation and the tool version. A second run recomputes only the
pairs whose key changed.

A notion's definition is fingerprinted by its name, parameters, population kind, arity and the
source text of the module that defines its body (so an edit anywhere in that module, including a
helper the body calls, changes the key). One JSON file a pair, written atomically.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
import tempfile
from pathlib import Path

from symbolic.core.version import __version__


def notion_fingerprint(notion) -> str:
    module = sys.modules.get(getattr(notion.body, "__module__", ""), None)
    try:
        text = inspect.getsource(module) if module is not None else inspect.getsource(notion.body)
    except (OSError, TypeError):
        text = repr(notion.body)
    spec = repr((notion.name, [(p.name, str(p.lower), str(p.upper), p.lower_strict, p.upper_strict)
                               for p in notion.params], notion.population, notion.arity))
    return hashlib.sha256((spec + "\n" + text).encode()).hexdigest()


def pair_key(a, b, sizes, settings, literature) -> str:
    parts = [__version__, a.id, notion_fingerprint(a.notion), b.id, notion_fingerprint(b.notion),
             repr(sizes.as_tuple()), repr((settings.query_effort, settings.effort, settings.cheap_effort, settings.minimise_effort,
                   settings.cegis_rounds, settings.second_solver)),
             json.dumps(literature.to_json() if literature is not None else None, sort_keys=True)]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


class PairCache:
    """Pair results as JSON files under ``root`` (created on first write)."""

    def __init__(self, root):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str):
        path = self._path(key)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, doc: dict) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
        os.replace(tmp, path)
