"""What the command line prints: JSON documents alone on stdout (`--json` on list, check, eval, derive),
a definition's ID given to `check`, `eval`'s definite answers, and the decorations that are for a
terminal only: rich tables (plain text in pipes, with `--no-color` and with NO_COLOR), the check
spinner and the audit's progress bar (stderr at a terminal; never under `--json` to stdout, with
`--quiet`, or when stderr is not a terminal). Terminals are pseudo-terminals (`pty`)."""
import io
import json
import os
import pty
import subprocess
import sys
import threading

import pytest

from tests.cli.test_cli_frame import console_script
from theorems.cli.main import main

TABLE = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
ESC = "\x1b["


def _drain(fd, sink):
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the other end is closed
            return
        if not data:
            return
        sink.append(data)


def at_terminal(*args, stdout_tty=False, env=None):
    """Run the console script with stderr (and, if asked, stdout) on a pseudo-terminal; return
    (exit code, stdout if piped, what the terminal showed)."""
    master, slave = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environ.update(TERM="xterm-256color", COLUMNS="200", **(env or {}))
    p = subprocess.Popen([console_script(), *args], stdin=subprocess.DEVNULL, stderr=slave,
                         stdout=slave if stdout_tty else subprocess.PIPE, env=environ)
    os.close(slave)
    shown = []
    reader = threading.Thread(target=_drain, args=(master, shown))
    reader.start()
    out = "" if stdout_tty else p.stdout.read().decode()
    code = p.wait(timeout=120)
    reader.join(timeout=10)
    os.close(master)
    return code, out, b"".join(shown).decode("utf-8", "replace")


class PseudoTerminal:
    """A pseudo-terminal as an in-process text stream (``.file``); ``.shown()`` is what it displayed."""

    def __enter__(self):
        master, slave = pty.openpty()
        self.master, self.file, self._bytes = master, io.open(slave, "w", encoding="utf-8", buffering=1), []
        self._reader = threading.Thread(target=_drain, args=(master, self._bytes))
        self._reader.start()
        return self

    def shown(self):
        self.file.close()
        self._reader.join(timeout=10)
        os.close(self.master)
        return b"".join(self._bytes).decode("utf-8", "replace")

    def __exit__(self, *exc):
        if not self.file.closed:
            self.shown()


@pytest.fixture
def colour_env(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return monkeypatch


def _table_file(tmp_path):
    f = tmp_path / "table.json"
    f.write_text(json.dumps(TABLE))
    return str(f)


# --- JSON documents -----------------------------------------------------------------------------------

def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc["tool"]) == {"version", "z3", "sympy"}
    ids = {e["id"]: e for e in doc["entries"]}
    assert ids["T-D1"]["kind"] == "def" and "PureDP" in ids["T-D1"]["notions"]
    assert ids["T-P4.converse"]["kind"] != "def" and ids["T-P4.converse"]["source"] == "T"


