"""Proofs by locality with ∀𝒫 notions: a ∀𝒫 hypothesis stands in by its instances at point masses and at
uniform populations on two neighbouring databases (all products), a ∀𝒫 conclusion by its sufficient
family. Each refuted disjunct is refuted under the full hypotheses, so a false claim is never proved."""

import pytest

from symbolic.api import (E, DataPointInterventionDP, FreeLunchPrivacy, IndependentBayesian0DP, PureDP, Settings,
                          Sizes, StrongAdversaryDP)
from symbolic.notions.claims import Implies
from symbolic.solve.one_size import _run_local
from symbolic.solve.backends.effort import Meter, units

FAST = Settings(second_solver=False)
Es = E.symbol


def _local(imp, sizes, family=None):
    family = imp.conclusion.notion.population in ("all", "product") if family is None else family
    return _run_local(imp, (E,), sizes, FAST, Meter(units(60)), units(30), family=family)


@pytest.mark.parametrize("hyp, con", [
    (PureDP, DataPointInterventionDP), (DataPointInterventionDP, PureDP),
    (PureDP, StrongAdversaryDP), (StrongAdversaryDP, PureDP), (IndependentBayesian0DP, PureDP),
])
def test_true_equivalences_of_the_causal_source_are_proved_locally(hyp, con):
    res = _local(Implies(hyp(Es), con(Es)), Sizes(2, 3, 2))
    assert res.status == "unsat", res.reason
    assert res.obligations and all(len(q) >= 1 for q in res.obligations)


@pytest.mark.parametrize("hyp, con", [
    (PureDP, FreeLunchPrivacy),                  # two records may change: E² is needed
    (IndependentBayesian0DP, FreeLunchPrivacy),  # a product hypothesis says nothing across two records
    (DataPointInterventionDP, PureDP),           # PureDP at level 1 only (below)
])
def test_false_claims_are_never_proved_locally(hyp, con):
    imp = Implies(hyp(Es), con(1 if hyp is DataPointInterventionDP else Es))
    assert _local(imp, Sizes(2, 2, 2)).status != "unsat"
