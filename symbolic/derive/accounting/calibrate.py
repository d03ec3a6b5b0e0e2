"""Many points of a run's privacy profile at once, and calibration: the least noise, the largest rate or the
most steps that meet a target (ε, δ), each as a certified interval.

The profile: the run's composed bounds are built once and δ(ε) is enclosed at every ε asked (one ball
evaluation each). Calibration: ε(δ) falls as σ grows and rises with q and T, so the target is met on one side of
a threshold. A bisection on a coarse upper bound (connect the dots on 2^-10) proposes it; the proposal is then
certified on both sides at the full grids: at the safe end the run's certified upper δ(ε) is at most δ (the
target is met), at the other its certified lower δ(ε) exceeds δ (it is not).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from symbolic.core.errors import InvalidParameter
from symbolic.derive.accounting.profile import float_profile
from symbolic.derive.accounting.run import (UPPER_BITS, Stage, certified_delta, chains, fraction_down,
                                            fraction_up, lower_bits)

COARSE_BITS = 10
KINDS = ("sigma", "rate", "steps")


def profile_points(stages, epsilons, precision=Fraction(1, 100)) -> list:
    """[(ε, δ lower, δ upper)] for each ε, on one build of the run's bounds.

    >>> pts = profile_points((Stage("gaussian", Fraction(1), Fraction(1, 10), 3),), [Fraction(1, 10), Fraction(1)])
    >>> [lo <= hi for _, lo, hi in pts], pts[0][2] > pts[1][2]
    ([True, True], True)
    """
    stages = tuple(stages)
    eps = sorted(set(Fraction(e) for e in epsilons))
    upper = chains(stages, UPPER_BITS, "upper")
    lower = chains(stages, lower_bits(stages, precision, float(max(min(eps), Fraction(1, 10)))), "lower")
    out = []
    for e in eps:
        ups, lows = certified_delta(upper, e), certified_delta(lower, e)
        out.append((e, max(fraction_down(d) for d in lows.values()), max(fraction_up(d) for d in ups.values())))
    return out


@dataclass(frozen=True)
class Calibration:
    """The certified interval (``low``, ``high``) of the threshold of ``kind``: for sigma the least noise that
    meets (ε, δ) lies in (low, high]; for rate and steps the largest lies in [low, high).

    >>> Calibration("steps", 900, 1010, Fraction(2), Fraction(1, 10 ** 5)).text()
    'most steps meeting (ε = 2, δ = 1e-05): in [900, 1010) (certified: 900 steps meet it, 1010 do not)'
    """

    kind: str
    low: object
    high: object
    epsilon: Fraction
    delta: Fraction
    why: tuple = ()

    def text(self) -> str:
        if self.kind == "steps":
            return (f"most steps meeting (ε = {float(self.epsilon):g}, δ = {float(self.delta):g}): in "
                    f"[{self.low}, {self.high}) (certified: {self.low} steps meet it, {self.high} do not)")
        side = ("least σ" if self.kind == "sigma" else "largest rate q")
        return (f"{side} meeting (ε = {float(self.epsilon):g}, δ = {float(self.delta):g}): in "
                f"[{float(self.low):.6g}, {float(self.high):.6g}] (certified)")

    def to_json(self) -> dict:
        return {"calibrate": self.kind, "lower": str(self.low), "upper": str(self.high),
                "target": {"epsilon": str(self.epsilon), "delta": str(self.delta)}, "why": list(self.why)}


def _with(stage: Stage, kind: str, value) -> Stage:
    return replace(stage, **{{"sigma": "scale", "rate": "rate", "steps": "steps"}[kind]: value})


def _coarse_delta(stage: Stage, eps: Fraction) -> float:
    ch = chains((stage,), COARSE_BITS, "upper")
    return max(float_profile(g)(float(eps)) for g in ch.values())


def _meets(stage, eps, delta) -> bool:
    """Certified: the run's upper δ(ε) is at most δ."""
    return max(fraction_up(d) for d in certified_delta(chains((stage,), UPPER_BITS, "upper"), eps).values()) <= delta


