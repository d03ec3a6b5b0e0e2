"""The layer rules of docs/architecture.md, checked on the source (AST only, nothing imported).

Layers, each importing only itself and the layers before it:
core → model → notions → solve (its rooms in order: backends → queries → routes → the orchestration at
``symbolic/solve/*.py``) → derive → report → graph → api (``symbolic/api.py``, ``symbolic/__init__.py``)
→ theorems (the sources and the registry) → the self-test (``theorems/selftest/``) → the CLI
(``theorems/cli/``). Also: no import circles between modules, ``theorems/``
never imports a solver (z3, cvc5), ``symbolic/`` never imports ``theorems``, no module over 500
lines, and no ``symbolic/`` file names a claim or definition of the catalogue.
"""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LAYERS = ("symbolic.core", "symbolic.model",
          "symbolic.notions", "symbolic.notions.families", "symbolic.notions.zoo", "symbolic.notions.listed",
          "symbolic.solve.backends", "symbolic.solve.queries", "symbolic.solve.routes", "symbolic.solve",
          "symbolic.derive", "symbolic.report", "symbolic.graph", "symbolic.api",
          "theorems", "theorems.selftest", "theorems.cli")
SOLVERS = ("z3", "cvc5")
MAX_LINES = 500
# a catalogue ID: source letter, dash, a definition/claim label (K-2.2, S-PROP12, T-D8, L-1.7b, K-A.3, T-F2b),
# then optional suffixes (T-P4.converse, T-BRP-DP, K-2.2.step2)
CATALOGUE_ID = re.compile(r"\b[BKLST]-(?:[A-Z]+\d*(?:\.\d+)*[a-z]?|\d+(?:\.\d+)*[a-z]?)(?:[.-][A-Za-z0-9]+)*\b")


def _modules():
    """Dotted name -> path, for every module of the two packages (and the tests, for line counts)."""
    out = {}
    for pkg in ("symbolic", "theorems"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def layer_of(module: str) -> int:
    """Index of the layer a module belongs to: the longest layer name that is the module or a package
    holding it (``symbolic.solve.routes.vertices`` is in ``symbolic.solve.routes``, not ``symbolic.solve``)."""
    if module == "symbolic":
        return LAYERS.index("symbolic.api")
    best = None
    for i, name in enumerate(LAYERS):
        if (module == name or module.startswith(name + ".")) and (best is None or len(name) > len(LAYERS[best])):
            best = i
    if best is None:
        raise AssertionError(f"{module} belongs to no layer: add it to a layer's folder")
    return best


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not MODULES[module].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str) -> set:
    """Every module this one imports, anywhere in its body (function-local imports included)."""
    tree = ast.parse(MODULES[module].read_text(), str(MODULES[module]))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            found.add(target)
            for a in node.names:  # "from package import module"
                if f"{target}.{a.name}" in MODULES:
                    found.add(f"{target}.{a.name}")
    return found


def internal_imports(module: str) -> set:
    return {m for m in imports_of(module) if m in MODULES and m != module}


def test_every_module_is_in_a_layer():
    for m in MODULES:
        layer_of(m)


def test_imports_run_down_the_layers():
    bad = []
    for m in MODULES:
        for target in internal_imports(m):
            if m.startswith("symbolic.") and target == "symbolic":
                bad.append(f"{m} imports the package top (the public API); import the module itself")
            elif layer_of(target) > layer_of(m):
                bad.append(f"{m} ({LAYERS[layer_of(m)]}) imports {target} ({LAYERS[layer_of(target)]})")
    assert not bad, "\n".join(sorted(bad))


def _cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan, iterative enough for us)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    graph = {m: {t for t in internal_imports(m) if not MODULES[t].name == "__init__.py" or t == "symbolic"}
             for m in MODULES}
    assert not _cycles(graph)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_theorems_import_no_solver():
    bad = [(m, t) for m in MODULES if m.startswith("theorems")
           for t in imports_of(m) if t.split(".")[0] in SOLVERS]
    assert not bad


def test_the_cli_reaches_the_engine_only_through_the_public_api():
    bad = [(m, t) for m in MODULES if layer_of(m) == LAYERS.index("theorems.cli")
           for t in imports_of(m) if t.startswith("symbolic.") and t != "symbolic.api"]
    assert not bad


def test_the_engine_imports_no_theorem_module():
    bad = [(m, t) for m in MODULES if m.split(".")[0] == "symbolic"
           for t in imports_of(m) if t.split(".")[0] == "theorems"]
    assert not bad


