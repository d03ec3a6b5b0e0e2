"""Parameters fixed at exact values (rational or irrational, given as E or as ε), on claims, ad hoc
questions and exact evaluation; a proof chain's verdict read against a narrowed range."""
import json

import pytest
import sympy as sp

from symbolic.api import (ApproxDP, E, FreeLunchPrivacy, InvalidParameter, PureDP, Refuted, Settings, Sizes, Unknown,
                          UnknownName, check, implication_claim, resolve_values)
from symbolic.core.certified import compare
from symbolic.core.verdicts import Counterexample, Proved
from symbolic.notions.claims import Check, Claim, Implies, Proof
from symbolic.solve.narrowing import within_narrowed_ranges
from theorems.cli.main import main

HALF = sp.Rational(1, 2)
FAST = Settings(second_solver=False)


def test_eps_is_read_as_e_to_the_eps():
    assert resolve_values({"eps": sp.log(3)}, ["E"], where="x") == {"E": 3}
    assert resolve_values({"epsilon": 0}, ["E"], where="x") == {"E": 1}
    assert resolve_values({"eps2": HALF}, ["E1", "E2"], where="x") == {"E2": sp.exp(HALF)}
    # a notion's own parameter named eps is that parameter, never an alias
    assert resolve_values({"eps": HALF}, ["eps", "delta"], where="x") == {"eps": HALF}


@pytest.mark.parametrize("given, message", [
    ({"foo": 1}, "takes: E, eps"),
    ({"E": 2, "eps": 1}, "given twice"),
    ({"eps": -1}, "below 0"),
])
def test_bad_names_and_values_are_one_line_errors(given, message):
    with pytest.raises((UnknownName, InvalidParameter), match=message):
        resolve_values(given, ["E"], where="PureDP")


def test_fixed_parameter_ranges():
    assert E.fixed_at(3).range_problems(3) == []
    assert E.fixed_at(3).range_problems(sp.Rational(31, 10))
    v = sp.exp(HALF)
    p = E.fixed_at(v)
    assert p.lower < v < p.upper and p.lower.is_Rational and p.upper.is_Rational
    assert p.range_problems(sp.exp(sp.Rational(2, 4))) == []
    assert p.range_problems(p.lower)  # the enclosure's end is not the value
    with pytest.raises(InvalidParameter, match="outside its range"):
        E.fixed_at(HALF)


def _claim(hyp, con, values, sizes=Sizes(1, 2, 2)):
    return implication_claim(hyp, con, sizes=sizes).fixing(values)


def test_proved_at_an_irrational_value():
    res = check(_claim(PureDP(E.symbol), ApproxDP(E.symbol, 0), {"E": sp.exp(HALF)}), FAST)
    assert isinstance(res.verdict, Proved)


def test_refuted_at_an_irrational_value_with_the_exact_value_in_the_counterexample():
    res = check(_claim(PureDP(E.symbol), FreeLunchPrivacy(E.symbol), {"E": sp.exp(HALF)}, Sizes(2, 2, 2)), FAST)
    v = res.verdict
    assert isinstance(v, Refuted) and v.verified_exactly
    assert v.counterexample.parameters["E"] == sp.exp(HALF)


def test_a_counterexample_only_inside_the_enclosure_is_unknown_never_refuted():
    value = sp.exp(HALF)
    p = E.fixed_at(value)
    q = (value.evalf(40) + p.upper.evalf(40)) / 2
    q = sp.Rational(str(q))
    assert compare(value, q) == -1 and compare(q, p.upper) == -1
    # PureDP(e^(1/2)) ⇒ PureDP(q) holds since e^(1/2) < q; it fails for E in (q, upper] of the enclosure
    res = check(_claim(PureDP(E.symbol), PureDP(q), {"E": value}), FAST)
    # the claim is false on part of the enclosure, so no proof exists; the exact value decides
    assert isinstance(res.verdict, Unknown) and "transcendental" in res.verdict.reason, res.verdict


def _chain_claim(values):
    step = Check(Implies(PureDP(E.symbol), ApproxDP(E.symbol, 0)), (E,), Sizes(1, 2, 2))
    return Claim("X", "⇒", "-", "test", "holds", proof=Proof((step,))).fixing(values)


def _refuted_at(e_value):
    cx = Counterexample(Sizes(1, 2, 2), {}, {}, {"E": e_value}, "PureDP(E): …")
    return Refuted(cx, True, True)


def test_a_chain_counterexample_outside_the_fixed_value_is_unknown():
    claim = _chain_claim({"E": 3})
    assert isinstance(within_narrowed_ranges(claim, _refuted_at(sp.Integer(2))), Unknown)
    assert isinstance(within_narrowed_ranges(claim, _refuted_at(sp.Integer(3))), Refuted)
    proved = within_narrowed_ranges(claim, Proved(Sizes(1, 2, 2), ()))
    assert "E = 3" in proved.certificate["ranges"]


