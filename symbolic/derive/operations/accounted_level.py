"""δ(ε) and total variation of a subsampled Gaussian density (Poisson, or without replacement), and of k runs of it: the certified
enclosure of :mod:`symbolic.derive.accounting` (composed privacy-loss distributions bounded from both sides),
as a level of the operation file."""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symbolic.core.errors import InvalidParameter, clip
from symbolic.core.exact import parse_expr
from symbolic.derive.accounting.run import account
from symbolic.derive.accounting.stages import stages_from_document
from symbolic.derive.continuous.values import CurveLevel

ACCOUNTED = {"approx-dp": "delta", "total-variation": "tv"}
PRECISION = Fraction(1, 100)     # of max(ε, 0.1): the lower grid is chosen from it


def accounted_level(notion: str, doc, params=None) -> CurveLevel:
    """The enclosure of ``notion`` (approx-dp at ``params["eps"]``, or total-variation, δ at ε = 0) for a
    subsampled Gaussian density file or a composition of one.

    >>> g = {"kind": "density", "outputs": "reals", "domain": [0, 1],
    ...      "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    >>> d = accounted_level("total-variation", {"kind": "subsampled", "of": g, "sampling": "poisson", "rate": "1/2"})
    >>> lo, hi = d.enclosure
    >>> d.ok and lo <= sp.Rational(19146246127401, 10 ** 14) <= hi     # q·(2Φ(1/2) − 1) = 0.191462…
    True
    """
    values = dict(params or {})
    if notion == "approx-dp":
        if "eps" not in values:
            raise InvalidParameter("approx-dp of a subsampled density is enclosed at one ε: give --param eps=…")
        eps = parse_expr(str(values.pop("eps")), what="eps")
    else:
        eps = sp.Integer(0)
    if not (eps.is_Rational and eps >= 0):
        raise InvalidParameter(f"eps={clip(str(eps), 30)}: the enclosure is taken at a rational ε ≥ 0")
    stages = stages_from_document(doc, values)
    r = account(stages, epsilon=Fraction(int(eps.p), int(eps.q)), precision=PRECISION)
    lo, hi = (sp.Rational(x.numerator, x.denominator) for x in r.delta)
    steps = (r.text().splitlines()[0], *r.method)
    return CurveLevel(notion, ACCOUNTED[notion], None, None, (lo, hi), False,
                      "the larger of the two orders (with the record first, and without it first)", steps,
                      (("both ends certified, the lower at most the upper", lo <= hi),),
                      {k: str(v) for k, v in dict(params or {}).items()})


__all__ = ["ACCOUNTED", "accounted_level"]
