"""cvc5 in child processes: batches of queries, each query climbing a ladder of cvc5's configurations.

cvc5's own time limit is not always honoured (the query of an adaptive composition of two ε-DP mechanisms
under a 5 s limit was still running at 12 s), and its coverings may run on past its step count, so cvc5
runs in a child process, which a profiling timer ends at its processor-time share (processor time, unlike
the wall clock, does not grow with the machine's load) and the parent kills at the wall-clock safety
limit. The query's DAG is sent as JSON. A proof by many small queries (the vertices route gives thousands,
each decided in about 2 ms while a child takes about 0.1 s to start) has them decided in batches, many
queries to one child, each line due within the limit of the one before; a query cut at a stage goes on
at its next stage in a fresh child. Anything outside the translated fragment, any cvc5 error, a crash or
a kill is "unknown" with a reason, never a guess; an undecided query carries the (stage, limit) of each stage
that left it so ("resource", "time", "incomplete": :func:`~symbolic.solve.backends.cvc5_backend.limit_of`).
"""
from __future__ import annotations

import json
import math
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from symbolic.solve.backends.cvc5_backend import (COUNTED, CONFIGS, RESOURCE, TIME, Decision, prepare, rewritten,
                                                   solve)
from symbolic.solve.backends.substitution import ops_for

GRACE = 3.0   # seconds the child may take beyond the limit (start-up, translation) before it is killed
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # holds `symbolic`


# The ladder a query climbs in a child process while cvc5 has not decided it: (configuration, share of
# the query's processor seconds; each stage has all of its cvc5 units). Coverings decides most of our
# queries in well under a second, but where it does not it may run on past its step count (only processor
# time stops it, by ending the child), while linearisation stops at its count and decides most of those in
# under a second. First coverings on the query with its linear equalities solved ("substitution": 95 % of
# the queries it applies to decided within 0.16 s), a sixteenth of the processor time (0.5 s at the ci
# level); then coverings on the query as it is, a sixteenth; then linearisation, all of it; then coverings
# seven sixteenths (3.5 s) again, only when its sixteenth was cut while it was still working (a stage that
# repeats a configuration runs only then). The last stage is a margin: processor time is not quite free of
# the machine's load, and in a busy audit a query that coverings decides in 0.85 s alone was cut at 2 s
# without it. On the 417 distinct queries of ten proofs, each configuration alone measured
# (bench/second_solver_queries.py) and the ladders replayed on those times: coverings 1/8, linearisation,
# coverings 3/8 (the ladder before the substitution) 67 s with 8 queries left undecided; with the
# substitution first at 1/8, 47 s; this ladder 35 s; all decided by both. In the audit: 30 of the 40 proofs
# confirmed without the substitution, 35 with it.
LADDER = (("substitution", 0.0625), ("coverings", 0.0625), ("linearisation", 1.0), ("coverings", 0.4375))
# A stage of a configuration that stops at its step count (cvc5_backend.COUNTED) has this many times its share
# of processor time: there the count ends the stage, on a machine up to that much slower than the nominal rate
# too, and the processor time is only a safety net. The rewrite before a stage counts operations, not time.
COUNTED_MARGIN = 2.0


def _slice(name: str, share: float, cpu: float) -> float:
    """The processor seconds of a stage of configuration ``name`` with ``share`` of ``cpu``.

    >>> _slice("coverings", 0.0625, 8.0), _slice("linearisation", 1.0, 8.0)
    (0.5, 16.0)
    """
    return cpu * share * (COUNTED_MARGIN if name in COUNTED else 1.0)


def _each_once(configs) -> list:
    """The ladder that tries each configuration once, with all of the processor time."""
    return [(name, 1.0) for name, _ in configs]


def _runs(ladder, k: int, cut, short: bool) -> bool:
    """Whether stage ``k`` of the ladder runs on a query: the first use of its configuration always; a repeat
    only when that configuration's last stage was cut at its share of the processor time (``cut``: the names
    of such configurations), and not in ``short`` mode (after a query the batch did not decide)."""
    name = ladder[k][0]
    again = any(n == name for n, _ in ladder[:k])
    return not again or (not short and name in cut)


def _later(ladder, k: int, cut, short: bool) -> list:
    """The stages after ``k`` that run, given the configurations ``cut`` so far.

    >>> _later(LADDER, 1, {"coverings"}, False), _later(LADDER, 1, set(), False), _later(LADDER, 1, {"coverings"}, True)
    ([2, 3], [2], [2])
    >>> _later(LADDER, 2, {"linearisation"}, False), _later(LADDER, -1, set(), False)
    ([], [0, 1, 2])
    """
    return [j for j in range(k + 1, len(ladder)) if _runs(ladder, j, cut, short)]


