"""Vacuity: a claim whose hypotheses cannot hold together is `vacuous`, never `proved`; a proved
claim carries an exact witness of its hypotheses. Also open and half-open parameter ranges."""
from dataclasses import replace

import pytest
import sympy as sp

from symbolic.notions.claims import Claim, E, Implies, Param
from symbolic.notions.families.dp import FreeLunchPrivacy, PureDP
from symbolic.core.errors import InvalidParameter
from symbolic.notions.base import E_SPEC, Notion, ParamSpec
from symbolic.report.results import claim_json
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Proved, Sizes, Vacuous
from symbolic.solve.queries.verify import Assignment, verify_witness

FAST = replace(Settings(), second_solver=False)
Es = E.symbol


def _claim(*parts, params=(E,), sizes=Sizes(1, 2, 2)):
    return Claim("t", "⇒", "-", "test", "?", parts, params=params, sizes=sizes, min_sizes=sizes)


def test_pinned_parameter_outside_its_range_is_vacuous():
    # ε-DP with E = 1/2 < 1 would need A(d)(o) ≤ A(d')(o)/2 for all o: no table satisfies it,
    # so "ε-DP(1/2) ⇒ anything" is unsatisfiable, and a solver alone would call it proved.
    res = check_claim(_claim(Implies(PureDP(Es), FreeLunchPrivacy(Es), parameters={"E": sp.Rational(1, 2)})), FAST)
    assert isinstance(res.verdict, Vacuous)
    assert "E=1/2" in res.verdict.reason and "range" in res.verdict.reason
    doc = claim_json(res)
    assert doc["verdict"] == "vacuous" and doc["vacuity"] == "vacuous" and not res.agrees


def _never(ops, A, P=None, *, E):
    """A(d)(o) ≤ A(d)(o)/2 for every row: forces every entry to 0, so no row sums to 1."""
    return ops.And(ops.le(A.p(d, o) * 2, A.p(d, o)) for d in A.rows for o in A.outputs)


Never = Notion("Never", (E_SPEC,), _never)


def test_contradictory_hypotheses_are_vacuous():
    res = check_claim(_claim(Implies(Never(Es), PureDP(Es))), FAST)
    assert isinstance(res.verdict, Vacuous) and "cannot hold together" in res.verdict.reason


def test_proved_claim_has_an_exact_witness():
    imp = Implies(PureDP(Es), FreeLunchPrivacy(Es))
    res = check_claim(_claim(imp), FAST)
    v = res.verdict
    assert isinstance(v, Proved) and v.vacuity == "satisfiable" and v.witness is not None
    w = v.witness
    ok, problems = verify_witness(imp, (E,), Assignment(w.mechanisms, w.populations, w.parameters))
    assert ok, problems
    doc = claim_json(res)
    assert doc["vacuity"] == "satisfiable" and doc["witness"]["parameters"]["E"]


def test_witness_check_rejects_a_table_that_breaks_the_hypothesis():
    imp = Implies(PureDP(Es), FreeLunchPrivacy(Es))
    w = check_claim(_claim(imp), FAST).verdict.witness
    A = w.mechanisms["A"]
    bad = replace(A, rows={(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Integer(0), sp.Integer(1))})
    ok, problems = verify_witness(imp, (E,), Assignment({"A": bad}, {}, {"E": sp.Integer(2)}))
    assert not ok and "does not hold" in problems[0]
    ok, problems = verify_witness(imp, (E,), Assignment({"A": A}, {}, {"E": sp.Rational(1, 2)}))
    assert not ok and "outside its range" in problems[0]


# --- open and half-open ranges ---------------------------------------------------------------------

def test_param_strict_bounds():
    d = Param("d", lower=0, lower_strict=True, upper=1)
    assert d.range_text() == "0 < d ≤ 1"
    assert not d.contains(0) and d.contains(sp.Rational(1, 10**30)) and d.contains(1) and not d.contains(2)
    p = Param("p", lower=0, upper=1, lower_strict=True, upper_strict=True)
    assert not p.contains(1) and p.contains(sp.Rational(1, 2))


