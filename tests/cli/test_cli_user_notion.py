"""A user's own notion, named FILE.py:NAME, on the command line: implies, eval, saving and re-checking
a counterexample; a notion without reasons still says which comparison failed."""
import shlex

import pytest

from theorems.cli.main import main

MINE = '''from symbolic import E_SPEC, Notion

def last_dp(ops, A, P=None, *, E):
    """ε-DP for the last data point only."""
    return ops.And(ops.le(A.p(d, o), E * A.p(d[:-1] + (v,), o)) for d in A.rows for v in A.domain for o in A.outputs)

LastPointDP = Notion("LastPointDP", (E_SPEC,), last_dp)
'''


@pytest.fixture
def mine(tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text(MINE)
    monkeypatch.chdir(tmp_path)
    return "mine.py:LastPointDP"


def test_implies_with_a_notion_from_a_file_and_the_recheck_round_trip(mine, capsys):
    assert main(["implies", mine, "pure-dp", "--n", "2", "--param", "eps=1/2", "--budget", "30",
                 "--save-counterexample", "cx"]) == 0
    out = capsys.readouterr().out
    assert "verdict: refuted" in out
    commands = [line.split("re-check: ", 1)[1].split("   # ") for line in out.splitlines() if "re-check: " in line]
    assert [c[1].split()[-1] for c in commands] == ["holds", "fails"]
    assert commands[0][0].startswith("dpcheck eval mine.py:LastPointDP ")
    for cmd, said in commands:
        assert main(shlex.split(cmd)[1:]) == 0
        assert said.split()[-1] in capsys.readouterr().out


def test_a_reason_even_when_the_notion_gives_none(mine, capsys):
    assert main(["implies", mine, "pure-dp", "--n", "2", "--budget", "30"]) == 0
    out = capsys.readouterr().out
    assert "violated: PureDP(E)" in out
    assert main(["implies", "pure-dp", mine, "--n", "2", "--budget", "30"]) == 0   # proved: no violation
    from symbolic.api import explain, mechanism_from_json
    from symbolic.graph.user import load_user_notion
    nt = load_user_notion(mine).notion
    table = mechanism_from_json({"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": [1, 0], "1": [0, 1]}})
    holds, why = explain(nt, table, E=2)
    assert not holds and why.startswith("the comparison that fails (the notion gives no reason): 1 ≤ 0")


CAPPED = '''import sympy as sp
from symbolic import E_SPEC, Notion

CAP = sp.Rational(99, 100)

def capped(ops, A, P=None, *, E):
    """Pr[A(d)=o] ≤ min(E·Pr[A(d')=o], 99/100), d' = d with its first entry replaced."""
    return ops.And(ops.le(A.p(d, o), ops.If(ops.lt(E * A.p((v,) + d[1:], o), CAP), E * A.p((v,) + d[1:], o), CAP))
                   for d in A.rows for v in A.domain for o in A.outputs)

CappedDP = Notion("CappedDP", (E_SPEC,), capped)
'''


def test_the_reason_names_the_failed_comparison_not_the_condition_of_an_if(tmp_path, monkeypatch, capsys):
    """At d = 0, o = 0: the condition 10·1 < 99/100 is false (so the cap 99/100 applies, as it should), and
    1 ≤ 99/100 is the comparison that fails; the reason used to name the condition."""
    (tmp_path / "capped.py").write_text(CAPPED)
    (tmp_path / "t.json").write_text('{"n": 1, "domain": [0, 1], "outputs": [0, 1], '
                                     '"rows": {"0": ["1", "0"], "1": ["9/10", "1/10"]}}')
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "capped.py:CappedDP", "--mechanism", "t.json", "--param", "E=10"]) == 0
    out = capsys.readouterr().out
    assert "fails" in out and "1 ≤ 99/100 is false" in out and "<" not in out


@pytest.mark.parametrize("args, message", [
    (["implies", "nope.py:X", "pure-dp"], "no such file"),
    (["implies", "mine.py:Nope", "pure-dp"], "defines no 'Nope'; notions there: LastPointDP"),
    (["implies", "Nope", "pure-dp"], "FILE.py:NAME names your own"),
    (["implies", "pure-dp", "approx-dp", "--budget", "-1"], "must be positive"),
])
def test_bad_notion_names_are_one_line_errors(mine, capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_save_counterexample_names_its_files_as_documented_and_rechecks_each(tmp_path, monkeypatch, capsys):
    """A conclusion over all populations has a witness belief, written as PREFIX-P2.json; the README and
    the option's help said PREFIX-P.json, and only the hypothesis got a re-check command. Every file
    written now has one, and each command gives what it says."""
    import pathlib
    monkeypatch.chdir(tmp_path)
    assert main(["implies", "PureDP", "SemanticPrivacy", "--n", "1", "--target", "eps=1/10",
                 "--save-counterexample", "cx"]) == 0
    out = capsys.readouterr().out
    assert "wrote cx-A.json (mechanism), cx-P2.json (population)" in out and "no `dpcheck eval`" not in out
    commands = [line.split("re-check: ", 1)[1].split("   # ") for line in out.splitlines() if "re-check: " in line]
    assert any("--population cx-P2.json" in cmd for cmd, _ in commands)
    for cmd, said in commands:
        assert main(shlex.split(cmd)[1:]) == 0
        assert said.split()[1] in capsys.readouterr().out     # holds / fails
    guide = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "command-line.md"
    assert "`cx-P2.json` for the population where a conclusion over all" in guide.read_text(encoding="utf-8")
    assert main(["implies", "--help"]) == 0
    assert "PREFIX-P2.json for the population at which a conclusion" in " ".join(capsys.readouterr().out.split())
