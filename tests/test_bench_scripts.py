"""The bench scripts that write data the project keeps or relies on run and say what they measured."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow   # a proof of K-3.3.6 with every query re-run in each configuration: 17 s
def test_the_query_survey_records_each_configuration_on_each_distinct_query(tmp_path):
    """K-3.3.6's proof: every distinct query gets one line per configuration, and the summary counts them."""
    out = tmp_path / "q.jsonl"
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "second_solver_queries.py"), "K-3.3.6", "--jsonl", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["claim"] == "K-3.3.6" and r["verdict"] == "proved" for r in rows)
    assert all(r[c][0] in ("unsat", "unknown") for r in rows for c in ("coverings", "linearisation"))
    assert f"queries: {len(rows)};" in p.stdout


def test_the_audit_costs_are_written_from_an_audit_document(tmp_path, monkeypatch):
    import importlib.util
    spec = importlib.util.spec_from_file_location("audit_costs", ROOT / "bench" / "audit_costs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "ROOT", tmp_path)
    (tmp_path / "theorems").mkdir()
    doc = tmp_path / "audit.json"
    doc.write_text(json.dumps({"run": {"seconds": 9.5}, "claims": [{"id": "A", "seconds": 3.14159},
                                                                   {"id": "B", "seconds": None}]}))
    assert mod.main([str(doc)]) == 0
    written = json.loads((tmp_path / "theorems" / "audit_costs.json").read_text())
    assert written["seconds"] == {"A": 3.1} and written["run"]["seconds"] == 9.5
