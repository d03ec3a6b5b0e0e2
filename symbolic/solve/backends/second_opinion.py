"""A second solver re-decides the queries a proof rests on.

Every ``Proved`` verdict carries its obligations: the exact queries z3 answered unsat (for CEGIS
proofs, with the ∀𝒫 hypotheses instantiated at the populations the refinement used). cvc5, reached
through its own Python API by :mod:`symbolic.solve.backends.cvc5_backend`, decides each of them again. All unsat:
the proof is confirmed. Some unknown: the proof stands on z3 alone, and the certificate says so, with
the limit that left each undecided query so (``second_undecided``, ``second_limit``): "resource", a count
(cvc5's steps, the rewrite's operations, the proof's cvc5 units), the same on every machine; "time", a
processor-time slice or the wall clock, which a faster or idler machine might not have reached. Some sat: the
two solvers disagree about a query, which is a bug in one of them or in the encoding; the verdict becomes
``unknown`` with both answers shown.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import replace

from symbolic.core.verdicts import Proved, Unknown
from symbolic.solve.backends.limits import RESOURCE, TIME, query_limit
from symbolic.solve.backends.effort import EFFORT_HINT


WORKERS = max(1, min(2, os.cpu_count() or 1))   # batches decided at once, each in its own cvc5 process
MAX_BATCH = 256                                 # queries in one batch (one child process)


def _decide_all(obligations, settings, safety_end, prepare, decide_batch, key=lambda data: None,
                size=lambda data: 0, ended_by: dict | None = None):
    """(obligation, status, reason) for each obligation, in order; ``ended_by`` (a dict, when given) gets,
    for each obligation left undecided by a limit or a failure (not one left unasked, nor a copy), its index →
    (limit, ((stage, limit), ...)): the stages of cvc5's ladder that left it so (:func:`~symbolic.solve.backends
    .limits.query_limit` gives the limit), or ``("proof", ...)`` for the proof's cvc5 units (a count) and
    its wall-clock safety limit.

    Every obligation is prepared first (in this thread: z3 terms are read by one thread only), and
    obligations that are the same formula up to a renaming of their constants (equal ``key``; None is
    never equal) are decided once: the first of them is asked, the others take its answer, at no cost.
    The distinct ones are asked largest first (``size``, then index): a proof is confirmed only if every
    query is, and the largest queries are the ones cvc5 leaves undecided, so an unconfirmable proof is
    found so at once. They go in batches (runs of that order) to up to ``settings.second_workers`` (default
    :data:`WORKERS`) workers at a time,
    each batch decided in one cvc5 process, query after query, each climbing cvc5's ladder of
    configurations with ``settings.second_query_effort`` cvc5 units and ``settings.second_cpu`` processor
    seconds (:func:`~symbolic.solve.backends.cvc5_child.decide_batch`). A batch ends at its first query
    left undecided, and no query after the first undecided one (in the asking order) is asked: the others
    say so. The answers are read in the asking order while the units they spent add up to at most
    ``settings.second_effort``; the rest count as not checked. So what is confirmed depends on the
    queries and the effort only, not on which batch finished first. A "sat" (a disagreement) is always
    reported. No new batch starts after a "sat", once the effort is spent, or past the wall-clock
    ``safety_end``."""
    results, running, batches, stages = {}, {}, {}, {}
    workers = settings.second_workers or WORKERS
    datas = [prepare(list(ob.assertions)) for ob in obligations]
    keys = [key(d) for d in datas]
    first = {}                     # key -> the first obligation with it
    for i, k in enumerate(keys):
        if k is not None:
            first.setdefault(k, i)
    same = {i: first[k] for i, k in enumerate(keys) if k is not None and first[k] != i}
    distinct = [i for i in range(len(datas)) if i not in same]   # the obligations asked
    order = sorted(distinct, key=lambda i: (-size(datas[i]), i))
    pos = {i: p for p, i in enumerate(order)}

    def first_bad():
        return min((pos[i] for i, (st, _, _) in results.items() if st != "unsat"), default=len(order))

    def prefix_spent():
        total, p = 0, 0
        while p < len(order) and order[p] in results and total <= settings.second_effort:
            total += results[order[p]][2]
            p += 1
        return total

    nxt = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        while nxt < len(order) or running:
            bad = first_bad()
            for start, cancel in running.values():
                if start > bad:
                    cancel.set()   # a batch wholly after an undecided query: its answers would not be used
            stop = any(st == "sat" for st, _, _ in results.values()) or prefix_spent() > settings.second_effort
            while not stop and nxt < min(len(order), bad) and len(running) < workers:
                left = safety_end - time.monotonic()
                if left <= 0:
                    break
                length = max(1, min(MAX_BATCH, -(-(len(order) - nxt) // workers)))
                batch = order[nxt:nxt + length]
                cancel = threading.Event()
                running[pool.submit(decide_batch, [datas[i] for i in batch], timeout=settings.second_timeout,
                                    budget=left, effort=settings.second_query_effort, cpu=settings.second_cpu,
                                    until_undecided=True, cancel=cancel)] = (nxt, cancel)
                batches[nxt] = batch
                nxt += len(batch)
            if not running:
                break
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                start, _ = running.pop(fut)
                for i, d in zip(batches[start], fut.result()):
                    results[i] = (d.status, d.reason, getattr(d, "units", 0))
                    stages[i] = tuple(getattr(d, "stages", ()))
    said, spent, ended, why = {}, 0, None, {}
    for i in order:
        if i in results and results[i][0] == "sat":
            said[i] = results[i][:2]
        elif ended is not None:
            said[i] = ("unknown", ended)
        elif spent > settings.second_effort:
            ended = f"second-solver effort exhausted ({spent:,} of {settings.second_effort:,} cvc5 units; {EFFORT_HINT})"
            said[i] = ("unknown", ended)
            why[i] = (RESOURCE, (("proof", RESOURCE),))
        elif i in results:
            status, reason, units = results[i]
            spent += units
            said[i] = (status, reason)
            if status != "unsat":
                why[i] = (query_limit(stages.get(i, ())) or "unknown", stages.get(i, ()))
                ended = (f"not asked: {obligations[i].label} was left undecided, so the proof cannot be fully "
                         f"confirmed (queries are asked largest first)")
        else:
            said[i] = ("unknown", "second solver: wall-clock safety limit, or stopped after a disagreement")
            why[i] = (TIME, (("proof", TIME),))
    if ended_by is not None:
        ended_by.update(why)
    out = []
    for i, ob in enumerate(obligations):
        if i in same:
            status, reason = said[same[i]]
            out.append((ob, status, f"{reason} (the same query as {obligations[same[i]].label}, up to a renaming "
                                    f"of its unknowns)"))
        else:
            out.append((ob, *said[i]))
    return out


def _distinct_note(answers) -> str:
    copies = sum(1 for _, _, reason in answers if "up to a renaming of its unknowns" in reason)
    unasked = sum(1 for _, _, reason in answers if reason.startswith("not asked"))
    return ((f" ({len(answers) - copies} distinct up to renaming)" if copies else "")
            + (f"; {unasked} not asked after one was left undecided" if unasked else ""))


def undecided_record(obligations, ended_by: dict) -> list:
    """The certificate's ``second_undecided``: for each obligation in ``ended_by`` (see :func:`_decide_all`),
    in order, ``{"query": its label, "limit": "resource" | "time" | …, "stages": [{"stage", "limit"}, …]}``.

    >>> class Ob: label = "q 1"
    >>> undecided_record([Ob()], {0: ("time", (("substitution", "time"), ("linearisation", "resource")))})[0]["stages"]
    [{'stage': 'substitution', 'limit': 'time'}, {'stage': 'linearisation', 'limit': 'resource'}]
    """
    return [{"query": obligations[i].label, "limit": limit,
             "stages": [{"stage": stage, "limit": how} for stage, how in stages]}
            for i, (limit, stages) in sorted(ended_by.items())]


def overall_limit(undecided: list) -> str | None:
    """The certificate's ``second_limit``: "time" when a time limit left any query undecided (another
    machine may confirm more or less), else "resource" when a count did (every machine leaves the same
    queries undecided), else the first query's limit; None when none is undecided."""
    return query_limit([(u["query"], u["limit"]) for u in undecided])


def second_opinion(verdict, settings):
    """``verdict`` with the second solver's answer in its certificate (Proved only)."""
    if not isinstance(verdict, Proved) or not settings.second_solver:
        return verdict
    if not verdict.obligations:
        return replace(verdict, certificate={**verdict.certificate, "second_solver": None,
                                             "second_verdict": "not applicable (no solver query)"})
    from symbolic.solve.backends import cvc5_backend, cvc5_child
    safety_end = settings.until(time.monotonic() + settings.budget)
    memo, ended_by = {}, {}   # memo: the obligations share most of their terms, and stay alive while they are read
    answers = _decide_all(verdict.obligations, settings, safety_end, lambda a: cvc5_backend.prepare(a, memo),
                          cvc5_child.decide_batch,
                          cvc5_backend.payload_key, cvc5_backend.payload_size, ended_by=ended_by)
    sat = [(ob, r) for ob, st, r in answers if st == "sat"]
    solver = cvc5_backend.version()
    if sat:
        ob, _ = sat[0]
        return Unknown(f"the solvers disagree: z3 says unsat, {solver} says sat on {ob.label} "
                       f"(a bug in a solver or in the encoding: please report it)", verdict.sizes_proved)
    unknown = [(ob, r) for ob, st, r in answers if st != "unsat"]
    cert = {**verdict.certificate, "second_solver": solver,
            "second_verdict": "unknown" if unknown else "unsat",
            "second_checked": f"{len(answers) - len(unknown)}/{len(verdict.obligations)} queries unsat"
                              + _distinct_note(answers)}
    if unknown:
        ob, why = next(((ob, r) for ob, r in unknown if not r.startswith("not asked")), unknown[0])
        cert["second_reason"] = f"{ob.label}: {why}"
        undecided = undecided_record(verdict.obligations, ended_by)
        cert["second_limit"] = overall_limit(undecided) or "unknown"
        cert["second_undecided"] = undecided
    return replace(verdict, certificate=cert)
