"""A second solver: cvc5 decides the same z3 queries, built term by term through its own API.

The z3 terms are read once into the DAG of :mod:`symbolic.solve.backends.smt2` (so the SMT-LIB export and
this backend translate the same operations the same way) and each node becomes one cvc5
term via ``TermManager.mkTerm``; no SMT-LIB text is printed or parsed. cvc5 runs with the
logic QF_NRA, first with its complete procedure for nonlinear real arithmetic (cylindrical
algebraic coverings, ``nl-cov``), then, if that gives up, with incremental linearisation.

Each query is bounded by cvc5's resource limit (``rlimit-per``, a count of its steps: the same answer
on any machine and under any load) and reports the units it spent; the wall clock is only the safety
net. cvc5's own time limit (``tlimit-per``) is not always honoured (the query of an adaptive composition
of two ε-DP mechanisms under a 5 s limit was still running at 12 s; 8 of 92 catalogue queries
overran a 10 s limit by 3 s), so by default cvc5 runs in a child process that is killed at the
wall-clock limit; the DAG is sent to it as JSON. A proof by many small queries (the vertices route
gives thousands, each decided in about 2 ms while a child takes about 0.1 s to start) has them
decided in batches, many queries to one child, each answer due within the limit of the one before
(:func:`decide_batch`; one query alone is a batch of one). A wrong "unsat" is the worst outcome, so anything
outside the translated fragment, any cvc5 error, a crash or a kill is "unknown" with a reason,
never a guess.
"""
from __future__ import annotations

import functools
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

import cvc5
from cvc5 import Kind

from symbolic.solve.backends.smt2 import Dag, Unsupported, lower, renaming_key

_KINDS = {
    "+": Kind.ADD, "-": Kind.SUB, "*": Kind.MULT, "/": Kind.DIVISION, "<=": Kind.LEQ, "<": Kind.LT,
    ">=": Kind.GEQ, ">": Kind.GT, "=": Kind.EQUAL, "distinct": Kind.DISTINCT, "and": Kind.AND,
    "or": Kind.OR, "not": Kind.NOT, "=>": Kind.IMPLIES, "xor": Kind.XOR, "ite": Kind.ITE,
    "to_real": Kind.TO_REAL,
}
_UNARY_MINUS = "neg"   # the DAG writes both subtraction and negation as "-"; arity tells them apart

# Tried in order, each on a fresh solver, while time remains. Both are sound procedures of cvc5
# for QF_NRA (neither approximates); they differ in which queries they finish:
# "coverings" is cvc5's default for QF_NRA (complete, but it gives up on some of our queries
# with INCOMPLETE), "linearisation" is incremental linearisation with all its lemma schemes.
CONFIGS = (
    ("coverings", (("nl-cov", "true"),)),
    ("linearisation", (("nl-cov", "false"), ("nl-ext", "full"))),
)
_COMMON = (("produce-models", "false"), ("incremental", "false"))
GRACE = 3.0   # seconds the child may take beyond the limit (start-up, translation) before it is killed
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # holds `symbolic`


@dataclass(frozen=True)
class Decision:
    """cvc5's answer on one query: ``status`` is "unsat", "sat" or "unknown"; ``reason`` says why
    (which configuration decided, the unknown explanation, or the unsupported operator)."""

    status: str
    reason: str
    seconds: float
    units: int = 0     # cvc5 resource units spent (0 when unknown, e.g. a killed child)

    def pair(self) -> tuple:
        """(status, reason)."""
        return self.status, self.reason


@functools.lru_cache(maxsize=1)
def version() -> str:
    """The cvc5 version in use, e.g. ``cvc5 1.4.2``."""
    v = cvc5.Solver(cvc5.TermManager()).getVersion()
    return f"cvc5 {v.decode() if isinstance(v, bytes) else v}"


# --- the DAG as plain data (what the child process receives) --------------------------------------

def payload(dag: Dag) -> dict:
    """The DAG as JSON-able data: nodes ``[op, args, sort, value]`` (numerals as "p/q"), roots, logic."""
    nodes = []
    for n in dag.nodes:
        op = _UNARY_MINUS if n.op == "-" and len(n.args) == 1 else n.op
        value = f"{n.value.numerator}/{n.value.denominator}" if n.op == "num" else n.value
        nodes.append([op, list(n.args), n.sort, value])
    return {"nodes": nodes, "roots": list(dag.roots), "logic": dag.logic}


