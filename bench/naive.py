"""Baselines for the benchmark: the same claims as one naive z3 query each.

- T-P5 (T-D8 ⇒ T-D1): ∀𝒫 written as a z3 quantifier inside one query, E symbolic.
- T-P4.converse: one query with 𝒫 and E free (no fixed E, no structured populations).
Prints seconds and z3's answer, with a timeout (default 30 s).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import z3  # noqa: E402

from symbolic.solve.backends.effort import units  # noqa: E402
from symbolic.notions.claims import E, Implies, NotImplies  # noqa: E402
from symbolic.notions.families.dp import DataPointInterventionDP, DataPointInterventionDPFor, PureDP  # noqa: E402
from symbolic.solve.queries.encode import Encoding  # noqa: E402
from symbolic.core.verdicts import Sizes  # noqa: E402

Es = E.symbol


def naive(imp, params, sizes, timeout):
    """The whole negated implication as one z3 call, parameters symbolic, each ∀𝒫 hypothesis written as
    a z3 ForAll over a fresh population on the simplex: (z3's answer, seconds)."""
    enc = Encoding(imp, params, sizes, dict(imp.parameters))
    s = z3.Solver()
    s.set("timeout", int(timeout * 1000))     # the wall clock as a safety net, and the same effort as the engine
    s.set("rlimit", units(timeout))
    s.add(enc.base + enc.hyps)
    for ni in enc.universal:
        mark, base_mark = len(enc.vars), len(enc.base)
        pop = enc.new_population("Q")
        qvars = [v for _, _, v in enc.vars[mark:]]
        simplex = enc.base[base_mark:]
        body = enc.eval(ni, pop)
        del enc.base[base_mark:]
        s.add(z3.ForAll(qvars, z3.Implies(z3.And(simplex), body)))
    s.add(enc.ops.side + [z3.Or(enc.negated_conclusion_parts())])
    t = time.monotonic()
    r = s.check()
    return str(r), time.monotonic() - t


def naive_p5(sizes, timeout):
    return naive(Implies(DataPointInterventionDP(Es), PureDP(Es)), (E,), sizes, timeout)


def naive_p4conv(sizes, timeout):
    return naive(NotImplies(DataPointInterventionDPFor(Es), PureDP(Es)), (E,), sizes, timeout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    print(f"{'naive query':<28} {'sizes':<7} {'answer':<8} {'seconds':>8}")
    for name, fn, sizes in (("T-P5 (∀𝒫 as ForAll)", naive_p5, [Sizes(2, 2, 2)]),
                            ("T-P4.converse (one query)", naive_p4conv, [Sizes(2, 2, 2), Sizes(3, 2, 2), Sizes(2, 3, 2)])):
        for sz in sizes:
            r, t = fn(sz, args.timeout)
            print(f"{name:<28} {'%d,%d,%d' % sz.as_tuple():<7} {r:<8} {t:8.2f}", flush=True)


if __name__ == "__main__":
    main()
