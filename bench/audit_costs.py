"""Write the audit's reference costs (``theorems/audit_costs.json``) from an audit's JSON document.

The costs are the seconds each claim took in that run (two cores, two claims at a time). The audit reads
them only to start the slowest claims first and to estimate when it will end; no verdict depends on them.
Run it after a change that moves the audit's times by much:

    dpcheck audit --json audit.json && python bench/audit_costs.py audit.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv) -> int:
    if len(argv) != 1:
        print("usage: python bench/audit_costs.py AUDIT.json", file=sys.stderr)
        return 2
    doc = json.loads(Path(argv[0]).read_text())
    seconds = {c["id"]: round(c["seconds"], 1) for c in doc["claims"] if isinstance(c.get("seconds"), (int, float))}
    run = doc.get("run") or {}
    out = {"about": "reference seconds of each claim in one audit (2 cores, 2 claims at a time); they order the "
                    "audit's work and estimate its end, and decide nothing",
           "run": {"date": run.get("date"), "profile": run.get("profile"), "seconds": run.get("seconds")},
           "seconds": dict(sorted(seconds.items()))}
    (ROOT / "theorems" / "audit_costs.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(seconds)} claims, {sum(seconds.values()):.1f} claim-seconds; run of {run.get('seconds')} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