def _say(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _child_main():
    """Entry of the child process: a JSON request with a ``batch`` of queries on stdin; for each query,
    a line ``{"index", "stage"}`` as each stage of the :data:`LADDER` starts and a line with the answer
    (``status``, ``reason``, ``units``, ``stages``) when it is decided or the stages are spent, each flushed
    at once. A stage has ``rlimit`` cvc5 units and its :func:`_slice` of ``cpu`` seconds of this process's
    processor time (a profiling timer: SIGPROF's default action ends the process, the only way to stop cvc5
    where it does not look at its step count; processor time, unlike the wall clock, does not grow when the
    machine is busy); a rewrite before it, its share of the units in operations
    (:func:`~symbolic.solve.backends.substitution.ops_for`). An alarm, set again before each stage, ends the
    process even if the parent is gone
    (no orphan runs on); no query is started after ``budget`` seconds. ``resume``: the stage at which the
    first query was cut in the child before this one; ``short``: no repeated stages (set after a query
    is left undecided)."""
    req = json.loads(sys.stdin.read())
    configs = {name: [tuple(o) for o in options] for name, options in req["configs"]}
    ladder = [(name, share) for name, share in req.get("ladder") or _each_once(req["configs"])]
    end, timeout, rlimit, cpu = time.monotonic() + req["budget"], req["timeout"], req.get("rlimit"), req.get("cpu")
    resume, short = req.get("resume"), bool(req.get("short"))
    for i, data in enumerate(req["batch"]):
        if time.monotonic() >= end:
            return
        status, notes, units, decided, queries, stages = "unknown", [], 0, None, {}, []
        first, cut = (resume["stage"] + 1, set(resume["cut"])) if i == 0 and resume else (0, set())
        for k in range(first, len(ladder)):
            if not _runs(ladder, k, cut, short):
                continue
            name, share = ladder[k]
            if hasattr(signal, "alarm"):
                signal.alarm(math.ceil(timeout + 2 * GRACE))  # SIGALRM's default action ends the process
            if name not in queries:   # the rewrite, if the configuration has one, counts its operations
                queries[name], why = rewritten(name, data, None if rlimit is None else ops_for(rlimit, share))
                if why is not None:
                    notes.append(f"{name}: {why}")
                    stages.append((name, RESOURCE))
            query = queries[name]
            if query is None:
                continue
            _say({"index": i, "stage": k, "cut": sorted(cut), "notes": notes, "units": units, "stages": stages})
            if cpu and hasattr(signal, "setitimer"):
                signal.setitimer(signal.ITIMER_PROF, _slice(name, share, cpu))
            spent = []
            status, reason = solve(query, timeout, [(name, configs[name])], rlimit, spent, rewrite=False,
                                   stages_out=stages)
            if cpu and hasattr(signal, "setitimer"):
                signal.setitimer(signal.ITIMER_PROF, 0)
            units += sum(spent)
            if status != "unknown":
                decided = reason
                break
            notes.append(reason.removeprefix("cvc5: "))
        _say({"index": i, "status": status, "reason": decided or "cvc5: " + ("; ".join(notes) or "no stage run"),
              "units": units, "stages": stages})
        short = short or status != "unsat"


_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); "
          "from symbolic.solve.backends.cvc5_child import _child_main; _child_main()")


def _configs(configs):
    return [[n, [list(o) for o in opts]] for n, opts in configs]


