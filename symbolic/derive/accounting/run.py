"""A certified enclosure of a private training run's tight ε(δ) (or δ(ε)), and the check of a claimed number.

A run is stages of T steps of a mechanism of sensitivity 1 (the Gaussian with noise multiplier σ, or the
Laplace with scale b) on a Poisson subsample at rate q (add/remove one record), or on m of n records sampled
without replacement, q = m/n (replace one record). Its tight δ(ε) is the larger of the two orders' hockey-stick
divergences of the composed dominating pairs (:mod:`.loss_laws`). Each order's is enclosed from above by
composing connect-the-dots pairs (:mod:`.dots`: a dominating discrete pair, error second order in the grid; for
sampling without replacement through the symmetric bound of :mod:`.symmetric`) and from below by composing
losses rounded down (:mod:`.grid_loss`: a dominated one); the
compositions are exact integer polynomial products with masses rounded in the safe direction, and δ(ε) is
evaluated in ball arithmetic. Floating point only proposes where δ crosses the target; the certified values decide.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

from symbolic.core.certified import Ball, arb_of, flint_module
from symbolic.core.errors import InvalidParameter
from symbolic.core.exact import expr_text
from symbolic.derive.accounting.dots import connect_the_dots
from symbolic.derive.accounting.grid_loss import discretise, multiply, power
from symbolic.derive.accounting.loss_laws import StepLoss
from symbolic.derive.accounting.profile import crossing, delta_at, float_profile
from symbolic.derive.accounting.symmetric import SymmetricStep
from symbolic.derive.accounting.table_loss import TableStepLoss

ORDERS = ("remove", "add")
UPPER_BITS = 14          # connect the dots: h = 2^-14, its error is second order in h
MAX_LOWER_BITS = 18      # the finest grid of the lower bound (its error is about T·h in ε)
DIGITS = 10 ** 7         # ε is stated on a grid of 10^-7


@dataclass(frozen=True)
class Stage:
    """``steps`` steps of ``noise`` ("gaussian", scale σ; "laplace", scale b; sensitivity 1) on a subsample at
    ``rate``: ``sampling`` "poisson" (add/remove one record) or "without-replacement" (m = rate·n of n records,
    replace one record).

    >>> Stage("gaussian", Fraction(1), Fraction(1, 100), 1000).text()
    '1000 steps of the gaussian mechanism (σ = 1) at rate q = 1/100'
    """

    noise: str
    scale: Fraction
    rate: Fraction
    steps: int
    rows: tuple = field(default=(), repr=False)    # a finite table's rows M(V), M(x), when ``noise`` is "table"
    sampling: str = "poisson"

    def step(self, order: str):
        """The step's loss in ``order`` on the pair of databases that attains it (a lower bound's step)."""
        frac = lambda x: (x.numerator, x.denominator)
        if self.noise == "table":
            return TableStepLoss(self.rows[0], self.rows[1], frac(self.rate), order)
        return StepLoss(self.noise, frac(self.scale), frac(self.rate), order)

    def upper_step(self, order: str):
        """The step whose curve bounds the mechanism's in ``order`` (an upper bound's step; under sampling without
        replacement one symmetric step for both orders)."""
        if self.sampling == "poisson":
            return self.step(order)
        return SymmetricStep(self.step("remove"), self.step("add"))

    def text(self) -> str:
        if self.noise == "table":
            shown = " against ".join("(" + ", ".join(expr_text(x) for x in r) + ")" for r in self.rows)
            return f"{self.steps} steps of the table {shown} at rate q = {self.rate}"
        name = "σ" if self.noise == "gaussian" else "b"
        return f"{self.steps} steps of the {self.noise} mechanism ({name} = {self.scale}) at rate q = {self.rate}"


@dataclass(frozen=True)
class RunAccount:
    """The enclosure: ``epsilon`` = (lower, upper) at the target ``delta``, or ``delta`` = (lower, upper) at the
    target ``epsilon`` (exact fractions); ``claim``: the verdict on a claimed number, with its certificate.

    >>> r = RunAccount((Stage("gaussian", Fraction(1), Fraction(1, 10), 5),), ("delta", Fraction(1, 10 ** 5)),
    ...                epsilon=(Fraction(2), Fraction(21, 10)))
    >>> r.to_json()["epsilon"]
    {'lower': '2', 'upper': '2.1'}
    """

    stages: tuple
    target: tuple                     # ("delta", D) or ("epsilon", X)
    epsilon: tuple | None = None
    delta: tuple | None = None
    claim: dict | None = None
    method: tuple = ()
    grids: dict = field(default_factory=dict)
    others: tuple = ()                # other numbers for the run (the libraries'), each decided as a claim

    def text(self) -> str:
        relation = ("Poisson sampling, add/remove one record" if _sampling(self.stages) == "poisson"
                    else "sampling without replacement, replace one record")
        lines = [f"run: {'; '.join(s.text() for s in self.stages)} ({relation})"]
        name, value = self.target
        if self.epsilon is not None:
            lo, hi = self.epsilon
            lines.append(f"at δ = {_dec(value)}: ε in [{_dec(lo)}, {_dec(hi)}] (certified; width {_dec(hi - lo, 3)})")
        if self.delta is not None:
            lo, hi = self.delta
            lines.append(f"at ε = {_dec(value)}: δ in [{_dec(lo)}, {_dec(hi)}] (certified)")
        if self.claim is not None:
            lines.append(f"claim {self.claim['claim']}: {self.claim['verdict']} — {self.claim['why']}")
        for o in self.others:
            said = {"proved": "a valid guarantee" + (f", {o['above_upper']} above the certified upper end"
                                                     if o.get("above_upper") else ""),
                    "refuted": "not a valid guarantee: below the certified lower end",
                    "unknown": "inside the enclosure, not decided at this precision"}[o["verdict"]]
            lines.append(f"{o['source']}: {o['claim']} — {o['verdict']} ({said})")
        lines += [f"method: {m}" for m in self.method]
        return "\n".join(lines)

    def to_json(self) -> dict:
        out = {"run": [{"noise": s.noise, "scale": str(s.scale), "rate": str(s.rate), "steps": s.steps,
                        **({"rows": [[str(x) for x in r] for r in s.rows]} if s.rows else {})} for s in self.stages],
               "sampling": _sampling(self.stages), "target": {self.target[0]: _dec(self.target[1], 12)},
               "method": list(self.method), "grids": self.grids}
        if self.epsilon is not None:
            out["epsilon"] = {"lower": _dec(self.epsilon[0], 12), "upper": _dec(self.epsilon[1], 12)}
        if self.delta is not None:
            out["delta"] = {"lower": _dec(self.delta[0], 12), "upper": _dec(self.delta[1], 12)}
        if self.claim is not None:
            out["claim"] = self.claim
        if self.others:
            out["libraries"] = list(self.others)
        return out


def _sampling(stages) -> str:
    return stages[0].sampling if stages else "poisson"


def repeated(stages: tuple, count: int) -> tuple:
    """The run of ``stages`` ``count`` times over: one stage's steps multiplied, several stages repeated in turn.

    >>> repeated((Stage("gaussian", Fraction(1), Fraction(1, 10), 5),), 3)[0].steps
    15
    """
    if len(stages) == 1:
        return (replace(stages[0], steps=stages[0].steps * count),)
    return tuple(stages) * count


def _dec(x, digits: int = 9) -> str:
    """A fraction in decimal: exact when it has at most ``digits`` significant digits, else rounded."""
    x = Fraction(x)
    return "0" if x == 0 else f"{float(x):.{digits}g}"


def chains(stages, bits: int, side: str) -> dict:
    """Each order's composed loss bound over the stages (one entry for both orders when the upper bound is the
    symmetric pair of sampling without replacement)."""
    out, total = {}, sum(s.steps for s in stages)
    orders = ("both",) if side == "upper" and _sampling(stages) != "poisson" else ORDERS
    for order in orders:
        acc = None
        for s in stages:
            one = (connect_the_dots(s.upper_step(order), bits, total) if side == "upper"
                   else discretise(s.step(order), bits, side))
            part = power(one, s.steps)
            acc = part if acc is None else multiply(acc, part)
        out[order] = acc
    return out


def certified_delta(chains: dict, eps: Fraction) -> dict:
    fl = flint_module()
    e = fl.fmpq(eps.numerator, eps.denominator)
    return {order: delta_at(g, e) for order, g in chains.items()}


def _upper_epsilon(chains, delta: Fraction) -> Fraction:
    """The least ε on the 10^-7 grid at or above the proposed crossing whose certified δ is ≤ δ in both orders."""
    guess = crossing([float_profile(g) for g in chains.values()], float(delta))
    eps = Fraction(math.ceil(guess * DIGITS), DIGITS)
    for _ in range(64):
        if all(d.upper() <= arb_of(delta) for d in certified_delta(chains, eps).values()):
            return eps
        eps += Fraction(max(1, int(eps * DIGITS) // 10 ** 5), DIGITS)
    raise ArithmeticError("no certified upper ε near the proposed crossing")


def _lower_epsilon(chains, delta: Fraction) -> Fraction:
    """The largest ε on the 10^-7 grid at or below the proposed crossing whose certified δ exceeds δ in an order."""
    guess = crossing([float_profile(g) for g in chains.values()], float(delta))
    eps = Fraction(math.floor(guess * DIGITS), DIGITS)
    for _ in range(64):
        if eps <= 0:
            return Fraction(0)
        if any(d.lower() > arb_of(delta) for d in certified_delta(chains, eps).values()):
            return eps
        eps -= Fraction(max(1, int(eps * DIGITS) // 10 ** 5), DIGITS)
    raise ArithmeticError("no certified lower ε near the proposed crossing")


def lower_bits(stages, precision: Fraction, eps_hint: float) -> int:
    """The grid of the lower bound: its error is at most about T·h in ε, so h ≈ precision·ε/T."""
    steps = sum(s.steps for s in stages)
    want = max(float(precision) * max(eps_hint, 0.1), 1e-12)      # near ε = 0 the width is taken of 0.1
    return max(8, min(MAX_LOWER_BITS, math.ceil(math.log2(steps / want))))


METHOD = ("each step's pair is the dominating pair of the mechanism under Poisson sampling (add/remove), in both "
          "orders; the run's δ(ε) is the larger order's",
          "upper bound: each step replaced by a dominating discrete pair (connect the dots on the grid 2^-{u}, its "
          "curve through certified upper ends of the step's δ at the grid points); lower bound: each loss rounded "
          "down to the grid 2^-{l} (a dominated pair)",
          "composition: exact integer polynomial products, masses in units of 2^-64 rounded up (upper) or down "
          "(lower), tails of mass ≤ 2^-52 moved to the safe side; δ(ε) evaluated in 128-bit ball arithmetic",
          "error budget: the upper bound's discretisation error is second order in 2^-{u}; the lower bound's at most "
          "T·2^-{l} in ε; ε stated on a grid of 10^-7 (rounded outward)")


WITHOUT_REPLACEMENT = (
    "sampling m of n without replacement (replace one record): each step bounded above by the larger of its two "
    "Poisson-form curves at every ε (advanced joint convexity, Balle, Barthe, Gaboardi 2018, Theorem 2, and its "
    "mirror for e^ε < 1), and below by the pair of databases where the record contributes 1 against 0 (both "
    "orders); the tight pair is not known, so the enclosure may stay wider than the precision asked")


def check_stages(stages) -> None:
    """One sampling scheme for the whole run, and sampling without replacement of a symmetric noise only."""
    kinds = {s.sampling for s in stages}
    if len(kinds) > 1:
        raise InvalidParameter("a run mixes Poisson sampling (add/remove one record) with sampling without "
                               "replacement (replace one record); give its stages one neighbour relation")
    if "without-replacement" in kinds and any(s.noise == "table" for s in stages):
        raise InvalidParameter("sampling without replacement is accounted for the Gaussian and the Laplace noise; a "
                               "table's step is accounted under Poisson sampling")


def account(stages, *, delta=None, epsilon=None, precision=Fraction(1, 100), claim=None, others=()) -> RunAccount:
    """The certified enclosure for the run of ``stages`` at ``delta`` (ε enclosed) or at ``epsilon`` (δ
    enclosed); ``claim``: ("eps", X) or ("delta", D), decided against it; ``others``: (source, claim, note)
    triples decided the same way (a library's number for the run, say).

    >>> r = account((Stage("gaussian", Fraction(1), Fraction(1, 10), 3),), delta=Fraction(1, 10 ** 5))
    >>> lo, hi = r.epsilon
    >>> 0 < lo <= hi and hi - lo <= hi / 100
    True
    """
    stages = tuple(stages)
    check_stages(stages)
    upper = chains(stages, UPPER_BITS, "upper")
    if delta is not None:
        hi = _upper_epsilon(upper, delta)
        bits = lower_bits(stages, precision, float(hi))
        lower = chains(stages, bits, "lower")
        lo = _lower_epsilon(lower, delta)
        result = RunAccount(stages, ("delta", delta), epsilon=(lo, hi))
    else:
        bits = lower_bits(stages, precision, float(epsilon))
        lower = chains(stages, bits, "lower")
        ups = certified_delta(upper, epsilon)
        lows = certified_delta(lower, epsilon)
        hi_d = max(fraction_up(d) for d in ups.values())
        lo_d = max(fraction_down(d) for d in lows.values())
        result = RunAccount(stages, ("epsilon", epsilon), delta=(lo_d, hi_d))
    method = tuple(m.format(u=UPPER_BITS, l=bits) for m in METHOD)
    if _sampling(stages) != "poisson":
        method = (WITHOUT_REPLACEMENT,) + method[1:]
    verdict = None if claim is None else _decide(claim, upper, lower, delta, epsilon, precision)
    decided = tuple({"source": src, **_decide(c, upper, lower, delta, epsilon, precision), "note": note,
                     **_looseness(c, result)} for src, c, note in others)
    return replace(result, claim=verdict, method=method, grids={"upper_bits": UPPER_BITS, "lower_bits": bits},
                   others=decided)


def _looseness(claim, result) -> dict:
    """How far a claimed ε is above the certified upper end (a valid number's slack), when ε is enclosed."""
    kind, value = claim
    if kind != "eps" or result.epsilon is None or value < result.epsilon[1]:
        return {}
    return {"above_upper": _dec(value - result.epsilon[1], 3)}


def fraction_up(ball) -> Fraction:
    """The exact upper end of an arb (read by the certified layer, which rounds extreme magnitudes outward)."""
    end = Ball.from_arb(ball).upper()
    return Fraction(int(end.p), int(end.q))


def fraction_down(ball) -> Fraction:
    """The exact lower end of an arb, at least 0 (a mass or a δ)."""
    end = Ball.from_arb(ball).lower()
    return max(Fraction(0), Fraction(int(end.p), int(end.q)))


def _decide(claim, upper, lower, delta, epsilon, precision) -> dict:
    """proved: the claimed (ε, δ) holds for the run (certified upper δ ≤ the claimed δ in both orders);
    refuted: the certified lower δ exceeds it in one order (the event of the composed loss above ε); unknown
    otherwise."""
    kind, value = claim
    eps, dlt = (value, delta) if kind == "eps" else (epsilon, value)
    ups, lows = certified_delta(upper, eps), certified_delta(lower, eps)
    text = f"{'eps' if kind == 'eps' else 'delta'}={_dec(value, 12)}"
    if all(d.upper() <= arb_of(dlt) for d in ups.values()):
        worst = max(fraction_up(d) for d in ups.values())
        return {"claim": text, "verdict": "proved", "why": f"the run's δ at ε = {_dec(eps)} is at most {_dec(worst)} ≤ "
                f"{_dec(dlt)} in both orders (certified upper bound)", "delta_upper": _dec(worst, 12)}
    for order, d in lows.items():
        if d.lower() > arb_of(dlt):
            low = fraction_down(d)
            who = "with the record against without it" if order == "remove" else "without the record against with it"
            return {"claim": text, "verdict": "refuted",
                    "why": f"the event S = {{outputs whose total privacy loss exceeds {_dec(eps)}}} ({who}) has "
                           f"P(S) − e^ε·Q(S) ≥ {_dec(low)} > δ = {_dec(dlt)} (certified lower bound)",
                    "witness": {"order": order, "event": f"total privacy loss > {_dec(eps, 12)}",
                                "hockey_stick_lower": _dec(low, 12)}}
    return {"claim": text, "verdict": "unknown", "why": f"{text} lies between the certified bounds at this precision; "
            f"a smaller --precision (now {_dec(precision)}) narrows them"}


__all__ = ["RunAccount", "Stage", "account", "repeated"]
