"""The README's tutorial runs as written, and prints what its comments say it prints."""
import pathlib
import re
import subprocess
import sys

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


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


def test_the_tutorial_says_the_budget_is_per_claim_part(monkeypatch):
    """``Settings.budget`` is applied to each part of a claim (each gets its own deadline), not to the whole
    run; the tutorial used to say "for the whole run"."""
    line = next(l for l in _tutorial().splitlines() if l.startswith("#") and "per solver call" in l)
    assert "per claim part (budget)" in line and "whole run" not in line
    from symbolic.core.verdicts import Unknown
    from symbolic.solve import run
    from symbolic.solve.settings import Settings
    from theorems.registry import get
    clock = iter(range(0, 10 ** 6, 1000))

    class Clock:
        @staticmethod
        def monotonic():
            return next(clock)
    deadlines = []

    def part(imp, params, lo, hi, settings, deadline):
        deadlines.append(deadline)
        return Unknown("not run")
    monkeypatch.setattr(run, "time", Clock)
    monkeypatch.setattr(run, "check_implication", part)
    claim = get("T-P1")
    assert len(claim.parts) == 2
    run.check_claim(claim, Settings(budget=7, second_solver=False))
    # each deadline is the part's own start (a reading of the clock, a multiple of 1000) plus the budget
    assert [d % 1000 for d in deadlines] == [7, 7] and deadlines[1] > deadlines[0]
