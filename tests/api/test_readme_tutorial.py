"""The README's tutorial runs as written, and prints what its comments say it prints."""
import pathlib
import re
import subprocess
import sys

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def _tutorial():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Tutorial"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_tutorial_prints_what_it_says(tmp_path):
    code = _tutorial()
    assert re.findall(r"^from symbolic[.\w]* import", code, re.M) == ["from symbolic import"]   # public API only
    expected = [m.group(1).strip() for m in re.finditer(r"^print\(.*?\)\s+# (.*)$", code, re.M)]
    expected = [e for e in expected if not e.startswith("minimal tables")]   # a description, not an output
    assert len(expected) >= 5
    script = tmp_path / "tutorial.py"
    script.write_text(code, encoding="utf-8")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240,
                       cwd=README.parent)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    for want in expected:
        assert want in lines, (want, p.stdout)


def test_the_tutorial_says_effort_decides_and_each_part_has_its_own_account(monkeypatch):
    """The tutorial's second step sets effort (counted solver steps), not seconds; and ``check_claim``
    gives every part of a claim an account of its own (``Settings.effort`` is per part)."""
    line = next(l for l in _tutorial().splitlines() if l.startswith("# 2."))
    assert "effort" in line and "whole run" not in line and "seconds" not in line
    from symbolic.core.verdicts import Unknown
    from symbolic.solve import run, search
    from symbolic.solve import one_size
    from symbolic.solve.backends.settings import Settings
    from theorems.registry import get
    meters = []
    real = search.search_size

    def spy(imp, params, sizes, settings, meter):
        meters.append(meter)
        meter.charge(settings.effort)   # spend the whole account at the first size
        return one_size.SizeResult("unknown", reason="spent"), ({}, None, None)
    monkeypatch.setattr(search, "search_size", spy)
    claim = get("T-P1")
    assert len(claim.parts) == 2
    res = run.check_claim(claim, Settings(second_solver=False))
    assert len({id(m) for m in meters}) == 2 and all(m.limit == Settings().effort for m in meters)
    assert all(isinstance(p.verdict, Unknown) for p in res.parts)
    assert real is not spy
