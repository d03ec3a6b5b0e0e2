"""Every public name (``symbolic.api.__all__``) is documented: a docstring that says what it is and a
runnable example (``>>>``), which pytest runs as a doctest (``--doctest-modules`` over ``symbolic/``).

A class or function carries both in its own docstring. A value that cannot carry a docstring of its
own (a notion such as ``PureDP``, a constant such as ``E`` or ``E_SPEC``) is described, and used in an
example, in a docstring of the module that defines it (the module's, or a related object's).
"""
import ast
import doctest
import importlib
import inspect
import re
import tomllib
from functools import lru_cache
from pathlib import Path

import symbolic
import symbolic.api as api

ROOT = Path(__file__).resolve().parents[2]

# Public names not documented yet, each to leave this list once it is (the list can only shrink:
# test_pending_names_are_still_undocumented fails for a documented one). New public names are not
# added here: they come with their docstring and example.
PENDING = set()   # names still waiting for an example (none now); the list may only shrink


@lru_cache(maxsize=None)
def _module_docs(module_name: str) -> tuple:
    """(module docstring, {qualified name: docstring}) read from the module's source."""
    path = Path(importlib.import_module(module_name).__file__)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {}

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                docs[name] = ast.get_docstring(child) or ""
                walk(child, name + ".")

    walk(tree, "")
    return ast.get_docstring(tree) or "", docs


def _examples(doc: str) -> list:
    return doctest.DocTestParser().get_examples(doc or "")


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None


def _prose(doc: str) -> str:
    """The lines of a docstring that are not doctest source or expected output."""
    out, in_example = [], False
    for line in doc.splitlines():
        s = line.strip()
        if s.startswith(">>>") or (in_example and s.startswith("...")):
            in_example = True
            continue
        if in_example and s:  # expected output runs until a blank line
            continue
        in_example = False
        out.append(line)
    return "\n".join(out)


def problems(name: str) -> list:
    """What the public name lacks: 'no docstring', 'no example'; empty when documented."""
    obj = getattr(api, name)
    module = symbolic._API[name]
    module_doc, docs = _module_docs(module)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        own = docs.get(obj.__name__)
        if own is None:  # not a def/class in that module: fall back on the object's own attribute
            own = obj.__doc__ or ""
        wrong = [] if own.strip() else ["no docstring"]
        return wrong + ([] if _examples(own) else ["no example (>>>)"])
    # a value: described in prose and used in an example somewhere in its module's docstrings
    every = [module_doc, *docs.values()]
    described = any(_mentions(_prose(d), name) for d in every)
    used = any(_mentions(ex.source, name) for d in every for ex in _examples(d))
    return ([] if described else [f"not described in a docstring of {module}"]) + \
        ([] if used else [f"in no example (>>>) of {module}"])


def test_every_public_name_has_a_docstring_and_an_example():
    missing = {name: p for name in api.__all__ if name not in PENDING and (p := problems(name))}
    assert not missing, (f"{len(missing)} public name(s) undocumented; give each a docstring that says what "
                         "it is and a runnable >>> example:\n" +
                         "\n".join(f"  {name} ({symbolic._API[name]}): {', '.join(p)}"
                                   for name, p in sorted(missing.items())))


def test_pending_names_are_still_undocumented():
    done = sorted(name for name in PENDING if name in api.__all__ and not problems(name))
    assert not done, f"documented now, remove from PENDING in tests/api/test_public_docs.py: {', '.join(done)}"


def test_the_checker_sees_what_is_missing():
    """The rule's own check: a function without a docstring, one without an example, and a constant
    no example uses are all reported."""
    assert not _examples("Only prose.") and len(_examples("Text.\n\n>>> 1 + 1\n2\n")) == 1
    assert _mentions(">>> E_SPEC.name", "E_SPEC") and not _mentions("E_SPECS", "E_SPEC")
    assert not _mentions("x.E", "E")
    assert "E_SPEC" not in _prose("Intro.\n\n>>> E_SPEC.name\n'E_SPEC'\n\nEnd.")


def test_doctests_run_in_the_default_test_run():
    opts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in opts["addopts"] and "symbolic" in opts["testpaths"]


def test_the_neighbour_helper_is_public_and_the_tutorial_uses_it():
    """User notions need "replace record i", which every built-in DP body uses; it was only in
    ``symbolic.core.tables``. It is public (lazily from ``symbolic``), documented, and the README's
    tutorial builds its neighbours with it rather than by hand."""
    assert "replace_record" in api.__all__ and symbolic.replace_record is api.replace_record
    assert not problems("replace_record")
    assert api.replace_record(("a", "b", "c"), 2, "z") == ("a", "b", "z")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tutorial = readme[readme.index("## Tutorial"):]
    tutorial = tutorial[:tutorial.index("```", tutorial.index("```python") + 9)]
    assert "replace_record(d, 0, v)" in tutorial and "(v,) + d[1:]" not in tutorial
