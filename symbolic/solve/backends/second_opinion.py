"""A second solver re-decides the queries a proof rests on.

Every ``Proved`` verdict carries its obligations: the exact queries z3 answered unsat (for CEGIS
proofs, with the ∀𝒫 hypotheses instantiated at the populations the refinement used). cvc5, reached
through its own Python API by :mod:`symbolic.solve.backends.cvc5_backend`, decides each of them again. All unsat:
the proof is confirmed. Some unknown (cvc5 timed out): the proof stands on z3 alone, and the
certificate says so. Some sat: the two solvers disagree about a query, which is a bug in one of
them or in the encoding; the verdict becomes ``unknown`` with both answers shown.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import replace

from symbolic.core.verdicts import Proved, Unknown
from symbolic.solve.backends.effort import EFFORT_HINT, cvc5_units


WORKERS = max(1, min(2, os.cpu_count() or 1))   # batches decided at once, each in its own cvc5 process
MAX_BATCH = 64                                  # queries in one batch
SHORT_EFFORT = cvc5_units(2)                    # cvc5 units a query after one cvc5 did not decide, in its batch


def _decide_all(obligations, settings, safety_end, prepare, decide_batch, key=lambda data: None):
    """(obligation, status, reason) for each obligation, in order.

    Every obligation is prepared first (in this thread: z3 terms are read by one thread only), and
    obligations that are the same formula up to a renaming of their constants (equal ``key``; None is
    never equal) are decided once: the first of them is asked, the others take its answer, at no cost.
    The distinct ones go in batches (a fixed split by index) to up to :data:`WORKERS` workers at a time,
    each batch decided in one cvc5 process, query after query, with ``settings.second_query_effort``
    cvc5 units a query (after one cvc5 did not decide, :data:`SHORT_EFFORT`, within that batch). The
    answers are then read in index order while the units they spent add up to at most
    ``settings.second_effort``; the rest count as not checked. So what is confirmed depends on the
    queries and the effort only, not on which batch finished first. No new batch starts after a "sat",
    once the effort is spent, or past the wall-clock ``safety_end``."""
    results, running, nxt = {}, {}, 0
    short = min(2.0, settings.second_timeout)
    short_effort = min(SHORT_EFFORT, settings.second_query_effort)
    datas = [prepare(list(ob.assertions)) for ob in obligations]
    first, order = {}, []          # key -> the first obligation with it; the obligations asked, in order
    for i, data in enumerate(datas):
        k = key(data)
        if k is None or k not in first:
            order.append(i)
        first.setdefault(k, i)
    same = {i: first[key(d)] for i, d in enumerate(datas) if key(d) is not None and first[key(d)] != i}

    def prefix_spent():
        total, k = 0, 0
        while k < len(order) and order[k] in results and total <= settings.second_effort:
            total += results[order[k]][2]
            k += 1
        return total

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        while nxt < len(order) or running:
            stop = any(st == "sat" for st, _, _ in results.values()) or prefix_spent() > settings.second_effort
            while not stop and nxt < len(order) and len(running) < WORKERS:
                left = safety_end - time.monotonic()
                if left <= 0:
                    break
                size = max(1, min(MAX_BATCH, -(-(len(order) - nxt) // WORKERS)))
                batch = order[nxt:nxt + size]
                data = [datas[i] for i in batch]
                running[pool.submit(decide_batch, data, timeout=settings.second_timeout, short=short, budget=left,
                                    effort=settings.second_query_effort, short_effort=short_effort,
                                    cpu=settings.second_cpu)] = batch
                nxt += len(batch)
            if not running:
                break
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                for i, d in zip(running.pop(fut), fut.result()):
                    results[i] = (d.status, d.reason, getattr(d, "units", 0))
    out, spent, said = [], 0, {}
    for i, ob in enumerate(obligations):
        if i in same:
            status, reason = said[same[i]]
            out.append((ob, status, f"{reason} (the same query as {obligations[same[i]].label}, up to a renaming "
                                    f"of its unknowns)"))
            continue
        if spent > settings.second_effort:
            said[i] = ("unknown", f"second-solver effort exhausted ({spent:,} of "
                                  f"{settings.second_effort:,} cvc5 units; {EFFORT_HINT})")
        elif i in results:
            status, reason, units = results[i]
            spent += units
            said[i] = (status, reason)
        else:
            said[i] = ("unknown", "second solver: wall-clock safety limit, or stopped after a disagreement")
        out.append((ob, *said[i]))
    return out


def _distinct_note(answers) -> str:
    copies = sum(1 for _, _, reason in answers if "up to a renaming of its unknowns" in reason)
    return f" ({len(answers) - copies} distinct up to renaming)" if copies else ""


def second_opinion(verdict, settings):
    """``verdict`` with the second solver's answer in its certificate (Proved only)."""
    if not isinstance(verdict, Proved) or not settings.second_solver:
        return verdict
    if not verdict.obligations:
        return replace(verdict, certificate={**verdict.certificate, "second_solver": None,
                                             "second_verdict": "not applicable (no solver query)"})
    from symbolic.solve.backends import cvc5_backend
    safety_end = settings.until(time.monotonic() + settings.budget)
    answers = _decide_all(verdict.obligations, settings, safety_end, cvc5_backend.prepare, cvc5_backend.decide_batch,
                          cvc5_backend.payload_key)
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
        cert["second_reason"] = f"{unknown[0][0].label}: {unknown[0][1]}"
    return replace(verdict, certificate=cert)
