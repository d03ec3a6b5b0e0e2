"""The Python examples of every page (README.md and docs/) run as written and print what their comments
say; the user guide's page on writing a notion has reference tables that name everything a notion body
is given (every public method of ``ops`` in both readings, every attribute of the tables ``A`` and
``P``, every neighbour relation of the API)."""
import inspect
import pathlib
import re
import subprocess
import sys

import pytest

import symbolic.api as api
from symbolic.core.formula import FormulaOps
from symbolic.core.ops import ExactOps
from symbolic.core.tables import MechTable, PopTable
from symbolic.model.neighbours import Relation
from symbolic.solve.backends.z3_ops import Z3Ops

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide" / "writing-a-notion.md"
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)]

# Comments after a print that describe what is printed rather than quote it, per page.
DESCRIPTIONS = {"README.md": ("minimal tables",), "docs/guide/writing-a-notion.md": ("the tables",)}
# The least number of printed lines a page's comments give (so that a comment the pattern misses shows).
LEAST_PRINTS = {"README.md": 5, "docs/guide/writing-a-notion.md": 8}


def _code(page=GUIDE) -> str:
    """The page's Python examples, its ``python`` blocks in order, as one script."""
    return "\n".join(re.findall(r"^```py(?:thon)?\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M))


def _example_pages() -> list[pathlib.Path]:
    """Every page whose Python examples use the package."""
    return [p for p in PAGES if re.search(r"^(from|import) symbolic\b", _code(p), re.M)]


def test_the_pages_with_examples_are_found():
    assert {"README.md", "docs/guide/writing-a-notion.md"} <= {str(p.relative_to(ROOT)) for p in _example_pages()}
    assert not (set(DESCRIPTIONS) | set(LEAST_PRINTS)) - {str(p.relative_to(ROOT)) for p in _example_pages()}


@pytest.mark.parametrize("page", _example_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_of_a_page_run_and_print_what_they_say(page, tmp_path):
    """A page's Python examples run as one script, from the public API only, and print each line a
    print's comment gives (a ``# comment`` after ``print(...)``) and each ``text`` block of the page."""
    code, name = _code(page), str(page.relative_to(ROOT))
    imports = re.findall(r"^(?:from|import) symbolic[.\w]*(?: import)?", code, re.M)
    assert imports and set(imports) == {"from symbolic import"}, imports   # public API only
    described = DESCRIPTIONS.get(name, ())
    comments = [m.group(1).strip() for m in re.finditer(r"^print\(.*?\)\s+# (.*)$", code, re.M)]
    assert all(any(c.startswith(d) for c in comments) for d in described), "a declared description is stale"
    expected = [c for c in comments if not c.startswith(described)]
    assert len(expected) >= LEAST_PRINTS.get(name, 1), f"{name}: too few prints say what they print"
    script = tmp_path / "examples.py"
    script.write_text(code, encoding="utf-8")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    for want in expected:
        assert want in p.stdout.splitlines(), (want, p.stdout)
    for shown in re.findall(r"^```text\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M):
        assert shown.strip() in p.stdout   # the output shown on the page is the one printed


def _public(cls):
    return {n for n, _ in inspect.getmembers(cls) if not n.startswith("_")}


def test_the_reference_names_every_operation_of_ops():
    text = GUIDE.read_text(encoding="utf-8")
    shared = (_public(ExactOps) & _public(Z3Ops)) - {"exact", "reason", "defined_reason", "trace", "plain",
                                                      "undefined", "last", "side", "z3", "cleared"}
    assert {"le", "lt", "And", "If", "sum", "max0"} <= shared
    assert shared <= _public(FormulaOps) | {"num"}, "a body may use it, and the formula reading lacks it"
    missing = sorted(n for n in shared if f"ops.{n}(" not in text)
    assert not missing, f"the guide's table of ops lacks {missing}"


def test_the_reference_names_every_attribute_of_the_tables_and_every_relation():
    text = GUIDE.read_text(encoding="utf-8")
    for cls, var in ((MechTable, "A"), (PopTable, "P")):
        fields = _public(cls) | set(cls.__dataclass_fields__)
        fields -= {"rows"} if var == "P" else set()
        missing = sorted(n for n in fields - {"probs", "dbs"} if f"`{var}.{n}" not in text)
        assert not missing, f"the guide does not say what {var} offers: {missing}"
    relations = [n for n in api.__all__ if inspect.isclass(getattr(api, n)) and issubclass(getattr(api, n), Relation)]
    assert len(relations) >= 6
    assert not [n for n in relations if f"`{n}(" not in text]
