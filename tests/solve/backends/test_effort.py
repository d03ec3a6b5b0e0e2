"""Effort decides verdicts, the wall clock is only a safety net (symbolic.solve.backends.effort): the same question
with the same effort gets the same answer and spends the same count, and what ran out is named."""
from __future__ import annotations

import threading
import time

import z3

from symbolic.core.verdicts import Proved, Refuted, Sizes, Unknown
from symbolic.notions.claims import E, Implies
from symbolic.notions.families.dp import PureDP, StrongAdversaryDPFor
from symbolic.solve.backends import second_opinion as so
from symbolic.solve.backends.cvc5_backend import Decision
from symbolic.solve.backends.effort import Meter, units
from symbolic.solve.search import check_implication
from symbolic.solve.backends.settings import Settings
from symbolic.solve.queries.solver import fresh_context

Es = E.symbol
FAST = Settings(second_solver=False)


def _run(imp, settings, lo=Sizes(1, 2, 2), hi=Sizes(1, 2, 2)):
    fresh_context()
    meter = Meter(settings.effort)
    v = check_implication(imp, (E,), lo, hi, settings, meter=meter)
    return v, meter.spent


def _busy(stop):
    while not stop.is_set():
        sum(i * i for i in range(1000))


def test_the_same_question_spends_the_same_count_idle_and_under_load():
    """Two runs of a proof, one with a busy thread beside it: the same verdict and the same z3 units spent."""
    imp = Implies(PureDP(Es), PureDP(Es ** 2))
    idle, spent_idle = _run(imp, FAST, hi=Sizes(1, 2, 3))
    stop = threading.Event()
    worker = threading.Thread(target=_busy, args=(stop,), daemon=True)
    worker.start()
    try:
        loaded, spent_loaded = _run(imp, FAST, hi=Sizes(1, 2, 3))
    finally:
        stop.set()
        worker.join()
    assert isinstance(idle, Proved) and isinstance(loaded, Proved)
    assert spent_idle == spent_loaded > 0
    assert idle.certificate["effort"] == loaded.certificate["effort"]


def test_a_counterexample_is_the_same_on_every_run():
    imp = Implies(StrongAdversaryDPFor(Es), PureDP(Es))
    a, sa = _run(imp, FAST)
    b, sb = _run(imp, FAST)
    assert isinstance(a, Refuted) and isinstance(b, Refuted) and a.verified_exactly
    ca, cb = a.counterexample, b.counterexample
    assert (ca.sizes, repr(ca.mechanisms), repr(ca.populations), ca.parameters) == \
        (cb.sizes, repr(cb.mechanisms), repr(cb.populations), cb.parameters)
    assert sa == sb > 0


def test_a_part_stops_at_its_effort_and_says_which_limit():
    """A true claim whose proof needs more than a few z3 steps: unknown, naming the effort limit and the
    option that raises it, never the wall clock; with the default effort it is proved."""
    imp = Implies(PureDP(Es), PureDP(Es ** 2))
    tiny = Settings(second_solver=False, effort=300, query_effort=300, cheap_effort=100)
    v, spent = _run(imp, tiny, hi=Sizes(1, 2, 3))
    assert isinstance(v, Unknown), v
    assert "effort limit" in v.reason and "--effort" in v.reason and "wall-clock" not in v.reason
    assert spent <= 300 + 5000   # z3 looks at its count between steps: a call may overshoot a little
    assert isinstance(_run(imp, FAST, hi=Sizes(1, 2, 3))[0], Proved)


def test_effort_levels_scale_every_effort():
    ci, thorough = Settings.profile("ci"), Settings.profile("thorough")
    assert thorough.effort == 10 * ci.effort and thorough.query_effort == 10 * ci.query_effort
    assert Settings.named("4").effort == 4 * ci.effort and Settings.named("1/2").query_effort == ci.query_effort // 2
    assert thorough.timeout == ci.timeout   # the safety net is not effort
    assert ci.capped(3.0).query_effort == units(3) and thorough.capped(3.0).query_effort == 10 * units(3)


class _Ob:
    def __init__(self, i):
        self.assertions, self.label = (i,), f"query {i}"


def test_the_second_solver_counts_its_effort_in_index_order():
    """Eight queries of 100 cvc5 units each and an effort of 250: the first three count, whichever batch
    of the two workers finishes first; the rest are unknown and say that the effort ran out."""
    settings = Settings(second_effort=250)

    def run(first_is_slow):
        def decide(datas, **kw):
            if (datas[0] == 0) == first_is_slow:
                time.sleep(0.3)
            return [Decision("unsat", "fake", 0.0, 100) for _ in datas]
        out = so._decide_all([_Ob(i) for i in range(8)], settings, time.monotonic() + 60, lambda a: a[0], decide)
        return [(st, "effort" in r) for _, st, r in out]
    a, b = run(True), run(False)
    assert a == b
    assert [st for st, _ in a] == ["unsat"] * 3 + ["unknown"] * 5
    assert all(effort for st, effort in a if st == "unknown")


def test_an_account_with_a_far_processor_time_net_counts_its_steps_first():
    """Minimisation's account allows 20 processor seconds a nominal second: a processor second costs it
    a twentieth of what it costs an ordinary account, its sub-accounts inherit that, and its reason says it."""
    from symbolic.solve.backends.effort import CPU_SLACK, UNITS_PER_SECOND
    plain, far = Meter(UNITS_PER_SECOND), Meter(UNITS_PER_SECOND, cpu_slack=20.0, name="minimisation")
    for m in (plain, far):
        m.charge(0, cpu=1.0)
    assert plain.left() == UNITS_PER_SECOND - int(UNITS_PER_SECOND / CPU_SLACK)
    assert far.left() == UNITS_PER_SECOND - UNITS_PER_SECOND // 20
    assert far.sub(UNITS_PER_SECOND).cpu_slack == 20.0
    far.charge(UNITS_PER_SECOND)
    assert "minimisation: 1,000,000 z3 units or 20 processor seconds" in far.effort_reason()