def _leaf(tm, op: str, sort, value):
    """The cvc5 term of a constant, numeral or truth value."""
    if op == "true":
        return tm.mkTrue()
    if op == "false":
        return tm.mkFalse()
    if op == "const":
        return tm.mkConst(sort, str(value))
    if op == "num":
        p, q = (int(x) for x in str(value).split("/"))
        if sort.isInteger():
            if q != 1:
                raise Unsupported(f"integer numeral {value}")
            return tm.mkInteger(str(p))
        return tm.mkReal(f"{p}/{q}")
    raise Unsupported(op)


def to_cvc5(tm, data: dict) -> list:
    """cvc5 terms of the payload's roots, one ``mkTerm`` per node, nodes in topological order."""
    sorts = {"Real": tm.getRealSort(), "Int": tm.getIntegerSort(), "Bool": tm.getBooleanSort()}
    terms = []
    for i, (op, args, sort, value) in enumerate(data["nodes"]):
        if sort not in sorts or any(not 0 <= a < i for a in args):
            raise Unsupported(f"malformed node {i}")
        if not args:
            terms.append(_leaf(tm, op, sorts[sort], value))
        elif op == _UNARY_MINUS and len(args) == 1:
            terms.append(tm.mkTerm(Kind.NEG, terms[args[0]]))
        elif op in _KINDS:
            terms.append(tm.mkTerm(_KINDS[op], *[terms[a] for a in args]))
        else:
            raise Unsupported(op)
    return [terms[r] for r in data["roots"]]


# --- solving ---------------------------------------------------------------------------------------

def _check(data: dict, options, seconds: float, rlimit: int | None = None):
    """One cvc5 run on a fresh solver with the given options: its Result and the resource units it spent.
    ``rlimit``: cvc5 resource units (the effort; None: none), ``seconds``: the wall-clock safety net."""
    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setLogic(data["logic"])
    for name, value in _COMMON + tuple(options):
        s.setOption(name, value)
    s.setOption("tlimit-per", str(max(1, math.ceil(1000 * seconds))))
    if rlimit is not None:
        s.setOption("rlimit-per", str(max(1, int(rlimit))))
    for term in to_cvc5(tm, data):
        s.assertFormula(term)
    result = s.checkSat()
    return result, _units(s)


def _units(solver) -> int:
    """cvc5's count of the resource units a solver spent."""
    try:
        stat = solver.getStatistics().get(True, True).get("resource::resourceUnitsUsed", {})
        return int(stat.get("value", 0))
    except (RuntimeError, AttributeError, TypeError, ValueError):
        return 0


def _explain(result) -> str:
    """A short unknown explanation: INCOMPLETE, "effort limit" (cvc5's RESOURCEOUT) or "wall-clock
    safety limit" (TIMEOUT)."""
    text = str(result.getUnknownExplanation()).replace("UnknownExplanation.", "")
    return {"RESOURCEOUT": "effort limit", "TIMEOUT": "wall-clock safety limit"}.get(text, text)


def solve(data: dict, timeout: float, configs=CONFIGS, rlimit: int | None = None, units_out: list | None = None) -> tuple:
    """Decide a payload in this process: try ``configs`` in order, each with ``rlimit`` cvc5 resource
    units (the effort; None: none) and within ``timeout`` seconds in all (the safety net). Only a
    definite answer of cvc5 counts; cvc5 errors and untranslatable terms give "unknown". The units
    spent are appended to ``units_out`` when given."""
    end, notes, spent = time.monotonic() + timeout, [], 0
    try:
        for name, options in configs:
            left = end - time.monotonic()
            if left <= 0.05:
                notes.append("wall-clock safety limit")
                break
            result, used = _check(data, options, left, rlimit)
            spent += used
            if result.isUnsat() or result.isSat():
                status = "unsat" if result.isUnsat() else "sat"
                return status, f"{version()} ({name}): {status}"
            notes.append(f"{name}: {_explain(result)}")
    except Unsupported as e:
        return "unknown", f"cvc5 converter: unsupported operator {e.op}"
    except RuntimeError as e:  # cvc5's API errors derive from RuntimeError
        return "unknown", f"cvc5 error: {(str(e).splitlines() or [type(e).__name__])[0][:200]}"
    finally:
        if units_out is not None:
            units_out.append(spent)
    return "unknown", "cvc5: " + ("; ".join(notes) or "no time left")


