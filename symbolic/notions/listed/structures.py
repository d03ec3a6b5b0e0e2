"""The declared structure of the listed DP-type notions (see :mod:`symbolic.notions.structure`), with citations.

Each declaration is checked by the engine on tables (``tests/graph/test_structure_checks.py``): the pairwise
form by exact evaluation, closure under post-processing by random stochastic maps and by maps that move part of
one output into another, at each table's exact level, merges by comparing exact levels, the dominating pair by
exact linear programming over stochastic maps.

>>> STRUCTURES["approx-dp"].coarsening, STRUCTURES["renyi-dp"].coarsening, STRUCTURES["probabilistic-dp"].pairwise
(2, None, None)
>>> STRUCTURES["pure-dp"].dominating(E=3)
((3/4, 1/4), (1/4, 3/4))
"""
from __future__ import annotations

import sympy as sp

from symbolic.notions.structure import Structure

_KOV = "Kairouz, Oh, Viswanath, The composition theorem for differential privacy, ICML 2015 / IEEE-IT 2017, Thm. 2.1"
_DR = "Dwork, Roth, The algorithmic foundations of differential privacy (2014), Prop. 2.1"
_VEH = "van Erven, Harremoës, Rényi divergence and Kullback-Leibler divergence, IEEE-IT 2014, Thm. 9"
_TV = "total variation is an f-divergence, so it obeys the data-processing inequality"
_DRS = "Dong, Roth, Su, Gaussian differential privacy, JRSS-B 2022, Prop. 2.8"


def _rr(E):
    """Binary randomized response with ratio E: every ε-DP pair is a post-processing of it (the (ε, 0) case of
    Kairouz, Oh, Viswanath's privacy region)."""
    E = sp.sympify(E)
    return (E / (E + 1), 1 / (E + 1)), (1 / (E + 1), E / (E + 1))


def _kov(E, delta):
    """The four-output pair of Kairouz, Oh, Viswanath: with probability δ the output names the database, else
    randomized response with ratio E. Every (ε, δ)-DP pair is a post-processing of it."""
    E, delta = sp.sympify(E), sp.sympify(delta)
    a, b = (1 - delta) * E / (E + 1), (1 - delta) / (E + 1)
    return (delta, a, b, sp.Integer(0)), (sp.Integer(0), b, a, delta)


_POINT = "a violating output o keeps its two probabilities when the others are merged into one"
_EVENT = "a violating event S keeps its two probabilities when the outputs are merged into S and the rest"
_TEST = ("the body is a condition on every deterministic test, an event S (these suffice: f_{ε,δ} is a maximum of "
         "affine pieces); merging into S and the rest keeps the failing test")
_SIDES = ("merging the outputs whose ratio exceeds E, those below 1/E and the rest keeps the first two outside "
          "[1/E, E], the rest inside, and the bad mass as it was")
_SPREAD = "merging into the output of largest ratio, the output of smallest ratio and the rest keeps both ratios"

STRUCTURES = {
    "pure-dp": Structure("replace one record", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV,
                         2, _POINT),
    "free-lunch": Structure("all pairs", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV,
                            2, _POINT),
    "local-dp": Structure("one record", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV,
                          2, _POINT),
    "approx-dp": Structure("replace one record", "the hockey-stick divergence at E", _DR, _kov, _KOV, 2, _EVENT),
    "tv-privacy": Structure("replace one record", "the total variation distance", _TV, lambda delta: _kov(1, delta),
                            _KOV + " (ε = 0)", 2, _EVENT),
    "renyi-dp": Structure("replace one record", "the Rényi divergence of order 2", _VEH),
    "f-dp": Structure("replace one record", "the trade-off function of testing A(d) against A(d')", _DRS, _kov, _KOV,
                      2, _TEST),
    "bounded-range": Structure("replace one record", "the spread of the log-ratio over outputs",
                               "the spread of the log-ratio cannot grow when outputs are merged or randomised "
                               "(Durfee, Rogers, NeurIPS 2019)", coarsening=3, coarsening_reason=_SPREAD),
    # probabilistic DP bounds, for each database d, the mass of outputs where the ratio to *some* neighbour leaves
    # [1/E, E]: a union over d's neighbours, so not pairwise; and not closed under post-processing (Meiser,
    # Approximate and probabilistic differential privacy definitions, 2018)
    "probabilistic-dp": Structure(None, "the mass of outputs whose log-ratio to some neighbour exceeds ε"),
    "AdditiveSecrecy": Structure("replace one record", "the total variation distance", _TV,
                                 lambda delta: _kov(1, delta), _KOV + " (ε = 0)", 2, _EVENT),
    "EventApprox": Structure("all pairs", "the largest log-ratio of two event probabilities", _DR, _rr, _KOV,
                             2, _EVENT),
    "PointwiseApprox": Structure("all pairs", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV,
                                 2, _POINT),
    "Indistinguishable": Structure("all pairs", "the hockey-stick divergence at E, both ways", _DR, _kov, _KOV,
                                   2, _EVENT),
    # the pair's bad set (ratio outside [1/E, E]) must weigh at most δ on both sides: pairwise, but not closed,
    # as probabilistic DP is not
    "PointwiseIndistinguishable": Structure("all pairs", "the mass of outputs whose log-ratio leaves [-ε, ε]",
                                            coarsening=3, coarsening_reason=_SIDES),
}

__all__ = ["STRUCTURES"]
