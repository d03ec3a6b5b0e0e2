"""Benchmark of first contact: the commands a newcomer runs, timed end to end (wall clock, start-up
included), each beside the same command at a baseline revision of the repository.

The baseline is another commit (default: the parent of HEAD), checked out in a temporary git worktree and
run with the same Python, so both columns are measured in one run on the same machine. Each row is
run ``--repeat`` times and the least and the median wall times are printed. A row states its target
(the speed issue's numbers, idle machine, 2 cores).

    python bench/first_contact.py                       # every row but the audit, baseline HEAD~1
    python bench/first_contact.py --audit               # the audit too (minutes)
    python bench/first_contact.py --baseline ec36962 --repeat 5
    python bench/first_contact.py --no-baseline --rows eval-ordered eval-keyed
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from counting import counting_doc  # noqa: E402

CHECK = ["--n", "3", "--domain", "3", "--outputs", "2"]
# (key, what, arguments after `dpcheck`, target seconds); "{keyed}", "{ordered}" and "{rr3}" are files
ROWS = [
    ("help", "dpcheck --help", ["--help"], 0.3),
    ("eval-keyed", "eval PureDP, 131,072 rows keyed by database", ["eval", "PureDP", "--mechanism", "{keyed}",
                                                                   "--param", "E=2"], 1.0),
    ("eval-ordered", "eval PureDP, 131,072 rows in order (list form)", ["eval", "PureDP", "--mechanism", "{ordered}",
                                                                        "--param", "E=2"], 1.0),
    ("derive-level", "derive level pure-dp, 3-ary randomized response", ["derive", "level", "pure-dp",
                                                                         "--mechanism", "{rr3}"], 2.0),
    ("derive-map", "derive map pure-dp tv-privacy", ["derive", "map", "pure-dp", "tv-privacy"], 3.0),
    ("check-T-P5", "check T-P5 at 3,3,2, second solver on", ["check", "T-P5", *CHECK], 30.0),
    ("check-T-P1", "check T-P1 at 3,3,2, second solver on", ["check", "T-P1", *CHECK], 30.0),
    ("check-T-F2b", "check T-F2b at 3,3,2, second solver on", ["check", "T-F2b", *CHECK], 30.0),
    ("implies-post", "implies PureDP PosteriorApprox --n 2 (refuted)", ["implies", "PureDP", "PosteriorApprox",
                                                                       "--n", "2"], 10.0),
]
AUDIT = ("audit", "audit, all 71 claims, both solvers", ["audit", "--json", "{tmp}/audit.json"], 120.0)


def _files(tmp: Path) -> dict:
    doc = counting_doc(17)
    keyed, ordered, rr3 = tmp / "counting17.json", tmp / "counting17-ordered.json", ROOT / "docs" / "examples" / "rr3.json"
    keyed.write_text(json.dumps(doc, separators=(",", ":")))
    ordered.write_text(json.dumps({**doc, "rows": list(doc["rows"].values())}, separators=(",", ":")))
    return {"keyed": str(keyed), "ordered": str(ordered), "rr3": str(rr3), "tmp": str(tmp)}


def _run(tree: Path, args, repeat: int):
    """(least s, median s, exit code, last line of output) of `dpcheck ARGS` in the source tree ``tree``."""
    cmd = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from theorems.cli.main import main; "
           "sys.exit(main(sys.argv[2:]))", str(tree), *args]
    times, p = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=tree)
        times.append(time.perf_counter() - t)
    last = (p.stdout.strip().splitlines() or p.stderr.strip().splitlines() or [""])[-1]
    return min(times), statistics.median(times), p.returncode, last


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="HEAD~1", help="the revision to compare with (default HEAD~1)")
    ap.add_argument("--no-baseline", action="store_true", help="time this tree only")
    ap.add_argument("--repeat", type=int, default=3, help="runs a row (least and median reported)")
    ap.add_argument("--rows", nargs="*", help="only these rows (keys of the table)")
    ap.add_argument("--audit", action="store_true", help="the audit too (several minutes a tree)")
    args = ap.parse_args(argv)
    rows = ROWS + ([AUDIT] if args.audit else [])
    if args.rows:
        rows = [r for r in rows if r[0] in args.rows]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = _files(tmp)
        base = None
        if not args.no_baseline:
            base = tmp / "baseline"
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.baseline], cwd=ROOT, check=True)
        try:
            print(f"{'row':<13} {'what':<50} {'target':>6} {'now min/med s':>15} {'baseline min/med s':>19}  exit")
            for key, what, cmd, target in rows:
                cmd = [c.format(**files) for c in cmd]
                lo, med, code, _ = _run(ROOT, cmd, args.repeat if key != "audit" else 1)
                old = ""
                if base is not None:
                    blo, bmed, bcode, _ = _run(base, cmd, args.repeat if key != "audit" else 1)
                    old = f"{blo:8.2f}/{bmed:<8.2f}" + ("" if bcode == code else f" (exit {bcode})")
                flag = "" if lo <= target else "  over"
                print(f"{key:<13} {what:<50} {target:>6.1f} {lo:7.2f}/{med:<7.2f} {old:>19}  {code}{flag}", flush=True)
        finally:
            if base is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
