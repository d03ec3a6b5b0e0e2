"""How the tight conversion between two notions changes with the number of records: the map at n = 1, 2, ...
(:func:`~symbolic.graph.constants.derivation.derive_map` at each size, each with a budget of its own) and
a sentence saying whether it stopped changing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.budget import Budget, BudgetSpent
from symbolic.core.exact import expr_text
from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.derivation import derive_map
from symbolic.solve.backends.settings import Settings  # noqa: F401 -- the doctest uses it


@dataclass(frozen=True)
class MapGrowth:
    """The conversion at n = 1, 2, ... up to ``max_n`` (``runs``), ``not_reached`` the sizes the budget
    left out, ``summary`` how f changes (see :func:`derive_map_growth`).

    >>> MapGrowth(runs=(), not_reached=(3,), summary="n=1: E").not_reached
    (3,)
    """

    runs: tuple
    not_reached: tuple
    summary: str
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"sizes": [r.sizes.as_dict() for r in self.runs],
                "formulas": [None if r.formula is None else expr_text(r.formula) for r in self.runs],
                "summary": self.summary, "not_reached": list(self.not_reached), "seconds": round(self.seconds, 3),
                "stopped": self.extra.get("stopped"),
                "runs": [r.to_json() for r in self.runs]}


def derive_map_growth(a, b, *, domain: int = 2, outputs: int = 2, max_n: int = 3, budget: float | None = None,
                      on_run=None, **kw) -> MapGrowth:
    """The conversion at n = 1 .. ``max_n`` and how it changes, each size with ``budget`` processor seconds of its
    own (the first size that spends them ends the run: the larger ones would too); ``on_run(derivation)`` is called
    as each size finishes (so a caller prints it at once, and one stopped by a signal still has them).

    Group privacy for groups of two: ε-DP gives it at ε for one record and 2ε once two can change.

    >>> from symbolic.notions.families.dp import PureDP
    >>> from symbolic.notions.listed.catalog import find_notion
    >>> g = derive_map_growth(PureDP, find_notion("group-dp").notion, max_n=2, settings=Settings(second_solver=False))
    >>> [str(r.formula) for r in g.runs], g.summary
    (['E', 'E**2'], 'n=1: E, n=2: E**2; changes at every step up to n=2')
    """
    t0, runs, skipped, stopped = time.monotonic(), [], [], None
    for n in range(1, max_n + 1):
        try:
            with Budget(budget) as bud:
                runs.append(derive_map(a, b, sizes=Sizes(n, domain, outputs), budget=bud,
                                       carry=runs[-1] if runs else None, **kw))
        except BudgetSpent as e:
            skipped, stopped = list(range(n, max_n + 1)), str(e)
            break
        if on_run is not None:
            on_run(runs[-1])
    summary = growth_summary(runs, skipped) + (f"; {stopped}" if stopped else "")
    return MapGrowth(tuple(runs), tuple(skipped), summary, time.monotonic() - t0,
                     {"stopped": stopped} if stopped else {})


def growth_summary(runs, skipped=()) -> str:
    """How f changes from one n to the next, in words."""
    if not runs:
        return "no size finished" + (f" (n = {', '.join(map(str, skipped))} not reached within the budget)"
                                     if skipped else "")
    fs = [r.formula for r in runs]
    if any(f is None for f in fs):
        return "unknown at n = " + ", ".join(str(r.sizes.n) for r in runs if r.formula is None)
    steps = []
    for (r0, f0), (r1, f1) in zip(zip(runs, fs), zip(runs[1:], fs[1:])):
        same = f0 == f1 or sp.simplify(f1 - f0) == 0 if f0 != sp.oo and f1 != sp.oo else f0 == f1
        steps.append(same)
    text = ", ".join(f"n={r.sizes.n}: {expr_text(f)}" for r, f in zip(runs, fs))
    if not steps:
        out = text
    elif all(steps):
        out = f"{text}; the same at every size tried"
    elif not steps[-1]:
        out = f"{text}; changes at every step up to n={runs[-1].sizes.n}" if not any(steps) else \
            f"{text}; still changing at n={runs[-1].sizes.n}"
    else:
        first = next(i for i in range(len(steps)) if all(steps[i:]))
        out = f"{text}; stops changing at n={runs[first].sizes.n}"
    if skipped:
        out += f" (n = {', '.join(map(str, skipped))} not reached within the budget)"
    return out


__all__ = ["MapGrowth", "derive_map_growth", "growth_summary"]
