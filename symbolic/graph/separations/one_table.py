"""Qualitative separations: a mechanism that satisfies A at some level and B at no level.

"B at no level" on a fixed mechanism M is decided by one solver query with M's entries fixed and
B's parameters symbolic over their whole range: the claim "B(b) on M ⇒ false" has a
counterexample exactly when some b in range makes B(b) hold on M (then the counterexample, re-
verified exactly, names that level), and is vacuous exactly when B(b) holds on M for no b at all.
With the table fixed, B's condition is a polynomial system in b alone, which the solver decides
(a nonlinear real arithmetic decision procedure); a time-out leaves the question open.
"""
from __future__ import annotations

from dataclasses import replace

from symbolic.core.tables import MechTable
from symbolic.core.terms import Fixed
from symbolic.core.verdicts import Refuted, Sizes, Vacuous
from symbolic.graph.maps import claim_params
from symbolic.model.mechanism import Mechanism
from symbolic.notions.base import Notion
from symbolic.notions.claims import Claim, Implies
from symbolic.solve.run import check_claim

Never = Notion("False", (), lambda ops, P=None: ops.Or([]), arity=0, summary="no mechanism satisfies it")


def level_free(notion, mechanism, settings, population=None, below_top: bool = False) -> str:
    """Whether ``notion`` holds on the fixed ``mechanism`` (a Mechanism or an exact table) at some
    parameter value: "some level", "no level" or "unknown". ``below_top``: only values short of the upper end of
    each parameter that has one (δ < 1), where the notion is not met by every mechanism; "no level" then means
    the notion holds on the table only where it holds on every table."""
    if notion.population in ("given",) and population is None:
        return "unknown"
    key = None
    if isinstance(mechanism, MechTable):   # the same witness table is asked about again and again in one graph
        key = (notion, mechanism.n, mechanism.domain, mechanism.outputs, tuple(sorted(mechanism.rows.items())),
               repr(population), below_top, settings)
        try:
            if key in _ANSWERS:
                return _ANSWERS[key]
        except TypeError:   # a notion or setting that is not hashable: not kept
            key = None
    answer = _level_free(notion, mechanism, settings, population, below_top)
    if key is not None:   # the solver's effort is counted in work, so an unknown is the same answer next time
        _ANSWERS[key] = answer
    return answer


_ANSWERS: dict = {}   # (notion, fixed table, population, below_top, settings) -> the answer, in this process


def _level_free(notion, mechanism, settings, population, below_top) -> str:
    if isinstance(mechanism, MechTable):
        mechanism = Mechanism.from_table({d: dict(zip(mechanism.outputs, row)) for d, row in mechanism.rows.items()},
                                         n=mechanism.n, domain=mechanism.domain, outputs=mechanism.outputs)
    params = claim_params(notion)
    if below_top:
        if all(p.upper is None for p in params):
            return "unknown"
        params = tuple(p if p.upper is None else replace(p, upper_strict=True) for p in params)
    inst = notion(*(p.symbol for p in params)).of(Fixed(mechanism)) if notion.params else notion().of(Fixed(mechanism))
    sizes = Sizes(mechanism.n, len(mechanism.domain), len(mechanism.outputs))
    claim = Claim("level", "⇒", "-", f"{notion.name} at some level on a fixed table", "(graph)",
                  (Implies(inst, Never()),), params=params, sizes=sizes, only_sizes=True)
    if population is not None:
        claim = replace(claim, parts=(Implies(inst, Never(), population=population),))
    v = check_claim(claim, replace(settings, second_solver=False, minimise=False)).verdict
    if isinstance(v, Vacuous):
        return "no level"
    if isinstance(v, Refuted) and v.verified_exactly:
        return "some level"
    return "unknown"
