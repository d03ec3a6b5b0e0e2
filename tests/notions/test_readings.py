"""How derive map reads a notion relative to priors: the every-prior forms agree with the notions they stand for.

- Local information privacy's closed form for every prior (free-lunch privacy) is checked both ways: the solver
  proves that it gives LIP under every prior (the claim quantifies the prior), and for random rational tables a
  prior with a small weight on one data set breaks LIP just below the closed form's level (exact evaluation).
- A notion over all populations read on its family agrees with the engine's exact evaluation of the notion.
- Notions with no reading are refused in one line saying why.
"""
from __future__ import annotations

import itertools
import random

import pytest
import sympy as sp

from symbolic.core.errors import InvalidParameter
from symbolic.core.ops import ExactOps
from symbolic.core.tables import MechTable, databases
from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.derivation import prove_map
from symbolic.graph.sampling import holds_exactly
from symbolic.model.population import Population
from symbolic.notions.listed.catalog import find_notion
from symbolic.notions.listed.readings import EVERY_PRIOR, on_family, reading
from symbolic.notions.zoo import bayes
from symbolic.solve.backends.settings import Settings

E = sp.Symbol("E", real=True)
FAST = Settings(second_solver=False)


def _random_table(n, domain, outputs, rng):
    rows = {}
    for d in databases(n, tuple(range(domain))):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
    return MechTable(n, tuple(range(domain)), tuple(range(outputs)), rows)


def _level(table):
    """The closed form's level: the largest ratio P(y|x)/P(y|x') over data sets x ≠ x' and outputs y."""
    return max(table.rows[x][o] / table.rows[y][o] for x in table.rows for y in table.rows if x != y
               for o in range(len(table.outputs)))


@pytest.mark.parametrize("n", [1, 2])
def test_lip_closed_form_gives_lip_under_every_prior_by_the_solver(n):
    proof, why = prove_map(bayes.LocalInformationPrivacyEveryPrior, bayes.LocalInformationPrivacy, "E", {}, E,
                           Sizes(n, 2, 2), FAST)
    assert proof is not None, why
    # and one level lower is not enough: the solver finds a table and a prior
    proof, why = prove_map(bayes.LocalInformationPrivacyEveryPrior, bayes.LocalInformationPrivacy, "E", {},
                           (E + 1) / 2, Sizes(n, 2, 2), FAST)
    assert proof is None and "refuted" in why


@pytest.mark.parametrize("seed", range(6))
def test_lip_closed_form_is_the_supremum_over_priors(seed):
    rng = random.Random(seed)
    t = _random_table(1 + seed % 2, 2, 2 + seed % 2, rng)
    r = _level(t)
    ops = ExactOps()

    def lip(pop, level):
        return bool(bayes.LocalInformationPrivacy.body(ops, t, P=pop.table(), E=level))

    x, y, o = max(((x, y, o) for x in t.rows for y in t.rows if x != y for o in range(len(t.outputs))),
                  key=lambda c: t.rows[c[0]][c[2]] / t.rows[c[1]][c[2]])
    # a weight w on x and 1 − w on y: LIP at a level just below r fails once w is small
    below = r * (1 - sp.Rational(1, 10 ** 4))
    w = sp.Rational(1, 10 ** 6)
    pop = Population({x: w, y: 1 - w}, n=t.n, domain=t.domain)
    assert not lip(pop, below)
    # every prior satisfies LIP at r (random full-support ones, and the two-point ones)
    for _ in range(5):
        ws = [rng.randint(1, 20) for _ in t.rows]
        pop = Population({d: sp.Rational(v, sum(ws)) for d, v in zip(t.rows, ws)}, n=t.n, domain=t.domain)
        assert lip(pop, r)
    for u, v in itertools.combinations(t.rows, 2):
        assert lip(Population({u: sp.Rational(1, 3), v: sp.Rational(2, 3)}, n=t.n, domain=t.domain), r)
    assert holds_exactly(bayes.LocalInformationPrivacyEveryPrior, t, None, {"E": r})
    assert not holds_exactly(bayes.LocalInformationPrivacyEveryPrior, t, None, {"E": below})


@pytest.mark.parametrize("key", ["StrongAdversaryDP", "pufferfish", "membership-privacy", "Bayesian0DP"])
def test_a_notion_read_on_its_family_agrees_with_exact_evaluation(key):
    notion = find_notion(key).notion
    wrapped = reading(notion, 2, 2).notion
    assert wrapped.population == "none" and wrapped is on_family(notion)
    rng = random.Random(key)
    for _ in range(6):
        t = _random_table(2, 2, 2, rng)
        for level in (sp.Integer(1), sp.Rational(3, 2), sp.Integer(4)):
            values = {notion.params[0].name: level}
            assert holds_exactly(wrapped, t, None, values) == holds_exactly(notion, t, None, values)


def test_given_prior_notions_keep_their_own_form_as_the_conclusion():
    for given in (bayes.BayesianDP, bayes.InferentialPrivacy, bayes.LocalInformationPrivacy):
        r = reading(given, 1, 2)
        assert r.conclusion is given and r.hypothesis is EVERY_PRIOR[given.name] and r.notion.population == "none"
        assert "for every prior" in r.text
    assert reading(find_notion("pure-dp").notion, 3, 3).text is None


def test_notions_without_a_reading_are_refused_saying_why():
    with pytest.raises(InvalidParameter, match="no every-prior form"):
        reading(find_notion("StatisticalNondisclosure").notion, 1, 2)
    with pytest.raises(InvalidParameter, match="only at n = 1"):
        reading(find_notion("SemanticPrivacy").notion, 2, 2)
    with pytest.raises(InvalidParameter, match="no finite family"):
        reading(find_notion("PosteriorApprox").notion, 1, 2)
