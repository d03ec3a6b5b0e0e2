"""Vacuity: a proof is worth something only if its hypotheses can hold together.

Before a part is reported proved at some sizes, the engine looks for a *witness*: exact tables,
populations and parameter values in range at which every hypothesis holds, re-verified by exact
evaluation (:func:`symbolic.solve.queries.verify.verify_witness`), independent of the solver. It tries the
uniform tables first (they satisfy most privacy notions, and with them fixed the query is linear),
then any tables. No witness because the hypotheses are jointly unsatisfiable, or because a fixed
parameter lies outside its range, makes the verdict ``vacuous``, never ``proved``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import sympy as sp

from symbolic.solve.one_size import rational_values
from symbolic.solve.queries.encode import Encoding, z3val
from symbolic.solve.backends.effort import Exhausted, Meter, units
from symbolic.solve.queries.solver import Solver, extract
from symbolic.core.verdicts import Sizes, Witness
from symbolic.solve.queries.verify import Assignment, verify_witness


@dataclass(frozen=True)
class VacuityResult:
    status: str                      # "satisfiable" | "vacuous" | "unknown"
    witness: Witness | None = None
    reason: str = ""


def fixed_out_of_range(imp, params) -> list:
    """Fixed parameter values of ``imp`` that lie outside their ranges."""
    out = []
    for p in params:
        if p.name in imp.parameters:
            out += p.range_problems(sp.Rational(imp.parameters[p.name]))
    return out


def find_witness(imp, params, sizes: Sizes, settings, meter: Meter) -> VacuityResult:
    """Exact values at ``sizes`` satisfying every hypothesis of ``imp`` (conclusion ignored); fixed
    parameters are checked against their ranges once, by :func:`vacuity_of_sizes`."""
    # every notion argument in its range: where one is not, the claim says nothing (as in the proof's query),
    # so a witness there would show only that the proof covers nothing
    # parameters fixed at a rational value are numbers here as in the proof's queries (log E at E = 3 is a constant)
    enc = Encoding(imp, params, sizes, {**rational_values(params), **imp.parameters}, argument_ranges=True)
    uniform = [v == z3val(sp.Rational(1, len(row))) for row in enc.rows for v in row]
    quick = settings.capped(2.0)
    problems = []
    for extra, how in ((uniform, "uniform tables"), ((), "tables found by the solver")):
        try:
            solver = Solver(enc, quick if extra else settings, meter)
            status, info = solver.solve(tuple(extra))
        except Exhausted as e:
            return VacuityResult("unknown", reason=f"looking for a witness: {e.text}")
        if status == "unknown":
            problems.append(f"{how}: solver unknown ({info})")
            continue
        if status == "unsat":
            if extra:
                continue
            return VacuityResult("vacuous", reason=f"the hypotheses cannot hold together at {sizes} with every "
                                 f"notion argument inside its range (the solver finds them jointly unsatisfiable)")
        asg = extract(enc, info)
        if asg is None:
            problems.append(f"{how}: the solver's witness is not rational")
            continue
        ok, why = verify_witness(imp, params, asg)
        if ok:
            return VacuityResult("satisfiable", Witness(sizes, asg.mechanisms, asg.populations,
                                                        asg.parameters, str(imp)), how)
        problems.append(f"{how}: exact re-verification of the witness failed: {'; '.join(why)}")
    return VacuityResult("unknown", reason="; ".join(problems) or "no witness found")


def vacuity_of_sizes(imp, params, sizes_list, settings, meter: Meter) -> VacuityResult:
    """Witnesses over the proved sizes ``sizes_list``. Vacuous when the hypotheses hold together at
    none of them; unknown at the first size where neither a witness nor unsatisfiability is
    established; else satisfiable, with the witness at the last size that has one, and ``reason``
    naming the sizes (if any) where the hypotheses cannot hold together: the proof says something at
    the others and is true, vacuously, at those. Each size has what ``meter`` has left, and at least
    5 nominal seconds of effort, in an account of its own."""
    bad = fixed_out_of_range(imp, params)  # the same at every size
    if bad:
        return VacuityResult("vacuous", reason="fixed parameter " + "; ".join(bad))
    last, vacuous = None, []
    for s in sizes_list:
        own = Meter(max(meter.left(), settings.scale(units(5.0))), safety_end=meter.safety_end, name="vacuity witness")
        r = find_witness(imp, params, s, settings, own)
        if r.status == "unknown":
            return replace(r, reason=f"at {s}: {r.reason}")
        if r.status == "vacuous":
            vacuous.append((s, r.reason))
        else:
            last = r
    if last is None:
        if vacuous:
            return VacuityResult("vacuous", reason="; ".join(f"at {s}: {why}" for s, why in vacuous))
        return VacuityResult("unknown", reason="no sizes were proved")
    if vacuous:
        return replace(last, reason="the hypotheses cannot hold together at " + ", ".join(str(s) for s, _ in vacuous)
                       + " (true there vacuously); the witness is at " + str(last.witness.sizes))
    return last


def witness_back(vac: VacuityResult, imp, params, back) -> VacuityResult:
    """A witness found for a rewritten claim (:mod:`symbolic.solve.routes.quotient`), mapped back by ``back``
    (an :class:`~symbolic.solve.queries.verify.Assignment` map) and re-verified exactly on ``imp`` itself."""
    w = vac.witness
    asg = back(Assignment(w.mechanisms, w.populations, w.parameters))
    ok, why = verify_witness(imp, params, asg)
    if not ok:
        return VacuityResult("unknown", reason=f"the witness mapped back fails exact re-verification: {'; '.join(why)}")
    return replace(vac, witness=Witness(w.sizes, asg.mechanisms, asg.populations, asg.parameters, str(imp)))
