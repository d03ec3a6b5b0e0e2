"""A second solver: cvc5 decides the same z3 queries, built term by term through its own API.

The z3 terms are read once into the DAG of :mod:`symbolic.solve.backends.smt2` (so the SMT-LIB export and
this backend translate the same operations the same way) and each node becomes one cvc5
term via ``TermManager.mkTerm``; no SMT-LIB text is printed or parsed. cvc5 runs with the
logic QF_NRA, first with its complete procedure for nonlinear real arithmetic (cylindrical
algebraic coverings, ``nl-cov``), then, if that gives up, with incremental linearisation.

Each query is bounded by cvc5's resource limit (``rlimit-per``, a count of its steps: the same answer
on any machine and under any load) and reports the units it spent; the wall clock is only the safety
net. Incremental linearisation stops at that count (:data:`COUNTED`); the coverings procedure spends a
unit a step but looks at the count only between its steps, and one step may run on for minutes past it,
so a coverings stage also has a share of processor time, which is not the same on a slower machine. Each
configuration that leaves a query undecided says which limit ended it (:func:`limit_of`: "resource",
"time", "incomplete"; :mod:`symbolic.solve.backends.limits`), so that an undecided query is known to be
machine-independent or not. cvc5's own time limit (``tlimit-per``) is not always honoured (the query of an
adaptive composition of two ε-DP mechanisms under a 5 s limit was still running at 12 s; 8 of 92 catalogue
queries overran a 10 s limit by 3 s), so by default cvc5 runs in a child process
(:mod:`symbolic.solve.backends.cvc5_child`: batches of queries, a ladder of configurations, processor-time
cuts; one query alone is a batch of one). A wrong "unsat" is the worst outcome, so anything
outside the translated fragment, any cvc5 error, a crash or a kill is "unknown" with a reason,
never a guess.
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass

import cvc5
from cvc5 import Kind

from symbolic.solve.backends.limits import INCOMPLETE, RESOURCE, TIME, query_limit
from symbolic.solve.backends.smt2 import Dag, Unsupported, lower, renaming_key
from symbolic.solve.backends.substitution import attempt, ops_for

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
# "substitution" is coverings on the query with its asserted linear equalities solved and substituted
# (:mod:`symbolic.solve.backends.substitution`: an equisatisfiable query with fewer unknowns, rewritten in
# exact arithmetic without z3); it does not apply to a query without such an equality.
CONFIGS = (
    ("coverings", (("nl-cov", "true"),)),
    ("linearisation", (("nl-cov", "false"), ("nl-ext", "full"))),
    ("substitution", (("nl-cov", "true"),)),
)
REWRITES = {"substitution": lambda data, ops=None: attempt(data, ops)}
COUNTED = frozenset({"linearisation"})   # configurations that stop at their step count (checked between lemmas)
_COMMON = (("produce-models", "false"), ("incremental", "false"))



@dataclass(frozen=True)
class Decision:
    """cvc5's answer on one query: ``status`` is "unsat", "sat" or "unknown"; ``reason`` says why
    (which configuration decided, the unknown explanation, or the unsupported operator)."""

    status: str
    reason: str
    seconds: float
    units: int = 0     # cvc5 resource units spent (0 when unknown, e.g. a killed child)
    stages: tuple = ()  # (stage, limit) of each stage that left it undecided, in order (see :func:`limit_of`)

    @property
    def limit(self) -> str | None:
        """The limit that left this query undecided (:func:`query_limit` of its stages); None when decided."""
        return None if self.status != "unknown" else query_limit(self.stages)

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
    """A short unknown explanation: INCOMPLETE, "effort limit" (cvc5's RESOURCEOUT: its step count) or
    "wall-clock safety limit" (TIMEOUT)."""
    text = str(result.getUnknownExplanation()).replace("UnknownExplanation.", "")
    return {"RESOURCEOUT": "effort limit", "TIMEOUT": "wall-clock safety limit"}.get(text, text)


def limit_of(result) -> str:
    """Which limit ended an unknown answer of cvc5: "resource" (RESOURCEOUT), "time" (TIMEOUT),
    "incomplete" (INCOMPLETE: the procedure gave up), else cvc5's explanation in lower case."""
    text = str(result.getUnknownExplanation()).replace("UnknownExplanation.", "")
    return {"RESOURCEOUT": RESOURCE, "TIMEOUT": TIME, "INCOMPLETE": INCOMPLETE}.get(text, text.lower())


def rewritten(name: str, data: dict, ops: int | None = None) -> tuple:
    """(the payload configuration ``name`` runs on, or None when it does not apply; why not, when the
    rewrite stopped at its ``ops`` operations, else None). The query itself, or its rewrite (:data:`REWRITES`)."""
    rewrite = REWRITES.get(name)
    if rewrite is None:
        return data, None
    done, spent, stopped = rewrite(data, ops)
    return (getattr(done, "data", None),
            f"rewrite stopped at its operation count ({ops:,}; {spent:,} spent)" if stopped else None)


def query_for(name: str, data: dict, ops: int | None = None) -> dict | None:
    """The payload configuration ``name`` runs on (:func:`rewritten`), None when it does not apply."""
    return rewritten(name, data, ops)[0]


def solve(data: dict, timeout: float, configs=CONFIGS, rlimit: int | None = None, units_out: list | None = None,
          rewrite: bool = True, stages_out: list | None = None) -> tuple:
    """Decide a payload in this process: try ``configs`` in order, each with ``rlimit`` cvc5 resource
    units (the effort; None: none) and within ``timeout`` seconds in all (the safety net), each on
    :func:`query_for` its name with :func:`~symbolic.solve.backends.substitution.ops_for` ``rlimit`` rewrite
    operations (``rewrite=False``: on ``data`` as given, rewritten already); a configuration that does not
    apply is passed over. Only a definite answer of cvc5 counts; cvc5 errors and untranslatable terms give
    "unknown". The units spent are appended to ``units_out`` and the (configuration, limit) of each
    configuration that left the query undecided to ``stages_out``, when given."""
    end, notes, spent, stages = time.monotonic() + timeout, [], 0, []
    try:
        for name, options in configs:
            query, why = rewritten(name, data, None if rlimit is None else ops_for(rlimit)) if rewrite else (data, None)
            if why is not None:
                notes.append(f"{name}: {why}")
                stages.append((name, RESOURCE))
            if query is None:
                continue
            left = end - time.monotonic()
            if left <= 0.05:
                notes.append("wall-clock safety limit")
                stages.append((name, TIME))
                break
            result, used = _check(query, options, left, rlimit)
            spent += used
            if result.isUnsat() or result.isSat():
                status = "unsat" if result.isUnsat() else "sat"
                return status, f"{version()} ({name}): {status}"
            notes.append(f"{name}: {_explain(result)}")
            stages.append((name, limit_of(result)))
    except Unsupported as e:
        stages.append(("converter", "unsupported"))
        return "unknown", f"cvc5 converter: unsupported operator {e.op}"
    except RuntimeError as e:  # cvc5's API errors derive from RuntimeError
        stages.append(("cvc5", "error"))
        return "unknown", f"cvc5 error: {(str(e).splitlines() or [type(e).__name__])[0][:200]}"
    finally:
        if units_out is not None:
            units_out.append(spent)
        if stages_out is not None:
            stages_out.extend(stages)
    return "unknown", "cvc5: " + ("; ".join(notes) or "no time left")


def prepare(assertions, memo: dict | None = None):
    """The query as plain data for :func:`~symbolic.solve.backends.cvc5_child.decide_payload`, or an unknown
    :class:`Decision` when it has a term the converter does not translate. Reads z3 terms, so call it from
    one thread at a time; ``memo`` (see :func:`~symbolic.solve.backends.smt2.lower`) may be shared by
    queries whose terms stay alive meanwhile, so that the terms they share are read once."""
    t0 = time.monotonic()
    try:
        return payload(lower(assertions, memo))
    except Unsupported as e:
        return Decision("unknown", f"cvc5 converter: unsupported operator {e.op}", time.monotonic() - t0,
                        stages=(("converter", "unsupported"),))


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


def payload_size(data) -> float:
    """How large a prepared query is: its number of nodes (an untranslatable one, already undecided: infinite,
    so that it comes first when the largest are asked first)."""
    return len(data["nodes"]) if isinstance(data, dict) else math.inf
