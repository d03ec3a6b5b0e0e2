"""A user's own notion, from a Python file written against the public API: ``path.py:NAME``.

The file is the user's own code and is imported as such (this is the one input that is code by
design); every failure to produce a notion from it is a one-line :class:`DPCheckError`.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from symbolic.core.errors import DPCheckError, clip
from symbolic.notions.base import Notion
from symbolic.notions.info import NotionInfo


def load_user_notion(spec: str) -> NotionInfo:
    """``"path/to/file.py:NAME"`` → the listing record of the notion ``NAME`` defined there (a
    :class:`Notion` or a :class:`NotionInfo`). The file is the user's own Python code, imported as a
    module (as ``dpcheck graph --add`` does); a failure to import is a one-line error.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "mine.py"
    >>> _ = path.write_text("from symbolic import E_SPEC, Notion; Floor = Notion('Floor', (E_SPEC,), lambda ops, A, "
    ...                     "P=None, *, E: ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs))")
    >>> info = load_user_notion(f"{path}:Floor")
    >>> info.id, [p.name for p in info.notion.params]
    ('Floor', ['E'])
    """
    if not isinstance(spec, str) or ":" not in spec:
        raise DPCheckError(f"--add takes FILE.py:NAME, e.g. my_notion.py:Floor; got {clip(spec)}")
    path_text, name = spec.rsplit(":", 1)
    path = Path(path_text)
    if not name.isidentifier():
        raise DPCheckError(f"{clip(name)} is not a Python name (in --add {clip(spec)})")
    if not path.is_file():
        raise DPCheckError(f"no such file: {clip(path_text)} (in --add {clip(spec)})")
    mod_name = f"dpcheck_user_{abs(hash(str(path.resolve())))}"
    try:
        module_spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 -- the user's file failed: say so in one line
        raise DPCheckError(f"{clip(path_text)} failed to import: {type(e).__name__}: {clip(str(e), 160)}") from None
    if not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items() if isinstance(v, (Notion, NotionInfo)))
        raise DPCheckError(f"{clip(path_text)} defines no {clip(name)}"
                           + (f"; notions there: {', '.join(found)}" if found else "; it defines no notion"))
    value = getattr(module, name)
    if isinstance(value, NotionInfo):
        return value
    if not isinstance(value, Notion):
        raise DPCheckError(f"{name} in {clip(path_text)} is a {type(value).__name__}, not a Notion")
    kind = "forall-prior" if value.population in ("all", "product") else "polynomial"
    return NotionInfo(name, value, "as the user's body says", kind, f"user file {path_text}",
                      value.summary or f"user notion {name}")
