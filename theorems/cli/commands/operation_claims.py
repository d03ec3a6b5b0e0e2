"""`implies A B --compose K | --subsample SCHEME`: the question "A ⇒ B of the operated mechanism" as a claim over
the engine's operation terms, A's parameters and the rate symbolic unless fixed."""
from __future__ import annotations

from symbolic import InvalidParameter, clip

MAX_RUNS = 3   # the engine states each run's table: K runs of |𝒪| outputs have |𝒪|^K


def operated_claim(claim, compose, subsample, outputs, n=None, domain=None):
    """``claim`` (A ⇒ B on one mechanism) with A on each run of the operation and B on the operated mechanism.

    >>> from symbolic import E, PureDP, Sizes, implication_claim
    >>> c = operated_claim(implication_claim(PureDP(E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2)), None,
    ...                    "poisson", None)
    >>> c.statement, [p.name for p in c.params]
    ('PureDP(E).of(A) ⇒ PureDP(E).of(PoissonSubsample(A, q))', ['E', 'q'])
    """
    from symbolic import (Compose, MechVar, Param, PoissonSubsample, SampleWithoutReplacement, Sizes,
                          implication_claim, parse_expr)
    from theorems.cli.commands.operation_maps import operation_of
    op = operation_of(compose, subsample)
    part = claim.parts[0]
    hyps = part.hypotheses if isinstance(part.hypotheses, (tuple, list)) else (part.hypotheses,)
    if len(hyps) != 1 or hyps[0].on is not None or part.conclusion.on is not None:
        raise InvalidParameter("--compose and --subsample take one notion A of one mechanism")
    inner = op.get("of") if op["kind"] == "composition" else op
    if inner is not None and (n or 1, domain or 2) != (1, 2):
        raise InvalidParameter("--n and --domain do not go with --subsample: the sampling terms are stated for one "
                               "record over two values, which every neighbouring pair reduces to; give --outputs")
    params, sizes = tuple(claim.params), Sizes(n or 1, domain or 2, outputs or 2)
    a = MechVar("A")
    term = a
    if inner is not None:
        if inner["sampling"] == "poisson":
            if inner["rate"] == "q":
                q = Param("q", lower=0, upper=1, lower_strict=True, upper_strict=True)
                params, rate = params + (q,), q.symbol
            else:
                rate = parse_expr(inner["rate"], {}, what="--subsample rate")
            term = PoissonSubsample(a, rate)
        else:
            term = SampleWithoutReplacement(a, inner["size"])
    runs = [term]
    names = ["A"]
    if op["kind"] == "composition":
        k = op["times"]
        if not isinstance(k, int) or not 2 <= k <= MAX_RUNS:
            raise InvalidParameter(f"--compose {clip(str(k), 20)}: implies states 2 or {MAX_RUNS} runs (the engine "
                                   f"writes each run's table); `derive map A B --compose {k}` gives the level for "
                                   f"any number of runs")
        names = [f"A{i + 1}" for i in range(k)]
        runs = [_renamed(term, MechVar(nm)) for nm in names]
        term = runs[-1]
        for r in reversed(runs[:-1]):
            term = Compose(r, term)
    new_hyps = tuple(hyps[0].of(MechVar(nm)) for nm in names)
    concl = part.conclusion.of(term)
    return implication_claim(new_hyps if len(new_hyps) > 1 else new_hyps[0], concl, params=params, sizes=sizes)


def _renamed(term, var):
    """The subsampling term over ``var`` instead of A (or ``var`` itself)."""
    from symbolic import MechVar, PoissonSubsample, SampleWithoutReplacement
    if isinstance(term, MechVar):
        return var
    if isinstance(term, PoissonSubsample):
        return PoissonSubsample(var, term.rate)
    return SampleWithoutReplacement(var, term.size)


__all__ = ["operated_claim"]
