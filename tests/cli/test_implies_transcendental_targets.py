"""`dpcheck implies … --target` with log/exp in the target: at numeric parameter values each constant (log 3,
e^(6/5)) is decided through a certified rational enclosure, a counterexample only once re-verified at the
true value; over a range, exp and log are relaxed between Taylor bounds. Claims false or true only by a
margin below the enclosures' width are never proved wrongly."""
import json

import flint
import pytest

from theorems.cli.main import main

SD_BOUND = '''from symbolic import Notion, ParamSpec

def sd_bound(ops, A, P=None, *, B):
    """The statistical difference of every two neighbouring rows is at most B."""
    return ops.And(ops.le(ops.sum(ops.max0(A.p(d, o) - A.p(d[:i] + (v,) + d[i + 1:], o)) for o in A.outputs), B)
                   for i, d, v in A.neighbours())

SDBound = Notion("SDBound", (ParamSpec("B", lower=0),), sd_bound)
'''
# (ε, δ)-indistinguishability at E = 3, δ = 1/100 bounds the statistical difference by (E − 1 + 2δ)/(E + 1) = 101/200,
# which randomized response with δ mass moved reaches
AT = ["--n", "1", "--param", "E=3", "--param", "delta=1/100"]


@pytest.fixture
def sd_bound(tmp_path, monkeypatch):
    (tmp_path / "sd.py").write_text(SD_BOUND)
    monkeypatch.chdir(tmp_path)
    return "sd.py:SDBound"


def _run(capsys, *args):
    code = main(["implies", *args, "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == (0 if doc["verdict"] in ("proved", "refuted") else 1)
    return doc


def test_a_target_with_log_at_numeric_parameters_is_refuted_exactly(sd_bound, capsys):
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target", "B=2*delta/(E*log(E))")
    assert doc["verdict"] == "refuted" and doc["verified_exactly"] is True
    assert "log(3)" in doc["counterexample"]["violated"]


def test_a_target_with_log_at_numeric_parameters_is_proved_for_every_value_of_the_enclosure(sd_bound, capsys):
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target", "B=log(E)/2")
    assert doc["verdict"] == "proved"
    assert "log(3)" in doc["certificate"]["constants"] and "2^-128" in doc["certificate"]["method"]


@pytest.mark.parametrize("target", ["B=(E-1+2*delta)/(E+1)*log(E)/log(3)", "B=(E-1+2*delta)/(E+1)+log(E)-log(3)"])
def test_an_exactly_tight_target_is_proved(sd_bound, capsys, target):
    # log(E) at E = 3 and log(3) are one solver variable, so the bound is exactly 101/200 for every value of it
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target", target)
    assert doc["verdict"] == "proved"


def _below_log3(k):
    """A rational r with 10^-k < log 3 − r ≤ 2·10^-k (certified: ball arithmetic at 4·k bits)."""
    flint.ctx.prec, old = 4 * k + 64, flint.ctx.prec
    try:
        top = int((flint.arb(3).log() * 10 ** k).floor().unique_fmpz())
    finally:
        flint.ctx.prec = old
    return f"{top - 1}/{10 ** k}"


def test_a_target_false_by_a_margin_below_the_first_enclosure_is_refuted_exactly_after_refinement(sd_bound, capsys):
    # B = 101/200 − (log 3 − r), about 10^-45 below the true bound: the first enclosure (width 2^-128·log 3,
    # about 5·10^-41) cannot tell; 256 bits can
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target",
               f"B=(E-1+2*delta)/(E+1)+{_below_log3(45)}-log(E)")
    assert doc["verdict"] == "refuted" and doc["verified_exactly"] is True


def test_a_target_true_by_a_margin_below_the_first_enclosure_is_proved_after_refinement(sd_bound, capsys):
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target",
               f"B=(E-1+2*delta)/(E+1)-{_below_log3(45)}+log(E)")
    assert doc["verdict"] == "proved" and "2^-256" in doc["certificate"]["method"]


@pytest.mark.parametrize("sign", ["+", "-"])
def test_a_margin_below_every_enclosure_is_never_proved_and_never_refuted_unverified(sd_bound, capsys, sign):
    # 10^-400 is below 2^-1024, the last refinement: the true claim is unknown, the false one unknown or
    # refuted with a counterexample re-verified at log 3 itself
    flip = {"+": "-", "-": "+"}[sign]
    doc = _run(capsys, "Indistinguishable", sd_bound, *AT, "--target",
               f"B=(E-1+2*delta)/(E+1){sign}{_below_log3(400)}{flip}log(E)")
    if sign == "-":      # B = 101/200 + r − log 3 < 101/200: false
        assert doc["verdict"] in ("refuted", "unknown")
        assert doc["verdict"] == "unknown" or doc["verified_exactly"] is True
    else:                # B = 101/200 − r + log 3 > 101/200: true
        assert doc["verdict"] == "unknown" and "refinements" in doc["reason"]


def test_exp_of_a_numeric_parameter(capsys):
    doc = _run(capsys, "TwoPointSemanticPrivacy", "PureDP", "--n", "1", "--param", "eps=1/5",
               "--target", "E=exp(6*eps)")
    assert doc["verdict"] == "proved" and "exp(6/5)" in doc["certificate"]["constants"]


def test_exp_of_a_parameter_over_a_range_is_relaxed(capsys):
    doc = _run(capsys, "TwoPointSemanticPrivacy", "PureDP", "--n", "1", "--target", "E=exp(6*eps)",
               "--assume", "eps<=9/40")
    assert doc["verdict"] == "proved" and "exp(6*eps) between Taylor bounds" in doc["certificate"]["method"]
    doc = _run(capsys, "TwoPointSemanticPrivacy", "PureDP", "--n", "1", "--target", "E=exp(eps)",
               "--assume", "eps<=9/40")
    assert doc["verdict"] == "refuted" and doc["verified_exactly"] is True


@pytest.mark.parametrize("target, verdict", [("rho=log(E)**2/2", "proved"), ("rho=log(E)**2/8", "refuted")])
def test_zcdp_targets_at_a_numeric_epsilon(capsys, target, verdict):
    doc = _run(capsys, "pure-dp", "zcdp", "--target", target, "--param", "eps=1")
    assert doc["verdict"] == verdict
