"""The locality route on its own: each disjunct of the negated conclusion refuted with the hypotheses on
its own unknowns (a proof, with one obligation per disjunct), and nothing proved when a disjunct is not."""
from dataclasses import replace

from symbolic.core.verdicts import Sizes
from symbolic.notions.claims import E, Implies
from symbolic.notions.families.dp import PureDP
from symbolic.solve.backends.effort import Meter, units
from symbolic.solve.backends.settings import Settings
from symbolic.solve.queries.encode import Encoding
from symbolic.solve.routes import locality

Es = E.symbol
FAST = replace(Settings(), second_solver=False)


def _decide(imp, sizes=Sizes(2, 2, 2)):
    enc = Encoding(imp, (E,), sizes, dict(imp.parameters), None, False, FAST.hockey)
    return enc, locality.decide(enc, FAST, Meter(units(60)))


def test_a_true_claim_is_proved_one_disjunct_at_a_time():
    enc, res = _decide(Implies(PureDP(Es), PureDP(Es ** 2)))
    assert res.status == "unsat"
    parts = [p for p in enc.negated_conclusion_parts() if p is not False]
    assert len(res.obligations) == len(parts) > 1     # one refuted query per disjunct


def test_a_false_claim_is_never_proved():
    _, res = _decide(Implies(PureDP(Es ** 2), PureDP(Es)))
    assert res.status == "unknown" and "not refuted" in res.reason
