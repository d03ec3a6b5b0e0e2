"""A second solver re-decides the queries a proof rests on.

Every ``Proved`` verdict carries its obligations: the exact queries z3 answered unsat (for CEGIS
proofs, with the ∀𝒫 hypotheses instantiated at the populations the refinement used). cvc5, reached
through its own Python API by :mod:`symbolic.solve.cvc5_backend`, decides each of them again. All unsat:
the proof is confirmed. Some unknown (cvc5 timed out): the proof stands on z3 alone, and the
certificate says so. Some sat: the two solvers disagree about a query, which is a bug in one of
them or in the encoding; the verdict becomes ``unknown`` with both answers shown.
"""
from __future__ import annotations

import time
from dataclasses import replace

from symbolic.core.verdicts import Proved, Unknown


def second_opinion(verdict, settings):
    """``verdict`` with the second solver's answer in its certificate (Proved only)."""
    if not isinstance(verdict, Proved) or not settings.second_solver:
        return verdict
    if not verdict.obligations:
        return replace(verdict, certificate={**verdict.certificate, "second_solver": None,
                                             "second_verdict": "not applicable (no solver query)"})
    from symbolic.solve import cvc5_backend
    end = settings.until(time.monotonic() + settings.second_budget)
    answers = []
    for ob in verdict.obligations:
        left = end - time.monotonic()
        if left <= 0:
            answers.append((ob, "unknown", "second-solver budget exhausted"))
            continue
        # after one query cvc5 could not decide, the rest get a short leash: what it confirms, it confirms fast
        per = settings.second_timeout if all(st == "unsat" for _, st, _ in answers) else min(2.0, settings.second_timeout)
        status, reason = cvc5_backend.decide(list(ob.assertions), timeout=min(per, left))
        answers.append((ob, status, reason))
        if status == "sat":
            break
    sat = [(ob, r) for ob, st, r in answers if st == "sat"]
    solver = cvc5_backend.version()
    if sat:
        ob, _ = sat[0]
        return Unknown(f"the solvers disagree: z3 says unsat, {solver} says sat on {ob.label} "
                       f"(a bug in a solver or in the encoding: please report it)", verdict.sizes_proved)
    unknown = [(ob, r) for ob, st, r in answers if st != "unsat"]
    cert = {**verdict.certificate, "second_solver": solver,
            "second_verdict": "unknown" if unknown else "unsat",
            "second_checked": f"{len(answers) - len(unknown)}/{len(verdict.obligations)} queries unsat"}
    if unknown:
        cert["second_reason"] = f"{unknown[0][0].label}: {unknown[0][1]}"
    return replace(verdict, certificate=cert)
