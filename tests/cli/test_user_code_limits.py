"""The code of a user's own notion (FILE.py:NAME) runs under the command's limits: a body that never returns
ends in one line naming the notion, its file, the limit and the option that raises it (exit 1, a graph pair
unknown), in every command that runs it; a body that sleeps is ended by the wall-clock safety net; an
ops.And over an absurd number of terms is refused; an honest notion is unaffected.

Processor-time limits are set small (an effort level, a budget or a limit given when the notion is loaded),
so a body that spins reaches them whatever the machine's load. Commands that could hang if the limit broke
run in a subprocess with a generous timeout, only as a safety net: the assertions are on the message and the
exit code."""
import signal
import subprocess
import sys
import time

import pytest

from symbolic.graph.user import load_user_notion
from symbolic.graph.user_limits import UserLimit, UserLimitReached
from theorems.cli.main import main

NOTIONS = '''import time
from symbolic import E_SPEC, Notion

def spin(ops, A, P=None, *, E):
    while True:
        pass

def nap(ops, A, P=None, *, E):
    time.sleep(10 ** 6)

def stubborn(ops, A, P=None, *, E):
    while True:
        try:
            while True:
                pass
        except Exception:
            pass

def burn(ops, A, P=None, *, E):
    end = time.process_time() + 3
    while time.process_time() < end:
        pass
    return ops.le(0, 1)

def huge(ops, A, P=None, *, E):
    d, o = next(iter(A.rows)), next(iter(A.outputs))
    t = ops.le(A.p(d, o), E * A.p(d, o) - 1)
    return ops.And(t for _ in range(10 ** 8))

def honest(ops, A, P=None, *, E):
    return ops.And(ops.le(A.p(d, o), E * A.p(e, o)) for d in A.rows for e in A.rows for o in A.outputs)

Spin = Notion("Spin", (E_SPEC,), spin)
Nap = Notion("Nap", (E_SPEC,), nap)
Stubborn = Notion("Stubborn", (E_SPEC,), stubborn)
Burn = Notion("Burn", (E_SPEC,), burn)
Huge = Notion("Huge", (E_SPEC,), huge)
Honest = Notion("Honest", (E_SPEC,), honest)
'''
TABLE = '{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}'
SAFETY = 400   # seconds: only so that a broken limit fails the test instead of hanging the run


@pytest.fixture
def here(tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text(NOTIONS)
    (tmp_path / "rr.json").write_text(TABLE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def dpcheck(here, *args):
    """``dpcheck ARGS`` in a subprocess: (exit code, stdout + stderr)."""
    p = subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], cwd=here, capture_output=True, text=True,
                       timeout=SAFETY)
    return p.returncode, p.stdout + p.stderr


def processor_line(out, name, option):
    """The one line saying that ``name`` (in mine.py) used its processor time, and that ``option`` raises it."""
    lines = [x for x in out.splitlines() if f"mine.py: the notion {name} used the processor time" in x]
    assert len(lines) >= 1, out
    assert option in lines[0], lines[0]
    return lines[0]


def test_implies_ends_a_spinning_notion_by_its_effort(here):
    code, out = dpcheck(here, "implies", "mine.py:Spin", "pure-dp", "--n", "1", "--effort", "1/1000")
    assert code == 1
    line = processor_line(out, "Spin", "--effort (e.g. --effort 0.002)")
    assert line.startswith("dpcheck: unknown: ") and "(0.12 s)" in line
    assert "Traceback" not in out


def test_graph_add_makes_the_pairs_of_a_spinning_notion_unknown_in_worker_processes(here):
    code, out = dpcheck(here, "graph", "--notions", "pure-dp,approx-dp", "--add", "mine.py:Spin", "--budget", "0.05",
                        "--no-cache", "--jobs", "2", "--json", "g.json")
    assert code == 1, out
    import json
    pairs = json.loads((here / "g.json").read_text())["pairs"]
    spin = [p for p in pairs if "Spin" in (p["from"], p["to"])]
    assert len(spin) == 4 and all(p["relation"] == "unknown" for p in spin)
    for p in spin:
        assert "mine.py: the notion Spin used the processor time its code may use (0.1 s)" in p["reason"], p
        assert "--budget (e.g. --budget 0.1)" in p["reason"]
    assert [p["relation"] for p in pairs if "Spin" not in (p["from"], p["to"])] == ["implies", "not-implies"]