def test_eval_json_and_definite_exit_codes(tmp_path, capsys):
    f = _table_file(tmp_path)
    assert main(["eval", "PureDP", "--mechanism", f, "--param", "E=3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["verdict"], doc["holds"], doc["reason"], doc["parameters"]) == ("holds", True, None, {"E": "3"})
    assert main(["eval", "PureDP", "--mechanism", f, "--param", "E=29/10", "--json"]) == 0  # fails: definite
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "fails" and doc["holds"] is False and "Pr[A(d)=o]=3/4" in doc["reason"]
    assert main(["eval", "PureDP", "--mechanism", f, "--param", "E=29/10"]) == 0
    assert "PureDP(29/10): fails (" in capsys.readouterr().out


def test_derive_json(capsys):
    assert main(["derive", "epsilon", "randomized-response", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"formula", "latex", "assumptions", "checks", "extras"} <= set(doc)
    assert doc["checks"] and all(c["ok"] for c in doc["checks"])
    assert doc["formula"] == "epsilon" and doc["latex"] == "\\epsilon"  # sympy's tight ε of the RR kernel


def test_check_a_definition_shows_it(capsys):
    assert main(["check", "T-D1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("T-D1 [def]") and "a definition, not a claim" in out
    assert "notion PureDP(E)" in out and "dpcheck eval PureDP --mechanism table.json --param E=2" in out
    assert main(["check", "T-D1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["claims"] == [] and doc["definition"]["notions"][0]["name"] == "PureDP"
    assert doc["definition"]["notions"][0]["parameters"][0]["name"] == "E"


def test_the_definition_hint_runs(tmp_path, capsys):
    """The command `check T-D1` suggests works as written (with a table of the user's)."""
    assert main(["check", "T-D1"]) == 0
    hint = next(l for l in capsys.readouterr().out.splitlines() if "dpcheck eval" in l).split("#")[0].split()
    argv = [_table_file(tmp_path) if a == "table.json" else a for a in hint[1:]]
    assert main(argv) == 0 and capsys.readouterr().out.startswith("PureDP(2): ")


# --- terminal decorations ---------------------------------------------------------------------------

def test_check_spinner_at_a_terminal():
    code, out, shown = at_terminal("check", "T-APPB", "--budget", "0")
    assert code == 0 and "checking T-APPB" in shown
    assert "verdict: refuted" in out and ESC not in out  # stdout is a pipe: plain text


@pytest.mark.parametrize("flag", ["--json", "--quiet"])
def test_check_spinner_never_under_json_or_quiet(flag, colour_env):
    with PseudoTerminal() as tty:
        colour_env.setattr(sys, "stderr", tty.file)
        colour_env.setattr(sys, "stdout", io.StringIO())
        assert main(["check", "T-APPB", "--budget", "0", flag]) == 0
        out = sys.stdout.getvalue()
        shown = tty.shown()
    assert shown == "" and (json.loads(out) if flag == "--json" else "verdict: refuted" in out)


def test_check_spinner_shows_in_process_at_a_terminal(colour_env):
    with PseudoTerminal() as tty:
        colour_env.setattr(sys, "stderr", tty.file)
        colour_env.setattr(sys, "stdout", io.StringIO())
        assert main(["check", "T-APPB", "--budget", "0"]) == 0
        assert "checking T-APPB" in tty.shown()


def test_no_decoration_when_stderr_is_not_a_terminal():
    p = subprocess.run([console_script(), "check", "T-APPB", "--budget", "0"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stderr == "" and ESC not in p.stdout


def test_list_table_at_a_colour_terminal():
    code, _, shown = at_terminal("list", stdout_tty=True)
    assert code == 0 and ESC in shown and "│" in shown and "T-D1" in shown


@pytest.mark.parametrize("args, env", [(["list", "--no-color"], {}), (["list"], {"NO_COLOR": "1"}),
                                       (["--no-color", "list"], {}), (["list"], {"TERM": "dumb"})])
def test_list_plain_at_a_terminal_without_colour(args, env, colour_env):
    for k, v in env.items():
        colour_env.setenv(k, v)
    with PseudoTerminal() as tty:
        colour_env.setattr(sys, "stdout", tty.file)
        assert main(args) == 0
        shown = tty.shown()
    assert ESC not in shown and "│" not in shown and "T-D1             def     T  PureDP" in shown


def _fake_pool(todo, profile, jobs, done, started=lambda cid: None):
    from theorems.cli import audit_workers as audit
    for cid in todo:
        rec = {**dict.fromkeys(audit.RECORD_KEYS), "id": cid, "kind": "⇒", "source": "T", "statement": "s",
               "source_says": "holds", "verdict": "proved", "agrees_with_source": True, "seconds": 0.5}
        started(cid)
        done(cid, ("ok", (rec, "", None)))


@pytest.fixture
def fake_audit(monkeypatch):
    import theorems.cli.audit_workers
    monkeypatch.setattr(theorems.cli.audit_workers, "run_pool", _fake_pool)
    from theorems.registry import by_source
    return len([c for c in by_source(["T"]) if c.kind != "def"])


def test_audit_progress_bar_at_a_terminal(fake_audit, colour_env):
    with PseudoTerminal() as tty:
        colour_env.setattr(sys, "stderr", tty.file)
        colour_env.setattr(sys, "stdout", io.StringIO())
        code = main(["audit", "T", "--jobs", "1"])
        table = sys.stdout.getvalue()
        shown = tty.shown()
    assert code == 0 and "audit" in shown and "ETA" in shown and f"/{fake_audit}" in shown
    assert "[  1/" not in shown  # the bar replaces the log lines
    assert "ID" in table and f"{fake_audit} claims, {fake_audit} agree with the source" in table


def test_audit_log_lines_without_a_terminal_none_when_quiet(fake_audit, capsys):
    assert main(["audit", "T", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == fake_audit and lines[0].startswith("[  1/") and "ETA" not in err and ESC not in out
    assert main(["audit", "T", "--jobs", "1", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and f"{fake_audit} claims" in out


def test_the_audit_starts_the_slowest_claims_first_and_knows_every_claims_cost(monkeypatch):
    """The reference costs (theorems/audit_costs.json) cover every claim of the catalogue (a new claim gets
    the median until `python bench/audit_costs.py` is run again; this test asks for that), and the pool
    receives the claims by decreasing cost; the report keeps the catalogue's order."""
    import json
    import theorems.cli.audit_workers
    from theorems.cli.audit_plan import COSTS_FILE, reference_costs
    from theorems.registry import by_source
    ids = [c.id for c in by_source(["T", "L", "K", "S"]) if c.kind != "def"]
    table = json.loads(COSTS_FILE.read_text())["seconds"]
    assert set(ids) <= set(table), f"no reference cost for {sorted(set(ids) - set(table))}: run bench/audit_costs.py"
    seen = []

    def pool(todo, profile, jobs, done, started=lambda cid: None):
        seen.extend(todo)
        _fake_pool(todo, profile, jobs, done, started)
    monkeypatch.setattr(theorems.cli.audit_workers, "run_pool", pool)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["audit", "T", "--jobs", "2", "-q"]) == 0
    t_ids = [c.id for c in by_source(["T"]) if c.kind != "def"]
    costs = reference_costs(t_ids)
    assert sorted(seen) == sorted(t_ids) and [costs[i] for i in seen] == sorted(costs.values(), reverse=True)
    rows = [line.split()[0] for line in out.getvalue().splitlines() if line.split() and line.split()[0] in t_ids]
    assert rows[:len(t_ids)] == t_ids


def test_the_audit_estimate_lays_the_claims_in_the_order_they_start():
    """Two workers, a 6 s claim and two 3 s ones: started slowest first, the run ends after 6 s; the estimate
    follows the order of the costs it is given (the order the pool starts them), not the catalogue's."""
    import time
    from theorems.cli.console import AuditProgress, Ui
    slowest_first = AuditProgress(Ui(quiet=True), 3, {"b": 6.0, "a": 3.0, "c": 3.0}, jobs=2)
    catalogue = AuditProgress(Ui(quiet=True), 3, {"a": 3.0, "c": 3.0, "b": 6.0}, jobs=2)
    now = time.monotonic()
    assert round(slowest_first.end_estimate() - now) == 6 and round(catalogue.end_estimate() - now) == 9
    slowest_first.start("b")
    slowest_first.tick("b", {"verdict": "proved", "seconds": 0.0})   # finished at once: the pace drops to ~0
    assert slowest_first.end_estimate() - time.monotonic() < 1