def _child_main():
    """Entry of the child process: a JSON request with a ``batch`` of queries on stdin, one JSON line
    per query on stdout, in order, each flushed as soon as it is decided (with its index). An alarm,
    set again before each query, ends the process even if the parent is gone and cvc5 ignores its
    own limit (no orphan runs on); no query is started after ``budget`` seconds. Each query has
    ``rlimit`` cvc5 resource units (None: no count); after a query cvc5 does not decide, the rest get
    ``short`` seconds and ``short_rlimit`` units. Each answer says the units it spent.

    cvc5 does not look at its step count inside some procedures (its coverings can run for minutes on
    a query with a count of a few thousand steps), so each query also has ``cpu`` seconds of this
    process's processor time (a profiling timer: SIGPROF's default action ends the process). Processor
    time, unlike the wall clock, does not grow when the machine is busy."""
    req = json.loads(sys.stdin.read())
    configs = [(name, [tuple(o) for o in options]) for name, options in req["configs"]]
    end, timeout, rlimit = time.monotonic() + req["budget"], req["timeout"], req.get("rlimit")
    cpu = req.get("cpu")
    for i, data in enumerate(req["batch"]):
        if time.monotonic() >= end:
            return
        if hasattr(signal, "alarm"):
            signal.alarm(math.ceil(timeout + 2 * GRACE))  # SIGALRM's default action ends the process
        if cpu and hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_PROF, cpu)
        spent = []
        status, reason = solve(data, timeout, configs, rlimit, spent)
        if cpu and hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_PROF, 0)
        sys.stdout.write(json.dumps({"index": i, "status": status, "reason": reason, "units": sum(spent)}) + "\n")
        sys.stdout.flush()
        if status != "unsat":
            timeout = min(timeout, req["short"])
            cpu = min(cpu, req["short"]) if cpu else cpu
            if rlimit is not None and req.get("short_rlimit") is not None:
                rlimit = min(rlimit, req["short_rlimit"])


_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); "
          "from symbolic.solve.backends.cvc5_backend import _child_main; _child_main()")


def _configs(configs):
    return [[n, [list(o) for o in opts]] for n, opts in configs]


def _answer(line: bytes, index: int) -> tuple:
    """(status, reason, units) from one line of a batch child; anything malformed or out of order is "unknown"."""
    try:
        ans = json.loads(line)
        status, reason, at = ans["status"], str(ans["reason"]), ans["index"]
        units = ans.get("units", 0)
        units = units if isinstance(units, int) and not isinstance(units, bool) and units >= 0 else 0
    except (ValueError, KeyError, TypeError, AttributeError):
        return "unknown", "cvc5 process: malformed answer", 0
    if at != index or status not in ("unsat", "sat", "unknown"):
        return "unknown", f"cvc5 process: answer {at!r} {status!r} where query {index} was due", units
    return status, reason, units


def _batch_child(datas, timeout, short, budget, configs, rlimit=None, short_rlimit=None, cpu=None) -> list:
    """(status, reason, units) for a prefix of ``datas`` (at least the first, unless ``budget`` is out),
    all decided in one child process with ``rlimit`` cvc5 units a query: each answer is due ``timeout``
    + GRACE seconds after the one before (the safety net); a query that overruns is "unknown" (the
    child is killed and the prefix ends there)."""
    req = json.dumps({"batch": datas, "timeout": timeout, "short": short, "budget": min(budget, 1e9),
                      "rlimit": rlimit, "short_rlimit": short_rlimit, "cpu": cpu,
                      "configs": _configs(configs)}).encode()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, _ROOT], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = queue.Queue()   # the child's lines as they come (None at its end), read by a thread

    def pump():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)
    out, per, t0 = [], timeout, time.monotonic()
    try:
        threading.Thread(target=pump, daemon=True).start()
        proc.stdin.write(req)
        proc.stdin.close()
        due = time.monotonic() + per + GRACE
        while len(out) < len(datas):
            try:
                line = lines.get(timeout=max(0.0, due - time.monotonic()))
            except queue.Empty:
                out.append(("unknown", f"cvc5: wall-clock safety limit, no answer within {per:g} s (+{GRACE:g} s "
                                       f"grace); process killed", 0))
                break
            if line is None:   # the child ended: at its budget (nothing is owed), its processor time, or by a crash
                try:
                    code = proc.wait(timeout=GRACE)
                except subprocess.TimeoutExpired:
                    code = None
                if code == -getattr(signal, "SIGPROF", -1):
                    left = (cpu if not out or out[-1][0] == "unsat" else min(cpu, short)) if cpu else cpu
                    out.append(("unknown", f"cvc5: effort limit ({left:g} s of processor time: cvc5 did not stop "
                                           f"at its step count); process ended", rlimit or 0))
                elif time.monotonic() - t0 < budget:
                    out.append(("unknown", "cvc5 process ended without an answer", 0))
                break
            out.append(_answer(line, len(out)))
            if out[-1][0] != "unsat":
                per = min(per, short)
            due = time.monotonic() + per + GRACE
    except OSError as e:
        out.append(("unknown", f"cvc5 process: {e}", 0))
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    return out


