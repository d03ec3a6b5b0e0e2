"""Mutation self-test: seed one fault at a time into the engine and see whether the checks notice.

``dpcheck selftest`` runs the *battery* on the unmutated engine and checks that it passes (if it did
not, every mutant would look caught). ``dpcheck selftest --mutants`` then runs every mutant, each in
its own fresh process: the process patches ONE engine function, method or notion (found by name,
so line numbers do not matter; a target that no longer exists is reported as an error, never
skipped), then runs the battery's detectors in order and stops at the first that fires:

1. **tests**: fast pytest tests from ``tests/`` and doctests from ``symbolic/``, run in-process
   under the patch (tests that start the command line in a subprocess would not see the patch and
   are not used);
2. **catalogue verdicts**: a few catalogue claims at their default sizes through
   :func:`symbolic.solve.run.check_claim`, with the verdict each is known to get; a different verdict
   counts, and so does a counterexample that fails exact re-verification (reported as "exact
   re-verification");
3. **second solver**: a proof that cvc5 contradicts (answers sat where z3 said unsat) is reported as
   caught "by the second solver".

A mutant lists the detectors expected to catch it first (so the run stays short); the rest of the
battery follows in its fixed order. Which detector fired is what the report shows. The mutants and
how they patch the engine are in :mod:`theorems.selftest.faults`. No solver is imported here.

Run: ``python -m theorems.selftest [--mutants] [--json] [--jobs J] [--only ID,...]``.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import io
import json
import os
import pkgutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from theorems.selftest.faults import C, MUTANTS, T, MissingTarget

ROOT = Path(__file__).resolve().parents[2]
MARK = "SELFTEST-RESULT "
PROGRESS = "SELFTEST-PROGRESS "


# --- the battery ----------------------------------------------------------------------------------------

TESTS = [
    "tests/solve/test_trust.py",
    "tests/solve/test_param_values.py",
    "tests/solve/test_local_proofs.py",
    "tests/graph/test_graph.py",
    "tests/solve/test_proofs.py",
    "tests/core/test_fast_exact.py",
    "tests/solve/test_rational_maps.py",
    "tests/solve/routes/test_quotient.py",
    "tests/solve/test_hockey_composition.py",
    "tests/solve/test_search.py",
    "tests/notions/test_notions.py",
    "tests/core/test_properties.py",
    "tests/model/test_causal.py",
    "tests/model/test_mechanism.py",
    "tests/core/test_prob.py",
    "tests/notions/test_semantic.py",
    "tests/derive/test_pml.py",
    "tests/notions/test_pml_notions.py",
    "tests/derive/test_closed_forms.py",
    "tests/theorems/test_theorems_t.py",
    "symbolic/derive/closed_forms.py",
    "theorems/saeidian_pml_closed_forms.py",
    "theorems/lecture_derivations.py",
    "theorems/saeidian_pml_derivations.py",
    "symbolic/notions/leakage.py",
]


@dataclass(frozen=True)
class ClaimCheck:
    """A catalogue claim and the verdict it is known to get at its default sizes (``parts``: each
    part's verdict; ``at``: the sizes of the counterexample)."""

    id: str
    verdict: str
    parts: tuple | None = None
    at: tuple | None = None


CLAIMS = [  # cheapest first; the proved ones include the second solver's re-check
    ClaimCheck("T-APPB", "refuted", ("refuted", "refuted"), at=(1, 2, 2)),
    ClaimCheck("T-P4.converse", "refuted", ("refuted", "refuted"), at=(2, 2, 2)),
    ClaimCheck("S-FLP-DP", "refuted", ("proved", "refuted")),
    ClaimCheck("S-TH4", "refuted", ("proved", "refuted")),
    ClaimCheck("S-COR8", "refuted", ("proved", "refuted"), at=(1, 2, 2)),
    ClaimCheck("T-RR", "refuted", ("proved", "refuted", "refuted")),
    ClaimCheck("T-ASSOC", "refuted", ("refuted",)),
    ClaimCheck("L-EQ6", "proved", ("proved", "proved")),
    ClaimCheck("T-NI", "proved", ("proved", "proved")),
    ClaimCheck("K-D1.1", "proved", ("proved", "proved")),
    ClaimCheck("T-L1", "proved", ("proved",)),
    ClaimCheck("T-TH1", "proved", ("proved",)),
    ClaimCheck("K-3.3.1", "proved", ("proved",)),
    ClaimCheck("K-3.3.6", "proved", ("proved",)),
    ClaimCheck("T-P1", "proved", ("proved", "proved")),
    ClaimCheck("T-P5", "proved", ("proved", "proved")),
    ClaimCheck("S-TH9", "proved", ("proved",) * 6),   # its proof needs a CEGIS refinement
    ClaimCheck("T-P2", "proved", ("proved", "proved")),
    ClaimCheck("T-BRP-DP", "proved", ("proved", "proved")),
    ClaimCheck("T-F2c", "refuted", ("proved", "refuted")),
]

BATTERY = [T + t for t in TESTS] + [C + c.id for c in CLAIMS]


def _claim_settings():
    from symbolic.solve.search import Settings
    return Settings.profile("ci")


def _run_claim(check: ClaimCheck):
    """None if the claim gets its known verdict, else how the difference showed."""
    from symbolic.solve.run import check_claim
    from theorems.registry import get
    try:
        res = check_claim(get(check.id), _claim_settings())
    except Exception as e:  # noqa: BLE001 - an engine crash is a detection, reported as such
        return f"crash in catalogue claim {check.id}: {type(e).__name__}: {str(e)[:120]}"
    v = res.verdict
    for pv in [p.verdict for p in res.parts] + [v]:
        cert = getattr(pv, "certificate", None) or {}
        if cert.get("second_verdict") == "sat" or "solvers disagree" in (getattr(pv, "reason", "") or ""):
            return f"second solver: cvc5 answers sat on a query of {check.id} that z3 called unsat"
        if pv.name == "refuted" and not pv.verified_exactly:
            return f"exact re-verification: a counterexample for {check.id} fails the exact check"
    if v.name != check.verdict:
        why = getattr(v, "reason", "") or ""
        return f"catalogue verdict: {check.id} is {v.name}, expected {check.verdict}" + (f" ({why[:100]})" if why else "")
    if check.parts is not None:
        got = tuple(p.verdict.name for p in res.parts)
        if got != check.parts:
            return f"catalogue verdict: {check.id} parts are {got}, expected {check.parts}"
    if check.at is not None and v.name == "refuted" and v.counterexample.sizes.as_tuple() != check.at:
        return (f"catalogue verdict: {check.id}'s counterexample is at {v.counterexample.sizes.as_tuple()}, "
                f"expected the minimal {check.at}")
    return None


# a test that fails with one of these did not notice the fault: the edited code does not run at all (it names
# something that is not there), so the mutant is broken and must be rewritten, not counted as caught
BROKEN = ("NameError", "UnboundLocalError", "SyntaxError", "ImportError", "ModuleNotFoundError")


def broken_by(report) -> str | None:
    """The crash line of a failed test report when its exception says the code itself is broken (see
    :data:`BROKEN`), else None."""
    crash = getattr(getattr(report, "longrepr", None), "reprcrash", None)
    message = str(getattr(crash, "message", "") or "")
    return message if message.split(":", 1)[0].strip() in BROKEN else None


class _Recorder:
    """pytest plugin: the first failing test (or collection error); ``broken``: a failure that only shows the
    mutant's code cannot run (see :data:`BROKEN`)."""

    def __init__(self):
        self.failed = None
        self.broken = None
        self.ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.failed:
            self.ran += report.when == "call"
        if report.failed and self.failed is None and self.broken is None and broken_by(report):
            self.broken = f"{report.nodeid}: {broken_by(report)[:160]}"
            return
        if report.failed and self.failed is None:
            msg = str(getattr(report, "longreprtext", "") or "").strip().splitlines()
            last = next((l for l in msg if l.startswith("E ")), msg[-1] if msg else "")
            last = " ".join(last[1:].split())
            self.failed = f"{report.nodeid}" + (f" ({last.strip()[:120]})" if last else "")

    def pytest_collectreport(self, report):
        if report.failed and self.failed is None:
            self.failed = f"collecting {report.nodeid} failed"


def _run_tests(args):
    """None if every test passes; the first failure otherwise. A broken detector raises."""
    import pytest
    rec = _Recorder()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        # -n 0: in this process, where the seeded fault is (worker processes would import the clean engine)
        # a test named as a detector runs even where the default run leaves it out as slow
        marks = ["-m", "not browser"] if all("::" in a for a in args) else []
        code = pytest.main([*args, "-x", "-q", "-n", "0", *marks, "-p", "no:cacheprovider", "-p", "no:randomly",
                            "--rootdir", str(ROOT), "-W", "ignore::pytest.PytestAssertRewriteWarning"],
                           plugins=[rec])
    code = int(code)
    if rec.failed is not None:
        return f"test {rec.failed}"
    if rec.broken is not None:
        raise RuntimeError(f"the seeded fault breaks the code instead of changing what it does ({rec.broken})")
    if code != 0 or rec.ran == 0:
        raise RuntimeError(f"detector {' '.join(args)} did not run (pytest exit {code}): {out.getvalue()[-300:]}")
    return None


def missing_detectors(root=None) -> list:
    """The battery's test files and doctest modules that are not on disk under ``root`` (the source tree).
    The tests are not part of an installed package, so outside a source checkout they are all missing,
    and running a mutant then would report a "miss" that is only a missing file."""
    root = ROOT if root is None else Path(root)
    return [t for t in TESTS if not (root / t).is_file()]


NEEDS = ("pytest", "xdist", "hypothesis")   # what the battery's tests run under: the project's test extra
FIX = "git clone <the repository's URL> dpcheck && cd dpcheck && pip install -e '.[test]' && dpcheck selftest"


def source_tree_problem(root=None) -> str | None:
    """Why the battery cannot run from ``root`` (default: the tree this package was imported from), as one
    line that says how to fix it; None when it can. It needs the source tree's tests on disk (an installed
    package has none) and the test extra installed."""
    root = ROOT if root is None else Path(root)
    missing = missing_detectors(root)
    if missing:
        return (f"selftest: needs dpcheck's source tree (a checkout of the repository, with its tests/), and "
                f"{root} has none ({len(missing)} of the battery's {len(TESTS)} test and doctest files missing, e.g. "
                f"{missing[0]}; an installed package ships no tests); run it from a checkout: {FIX}")
    lacking = [m for m in NEEDS if importlib.util.find_spec(m) is None]
    if lacking:
        return (f"selftest: needs the project's test extra ({', '.join(lacking)} not installed); "
                f"in the checkout {root}: pip install -e '.[test]'")
    return None


def _rest(first):
    return [d for d in BATTERY if d not in first]


def run_detectors(detectors, *, progress=None):
    """Run detectors in order (consecutive tests in one pytest session); stop at the first that fires.
    Returns (caught_by or None, detectors run)."""
    claims = {c.id: c for c in CLAIMS}
    i, ran = 0, []
    while i < len(detectors):
        d = detectors[i]
        if d.startswith(T):
            j = i
            while j < len(detectors) and detectors[j].startswith(T):
                j += 1
            group = [x[len(T):] for x in detectors[i:j]]
            if progress:
                progress(", ".join(group))
            ran += detectors[i:j]
            fired = _run_tests(group)
            i = j
        else:
            cid = d[len(C):]
            if progress:
                progress(d)
            ran.append(d)
            fired = _run_claim(claims[cid])
            i += 1
        if fired:
            return fired, ran
    return None, ran


def _prepare():
    """Import every engine module and the catalogue, so that patches reach every reference."""
    os.chdir(ROOT)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import symbolic
    for info in pkgutil.walk_packages(symbolic.__path__, "symbolic."):
        if not info.name.endswith(".plots"):
            importlib.import_module(info.name)
    from theorems.registry import claims
    claims()


def _child(mutant_id, detectors):
    """In the subprocess: patch, run the detectors, print one result line."""
    started = time.monotonic()
    result = {"id": mutant_id, "caught_by": None, "error": None, "ran": []}

    def progress(what):
        print(PROGRESS + what, flush=True)
    try:
        _prepare()
        if mutant_id != "none":
            m = {x.id: x for x in MUTANTS}[mutant_id]
            m.apply()
            # the expected detectors in a session of their own (pytest would merge a test node into
            # its file's later entry and run them in file order), then the rest of the battery
            fired, ran = run_detectors(list(m.first), progress=progress)
            if not fired:
                fired, more = run_detectors(_rest(m.first), progress=progress)
                ran += more
            result["caught_by"], result["ran"] = fired, ran
        else:
            result["caught_by"], result["ran"] = run_detectors(detectors, progress=progress)
    except MissingTarget as e:
        result["error"] = f"the patch target is gone: {e}"
    except Exception as e:  # noqa: BLE001 - reported, never hidden
        result["error"] = f"{type(e).__name__}: {e}"
    result["seconds"] = round(time.monotonic() - started, 2)
    sys.stdout.flush()
    print(MARK + json.dumps(result), flush=True)
    return 0


# --- the parent: run mutants in subprocesses ------------------------------------------------------------

_RUNNING = set()
_LOCK = threading.Lock()


def _spawn(args, limit):
    """Run ``python -m theorems.selftest args`` with a time limit; the parsed result line."""
    cmd = [sys.executable, "-m", "theorems.selftest", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env, start_new_session=True)
    with _LOCK:
        _RUNNING.add(p)
    try:
        out, _ = p.communicate(timeout=limit)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill(p)
        out, _ = p.communicate()
        timed_out = True
    finally:
        with _LOCK:
            _RUNNING.discard(p)
    lines = out.splitlines()
    res = next((json.loads(l[len(MARK):]) for l in reversed(lines) if l.startswith(MARK)), None)
    seconds = round(time.monotonic() - start, 2)
    if res is None:
        last = [l[len(PROGRESS):] for l in lines if l.startswith(PROGRESS)]
        why = (f"time limit of {limit:g} s reached" if timed_out else f"process ended with code {p.returncode}")
        res = {"caught_by": None, "error": why + (f" while running {last[-1]}" if last else "")
               + ("" if timed_out else ": " + " | ".join(lines[-3:])[:300]), "ran": []}
    res["seconds"] = seconds
    return res


def _kill(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_all():
    with _LOCK:
        for p in list(_RUNNING):
            _kill(p)


def _pool(fn, items, jobs):
    """``[fn(x) for x in items]``, ``jobs`` at a time; on an interrupt every child is killed at once."""
    ex = ThreadPoolExecutor(max(1, jobs))
    try:
        futures = [ex.submit(fn, x) for x in items]
        out = [f.result() for f in futures]
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        _kill_all()
        raise
    ex.shutdown()
    return out


def run_battery(jobs=2, limit=600.0):
    """The battery on the unmutated engine, split over ``jobs`` processes: every detector must pass."""
    chunks = [BATTERY[k::jobs] for k in range(jobs)] if jobs > 1 else [BATTERY]
    results = _pool(lambda ch: _spawn(["--run-detectors", ",".join(ch)], limit), chunks, jobs)
    failures = [r["caught_by"] or r["error"] for r in results if r["caught_by"] or r["error"]]
    return {"detectors": len(BATTERY), "passed": not failures, "failures": failures,
            "seconds": round(max(r["seconds"] for r in results), 2)}


def run_mutants(mutants, jobs=2, limit=240.0, report=None):
    """Each mutant in its own process; a row per mutant: id, description, caught_by (None if no
    detector fired), seconds, and error (why it was not run to the end, if so)."""
    def one(m):
        r = _spawn(["--run-mutant", m.id], limit)
        row = {"id": m.id, "description": m.description, "caught_by": r.get("caught_by"),
               "seconds": r["seconds"]}
        if r.get("error"):
            row["error"] = r["error"]
        if report:
            with _LOCK:
                report(row)
        return row
    return _pool(one, mutants, jobs)


class _Terminated(Exception):
    pass


def _on_term(signum, frame):
    raise _Terminated()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="dpcheck selftest", description=(
        "Seeded-fault self-test. Without --mutants: check that the detector battery passes on the "
        "unmutated engine. With --mutants: run every seeded fault and report what caught it."))
    ap.add_argument("--mutants", action="store_true", help="run the seeded faults")
    ap.add_argument("--json", action="store_true", help="print only a JSON document on stdout")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    ap.add_argument("--only", default=None, help="comma-separated mutant IDs")
    ap.add_argument("--limit", type=float, default=240.0, help="seconds per mutant (default 240)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--run-mutant", help=argparse.SUPPRESS)
    ap.add_argument("--run-detectors", help=argparse.SUPPRESS)
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.run_mutant:
        return _child(args.run_mutant, None)
    if args.run_detectors:
        return _child("none", args.run_detectors.split(","))
    if args.jobs < 1 or not args.limit > 0:
        print("selftest: --jobs must be at least 1 and --limit positive", file=sys.stderr)
        return 2
    if args.list:
        for m in MUTANTS:
            print(f"{m.id:<40} {m.description}")
        return 0
    chosen = MUTANTS
    if args.only:
        ids = [x.strip() for x in args.only.split(",") if x.strip()]
        known = {m.id for m in MUTANTS}
        bad = [x for x in ids if x not in known]
        if bad:
            print(f"selftest: unknown mutant {bad[0][:80]!r}; `--list` shows them", file=sys.stderr)
            return 2
        chosen = [m for m in MUTANTS if m.id in ids]
    problem = source_tree_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    start = time.monotonic()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)
    try:
        if not args.mutants:
            say(f"battery on the unmutated engine: {len(BATTERY)} detectors, {args.jobs} processes ...")
            bat = run_battery(args.jobs, max(args.limit, 600.0))
            doc = {"battery": bat, "seconds": round(time.monotonic() - start, 2)}
            if args.json:
                print(json.dumps(doc, indent=2))
            else:
                say("battery passes" if bat["passed"] else "battery FAILS on the unmutated engine:")
                for f in bat["failures"]:
                    say("  " + f)
                say(f"{doc['seconds']:.1f} s")
            return 0 if bat["passed"] else 1

        say(f"{len(chosen)} mutants, {args.jobs} at a time, {args.limit:g} s each at most")
        say(f"{'mutant':<40} {'caught by':<70} {'s':>6}")
        results = run_mutants(chosen, args.jobs, args.limit, report=lambda r: say(
            f"{r['id']:<40} {(r['caught_by'] or 'MISSED: ' + r.get('error', 'no detector fired'))[:70]:<70} "
            f"{r['seconds']:6.1f}"))
    except (KeyboardInterrupt, _Terminated) as e:
        _kill_all()
        print("selftest: interrupted; no result", file=sys.stderr)
        return 143 if isinstance(e, _Terminated) else 130
    missed = [r["id"] for r in results if not r["caught_by"]]
    doc = {"mutants": len(results), "caught": len(results) - len(missed), "missed": missed,
           "results": results, "seconds": round(time.monotonic() - start, 2)}
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        say(f"{doc['caught']}/{doc['mutants']} caught in {doc['seconds']:.0f} s"
            + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
