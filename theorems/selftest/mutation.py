"""How the seeded faults of the self-test (:mod:`theorems.selftest.runner`) are put in; the faults themselves
are listed in :mod:`theorems.selftest.faults` and the modules it loads.

Each mutant patches ONE engine function, method, constant or notion field, found by name:

- :func:`edit` re-compiles a copy of an engine function with one piece of its source text replaced
  (the text must occur exactly once; line numbers do not matter);
- :func:`wrap` / :func:`install` replace an object by one written here.

Every module-level reference to the replaced function (``from .x import f`` copies, notion bodies,
sufficient families) is pointed to the copy. A target (name or text) that no longer exists raises
:class:`MissingTarget`, which the self-test reports as an error, never as a skip. A mutant also names
the detectors expected to catch it (tried first, to keep the run short; the rest of the battery
follows). Nothing here imports a solver: edited copies run in the engine module's own namespace.
"""
from __future__ import annotations

import __future__ as _future
import dataclasses
import importlib
import inspect
import sys
import textwrap
import types
from dataclasses import dataclass
from typing import Callable


class MissingTarget(Exception):
    """The engine no longer has the function (or the source text) a mutant patches."""


# --- patching by name ----------------------------------------------------------------------------

def _resolve(target: str):
    """'module:Attr.attr' -> (owner, name, object)."""
    modname, _, path = target.partition(":")
    try:
        obj = importlib.import_module(modname)
    except ImportError as e:
        raise MissingTarget(f"{target}: module {modname} cannot be imported ({e})") from None
    owner, name = None, None
    for part in path.split("."):
        if not hasattr(obj, part):
            raise MissingTarget(f"{target}: no attribute {part!r}")
        owner, name = obj, part
        obj = inspect.getattr_static(obj, part) if isinstance(obj, type) else getattr(obj, part)
    return owner, name, obj


def _set(owner, name, value):
    if dataclasses.is_dataclass(owner) and not isinstance(owner, type):
        object.__setattr__(owner, name, value)
    else:
        setattr(owner, name, value)


def _engine_modules():
    return [m for n, m in list(sys.modules.items())
            if m is not None and (n == "symbolic" or n.startswith("symbolic.") or n.startswith("theorems."))]


def _rebind(old, new):
    """Every module-level reference to ``old`` (``from x import f`` copies, notion bodies and
    sufficient families, claim callables, fields of declarations held in lists and dicts) now points to
    ``new``."""
    def fix_fields(v):
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                if getattr(v, f.name, None) is old:
                    object.__setattr__(v, f.name, new)

    for mod in _engine_modules():
        for k, v in list(vars(mod).items()):
            if v is old:
                setattr(mod, k, new)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    fix_fields(x)
            elif isinstance(v, dict):   # a table of declarations (a notion's structure by its ID)
                for x in list(v.values()):
                    fix_fields(x)
            else:
                fix_fields(v)


def install(target: str, new):
    """Replace the engine object named by ``target`` with ``new`` (and every reference to it)."""
    owner, name, old = _resolve(target)
    _set(owner, name, new)
    if isinstance(owner, types.ModuleType):  # a field of one object (a notion's family) stays local
        _rebind(old, new)
    return old


def wrap(target: str, factory: Callable):
    """Replace ``target`` by ``factory(original)``."""
    owner, name, old = _resolve(target)
    return install(target, factory(old))


def edit(targets, old_text: str, new_text: str, *more):
    """Replace ``old_text`` by ``new_text`` (and each further (old, new) pair in ``more``), each
    occurring exactly once, in the source of the first of ``targets`` (one name, or several
    alternatives for code that moved) that contains them all, and install the edited copy."""
    targets = (targets,) if isinstance(targets, str) else tuple(targets)
    pairs = [(old_text, new_text)] + [tuple(p) for p in more]
    seen = []
    for target in targets:
        try:
            owner, name, obj = _resolve(target)
        except MissingTarget as e:
            seen.append(str(e))
            continue
        fn = obj.fget if isinstance(obj, property) else obj
        fn = getattr(fn, "__func__", fn)
        if not inspect.isfunction(fn):
            seen.append(f"{target}: not a function")
            continue
        src = textwrap.dedent(inspect.getsource(fn))
        bad = [(o, src.count(o)) for o, _ in pairs if src.count(o) != 1]
        if bad:
            seen.append("; ".join(f"{target}: the text {o!r} occurs {k} times" for o, k in bad))
            continue
        if fn.__closure__:
            raise MissingTarget(f"{target}: a closure cannot be re-compiled")
        for o, n in pairs:
            src = src.replace(o, n)
        code = compile(src, inspect.getsourcefile(fn) or target, "exec",
                       flags=_future.annotations.compiler_flag, dont_inherit=True)
        ns = {}
        exec(code, fn.__globals__, ns)  # noqa: S102 - the engine's own source, edited here
        install(target, ns[fn.__name__])
        return
    raise MissingTarget("; ".join(seen))


# --- the mutants ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
    id: str
    description: str
    apply: Callable = dataclasses.field(repr=False)
    first: tuple = ()          # detectors to try before the rest of the battery


MUTANTS: list = []


def mutant(id, description, *first):
    def deco(f):
        MUTANTS.append(Mutant(id, description, f, tuple(first)))
        return f
    return deco


EDITS: list = []  # (mutant id, target, old text) of every one-edit mutant, for a static check of the targets


def _E(target, old, new, id, description, *first):
    """A mutant that is one source edit."""
    EDITS.append((id, target, old))
    MUTANTS.append(Mutant(id, description, lambda: edit(target, old, new), tuple(first)))


T = "test:"
C = "claim:"
TRUST = "test:tests/solve/test_trust.py::"
PROOFS = "test:tests/solve/test_proofs.py::"