def test_paramspec_strict_bound_refuses_the_endpoint():
    spec = ParamSpec("delta", lower=0, lower_strict=True, meaning="δ > 0")
    Pos = Notion("Pos", (spec,), lambda ops, A, P=None, *, delta: True)
    Pos(sp.Rational(1, 100))
    with pytest.raises(InvalidParameter, match="outside its range 0 < delta"):
        Pos(0)


def _dp_or_delta(ops, A, P=None, *, E, delta):
    """A(d)(o) ≤ E·A(d')(o) + δ, pointwise."""
    return ops.And(ops.le(A.p(d, o), E * A.p((v,) + d[1:], o) + delta)
                   for d in A.rows for v in A.domain for o in A.outputs)


DELTA = ParamSpec("delta", lower=0, meaning="δ ≥ 0")
PointDelta = Notion("PointDelta", (E_SPEC, DELTA), _dp_or_delta)


def test_open_range_changes_the_verdict():
    """"δ-pointwise ⇒ 0-pointwise" is false for δ > 0 but true at δ = 0; with 0 ≤ δ the search finds
    δ > 0 and refutes it, and with the range 0 < δ < 1/1000 too: a strict bound is encoded strictly."""
    dlt = Param("delta", lower=0, lower_strict=True, upper=sp.Rational(1, 1000))
    res = check_claim(_claim(Implies(PointDelta(Es, dlt.symbol), PointDelta(Es, 0)), params=(E, dlt)), FAST)
    assert res.verdict.name == "refuted" and res.verdict.verified_exactly
    assert res.verdict.counterexample.parameters["delta"] > 0
    # δ pinned to 0 where the range says δ > 0: vacuous, not proved
    res = check_claim(_claim(Implies(PointDelta(Es, dlt.symbol), PointDelta(Es, 0), parameters={"delta": 0}),
                             params=(E, dlt)), FAST)
    assert isinstance(res.verdict, Vacuous) and "0 < delta" in res.verdict.reason
    # with δ ≤ 0 allowed only at 0 the claim holds
    zero = Param("delta", lower=0, upper=0)
    res = check_claim(_claim(Implies(PointDelta(Es, zero.symbol), PointDelta(Es, 0)), params=(E, zero)), FAST)
    assert isinstance(res.verdict, Proved) and res.verdict.vacuity == "satisfiable"


def test_cli_assume_narrows_a_range(capsys):
    from theorems.cli.main import main
    assert main(["implies", "PureDP", "FreeLunchPrivacy", "--n", "1", "--assume", "E>2"]) == 0
    assert "for all 2 < E" in capsys.readouterr().out
    assert main(["implies", "PureDP", "FreeLunchPrivacy", "--assume", "0<delta"]) == 2
    assert "not a parameter" in capsys.readouterr().err
    assert main(["check", "T-P1", "--assume", "__import__('os').system('true')"]) == 2
    assert "not a range" in capsys.readouterr().err


def test_arity_mismatch_is_a_clear_error():
    from symbolic.core.errors import DPCheckError
    from symbolic.core.terms import KernelVar, MechVar
    A = MechVar("A")
    with pytest.raises(InvalidParameter, match="notion of 1 mechanism"):
        PureDP(Es).of(A, A)
    claim = _claim(Implies(PureDP(Es), PureDP(Es).of(KernelVar("K", source=A))))
    with pytest.raises(DPCheckError, match="is a kernel"):
        check_claim(claim, FAST)


def test_the_witness_search_on_its_own_finds_uniform_tables_or_says_vacuous():
    """find_witness: the hypotheses of ε-DP ⇒ free lunch hold at uniform tables (tried first); those of a
    notion no table satisfies are jointly unsatisfiable."""
    from symbolic.solve.backends.effort import Meter, units
    from symbolic.solve.vacuity import find_witness
    found = find_witness(Implies(PureDP(Es), FreeLunchPrivacy(Es)), (E,), Sizes(1, 2, 2), FAST, Meter(units(30)))
    assert found.status == "satisfiable" and found.reason == "uniform tables"
    assert all(v == sp.Rational(1, 2) for row in found.witness.mechanisms["A"].rows.values() for v in row)
    none = find_witness(Implies(Never(Es), PureDP(Es)), (E,), Sizes(1, 2, 2), FAST, Meter(units(30)))
    assert none.status == "vacuous" and "jointly unsatisfiable" in none.reason
