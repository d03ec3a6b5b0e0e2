"""The search: proofs, CEGIS, exact re-verification that cannot be fooled, minimal counterexamples."""
import sympy as sp

import symbolic.solve.search as search

from symbolic.solve import one_size
from symbolic.solve.backends.effort import Meter, units
from symbolic.solve.queries.solver import fresh_context
from symbolic.notions.claims import E, Equivalent, Implies, NotImplies
from symbolic.notions.families.dp import (DataPointInterventionDP, PureDP, StrongAdversaryDP,
                                 StrongAdversaryDPFor)
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings, check_implication
from symbolic.core.verdicts import Proved, Refuted, Sizes
from symbolic.solve.queries.verify import Assignment, verify
from theorems.registry import get

Es = E.symbol
FAST = Settings()


def rows(tab):
    return {d: tuple(r) for d, r in tab.rows.items()}


def test_p1_proved_with_symbolic_E():
    for imp in Equivalent(PureDP(Es), StrongAdversaryDP(Es)):
        v = check_implication(imp, (E,), Sizes(1, 2, 2), Sizes(2, 2, 2), FAST)
        assert isinstance(v, Proved), v
        assert [s.as_tuple() for s, *_ in v.sizes_proved] == [(1, 2, 2), (2, 2, 2)]


def test_p5_universal_direction_uses_cegis():
    imp = Implies(DataPointInterventionDP(Es), PureDP(Es))
    v = check_implication(imp, (E,), Sizes(2, 2, 2), Sizes(2, 2, 2), FAST)
    assert isinstance(v, Proved)


def test_quality_minimal_counterexample_p4_converse():
    """T-P4.converse: the minimal counterexample is at n=2, |D|=2 (the source used |D|=3)."""
    res = check_claim(get("T-P4.converse"), FAST)
    v = res.verdict
    assert isinstance(v, Refuted) and v.verified_exactly and v.minimal
    cx = v.counterexample
    assert cx.sizes == Sizes(2, 2, 2)
    one, zero = sp.Integer(1), sp.Integer(0)
    assert rows(cx.mechanisms["A"]) == {(0, 0): (zero, one), (0, 1): (zero, one), (1, 0): (zero, one),
                                        (1, 1): (one, zero)}
    assert {d: p for d, p in cx.populations["P"].probs.items() if p} == {(0, 0): one}
    assert cx.parameters == {"E": 2}
    assert res.agrees
    # the source's own counterexample (n=2, D={0,1,2}) is confirmed as a second part
    assert [p.verdict.name for p in res.parts] == ["refuted", "refuted"]


def test_quality_minimal_counterexample_appb():
    res = check_claim(get("T-APPB"), FAST)
    cx = res.verdict.counterexample
    assert cx.sizes == Sizes(1, 2, 2) and res.verdict.verified_exactly
    one, zero = sp.Integer(1), sp.Integer(0)
    assert rows(cx.mechanisms["A"]) == {(0,): (zero, one), (1,): (one, zero)}
    assert {d: p for d, p in cx.populations["P"].probs.items() if p} == {(0,): one}


def test_reverification_rejects_corrupted_models(monkeypatch):
    """A solver model whose numbers are tampered with must not come out as a counterexample."""
    real = search.extract

    def corrupt(enc, model):
        asg = real(enc, model)
        if asg is None:
            return None
        A = asg.mechanisms["A"]
        d0 = next(iter(A.rows))
        bad = dict(A.rows)
        bad[d0] = tuple(x + sp.Rational(1, 7) for x in A.rows[d0])  # no longer sums to 1
        return Assignment({"A": type(A)(A.n, A.domain, A.outputs, bad)}, asg.populations, asg.parameters)

    monkeypatch.setattr(search, "extract", corrupt)      # minimisation
    monkeypatch.setattr(one_size, "extract", corrupt)    # the query at one size
    v = check_implication(NotImplies(StrongAdversaryDPFor(Es), PureDP(Es)), (E,), Sizes(1, 2, 2), Sizes(1, 2, 2), FAST)
    assert isinstance(v, Refuted) and not v.verified_exactly
    assert "RE-VERIFICATION FAILED" in v.note


def test_verify_rejects_a_non_counterexample():
    """An honest DP mechanism is not a counterexample to anything claiming DP."""
    from symbolic.model.mechanism import randomized_response
    from symbolic.core.tables import PopTable
    A = randomized_response(3, n=1).table()
    P = PopTable(1, (0, 1), {(0,): sp.Integer(1), (1,): sp.Integer(0)})
    ok, _, problems = verify(NotImplies(StrongAdversaryDPFor(Es), PureDP(Es)), (E,),
                             Assignment({"A": A}, {"P": P}, {"E": sp.Integer(3)}))
    assert not ok and any("conclusion" in p for p in problems)
    ok, _, problems = verify(NotImplies(StrongAdversaryDPFor(Es), PureDP(Es)), (E,),
                             Assignment({"A": A}, {"P": P}, {"E": sp.Rational(1, 2)}))
    assert not ok and any("outside its range" in p for p in problems)


def test_parameter_expressions_are_only_searched_where_defined():
    """(E²-1)/(E-1) = E+1 for E ≠ 1: ε-DP ⇒ (E+1)-DP holds. At E = 1 the expression divides by zero;
    the search must keep away from it (z3 would give 0/0 any value) and the exact check must
    refuse such a candidate instead of crashing."""
    from symbolic.model.mechanism import randomized_response
    wide = (Es ** 2 - 1) / (Es - 1)
    imp = Implies(PureDP(Es), PureDP(wide))
    v = check_implication(imp, (E,), Sizes(1, 2, 2), Sizes(1, 2, 2), FAST)
    assert isinstance(v, Proved)
    A = randomized_response(2, n=1).table()
    ok, _, problems = verify(NotImplies(PureDP(Es), PureDP(wide)), (E,), Assignment({"A": A}, {}, {"E": sp.Integer(1)}))
    assert not ok and any("not a finite real number" in p for p in problems)


def test_locality_proves_only_what_holds():
    """The locality step (each violated neighbour pair refuted with that pair's hypotheses only)
    proves adaptive composition of additive secrecy at n=2, and never proves a false claim."""
    from symbolic.notions.claims import Param
    from symbolic.notions.families.semantic import AdditiveSecrecy
    from symbolic.core.terms import AdaptiveVar, Compose, MechVar
    D1, D2 = Param("delta1", lower=0, upper=1), Param("delta2", lower=0, upper=1)
    A1 = MechVar("A1")
    A2 = AdaptiveVar("A2", after=A1)
    ok = Implies((AdditiveSecrecy(D1.symbol).of(A1), AdditiveSecrecy(D2.symbol).of(A2)),
                 AdditiveSecrecy(D1.symbol + D2.symbol).of(Compose(A1, A2)))
    meter = lambda: Meter(units(60))
    fresh_context()
    assert one_size._run_local(ok, (D1, D2), Sizes(2, 2, 2), FAST, meter(), units(30)).status == "unsat"
    bad = Implies((AdditiveSecrecy(D1.symbol).of(A1), AdditiveSecrecy(D2.symbol).of(A2)),
                  AdditiveSecrecy(D1.symbol).of(Compose(A1, A2)))
    assert one_size._run_local(bad, (D1, D2), Sizes(2, 2, 2), FAST, meter(), units(30)).status == "unknown"
    v = check_implication(bad, (D1, D2), Sizes(1, 2, 2), Sizes(2, 2, 2), FAST)
    assert isinstance(v, Refuted) and v.verified_exactly
