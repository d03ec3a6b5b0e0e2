"""The user guide's page on writing a notion: its examples run as written and print what their comments
say, and its reference tables name everything a notion body is given (every public method of ``ops`` in
both readings, every attribute of the tables ``A`` and ``P``, every neighbour relation of the API)."""
import inspect
import pathlib
import re
import subprocess
import sys

import symbolic.api as api
from symbolic.core.formula import FormulaOps
from symbolic.core.ops import ExactOps
from symbolic.core.tables import MechTable, PopTable
from symbolic.model.neighbours import Relation
from symbolic.solve.backends.z3_ops import Z3Ops

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide" / "writing-a-notion.md"


def _code(page=GUIDE) -> str:
    return "\n".join(re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S))


def test_the_guide_runs_and_prints_what_it_says(tmp_path):
    code = _code()
    assert re.findall(r"^from symbolic[.\w]* import", code, re.M) == ["from symbolic import"] * 3   # public API only
    expected = [m.group(1).strip() for m in re.finditer(r"^print\(.*?\)\s+# (.*)$", code, re.M)]
    expected = [e for e in expected if not e.startswith("the tables")]   # a description, not an output
    assert len(expected) >= 8
    script = tmp_path / "guide.py"
    script.write_text(code, encoding="utf-8")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    for want in expected:
        assert want in p.stdout.splitlines(), (want, p.stdout)
    shown = GUIDE.read_text(encoding="utf-8").split("```text\n")[1].split("```")[0]
    assert shown.strip() in p.stdout   # the counterexample shown on the page is the one printed


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
