"""δ(ε′) of k runs as a formula in k: the binomial sum of a table with two likelihood ratios, checked by the
engine against the listed output tuples, gives Kairouz–Oh–Viswanath's numbers as a map in (E, k), and is
refused (left to a number of runs) where the pairs' sums differ."""
from __future__ import annotations

import mpmath as mp
import pytest
import sympy as sp

from symbolic.derive.composition_sums import two_ratio_sum
from symbolic.derive.level import derive_level
from symbolic.derive.operations.maps import operation_map

RR_E = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"E": "E>=1"},
        "rows": {"0": ["E/(1+E)", "1/(1+E)"], "1": ["1/(1+E)", "E/(1+E)"]}}
K_RUNS = {"kind": "composition", "of": RR_E, "times": "k", "params": {"k": "k>=1"}}


def _at(formula, **values):
    syms = {s.name: s for s in formula.free_symbols}
    return formula.subs({syms[n]: v for n, v in values.items() if n in syms}).doit()


def test_the_map_of_k_runs_of_pure_dp_is_kairouz_oh_viswanath_in_k():
    m = operation_map("pure-dp", "approx-dp", {"kind": "composition", "times": "k", "params": {"k": "k>=1"}},
                      level_params={"eps": 1})
    assert m.ok
    with mp.workdps(30):
        five = _at(m.formula, k=5, E=sp.exp(sp.Rational(1, 2)))
        assert abs(sp.N(five, 30) - sp.Float("0.184097926255053", 30)) < 1e-14


@pytest.mark.slow
def test_the_tight_epsilon_of_a_hundred_runs_meets_its_delta():
    """100 runs of 0.01-DP at the tight ε′ = 0.337173920729573 have δ = 10⁻⁵ (to the digits of ε′)."""
    d = derive_level("approx-dp", K_RUNS, params={"eps": "0.337173920729573"})
    got = _at(d.formula, k=100, E=sp.exp(sp.Rational(1, 100)))
    assert abs(sp.N(got, 30) - sp.Float("1e-5", 30)) < 1e-12 and d.ok


def test_the_sum_is_checked_against_the_listed_tuples_and_a_three_ratio_table_is_left_to_numbers():
    d = derive_level("total-variation", K_RUNS)
    assert d.ok and len(d.checks) == 3
    three = {"kind": "composition", "times": "k", "params": {"k": "k>=1"},
             "of": {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2],
                    "rows": {"0": ["1/2", "1/4", "1/4"], "1": ["1/4", "1/4", "1/2"]}}}
    with pytest.raises(Exception, match="not linear in k"):
        derive_level("total-variation", three)
    k = sp.Symbol("k", integer=True, positive=True)
    assert two_ratio_sum([sp.Rational(1, 2)] * 2, [sp.Rational(1, 2)] * 2, k, 1) is None   # one ratio class
