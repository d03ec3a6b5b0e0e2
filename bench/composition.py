"""Hockey-stick notions under composition and post-processing, with ε and δ symbolic: each claim
with the plain If-term encoding of max(0, ·) (today's default) and with the hockey-stick rewrite
(``Settings(hockey=True)``, symbolic/solve/queries/hockey.py). Prints claim, sizes, verdict and seconds
for both. Usage: python bench/composition.py [effort in nominal seconds, default 60]"""
import sys
import time
from dataclasses import replace

from symbolic.solve.backends.effort import units  # noqa: E402
from symbolic.api import (AdaptiveVar, ApproxDP, Compose, KernelVar, MechVar, Param, PostProcess, Settings, Sizes,
                          check_implies)
from theorems.lecture_properties import ADD_PROPS_PROOF

E1, E2 = Param("E1", lower=1), Param("E2", lower=1)
D1, D2 = Param("d1", lower=0, upper=1), Param("d2", lower=0, upper=1)
E, D = Param("E", lower=1), Param("d", lower=0, upper=1)
A, A1 = MechVar("A"), MechVar("A1")
A2, B2 = AdaptiveVar("A2", after=A1), MechVar("B2")


def _compose(second, delta):
    return ((ApproxDP(E1.symbol, D1.symbol).of(A1), ApproxDP(E2.symbol, D2.symbol).of(second)),
            ApproxDP(E1.symbol * E2.symbol, delta).of(Compose(A1, second)), (E1, E2, D1, D2))


def cases():
    add = ADD_PROPS_PROOF.steps[0]
    yield "adaptive composition (δ1+δ2)", _compose(A2, D1.symbol + D2.symbol), Sizes(1, 2, 2)
    yield "non-adaptive composition (δ1+δ2)", _compose(B2, D1.symbol + D2.symbol), Sizes(1, 2, 2)
    yield "adaptive composition, δ1 only (false)", _compose(A2, D1.symbol), Sizes(1, 2, 2)
    yield "post-processing", ((ApproxDP(E.symbol, D.symbol),),
                              ApproxDP(E.symbol, D.symbol).of(PostProcess(A, KernelVar("B", source=A))), (E, D)), Sizes(1, 2, 2)
    for sz in (Sizes(1, 2, 2), Sizes(2, 2, 2)):
        yield "L-ADD.props additive-secrecy composition", (
            add.implication.hypotheses, add.implication.conclusion, add.params), sz


def main():
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    base = Settings(second_solver=False, effort=units(budget), query_effort=units(min(20.0, budget)))
    print(f"{'claim':42} {'sizes':9} {'if-terms':>18} {'hockey':>18}")
    for name, (hyp, concl, params), sizes in cases():
        cols = []
        for settings in (base, replace(base, hockey=True)):
            t = time.monotonic()
            res = check_implies(hyp, concl, params=params, sizes=sizes, settings=settings)
            cols.append(f"{type(res.verdict).__name__.lower():>9} {time.monotonic() - t:7.1f}s")
        print(f"{name:42} {'(%d,%d,%d)' % sizes.as_tuple():9} {cols[0]:>18} {cols[1]:>18}", flush=True)


if __name__ == "__main__":
    main()
