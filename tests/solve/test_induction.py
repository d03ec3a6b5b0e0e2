"""Induction in k (symbolic/solve/induction.py): group privacy and composition proved for every k by one step on
real numbers; wrong recurrences, closed forms and base values refuted; an induction never changes a verdict and
lifts a proof to every size only when proved."""
from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from symbolic.notions.claims import Check, Claim, Implies, Proof, E
from symbolic.notions.families.dp import PureDP
from symbolic.notions.families.semantic import pure_dp_at_distance
from symbolic.notions.listed.inductions import GROUP_APPROX, GROUP_PURE, INDUCTIONS, delta, k
from symbolic.core.verdicts import Sizes
from symbolic.solve.backends.settings import Settings
from symbolic.solve.induction import prove_induction

Es = sp.Symbol("E", real=True)


@pytest.mark.parametrize("name", sorted(INDUCTIONS))
def test_every_listed_induction_is_proved_by_both_solvers(name):
    res = prove_induction(INDUCTIONS[name], Settings())
    assert res.status == "proved" and all(ok for _, ok in res.checks)
    assert res.second_solver == "unsat" and res.confirmed


def test_group_privacy_of_approx_dp_adds_delta_times_each_factor():
    """D(k) = δ(1 + E + … + E^{k−1}): at k = 3, δ(1 + E + E²), below the textbook 3E²δ for E > 1."""
    d3 = GROUP_APPROX.closed["D"].subs(k, 3).doit()
    assert sp.expand(d3 - delta * (1 + Es + Es ** 2)) == 0
    textbook = INDUCTIONS["group-approx-textbook"].closed["G"].subs(k, 3)
    assert sp.factor(textbook - d3) == delta * (2 * Es + 1) * (Es - 1)


def test_a_step_that_forgets_the_factor_is_refuted_with_exact_values():
    """D(k + 1) = D(k) + δ (as for additive secrecy) is wrong for (ε, δ)-DP: S(1)'s δ is multiplied by F(k)."""
    D = sp.Symbol("D", real=True)
    wrong = dataclasses.replace(GROUP_APPROX, closed={"F": Es ** k, "D": k * delta},
                                recurrence={"F": GROUP_APPROX.recurrence["F"], "D": D + delta})
    res = prove_induction(wrong, Settings(second_solver=False))
    assert res.status == "refuted" and res.counterexample is not None
    v = {sp.Symbol(n, real=True): sp.Rational(x) for n, x in res.counterexample.items()}
    p, q, r, F = (sp.Symbol(n, real=True) for n in "pqrF")
    assert (p <= F * q + D).subs(v) and (q <= Es * r + delta).subs(v)          # S(k) and S(1)
    assert not (p <= Es * F * r + D + delta).subs(v)                             # S(k + 1) fails


def test_a_closed_form_off_by_one_is_refuted():
    """E^(k+1) satisfies F(k+1) = E·F(k) but is E² at k = 1, where S(1) is ε-DP with F = E."""
    res = prove_induction(dataclasses.replace(GROUP_PURE, closed={"F": Es ** (k + 1)}), Settings(second_solver=False))
    assert res.status == "refuted" and "value at k = 1" in res.reason


def test_a_closed_form_that_misses_the_recurrence_is_refuted():
    """k·E satisfies F(1) = E but not F(k+1) = E·F(k)."""
    res = prove_induction(dataclasses.replace(GROUP_PURE, closed={"F": k * Es}), Settings(second_solver=False))
    assert res.status == "refuted" and not res.checks[0][1]


def _claim(induction, every_size="the bound at every distance"):
    step = Check(Implies(PureDP(E.symbol), pure_dp_at_distance(2)(E.symbol ** 2)), (E,), Sizes(2, 2, 2))
    return Claim("x", "prop", "(test)", "group privacy at distance 2", "holds",
                 proof=Proof((step, induction), "z3 and an induction", lemmas=0, every_size=every_size),
                 expect="proved")


def test_a_proved_induction_lifts_the_proof_to_every_size():
    from symbolic.api import check
    res = check(_claim(GROUP_PURE), Settings(second_solver=False))
    arg = res.verdict.certificate["all_sizes"]
    assert res.verdict.name == "proved" and arg["reduction"] == "induction in k"
    assert arg["argument"][0] == "the bound at every distance" and "step: S(k) ∧ S(1) ⇒ S(k+1)" in arg["argument"][-1]


def test_an_undecided_induction_keeps_the_verdict_and_the_bounds(monkeypatch):
    """An induction the solver leaves undecided (its limit hit): the claim stays proved, within bounds, and says why."""
    from symbolic.api import check
    from symbolic.report.results import claim_json
    from symbolic.solve import proof
    from symbolic.solve.induction import InductionResult
    from theorems.cli.audit_workers import scoped
    monkeypatch.setattr(proof, "prove_induction", lambda ind, settings: InductionResult(
        ind.name, "unknown", (("step", False),), "the effort limit", "off"))
    res = check(_claim(GROUP_APPROX), Settings(second_solver=False))
    cert = res.verdict.certificate
    assert res.verdict.name == "proved" and "all_sizes" not in cert
    assert cert["induction"] == "group privacy of (ε, δ)-DP, tight recursion: unknown (the effort limit)"
    assert scoped(res, claim_json(res))["scope"] == "within bounds"


def test_a_proof_without_its_every_size_statement_is_not_lifted():
    from symbolic.api import check
    res = check(_claim(GROUP_PURE, every_size=""), Settings(second_solver=False))
    assert "all_sizes" not in res.verdict.certificate and res.verdict.certificate["induction"].endswith("proved")


def test_values_are_a_refutation_only_when_the_step_fails_on_them_exactly():
    """The exact re-check of a solver's model: values where S(k+1) holds, or out of range, refute nothing."""
    from symbolic.solve.induction import _refutes
    half = sp.Rational(1, 2)
    holds = {"E": 2, "delta": half, "p": half, "q": half, "r": half, "F": 2, "D": 0}
    fails = {"E": 2, "delta": half, "p": sp.Rational(3, 4), "q": half, "r": 0, "F": 2, "D": 0}
    out_of_range = dict(fails, E=half)
    assert not _refutes(GROUP_APPROX, holds) and not _refutes(GROUP_APPROX, out_of_range)
    assert _refutes(dataclasses.replace(GROUP_APPROX, recurrence={"F": GROUP_APPROX.recurrence["F"],
                                                                  "D": sp.Symbol("D", real=True) + delta}), fails)