def _reported_units(value) -> int:
    """A count of cvc5 units as a child reported it: a non-negative integer, anything else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _reported_stages(value) -> tuple:
    """(stage, limit) pairs as a child reported them: pairs of text; anything else is left out.

    >>> _reported_stages([["coverings", "time"], ["x"], 3, ["linearisation", "resource"]])
    (('coverings', 'time'), ('linearisation', 'resource'))
    """
    return tuple((p[0], p[1]) for p in value if isinstance(p, (list, tuple)) and len(p) == 2
                 and all(isinstance(x, str) for x in p)) if isinstance(value, list) else ()


_BROKEN = (("cvc5 process", "error"),)


def _answer(line: bytes, index: int):
    """(status, reason, units, stages) from one answer line of a batch child, or (stage, configurations cut,
    notes, units, stages) of a stage line (the notes, units and (stage, limit) pairs of the query's earlier
    stages in this child); anything malformed or out of order is "unknown"."""
    try:
        ans = json.loads(line)
        if "status" not in ans and isinstance(ans.get("stage"), int) and ans.get("index") == index:
            return (ans["stage"], tuple(str(c) for c in ans.get("cut", ())),
                    tuple(str(n) for n in ans.get("notes", ())), _reported_units(ans.get("units", 0)),
                    _reported_stages(ans.get("stages", [])))
        status, reason, at = ans["status"], str(ans["reason"]), ans["index"]
        units, stages = _reported_units(ans.get("units", 0)), _reported_stages(ans.get("stages", []))
    except (ValueError, KeyError, TypeError, AttributeError):
        return "unknown", "cvc5 process: malformed answer", 0, _BROKEN
    if at != index or status not in ("unsat", "sat", "unknown"):
        return "unknown", f"cvc5 process: answer {at!r} {status!r} where query {index} was due", units, _BROKEN
    return status, reason, units, stages


@dataclass(frozen=True)
class Cut:
    """A query whose stage ``stage`` was cut by its processor slice while later stages remain: the next
    child resumes it after that stage, with the configurations ``cut`` at their share so far (that one
    included) and the ``units``, ``notes`` and (stage, limit) pairs (``stages``) of its stages so far."""
    stage: int
    cut: tuple
    units: int
    notes: tuple
    stages: tuple = ()


def _batch_child(datas, timeout, budget, configs, ladder, rlimit=None, cpu=None, resume: Cut | None = None,
                 short=False, until_undecided=False, cancel=None) -> tuple:
    """(answers, cut): (status, reason, units, stages) for a prefix of ``datas`` (at least the first, unless
    ``budget`` is out or it was cut), all decided in one child process, each line due ``timeout`` + GRACE
    seconds after the one before (the safety net; a query that overruns is "unknown", the child killed
    and the prefix ends there). ``cut``: a :class:`Cut` for the query after the prefix when the child ended
    at a stage's processor slice with stages to come, else None. ``until_undecided``: the prefix ends at the
    first answer that is not "unsat"; ``cancel`` (an Event): once set, the child is killed and the prefix
    ends with the answers so far."""
    ladder = list(ladder)
    req = json.dumps({"batch": datas, "timeout": timeout, "budget": min(budget, 1e9), "rlimit": rlimit, "cpu": cpu,
                      "configs": _configs(configs), "ladder": ladder,
                      "resume": resume and {"stage": resume.stage, "cut": list(resume.cut)},
                      "short": short}).encode()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, _ROOT], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = queue.Queue()   # the child's lines as they come (None at its end), read by a thread

    def pump():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)
    out, cut, t0, stage = [], None, time.monotonic(), None
    carried = resume or Cut(-1, (), 0, (), ())
    try:
        threading.Thread(target=pump, daemon=True).start()
        proc.stdin.write(req)
        proc.stdin.close()
        due = time.monotonic() + timeout + GRACE
        while len(out) < len(datas):
            if cancel is not None and cancel.is_set():
                break
            try:
                line = lines.get(timeout=max(0.0, min(0.2, due - time.monotonic())))
            except queue.Empty:
                if time.monotonic() < due:
                    continue
                out.append(("unknown", f"cvc5: wall-clock safety limit, no answer within {timeout:g} s (+{GRACE:g} s "
                                       f"grace); process killed", 0,
                            (carried.stages if not out else ()) + (stage[4] if stage else ())
                            + ((ladder[stage[0]][0] if stage else "cvc5 process", TIME),)))
                break
            due = time.monotonic() + timeout + GRACE
            if line is None:   # the child ended: at its budget (nothing is owed), its processor time, or by a crash
                try:
                    code = proc.wait(timeout=GRACE)
                except subprocess.TimeoutExpired:
                    code = None
                if code == -getattr(signal, "SIGPROF", -1) and stage is not None:
                    (k, was_cut, before, spent, done), (name, share) = stage, ladder[stage[0]]
                    units = (carried.units if not out else 0) + spent + int((rlimit or 0) * share)
                    seconds = _slice(name, share, cpu)
                    notes = (carried.notes if not out else ()) + before + (f"{name}: time limit ({seconds:g} s of "
                                                                  f"processor time; cvc5 did not stop at its step "
                                                                  f"count)",)
                    stages = (carried.stages if not out else ()) + done + ((name, TIME),)
                    if _later(ladder, k, set(was_cut) | {name}, short):
                        cut = Cut(k, tuple(sorted(set(was_cut) | {name})), units, notes, stages)
                    else:
                        out.append(("unknown", "cvc5: " + "; ".join(notes) + "; process ended", units, stages))
                elif time.monotonic() - t0 < budget:
                    out.append(("unknown", "cvc5 process ended without an answer", 0, _BROKEN))
                break
            got = _answer(line, len(out))
            if isinstance(got[0], int):
                stage = got
                continue
            status, reason, units, stages = got
            if not out and resume is not None:   # the stages of the child before this one count too
                units += carried.units
                stages = carried.stages + stages
                if status == "unknown":
                    reason = "cvc5: " + "; ".join(carried.notes + (reason.removeprefix("cvc5: "),))
            out.append((status, reason, units, stages))
            stage = None
            short = short or status != "unsat"
            if until_undecided and status != "unsat":
                break
    except OSError as e:
        out.append(("unknown", f"cvc5 process: {e}", 0, _BROKEN))
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return out, cut


def decide_batch(datas, *, timeout: float, budget: float = None, configs=CONFIGS, ladder=None,
                 effort: int | None = None, cpu: float | None = None, until_undecided: bool = False,
                 cancel=None) -> list:
    """:class:`Decision` for each prepared query of ``datas``, in order, decided one after another
    in as few child processes as can be (a child starts in about 0.1 s, a small query takes
    milliseconds), each query climbing the ``ladder`` (default :data:`LADDER` for the default configurations,
    else each configuration once) with ``effort`` cvc5 units and ``cpu`` processor seconds (these decide);
    ``timeout`` seconds a stage and no query started after ``budget`` seconds (the safety net), so the list
    may be shorter than ``datas``. After a query is left undecided, the later ones skip repeated stages.
    An untranslatable query (a :class:`Decision` already) is passed through; a killed or crashed child's
    query is "unknown" and the rest go to a fresh child (so every child answers at least one query); a query
    cut at a stage's processor slice goes on in a fresh child at its next stage. ``until_undecided``: the
    list ends at the first query that is not "unsat" (the proof it belongs to cannot be fully confirmed);
    ``cancel``: a threading.Event that, once set, ends the list where it is (the child is killed)."""
    t0 = time.monotonic()
    budget = math.inf if budget is None else budget
    ladder = (LADDER if configs is CONFIGS else _each_once(configs)) if ladder is None else ladder
    out, cut, short = [], None, False
    while len(out) < len(datas):
        left = budget - (time.monotonic() - t0)
        if left <= 0 or (cancel is not None and cancel.is_set()) or \
                (until_undecided and any(d.status != "unsat" for d in out)):
            break
        todo = datas[len(out):]
        head = next((k for k, d in enumerate(todo) if isinstance(d, Decision)), len(todo))
        if head == 0:
            out.append(todo[0])
            continue
        start = time.monotonic()
        answers, cut = _batch_child(todo[:head], timeout, left, configs, ladder, effort, cpu, cut, short,
                                    until_undecided, cancel)
        if not answers and cut is None:
            break
        each = (time.monotonic() - start) / max(1, len(answers))
        out += [Decision(st, reason, each, units, stages) for st, reason, units, stages in answers]
        short = short or any(a[0] != "unsat" for a in answers)
    return out


def decide_payload(data, *, timeout: float, isolate: bool = True, configs=CONFIGS) -> Decision:
    """Decide a prepared query within about ``timeout`` seconds (no z3 term is touched, so several
    may run at once from threads, each in its own child process)."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
            or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if isinstance(data, Decision):
        return data
    t0 = time.monotonic()
    if isolate:   # a batch of one: a child with no budget answers at least this query
        status, reason, units, stages = _batch_child([data], timeout, math.inf, configs, _each_once(configs))[0][0]
    else:
        spent, stages = [], []
        status, reason = solve(data, timeout, configs, units_out=spent, stages_out=stages)
        units, stages = sum(spent), tuple(stages)
    return Decision(status, reason, time.monotonic() - t0, units, stages)


def decide_timed(assertions, *, timeout: float, isolate: bool = True, configs=CONFIGS) -> Decision:
    """:func:`decide`, with the wall-clock seconds it took (translation and process start included)."""
    t0 = time.monotonic()
    d = decide_payload(prepare(assertions), timeout=timeout, isolate=isolate, configs=configs)
    return Decision(d.status, d.reason, time.monotonic() - t0, d.units, d.stages)


def decide(assertions, *, timeout: float, isolate: bool = True) -> tuple:
    """Decide the conjunction of ``assertions`` (z3 Booleans, Python bools allowed) with cvc5 within
    about ``timeout`` seconds: ("unsat" | "sat" | "unknown", reason). Never raises on a term it cannot
    translate, a cvc5 error or a hang: those give "unknown". ``isolate=False`` runs cvc5 in this
    process (faster to start, but a hang inside cvc5 then cannot be cut off)."""
    return decide_timed(assertions, timeout=timeout, isolate=isolate).pair()
