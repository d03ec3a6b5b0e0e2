"""`--confirm-effort K` (check and audit): the second solver's limits, its counts and its seconds, times K;
nothing else changes. The settings object is tested directly, the options by what reaches the second solver."""
from __future__ import annotations

from fractions import Fraction

import pytest

from symbolic.solve.backends.settings import Settings
from theorems.cli.main import main

SECOND = ("second_query_effort", "second_effort", "second_cpu", "second_timeout")


def _second(s):
    return tuple(getattr(s, k) for k in SECOND)


@pytest.mark.parametrize("factor", ["4", "1/2", "2.5", 3])
def test_confirming_multiplies_the_second_solvers_limits_and_nothing_else(factor):
    base = Settings.named("thorough")
    more = base.confirming(factor)
    f = Fraction(str(factor))
    assert _second(more) == (int(base.second_query_effort * f), int(base.second_effort * f),
                             float(base.second_cpu * f), float(base.second_timeout * f))
    rest = [k for k in base.__dataclass_fields__ if k not in SECOND]
    assert all(getattr(more, k) == getattr(base, k) for k in rest)
    assert base.confirming(1) == base


@pytest.mark.parametrize("factor", [0, -1, "nan", "inf"])
def test_a_confirmation_effort_is_a_positive_number(factor):
    with pytest.raises(ValueError, match="positive number"):
        Settings().confirming(factor)


@pytest.fixture
def second_settings(monkeypatch):
    """The settings each proof's second opinion is asked with (the proof itself left as z3 gave it)."""
    import symbolic.solve.run as run
    seen = []

    def record(verdict, settings):
        seen.append(settings)
        return verdict
    monkeypatch.setattr(run, "second_opinion", record)
    return seen


def test_check_passes_the_factor_to_the_second_solver(second_settings, capsys):
    assert main(["check", "T-P1", "--n", "1", "--budget", "0", "--confirm-effort", "4", "--json"]) == 0
    capsys.readouterr()
    assert second_settings and all(_second(s) == _second(Settings().confirming(4)) for s in second_settings)
    assert all(s.query_effort == Settings().query_effort for s in second_settings)   # z3's effort is not touched


def test_audit_workers_pass_the_factor_to_the_second_solver(second_settings):
    from theorems.cli.audit_workers import run_one
    run_one("T-P1", "quick", confirm="3")
    assert second_settings and all(_second(s) == _second(Settings.named("quick").confirming(3))
                                   for s in second_settings)


@pytest.mark.parametrize("value", ["0", "-2", "abc", "1e3", "1001"])
@pytest.mark.parametrize("command", [["check", "T-P1"], ["audit", "T"]])
def test_a_bad_factor_is_one_line_and_exit_2(command, value, capsys):
    assert main([*command, "--confirm-effort", value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--confirm-effort" in err[0], err


@pytest.mark.parametrize("command", ["check", "audit"])
def test_the_help_shows_the_option_with_an_example(command, capsys):
    import click
    from theorems.cli.app import app
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "--confirm-effort K" in out
    assert any(f"dpcheck {command} " in line and "--confirm-effort 4" in line
               for line in out.split("Examples:", 1)[1].splitlines())
    cmd = app.commands[command]
    option, = [p for p in cmd.get_params(click.Context(cmd, info_name=command)) if "--confirm-effort" in p.opts]
    assert "e.g. --confirm-effort 4" in option.help and option.default == "1"