def decide_batch(datas, *, timeout: float, short: float = None, budget: float = None, configs=CONFIGS,
                 effort: int | None = None, short_effort: int | None = None, cpu: float | None = None) -> list:
    """:class:`Decision` for each prepared query of ``datas``, in order, decided one after another
    in as few child processes as can be (a child starts in about 0.1 s, a small query takes
    milliseconds): ``timeout`` seconds a query, ``short`` after one cvc5 does not decide; no query
    is started after ``budget`` seconds, so the list may be shorter than ``datas`` (those are the safety
    net; ``effort`` cvc5 units a query, ``short_effort`` after an undecided one, decide). An untranslatable
    query (a :class:`Decision` already) is passed through; a killed or crashed child's query is
    "unknown" and the rest go to a fresh child (so every child answers at least one query)."""
    t0 = time.monotonic()
    short = timeout if short is None else short
    budget = math.inf if budget is None else budget
    out = []
    while len(out) < len(datas):
        left = budget - (time.monotonic() - t0)
        if left <= 0:
            break
        todo = datas[len(out):]
        head = next((k for k, d in enumerate(todo) if isinstance(d, Decision)), len(todo))
        if head == 0:
            out.append(todo[0])
            continue
        start = time.monotonic()
        answers = _batch_child(todo[:head], timeout, short, left, configs, effort, short_effort, cpu)
        if not answers:
            break
        each = (time.monotonic() - start) / len(answers)
        out += [Decision(st, reason, each, units) for st, reason, units in answers]
        if any(st != "unsat" for st, _, _ in answers):
            timeout = min(timeout, short)
            if effort is not None and short_effort is not None:
                effort = min(effort, short_effort)
            cpu = min(cpu, short) if cpu else cpu
    return out


def prepare(assertions):
    """The query as plain data for :func:`decide_payload`, or an unknown :class:`Decision` when it has a
    term the converter does not translate. Reads z3 terms, so call it from one thread at a time."""
    t0 = time.monotonic()
    try:
        return payload(lower(assertions))
    except Unsupported as e:
        return Decision("unknown", f"cvc5 converter: unsupported operator {e.op}", time.monotonic() - t0)


def payload_key(data) -> str | None:
    """:func:`~symbolic.solve.backends.smt2.renaming_key` of a prepared query: equal for two queries that
    are the same formula up to a renaming of their constants, so one answer serves both. None for a
    query that is not a payload (an untranslatable one).

    >>> a = {"nodes": [["const", [], "Real", "x"], ["num", [], "Real", "1/1"], ["<", [0, 1], "Bool", None]],
    ...      "roots": [2], "logic": "QF_LRA"}
    >>> b = {**a, "nodes": [["const", [], "Real", "y"], *a["nodes"][1:]]}
    >>> payload_key(a) == payload_key(b), payload_key({**a, "logic": "QF_NRA"}) == payload_key(a)
    (True, False)
    """
    return renaming_key(data["nodes"], data["roots"], data["logic"]) if isinstance(data, dict) else None


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
        status, reason, units = _batch_child([data], timeout, timeout, math.inf, configs)[0]
    else:
        spent = []
        status, reason = solve(data, timeout, configs, units_out=spent)
        units = sum(spent)
    return Decision(status, reason, time.monotonic() - t0, units)


def decide_timed(assertions, *, timeout: float, isolate: bool = True, configs=CONFIGS) -> Decision:
    """:func:`decide`, with the wall-clock seconds it took (translation and process start included)."""
    t0 = time.monotonic()
    d = decide_payload(prepare(assertions), timeout=timeout, isolate=isolate, configs=configs)
    return Decision(d.status, d.reason, time.monotonic() - t0, d.units)


def decide(assertions, *, timeout: float, isolate: bool = True) -> tuple:
    """Decide the conjunction of ``assertions`` (z3 Booleans, Python bools allowed) with cvc5 within
    about ``timeout`` seconds: ("unsat" | "sat" | "unknown", reason). Never raises on a term it cannot
    translate, a cvc5 error or a hang: those give "unknown". ``isolate=False`` runs cvc5 in this
    process (faster to start, but a hang inside cvc5 then cannot be cut off)."""
    return decide_timed(assertions, timeout=timeout, isolate=isolate).pair()