def test_derive_level_ends_a_spinning_notion_by_its_budget(here):
    code, out = dpcheck(here, "derive", "level", "mine.py:Spin", "--mechanism", "rr.json", "--budget", "0.5")
    assert code == 1
    processor_line(out, "Spin", "--budget (e.g. --budget 1)")


def test_derive_map_ends_a_spinning_notion_by_its_budget(here):
    """derive map's budget and the user's code limit both count processor seconds (the same --budget); whichever
    rings first ends the spinning body, and either line names the notion and --budget."""
    code, out = dpcheck(here, "derive", "map", "mine.py:Spin", "pure-dp", "--budget", "3")
    assert code == 1
    by_budget = "in the notion Spin (mine.py)" in out and "raise --budget" in out
    assert by_budget or processor_line(out, "Spin", "--budget")


def test_eval_ends_a_spinning_notion_by_its_effort(here):
    code, out = dpcheck(here, "eval", "mine.py:Spin", "--mechanism", "rr.json", "--param", "E=3", "--effort", "1/1000")
    assert code == 1   # unknown: more effort may answer, and the input is not at fault
    processor_line(out, "Spin", "--effort (e.g. --effort 0.002)")


def test_a_notion_that_catches_exceptions_is_still_ended(here):
    code, out = dpcheck(here, "eval", "mine.py:Stubborn", "--mechanism", "rr.json", "--param", "E=3",
                        "--effort", "1/1000")
    assert code == 1
    processor_line(out, "Stubborn", "--effort")


@pytest.mark.parametrize("command", [["eval", "mine.py:Nap", "--mechanism", "rr.json", "--param", "E=3"],
                                     ["implies", "mine.py:Nap", "pure-dp", "--n", "1"]])
def test_a_sleeping_notion_is_ended_by_the_wall_clock_net(here, command):
    code, out = dpcheck(here, *command, "--timeout", "1")
    assert code == 1
    said = "mine.py: the notion Nap ran past one call's wall-clock time limit (1 s"
    lines = [x for x in out.splitlines() if said in x]
    assert len(lines) == 1 and lines[0].endswith("raise it with --timeout"), out


def test_an_absurd_conjunction_is_refused_naming_the_notion(here):
    code, out = dpcheck(here, "implies", "mine.py:Huge", "pure-dp", "--n", "1")
    assert code == 2
    assert "mine.py line 28: the notion Huge builds ops.And over more than 10,000,000 terms; refused" in out, out


def test_an_honest_notion_is_unaffected(here, capsys):
    assert main(["implies", "mine.py:Honest", "pure-dp", "--n", "1", "--effort", "1/3"]) == 0
    assert "verdict: proved" in capsys.readouterr().out
    assert main(["eval", "mine.py:Honest", "--mechanism", "rr.json", "--param", "E=3"]) == 0
    assert "Honest(3): holds" in capsys.readouterr().out


def test_the_limit_counts_processor_time_and_restores_the_timers(here):
    """A body that burns 3 processor seconds, then answers, is stopped at the 0.2 s it may use (with no limit it
    would answer); the next call is refused at once; the process's own handlers and timers are as they were."""
    from symbolic.api import evaluate, randomized_response
    before = signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)
    nt = load_user_notion("mine.py:Burn", UserLimit(0.2, "--effort 2", 60.0)).notion
    t0 = time.process_time()
    with pytest.raises(UserLimitReached, match=r"^mine\.py: the notion Burn used the processor time its code may "
                                               r"use \(0\.2 s\): raise it with --effort 2$"):
        evaluate(nt, randomized_response(3), E=3)
    assert time.process_time() - t0 < 2.5   # stopped before the body's 3 s were spent
    assert nt.body.account.spent > 0.1
    with pytest.raises(UserLimitReached):
        evaluate(nt, randomized_response(3), E=3)
    assert (signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)) == before
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0) and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_graph_pair_whose_notion_reaches_its_limit_is_unknown(here):
    """One pair as a worker decides it (in this process): unknown, with the limit's line as the reason."""
    from symbolic.graph.sweep import _task, graph_settings
    doc = _task("mine.py:Burn", "pure-dp", (1, 2, 2), graph_settings(0.05))
    assert doc["relation"] == "unknown"
    assert "mine.py: the notion Burn used the processor time its code may use (0.1 s)" in doc["reason"]
