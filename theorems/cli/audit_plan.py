"""The audit's plan: which claims start first, and when the run should end.

Each claim has a reference cost, the seconds it took in an audit on a reference machine (two cores, two
claims at a time), kept in ``theorems/audit_costs.json`` and written from an audit's JSON document by
``python bench/audit_costs.py audit.json``. The costs only order the work and estimate its end: no
verdict reads them. Claims start slowest first, so the short ones fill the gaps at the end instead of a
long one running alone. The end is estimated by laying the claims not yet finished on the workers (list
scheduling, in the order they start), each at its reference cost times the machine's pace: the seconds
the finished claims took over their reference costs.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

COSTS_FILE = Path(__file__).resolve().parents[1] / "audit_costs.json"
DEFAULT_COST = 5.0   # seconds, for a claim the table does not know yet (the table's median when it has one)


def reference_costs(ids) -> dict:
    """{claim id: reference seconds} for ``ids``; a claim missing from the table gets the table's median."""
    try:
        known = json.loads(COSTS_FILE.read_text())["seconds"]
    except (OSError, ValueError, KeyError, TypeError):
        known = {}
    known = {k: float(v) for k, v in known.items() if isinstance(v, (int, float)) and v >= 0}
    fallback = statistics.median(known.values()) if known else DEFAULT_COST
    return {i: known.get(i, fallback) for i in ids}


def slowest_first(ids, costs: dict) -> list:
    """``ids`` by decreasing reference cost (ties keep their order).

    >>> slowest_first(["a", "b", "c"], {"a": 1.0, "b": 9.0, "c": 1.0})
    ['b', 'a', 'c']
    """
    return sorted(ids, key=lambda i: -costs[i])


def pace(finished: dict, costs: dict) -> float:
    """The machine's pace: seconds the finished claims took ({id: seconds}) over their reference costs; 1.0
    before any has finished (or when their costs are all 0).

    >>> pace({}, {"a": 2.0}), pace({"a": 3.0, "b": 1.0}, {"a": 2.0, "b": 2.0})
    (1.0, 1.0)
    """
    ref = sum(costs[i] for i in finished)
    return sum(finished.values()) / ref if ref > 0 else 1.0


def planned_end(now: float, running: dict, pending: list, costs: dict, factor: float, jobs: int) -> float:
    """When the run should end (same clock as ``now``): the claims ``running`` ({id: start time}) end at
    their start plus cost × ``factor`` (not before ``now``); the ``pending`` ones, in order, each take the
    worker that is free first.

    >>> planned_end(10.0, {"a": 0.0}, ["b", "c"], {"a": 12.0, "b": 6.0, "c": 6.0}, 1.0, 2)
    18.0
    >>> planned_end(10.0, {}, ["b", "c"], {"b": 6.0, "c": 6.0}, 2.0, 1)
    34.0
    """
    free = sorted(max(now, start + costs[i] * factor) for i, start in running.items())
    free += [now] * max(0, jobs - len(free))
    for i in pending:
        free.sort()
        free[0] += costs[i] * factor
    return max(free) if free else now
