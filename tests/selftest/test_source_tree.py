"""The self-test outside a source checkout: an installed package has no tests/, so ``dpcheck selftest``
must refuse in one line that says how to get a checkout (exit 2), not run a battery that cannot pass."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from theorems.selftest import runner

ROOT = Path(__file__).resolve().parents[2]


def test_the_checkout_has_what_the_battery_needs():
    assert runner.source_tree_problem(ROOT) is None


def test_a_tree_without_tests_is_refused_with_the_way_to_a_checkout(tmp_path):
    problem = runner.source_tree_problem(tmp_path)
    assert problem is not None and len(problem.splitlines()) == 1
    assert "needs dpcheck's source tree" in problem and str(tmp_path) in problem
    assert "git clone" in problem and "pip install -e '.[test]'" in problem


def test_a_checkout_without_the_test_extra_is_refused(monkeypatch):
    monkeypatch.setattr(runner, "NEEDS", ("pytest", "dpcheck_no_such_module"))
    problem = runner.source_tree_problem(ROOT)
    assert problem is not None and len(problem.splitlines()) == 1
    assert "dpcheck_no_such_module not installed" in problem and "pip install -e '.[test]'" in problem


def test_the_packages_alone_as_installed_say_so_and_exit_2(tmp_path):
    """The two packages copied where nothing else of the checkout is (as in site-packages), run from
    another folder: one line on stderr, exit 2, no traceback."""
    site = tmp_path / "site"
    for pkg in ("symbolic", "theorems"):
        shutil.copytree(ROOT / pkg, site / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    p = subprocess.run([sys.executable, "-c", "import sys; from theorems.cli.main import main; sys.exit(main())",
                        "selftest"], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "needs dpcheck's source tree" in p.stderr and str(site) in p.stderr
