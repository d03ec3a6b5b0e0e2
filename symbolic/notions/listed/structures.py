"""The declared structure of the listed DP-type notions (see :mod:`symbolic.notions.structure`), with citations.

Each declaration is checked by the engine on tables (``tests/graph/test_structure_checks.py``): the pairwise
form by exact evaluation, closure under post-processing by random stochastic maps at each table's exact level,
the dominating pair by exact linear programming over stochastic maps.

>>> sorted(STRUCTURES)[:3]
['approx-dp', 'bounded-range', 'f-dp']
>>> STRUCTURES["pure-dp"].dominating(E=3)
((3/4, 1/4), (1/4, 3/4))
"""
from __future__ import annotations

import sympy as sp

from symbolic.notions.structure import Structure

_KOV = "Kairouz, Oh, Viswanath, The composition theorem for differential privacy, ICML 2015 / IEEE-IT 2017, Thm. 2.1"
_DR = "Dwork, Roth, The algorithmic foundations of differential privacy (2014), Prop. 2.1"
_VEH = "van Erven, Harremoës, Rényi divergence and Kullback-Leibler divergence, IEEE-IT 2014, Thm. 9"
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


STRUCTURES = {
    "pure-dp": Structure("replace one record", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV),
    "free-lunch": Structure("all pairs", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV),
    "local-dp": Structure("all pairs", "the largest log-ratio of two output probabilities", _DR, _rr, _KOV),
    "approx-dp": Structure("replace one record", "the hockey-stick divergence at E", _DR, _kov, _KOV),
    "tv-privacy": Structure("replace one record", "the total variation distance",
                            "total variation is an f-divergence, so it obeys the data-processing inequality",
                            lambda delta: _kov(1, delta), _KOV + " (ε = 0)"),
    "renyi-dp": Structure("replace one record", "the Rényi divergence of order 2", _VEH),
    "f-dp": Structure("replace one record", "the trade-off function of testing A(d) against A(d')", _DRS),
    "bounded-range": Structure("replace one record", "the spread of the log-ratio over outputs",
                               "the spread of the log-ratio cannot grow when outputs are merged or randomised "
                               "(Durfee, Rogers, NeurIPS 2019)"),
    # probabilistic DP bounds the privacy loss pointwise except on a set of mass δ: not closed under
    # post-processing (Meiser, Approximate and probabilistic differential privacy definitions, 2018)
    "probabilistic-dp": Structure("replace one record", "the mass of outputs whose log-ratio exceeds ε"),
}

__all__ = ["STRUCTURES"]
