"""B's tight level after composing or subsampling A's mechanisms, derived on A's dominating pair: each formula
against an independent statement of the published constant, the engine's bounded proof beside it, and the
checks failing on a wrong constant or a wrong pair."""
from __future__ import annotations

import json

import pytest
import sympy as sp

from symbolic.derive.operations.map_checks import attains_source, engine_check
from symbolic.derive.operations.maps import operation_map
from theorems.cli.main import main

E, q, k = sp.symbols("E q k", positive=True)
POISSON = {"kind": "subsampled", "sampling": "poisson", "rate": "q", "params": {"q": "0<q<1"}}
K_FOLD = {"kind": "composition", "times": "k", "params": {"k": "k>=1"}}


def _named(expr):
    return expr.xreplace({s: {"E": E, "q": q, "k": k}.get(s.name, s) for s in expr.free_symbols})


def test_amplification_by_poisson_sampling_is_log_1_plus_q_times_e_minus_1():
    m = operation_map("pure-dp", "pure-dp", POISSON)
    assert m.ok and sp.simplify(_named(m.formula) - sp.log(1 + q * (E - 1))) == 0
    assert any(c.startswith("the engine proves PureDP") and good for c, good in m.checks)
    assert m.attained_by["of"]["rows"]["0"] == ["E/(E + 1)", "1/(E + 1)"]


def test_subsampled_total_variation_is_q_times_the_pairs():
    m = operation_map("pure-dp", "tv-privacy", POISSON)
    assert m.ok and sp.simplify(_named(m.formula) - q * (E - 1) / (E + 1)) == 0


def test_optimal_composition_of_five_runs_is_the_kairouz_oh_viswanath_sum():
    m = operation_map("pure-dp", "approx-dp", {"kind": "composition", "times": 5}, values={"E": "exp(1/2)"},
                      level_params={"eps": "1"})
    e, kk = sp.exp(sp.Rational(1, 2)), 5
    want = sum(sp.binomial(kk, i) * (e ** (kk - i) - sp.E * e ** i) / (1 + e) ** kk
               for i in range(kk + 1) if (kk - 2 * i) / 2 > 1)
    assert m.ok and sp.simplify(m.value - want) == 0
    assert abs(m.enclosure[0] - sp.Rational("0.184097926255053")) < sp.Rational(1, 10 ** 12)


def test_k_runs_of_pure_dp_are_k_times_epsilon_checked_against_the_composition_engine():
    m = operation_map("pure-dp", "pure-dp", K_FOLD)
    assert m.ok and sp.simplify(_named(m.formula) - k * sp.log(E)) == 0
    engine = [c for c, good in m.checks if "composition engine's exact level" in c and good]
    assert len(engine) == 2


def test_k_runs_with_symbols_of_a_level_that_does_not_add_are_unknown():
    m = operation_map("approx-dp", "approx-dp", K_FOLD, level_params={"eps": "1"})
    assert not m.ok and m.unknown and "not derived" in m.unknown


def test_a_wrong_constant_is_refuted_by_the_engine():
    checks, _ = engine_check("pure-dp", "pure-dp", POISSON, sp.log(1 + q ** 2 * (E - 1)), {})
    assert len(checks) == 1 and checks[0][1] is False and "refutes" in checks[0][0]


def test_a_pair_not_at_the_level_fails_the_attaining_check():
    rr_e2 = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"E": "E>1"},
             "rows": {"0": ["E^2/(E^2+1)", "1/(E^2+1)"], "1": ["1/(E^2+1)", "E^2/(E^2+1)"]}}
    assert attains_source("pure-dp", rr_e2, {})[1] is False


def test_a_target_not_closed_under_post_processing_is_unknown():
    m = operation_map("pure-dp", "probabilistic-dp", POISSON)
    assert not m.ok and "post-processing" in m.unknown


def test_a_source_without_a_dominating_pair_is_unknown_under_sampling():
    m = operation_map("renyi-dp", "renyi-dp", POISSON, level_params={"alpha": "2"})
    assert not m.ok and "dominating pair" in m.unknown


@pytest.mark.slow
def test_the_subsampled_gaussian_map_gives_the_published_level_at_order_three():
    m = operation_map("gaussian-dp", "renyi-dp", {"kind": "subsampled", "sampling": "poisson", "rate": "1/100"},
                      values={"mu": "1"}, level_params={"alpha": "3"})
    assert m.ok and abs(m.enclosure[0] / sp.Rational("2.646375745846613e-4") - 1) < sp.Rational(1, 10 ** 12)


@pytest.mark.slow
def test_k_runs_of_zcdp_are_k_rho_attained_by_the_gaussian():
    m = operation_map("zcdp", "zcdp", K_FOLD)
    assert m.ok and str(m.formula) == "k*rho"


def test_three_runs_of_half_renyi_dp_at_order_two_are_three_halves():
    m = operation_map("renyi-dp", "renyi-dp", {"kind": "composition", "times": 3}, values={"epsilon": "1/2"},
                      level_params={"alpha": "2"})
    assert m.ok and m.value == sp.Rational(3, 2) and m.attained_by["of"]["kind"] == "density"


def test_the_command_line_gives_the_map_as_json(capsys):
    code = main(["derive", "map", "pure-dp", "pure-dp", "--subsample", "poisson", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["formula"] == "log(E*q - q + 1)" and doc["attained_by"]["kind"] == "subsampled"


@pytest.mark.parametrize("args, field", [(["--compose", "0"], "--compose"), (["--compose", "2.5"], "--compose"),
                                         (["--subsample", "poisson:3/2"], "--subsample"),
                                         (["--subsample", "bernoulli"], "--subsample"),
                                         (["--compose", "3", "--param", "zeta=1"], "--param")])
def test_bad_operation_options_exit_2_naming_the_field(args, field, capsys):
    code = main(["derive", "map", "pure-dp", "pure-dp", *args])
    err = capsys.readouterr().err
    assert code == 2 and field in err and len(err.strip().splitlines()) == 1


def test_three_runs_are_proved_by_the_engine_for_every_table_within_the_sizes():
    m = operation_map("pure-dp", "pure-dp", {"kind": "composition", "times": 3})
    engine = [text for text, ok in m.checks if "engine proves" in text]
    assert m.ok and engine and "3 runs" in engine[0] and "Compose(Compose(A1, A2), A3)" in engine[0]
    wrong = engine_check("pure-dp", "pure-dp", {"kind": "composition", "times": 3}, 2 * sp.log(E), {})[0]
    assert len(wrong) == 1 and wrong[0][1] is False
