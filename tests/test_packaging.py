"""What an installed (non-editable) dpcheck holds: every package of the source tree and every data file the
code reads. The fast tests read what setuptools will put in the wheel from pyproject.toml, as setuptools
reads it; the slow one builds the sdist, then the wheel from the unpacked sdist, and looks inside."""
from __future__ import annotations

import fnmatch
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("symbolic", "theorems")


def _config() -> dict:
    from setuptools.config.pyprojecttoml import read_configuration
    return read_configuration(ROOT / "pyproject.toml")


def tree_packages(root: Path) -> set:
    """Every folder under the top packages that holds a .py file, as a dotted name."""
    return {".".join(d.relative_to(root).parts) for top in TOPS for d in [root / top, *(root / top).rglob("*")]
            if d.is_dir() and "__pycache__" not in d.parts and any(d.glob("*.py"))}


def data_files(root: Path) -> list:
    """Every file under the top packages that is not Python source or its compiled form."""
    return sorted(p for top in TOPS for p in (root / top).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc"))


def covered(path: Path, root: Path, package_data: dict) -> bool:
    """Whether a package-data pattern of the file's package (or of every package, key "" or "*") names it."""
    pkg_dir = path.parent
    while pkg_dir != root and not (pkg_dir / "__init__.py").is_file():
        pkg_dir = pkg_dir.parent
    pkg = ".".join(pkg_dir.relative_to(root).parts)
    rel = path.relative_to(pkg_dir).as_posix()
    patterns = [*package_data.get(pkg, ()), *package_data.get("", ()), *package_data.get("*", ())]
    return any(fnmatch.fnmatchcase(rel, pat) for pat in patterns)


def test_setuptools_finds_every_package_of_the_tree():
    """A subpackage missing here (a hand-kept list, or a folder without __init__.py) is a
    ModuleNotFoundError in every installed copy."""
    found = set(_config()["tool"]["setuptools"]["packages"])
    expected = tree_packages(ROOT)
    assert {"symbolic.solve.routes", "theorems.cli.commands", "theorems.selftest.faults"} <= expected
    assert found == expected, f"not packaged: {sorted(expected - found)}; not in the tree: {sorted(found - expected)}"


def test_every_data_file_is_package_data():
    files = data_files(ROOT)
    assert ROOT / "theorems" / "audit_costs.json" in files
    package_data = _config()["tool"]["setuptools"].get("package-data", {})
    left_out = [str(p.relative_to(ROOT)) for p in files if not covered(p, ROOT, package_data)]
    assert not left_out, f"add to [tool.setuptools.package-data] in pyproject.toml: {left_out}"


def test_setuptools_reads_the_version_from_the_package():
    """tests/core/test_version.py checks the declaration; this, that setuptools resolves it."""
    from symbolic.core import __version__
    assert _config()["project"]["version"] == __version__


def test_the_checks_see_a_package_left_out(tmp_path):
    """The two checks above on a tree with a folder of modules but no __init__.py and a stray data file."""
    (tmp_path / "symbolic" / "solve" / "newroom").mkdir(parents=True)
    (tmp_path / "theorems").mkdir()
    for d in ("symbolic", "symbolic/solve", "theorems"):
        (tmp_path / d / "__init__.py").write_text('"""a package"""\n')
    (tmp_path / "symbolic" / "solve" / "newroom" / "route.py").write_text("X = 1\n")
    (tmp_path / "symbolic" / "solve" / "table.json").write_text("{}\n")
    from setuptools import find_packages
    found = set(find_packages(str(tmp_path), include=["symbolic*", "theorems*"]))
    assert tree_packages(tmp_path) - found == {"symbolic.solve.newroom"}
    [data] = data_files(tmp_path)
    assert not covered(data, tmp_path, {"symbolic": ["*.json"]})
    assert covered(data, tmp_path, {"symbolic.solve": ["*.json"]})


@pytest.mark.slow
def test_the_wheel_built_from_the_sdist_holds_every_module(tmp_path):
    """Offline (no build isolation: the setuptools of this environment, from the test extra)."""
    from setuptools import build_meta  # noqa: F401 - the backend must be importable here
    sdist_dir, wheel_dir = tmp_path / "sdist", tmp_path / "wheel"
    build = "import sys; from setuptools import build_meta as b; print(getattr(b, sys.argv[1])(sys.argv[2]))"
    run = dict(capture_output=True, text=True, timeout=600)
    p = subprocess.run([sys.executable, "-c", build, "build_sdist", str(sdist_dir)], cwd=ROOT, **run)
    assert p.returncode == 0, p.stderr[-2000:]
    sdist = sdist_dir / p.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    [src] = (tmp_path / "unpacked").iterdir()
    p = subprocess.run([sys.executable, "-c", build, "build_wheel", str(wheel_dir)], cwd=src, **run)
    assert p.returncode == 0, p.stderr[-2000:]
    wheel = zipfile.ZipFile(wheel_dir / p.stdout.strip().splitlines()[-1])
    names = set(wheel.namelist())
    tree = {p.relative_to(ROOT).as_posix() for top in TOPS for p in (ROOT / top).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert tree - names == set(), f"not in the wheel: {sorted(tree - names)}"
    from symbolic.core import __version__
    info = f"dpcheck-{__version__}.dist-info"
    assert "dpcheck = theorems.cli.main:main" in wheel.read(f"{info}/entry_points.txt").decode()
    assert f"Version: {__version__}" in wheel.read(f"{info}/METADATA").decode().splitlines()