def _fails(stage, eps, delta, precision) -> bool:
    """Certified: the run's lower δ(ε) exceeds δ."""
    bits = lower_bits((stage,), precision, float(eps))
    return max(fraction_down(d) for d in certified_delta(chains((stage,), bits, "lower"), eps).values()) > delta


def calibrate(stage: Stage, kind: str, epsilon: Fraction, delta: Fraction, precision=Fraction(1, 100)) -> Calibration:
    """The threshold of ``kind`` (sigma, rate or steps) of the one-stage run ``stage`` (its own value of that
    parameter is a starting guess) at the target (``epsilon``, ``delta``), as a certified interval.

    >>> c = calibrate(Stage("laplace", Fraction(2), Fraction(1, 10), 1), "steps", Fraction(1), Fraction(1, 10 ** 5))
    >>> c.low < c.high, c.why[0].endswith("(the target is met)")
    (True, True)
    """
    if kind not in KINDS:
        raise InvalidParameter(f"--calibrate {kind}: calibrate sigma, rate or steps")
    ok = lambda v: _coarse_delta(_with(stage, kind, v), epsilon) <= float(delta)
    if kind == "steps":
        lo, hi = 1, 2
        if not ok(1):
            raise InvalidParameter("one step already misses the target")
        while ok(hi):
            lo, hi = hi, hi * 2
            if hi > 10 ** 7:
                raise InvalidParameter("the target is met beyond 10^7 steps")
        while hi - lo > max(1, int(lo * precision / 8)):
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if ok(mid) else (lo, mid)
        step = precision / 2
        safe, unsafe = max(1, math.floor(lo * (1 - step))), math.ceil(hi * (1 + step))
        for _ in range(8):
            if not _meets(_with(stage, kind, safe), epsilon, delta):
                safe = max(1, math.floor(safe * (1 - step)))
            elif not _fails(_with(stage, kind, unsafe), epsilon, delta, precision):
                unsafe = math.ceil(unsafe * (1 + step))
            else:
                return Calibration(kind, safe, unsafe, epsilon, delta,
                                   (f"{safe} steps: certified upper δ(ε) ≤ δ (the target is met)",
                                    f"{unsafe} steps: certified lower δ(ε) > δ (it is not)"))
        raise ArithmeticError("the most steps were not certified near the proposal")
    grow = kind == "sigma"            # a larger σ meets the target; a larger rate does not
    lo, hi = (Fraction(1, 100), Fraction(100)) if grow else (Fraction(1, 10 ** 6), Fraction(1))
    if grow and not ok(hi) or not grow and not ok(lo):
        raise InvalidParameter(f"no {kind} in [{lo}, {hi}] meets the target")
    for _ in range(60):
        mid = Fraction(math.sqrt(lo * hi)).limit_denominator(10 ** 9)
        good = ok(mid)
        lo, hi = (lo, mid) if good == grow else (mid, hi)
        if hi / lo - 1 < precision / 8:
            break
    step = precision / 2
    safe, unsafe = (hi * (1 + step), lo * (1 - step)) if grow else (lo * (1 - step), min(Fraction(1), hi * (1 + step)))
    safe, unsafe = (Fraction(float(x)).limit_denominator(10 ** 6) for x in (safe, unsafe))
    for _ in range(8):
        if not _meets(_with(stage, kind, safe), epsilon, delta):
            safe = safe * (1 + step) if grow else safe * (1 - step)
            continue
        if not _fails(_with(stage, kind, unsafe), epsilon, delta, precision):
            unsafe = unsafe * (1 - step) if grow else min(Fraction(1), unsafe * (1 + step))
            continue
        low, high = (unsafe, safe) if grow else (safe, unsafe)
        return Calibration(kind, low, high, epsilon, delta,
                           (f"{kind} = {safe}: certified upper δ(ε) ≤ δ (the target is met)",
                            f"{kind} = {unsafe}: certified lower δ(ε) > δ (it is not)"))
    raise ArithmeticError(f"the {kind} threshold was not certified near the proposal")


__all__ = ["Calibration", "calibrate", "profile_points"]
