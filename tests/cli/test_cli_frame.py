"""The command line's frame as a user meets it: help with examples for every command and option, the
exit codes in `dpcheck --help`, `--version`, one-line usage errors with did-you-mean, global options
before or after the command. Most cases run in-process through `main`; the console script `dpcheck`
(installed by `pip install -e .`) is run too."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from symbolic import __version__
from theorems.cli.main import main
from theorems.cli.app import app, command

COMMANDS = ["list", "check", "implies", "audit", "eval", "derive", "selftest"]


def console_script():
    here = Path(sys.executable).with_name("dpcheck")
    path = str(here) if here.exists() else shutil.which("dpcheck")
    if path is None:
        pytest.skip("the console script `dpcheck` is not installed; run `pip install -e .`")
    return path


def dpcheck(*args, env=None, timeout=120):
    p = subprocess.run([console_script(), *args], capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def one_error_line(err):
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("dpcheck: error: ") and "Traceback" not in err and "Usage:" not in err
    return lines[0]


def test_every_contract_command_is_there():
    assert COMMANDS == [c for c in app.commands if c in COMMANDS]


@pytest.mark.parametrize("cmd", list(app.commands))
def test_help_of_every_command_has_examples_and_exits_0(cmd, capsys):
    assert main([cmd, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Usage: dpcheck {cmd} ")
    examples = out.split("Examples:\n", 1)[1].splitlines()
    assert examples and all(line.strip().startswith(f"dpcheck {cmd}") for line in examples if line.strip())


@pytest.mark.parametrize("cmd", list(app.commands))
def test_every_option_has_help_with_an_example(cmd):
    for p in app.commands[cmd].get_params(click.Context(app.commands[cmd], info_name=cmd)):
        if isinstance(p, click.Option):
            assert p.help and "e.g. " in p.help, (cmd, p.opts)


def test_top_level_help_lists_commands_exit_codes_and_examples(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for cmd in COMMANDS:
        assert f"\n  {cmd} " in out
    codes = out.split("Exit codes:\n", 1)[1]
    for code in ("0", "1", "2", "3", "130 / 143"):
        assert f"\n  {code} " in "\n" + codes
    assert "Examples:" in out and "-h, --help" in out


def test_short_help_flag(capsys):
    assert main(["eval", "-h"]) == 0
    assert "--mechanism FILE" in capsys.readouterr().out


def test_console_script_help_and_version():
    code, out, err = dpcheck("--help")
    assert code == 0 and "Exit codes:" in out and err == ""
    code, out, err = dpcheck("--version")
    assert code == 0 and err == ""
    assert out.startswith(f"dpcheck {__version__} (") and "sympy" in out and "z3" in out


# argv, words in the one error line
USAGE = [
    ([], "a command is required"),
    (["--quiet"], "a command is required"),
    (["chek", "T-P1"], "did you mean `dpcheck check`?"),
    (["Eval"], "did you mean `dpcheck eval`?"),
    (["frobnicate"], "invalid choice of command: frobnicate; commands: list, check"),
    (["check", "T-P1", "--jsn"], "did you mean --json"),
    (["check", "T-P1", "--budjet", "0"], "did you mean --budget"),
    (["audit", "--job", "2"], "did you mean --jobs"),
    (["--verbos", "list"], "did you mean --verbose"),
    (["list", "extra"], "unrecognized arguments: extra"),
    (["check"], "missing argument ID"),
    (["eval", "PureDP"], "missing --mechanism FILE"),
    (["check", "T-P1", "--timeout"], "requires an argument"),
    (["check", "T-P1", "--n", "two"], "--n: 'two' is not a whole number"),
    (["check", "T-P1", "--n", "9" * 5000], "at most 1000000"),
    (["audit", "--jobs", "-1"], "--jobs: '-1' must be at least 1"),
    (["--quiet", "--verbose", "list"], "not both"),
    (["list", "-q", "-v"], "not both"),
    (["check", "t-p1"], "did you mean T-P1"),
    (["audit", "t"], "did you mean T?"),
    (["help"], "run `dpcheck --help`"),
    (["implies", "PureDPP", "PureDP"], "did you mean PureDP"),  # (puredp is accepted: names ignore case)
]


@pytest.mark.parametrize("args, words", USAGE, ids=[" ".join(a)[:30] or "nothing" for a, _ in USAGE])
def test_usage_errors_are_one_line_exit_2(args, words, capsys):
    assert main(args) == 2
    out, err = capsys.readouterr()
    line = one_error_line(err)
    assert words in line and len(line) < 600 and out == ""


def test_usage_error_names_the_help_to_read(capsys):
    main(["check", "T-P1", "--jsn"])
    assert one_error_line(capsys.readouterr().err).endswith("(see `dpcheck check --help`)")
    main(["chek"])
    assert one_error_line(capsys.readouterr().err).endswith("(see `dpcheck --help`)")


@pytest.mark.parametrize("args, words", [(["chek"], "did you mean `dpcheck check`?"),
                                         (["list", "--jsn"], "did you mean --json"),
                                         ([], "a command is required"),
                                         (["check", "T-P1", "--" + "x" * 100_000], "unrecognized arguments")])
def test_console_script_usage_errors(args, words):
    code, out, err = dpcheck(*args)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert words in line and "x" * 100 not in line


def test_global_options_before_or_after_the_command(capsys):
    assert main(["--quiet", "list"]) == 0
    assert main(["list", "--no-color", "-q"]) == 0
    assert "T-D1 " in capsys.readouterr().out


def test_internal_error_verbose_adds_the_traceback(monkeypatch, capsys):
    import symbolic.solve.run

    def boom(*a, **k):
        raise ZeroDivisionError("seeded fault")
    monkeypatch.setattr(symbolic.solve.run, "check_claim", boom)
    assert main(["check", "T-L2", "--budget", "0"]) == 3
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["-v", "check", "T-L2", "--budget", "0"]) == 3
    err = capsys.readouterr().err
    assert "\ndpcheck: internal error: ZeroDivisionError: seeded fault" in err and "Traceback" in err


def test_ctrl_c_in_a_command_is_exit_130_one_line(monkeypatch, capsys):
    import symbolic.solve.run

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(symbolic.solve.run, "check_claim", interrupted)
    assert main(["check", "T-L2", "--budget", "0"]) == 130
    assert capsys.readouterr().err == "dpcheck: error: interrupted\n"


def test_output_closed_early_is_not_an_error():
    p = subprocess.Popen([console_script(), "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0 and "Traceback" not in err and "Error" not in err


def test_a_new_command_is_one_decorated_function(capsys):
    @command("hello-test", examples=[("dpcheck hello-test --name x", "greet x")])
    @click.option("--name", default="world", help="who to greet (e.g. --name x)")
    def hello(name):
        """Say hello."""
        print(f"hello {name}")
        return 0
    try:
        assert main(["hello-test", "--name", "dp"]) == 0
        assert capsys.readouterr().out == "hello dp\n"
        assert main(["hello-test", "--help"]) == 0
        assert "dpcheck hello-test --name x   # greet x" in capsys.readouterr().out
        assert main(["hello-tes"]) == 2
        assert "did you mean `dpcheck hello-test`?" in capsys.readouterr().err
    finally:
        del app.commands["hello-test"]
    with pytest.raises(ValueError, match="example"):
        command("bare", examples=[])


@pytest.mark.slow
def test_derive_level_on_a_users_symbolic_table(tmp_path):
    import json as _json
    from theorems.cli.main import main
    f = tmp_path / "rr3.json"
    f.write_text(_json.dumps({"n": 1, "domain": [0, 1, 2], "outputs": [0, 1, 2], "params": {"p": "1/3<p<1"},
                              "rows": {"0": ["p", "(1-p)/2", "(1-p)/2"], "1": ["(1-p)/2", "p", "(1-p)/2"],
                                       "2": ["(1-p)/2", "(1-p)/2", "p"]}}))
    import subprocess, sys
    out = subprocess.run([sys.executable, "-m", "theorems.cli.main", "derive", "level", "pure-dp", "--mechanism", str(f),
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    doc = _json.loads(out.stdout)
    import sympy as sp
    p = sp.Symbol("p", real=True)
    # 3-ary randomized response keeping with probability p > 1/3: the largest ratio is p / ((1-p)/2)
    got = sp.sympify(doc["formula"], locals={"p": p})
    assert sp.simplify(got - sp.log(2 * p / (1 - p))) == 0
    assert {"formula", "latex", "assumptions", "attained_by", "proof", "sizes", "checks"} <= set(doc)
    assert all(c["ok"] for c in doc["checks"])
    short = subprocess.run([sys.executable, "-m", "theorems.cli.main", "derive", "epsilon", "--mechanism", str(f)],
                           capture_output=True, text=True, timeout=300)
    assert short.returncode == 0 and "pure-dp: epsilon = log(" in short.stdout
    bad = subprocess.run([sys.executable, "-m", "theorems.cli.main", "derive", "level", "pure-dp"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "needs --mechanism FILE" in bad.stderr and "\n" not in bad.stderr.strip()