@pytest.mark.slow   # over 7 s on 2 cores; `pytest -m slow` and the self-test run it
def test_cli_check_param_eps(capsys):
    assert main(["check", "T-P4", "--param", "eps=1/2", "--budget", "0", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)["claims"][0]
    assert c["verdict"] == "proved"
    assert c["parameters"] == [{"name": "E", "range": "E = exp(1/2)", "value": "exp(1/2)"}]


@pytest.mark.parametrize("args, message", [
    (["check", "T-P4", "--param", "foo=1"], "it takes: E, eps"),
    (["check", "L-1.4", "--param", "E=2"], "is a derivation"),
    (["check", "T-P4", "--param", "E=1/2"], "outside its range"),
    (["check", "T-P4", "--param", "eps=__import__('os')"], "unexpected character"),
    (["implies", "pure-dp", "approx-dp", "--param", "delta=1/2"], "has no parameter 'delta'"),
])
def test_cli_param_errors_exit_2(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_eval_with_eps(tmp_path, capsys):
    table = tmp_path / "rr.json"
    table.write_text('{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/5", "2/5"], "1": ["2/5", "3/5"]}}')
    assert main(["eval", "PureDP", "--mechanism", str(table), "--param", "eps=1/2"]) == 0
    assert "holds" in capsys.readouterr().out          # ln(3/2) ≈ 0.405 ≤ 1/2
    assert main(["eval", "PureDP", "--mechanism", str(table), "--param", "eps=2/5"]) == 0
    assert "fails" in capsys.readouterr().out          # 2/5 < ln(3/2)
    assert main(["eval", "PureDP", "--mechanism", str(table), "--param", "eps=log(3/2)"]) == 0
    assert "PureDP(3/2): holds" in capsys.readouterr().out


def _recheck(err):
    import shlex
    return [(line.split("# ")[-1], shlex.split(line.split("re-check: ", 1)[1].split("   # ")[0])[1:])
            for line in err.splitlines() if "re-check: " in line]


@pytest.mark.parametrize("args", [
    ["check", "T-APPB", "--budget", "0"],                              # a population file too
    ["implies", "pure-dp", "free-lunch", "--n", "2", "--param", "eps=1/2"],  # an irrational parameter
])
def test_a_saved_counterexample_rechecks_with_eval(tmp_path, capsys, args):
    """Round trip: the refutation's tables, saved in eval's format, re-checked by `dpcheck eval`:
    every hypothesis holds and the conclusion fails, exactly as the run said."""
    prefix = str(tmp_path / "cx")
    assert main([*args, "--save-counterexample", prefix]) == 0
    commands = _recheck(capsys.readouterr().out)
    assert len(commands) == 2 and {c[0].split()[-1] for c in commands} == {"holds", "fails"}
    for said, argv in commands:
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert said.split()[-1] in out, (argv, out)


def test_counterexample_json_tables_are_eval_files(capsys):
    from symbolic.api import mechanism_from_json
    assert main(["check", "T-APPB", "--budget", "0", "--json"]) == 0
    cx = json.loads(capsys.readouterr().out)["claims"][0]["counterexample"]
    table = mechanism_from_json(cx["tables"]["A"])
    for key, row in cx["mechanism"]["A"].items():
        dist = table[tuple(map(int, key.split(",")))]
        assert {str(o): str(dist[o]) for o in table.outputs} == row


def test_a_size_where_the_hypotheses_cannot_hold_does_not_make_the_whole_proof_vacuous():
    """Every output ≥ 1/(1+E) with E = e^(1/2) < 2: two outputs can satisfy it, three cannot. The proof at
    |𝒪| = 2 has a witness; at |𝒪| = 3 it is true vacuously, and the result says so."""
    from symbolic.api import E_SPEC, Notion

    def floor(ops, A, P=None, *, E):
        return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)

    Floor = Notion("Floor", (E_SPEC,), floor)
    res = check(_claim(Floor(E.symbol), PureDP(E.symbol ** 2), {"E": sp.exp(HALF)}, Sizes(1, 2, 3)), FAST)
    v = res.verdict
    assert isinstance(v, Proved) and v.vacuity == "satisfiable" and v.witness.sizes == Sizes(1, 2, 2)
    assert "cannot hold together at n=1, |D|=2, |O|=3" in v.certificate["vacuous_at"]
    only3 = implication_claim(Floor(E.symbol), PureDP(E.symbol ** 2), sizes=Sizes(1, 2, 3))
    from dataclasses import replace
    only3 = replace(only3, min_sizes=Sizes(1, 2, 3)).fixing({"E": sp.exp(HALF)})
    assert check(only3, FAST).verdict.name == "vacuous"
