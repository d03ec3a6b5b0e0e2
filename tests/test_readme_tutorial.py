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
