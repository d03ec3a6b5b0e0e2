"""A second solver: cvc5 decides the same z3 queries, built term by term through its own API.

The z3 terms are read once into the DAG of :mod:`symbolic.solve.smt2` (so the SMT-LIB export and
this backend translate the same operations the same way) and each node becomes one cvc5
term via ``TermManager.mkTerm``; no SMT-LIB text is printed or parsed. cvc5 runs with the
logic QF_NRA, first with its complete procedure for nonlinear real arithmetic (cylindrical
algebraic coverings, ``nl-cov``), then, if that gives up, with incremental linearisation.

cvc5's own time limit (``tlimit-per``) is not always honoured (the query of an adaptive composition
of two ε-DP mechanisms under a 5 s limit was still running at 12 s; 8 of 92 catalogue queries
overran a 10 s limit by 3 s), so by default cvc5 runs in a child process that is killed at the
wall-clock limit; the DAG is sent to it as JSON. A wrong "unsat" is the worst outcome, so anything
outside the translated fragment, any cvc5 error, a crash or a kill is "unknown" with a reason,
never a guess.
"""
from __future__ import annotations

import functools
import json
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

import cvc5
from cvc5 import Kind

from symbolic.solve.smt2 import Dag, Unsupported, lower

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
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Decision:
    """cvc5's answer on one query: ``status`` is "unsat", "sat" or "unknown"; ``reason`` says why
    (which configuration decided, the unknown explanation, or the unsupported operator)."""

    status: str
    reason: str
    seconds: float

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

def _check(data: dict, options, seconds: float):
    """One cvc5 run on a fresh solver with the given options: its Result."""
    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setLogic(data["logic"])
    for name, value in _COMMON + tuple(options):
        s.setOption(name, value)
    s.setOption("tlimit-per", str(max(1, math.ceil(1000 * seconds))))
    for term in to_cvc5(tm, data):
        s.assertFormula(term)
    return s.checkSat()


def _explain(result) -> str:
    """A short unknown explanation, e.g. INCOMPLETE or TIMEOUT."""
    return str(result.getUnknownExplanation()).replace("UnknownExplanation.", "")


def solve(data: dict, timeout: float, configs=CONFIGS) -> tuple:
    """Decide a payload in this process: try ``configs`` in order within ``timeout`` seconds.
    Only a definite answer of cvc5 counts; cvc5 errors and untranslatable terms give "unknown"."""
    end, notes = time.monotonic() + timeout, []
    try:
        for name, options in configs:
            left = end - time.monotonic()
            if left <= 0.05:
                break
            result = _check(data, options, left)
            if result.isUnsat() or result.isSat():
                status = "unsat" if result.isUnsat() else "sat"
                return status, f"{version()} ({name}): {status}"
            notes.append(f"{name}: {_explain(result)}")
    except Unsupported as e:
        return "unknown", f"cvc5 converter: unsupported operator {e.op}"
    except RuntimeError as e:  # cvc5's API errors derive from RuntimeError
        return "unknown", f"cvc5 error: {(str(e).splitlines() or [type(e).__name__])[0][:200]}"
    return "unknown", "cvc5: " + ("; ".join(notes) or "no time left")


def _child_main():
    """Entry of the child process: a JSON request on stdin, one JSON answer line on stdout. An alarm
    ends the process even if the parent is gone and cvc5 ignores its own limit (no orphan runs on)."""
    req = json.loads(sys.stdin.read())
    if hasattr(signal, "alarm"):
        signal.alarm(math.ceil(req["timeout"] + 2 * GRACE))  # SIGALRM's default action ends the process
    configs = [(name, [tuple(o) for o in options]) for name, options in req["configs"]]
    status, reason = solve(req["data"], req["timeout"], configs)
    sys.stdout.write(json.dumps({"status": status, "reason": reason}) + "\n")


def _in_child(data: dict, timeout: float, configs) -> tuple:
    """:func:`solve` in a child process killed after ``timeout`` + GRACE seconds (also on interrupt)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from symbolic.solve.cvc5_backend import _child_main; _child_main()")
    req = json.dumps({"data": data, "timeout": timeout, "configs": [[n, [list(o) for o in opts]] for n, opts in configs]})
    try:
        proc = subprocess.run([sys.executable, "-c", code, _ROOT], input=req, capture_output=True, text=True,
                              timeout=timeout + GRACE)
    except subprocess.TimeoutExpired:
        return "unknown", f"cvc5: no answer within {timeout:g} s (+{GRACE:g} s grace); process killed"
    return _read_answer(proc)


def _read_answer(proc) -> tuple:
    """(status, reason) from the child's output; anything malformed is "unknown"."""
    try:
        ans = json.loads(proc.stdout.strip().splitlines()[-1])
        status, reason = ans["status"], str(ans["reason"])
    except (ValueError, IndexError, KeyError, TypeError):
        err = (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return "unknown", f"cvc5 process ended with code {proc.returncode}: {err}"
    if proc.returncode != 0 or status not in ("unsat", "sat", "unknown"):
        return "unknown", f"cvc5 process ended with code {proc.returncode}: {status} {reason}"
    return status, reason


def prepare(assertions):
    """The query as plain data for :func:`decide_payload`, or an unknown :class:`Decision` when it has a
    term the converter does not translate. Reads z3 terms, so call it from one thread at a time."""
    t0 = time.monotonic()
    try:
        return payload(lower(assertions))
    except Unsupported as e:
        return Decision("unknown", f"cvc5 converter: unsupported operator {e.op}", time.monotonic() - t0)


def decide_payload(data, *, timeout: float, isolate: bool = True, configs=CONFIGS) -> Decision:
    """Decide a prepared query within about ``timeout`` seconds (no z3 term is touched, so several
    may run at once from threads, each in its own child process)."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
            or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if isinstance(data, Decision):
        return data
    t0 = time.monotonic()
    status, reason = (_in_child if isolate else solve)(data, timeout, configs)
    return Decision(status, reason, time.monotonic() - t0)


def decide_timed(assertions, *, timeout: float, isolate: bool = True, configs=CONFIGS) -> Decision:
    """:func:`decide`, with the wall-clock seconds it took (translation and process start included)."""
    t0 = time.monotonic()
    d = decide_payload(prepare(assertions), timeout=timeout, isolate=isolate, configs=configs)
    return Decision(d.status, d.reason, time.monotonic() - t0)


def decide(assertions, *, timeout: float, isolate: bool = True) -> tuple:
    """Decide the conjunction of ``assertions`` (z3 Booleans, Python bools allowed) with cvc5 within
    about ``timeout`` seconds: ("unsat" | "sat" | "unknown", reason). Never raises on a term it cannot
    translate, a cvc5 error or a hang: those give "unknown". ``isolate=False`` runs cvc5 in this
    process (faster to start, but a hang inside cvc5 then cannot be cut off)."""
    return decide_timed(assertions, timeout=timeout, isolate=isolate).pair()