@pytest.mark.parametrize("path", sorted([*MODULES.values(), *(ROOT / "tests").rglob("*.py"),
                                          *(ROOT / "bench").glob("*.py")]), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_500_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_the_engine_names_no_catalogue_entry():
    hits = []
    for m, path in MODULES.items():
        if m.split(".")[0] != "symbolic":
            continue
        for k, line in enumerate(path.read_text().splitlines(), 1):
            for hit in CATALOGUE_ID.findall(line):
                hits.append(f"{path.relative_to(ROOT)}:{k}: {hit}")
    assert not hits, "\n".join(hits)


def test_the_catalogue_pattern_matches_every_catalogue_id():
    """The pattern above must recognise every ID the catalogue actually uses."""
    from theorems.registry import claims, definitions
    ids = list(claims()) + list(definitions())
    assert ids and all(CATALOGUE_ID.fullmatch(i) for i in ids), [i for i in ids if not CATALOGUE_ID.fullmatch(i)]


# --- the rooms: folders of a readable size, the sources alone at the top of theorems/, a test folder per layer

MAX_MODULES = 15


def _folders():
    for top in ("symbolic", "theorems", "tests"):
        for d in sorted([ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]):
            if "__pycache__" not in d.parts:
                yield d


def test_no_folder_holds_more_than_fifteen_modules():
    crowded = {str(d.relative_to(ROOT)): n for d in _folders()
               if (n := len([p for p in d.glob("*.py") if p.name != "__init__.py"])) > MAX_MODULES}
    assert not crowded, f"split these into rooms: {crowded}"


def test_every_package_says_what_it_holds():
    """Each engine and theorems folder's ``__init__.py`` has a docstring (what lives there, what may import it)."""
    bare = [str(p.relative_to(ROOT)) for top in ("symbolic", "theorems") for p in (ROOT / top).rglob("__init__.py")
            if ast.get_docstring(ast.parse(p.read_text())) is None]
    assert not bare


def _assigns(module: str, names: tuple) -> bool:
    tree = ast.parse(MODULES[module].read_text())
    return any(isinstance(n, ast.Assign) and any(getattr(t, "id", None) in names for t in n.targets) for n in tree.body)


def test_the_top_of_theorems_holds_only_the_sources_and_the_registry():
    """A module at the top of ``theorems/`` is the registry, a source module (it states ``CLAIMS`` or
    ``DEFINITIONS``) or a module a source imports (its lemmas, derivations, plots); the command line and the
    self-test live in their own packages."""
    top = {m for m in MODULES if m.startswith("theorems.") and m.count(".") == 1 and MODULES[m].name != "__init__.py"}
    seen, todo = set(), [m for m in top if _assigns(m, ("CLAIMS", "DEFINITIONS"))]
    assert todo, "no source module found"
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += [t for t in internal_imports(m) if t in top]
    assert top - seen == {"theorems.registry"}, f"not a source or the registry: {sorted(top - seen - {'theorems.registry'})}"


def _test_folder(module: str) -> pathlib.Path:
    """tests/<layer>[/<room>] for symbolic.<layer>[.<room>].<module> (the api for symbolic and symbolic.api)."""
    parts = module.split(".")
    if module in ("symbolic", "symbolic.api"):
        return ROOT / "tests" / "api"
    folder = ROOT / "tests" / parts[1]
    if len(parts) > 3 and (folder / parts[2]).is_dir():
        folder = folder / parts[2]
    return folder


def test_every_engine_module_is_imported_by_a_test_of_its_layer():
    """Which tests guard ``symbolic/graph/infer.py``: those in ``tests/graph/``. A module with doctests is
    tested by them (the default run collects them); every other module is imported by a test of its folder."""
    imported = {}
    for path in (ROOT / "tests").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
        for folder in (path.parent, *path.parent.parents):   # a test in tests/derive/operations is one of tests/derive
            if folder == ROOT / "tests":
                break
            imported[folder] = imported.get(folder, set()) | found
    missing = []
    for m in MODULES:
        if not m.startswith("symbolic") or MODULES[m].name == "__init__.py" and m != "symbolic":
            continue
        folder = _test_folder(m)
        if ">>> " in MODULES[m].read_text():
            continue            # its doctests run in the default test run (--doctest-modules)
        if m not in imported.get(folder, set()):
            missing.append(f"{m}: no test in {folder.relative_to(ROOT)} imports it")
    assert not missing, "\n".join(sorted(missing))
