import pytest
"""Proof certificates: every proved query is re-decided by cvc5, and `--smt2` exports the complete proof
obligations, one self-contained file per query, each unsat on its own in z3 and in cvc5."""
import glob
import json

import z3
from tests.solve.backends.smt_scripts import cvc5_script_status

from symbolic.notions.claims import Claim, E, Implies
from symbolic.notions.families.dp import PureDP, StrongAdversaryDP
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from symbolic.core.verdicts import Proved, Sizes, Unknown
from theorems.cli.main import main

Es = E.symbol


@pytest.mark.slow   # over 7 s on 2 cores; `pytest -m slow` and the self-test run it
def test_cegis_proof_exports_its_populations(tmp_path, capsys):
    """StrongAdversaryDP ⇒ PureDP is proved by CEGIS; its exported queries must carry the populations
    CEGIS used, so that each file alone is unsat (without them an outside solver answers sat)."""
    out = tmp_path / "q.smt2"
    assert main(["check", "T-P1", "--n", "1", "--budget", "0", "--smt2", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["claims"][0]
    assert doc["certificate"]["second_solver"].startswith("cvc5") and doc["certificate"]["second_verdict"] == "unsat"
    files = sorted(glob.glob(str(tmp_path / "q-*.smt2")))
    assert len(files) >= 2
    for f in files:
        text = open(f).read()
        assert text.count("(check-sat)") == 1
        s = z3.Solver()
        s.from_file(f)
        assert s.check() == z3.unsat, f
        assert cvc5_script_status(text, 20) == "unsat", f


def test_second_solver_disagreement_turns_proved_into_unknown(monkeypatch):
    import symbolic.solve.backends.cvc5_backend as backend
    import symbolic.solve.backends.cvc5_child as child
    monkeypatch.setattr(child, "decide_batch", lambda datas, timeout, **kw: [backend.Decision("sat", "seeded", 0.0)
                                                                             for _ in datas])
    claim = Claim("t", "⇒", "-", "t", "holds", (Implies(StrongAdversaryDP(Es), PureDP(Es)),),
                  sizes=Sizes(1, 2, 2), min_sizes=Sizes(1, 2, 2))
    v = check_claim(claim, Settings()).verdict
    assert isinstance(v, Unknown) and "solvers disagree" in v.reason and "cvc5" in v.reason


def test_second_solver_confirms_a_cegis_proof():
    claim = Claim("t", "⇒", "-", "t", "holds", (Implies(StrongAdversaryDP(Es), PureDP(Es)),),
                  sizes=Sizes(1, 2, 2), min_sizes=Sizes(1, 2, 2))
    v = check_claim(claim, Settings()).verdict
    assert isinstance(v, Proved) and v.certificate["second_verdict"] == "unsat"
    assert v.vacuity == "satisfiable" and v.obligations
