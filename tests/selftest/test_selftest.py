"""The mutation self-test's machinery: mutants patch by name (a vanished target is an error), a
mutant is caught by a test or by exact re-verification, and the detectors pass on the unmutated
engine. The full suite (every mutant caught) is the slow test at the end."""
from __future__ import annotations

import json

import pytest

from theorems.selftest import faults as mutants
from theorems.selftest import runner as selftest

ISSUE_MUTANTS = {"search.unknown-as-unsat", "run.combine-ignores-unknown", "verify.first-population-only",
                 "encode.product-drops-last-marginal", "closed.rr-pml-branch-point"}


def test_mutants_are_many_distinct_and_include_the_five_once_missed():
    ids = [m.id for m in selftest.MUTANTS]
    assert len(ids) >= 50 and len(set(ids)) == len(ids)
    assert ISSUE_MUTANTS <= set(ids)
    for m in selftest.MUTANTS:
        assert m.description and all(d.split(":", 1)[0] in ("test", "claim") for d in m.first), m.id


def test_every_first_detector_is_in_the_battery_or_a_test_node():
    claims = {c.id for c in selftest.CLAIMS}
    for m in selftest.MUTANTS:
        for d in m.first:
            if d.startswith("claim:"):
                assert d[len("claim:"):] in claims, (m.id, d)
            else:
                path = d[len("test:"):].split("::")[0]
                assert (selftest.ROOT / path).exists(), (m.id, d)


def test_a_vanished_target_is_an_error_not_a_skip():
    with pytest.raises(mutants.MissingTarget, match="no attribute"):
        mutants.edit("symbolic.solve.search:no_such_function", "a", "b")
    with pytest.raises(mutants.MissingTarget, match="occurs 0 times"):
        mutants.edit("symbolic.solve.search:grid", "text that is not there", "b")
    with pytest.raises(mutants.MissingTarget, match="cannot be imported"):
        mutants.edit("symbolic.no_such_module:f", "a", "b")


def test_a_test_that_fails_because_the_fault_broke_the_code_catches_nothing():
    from types import SimpleNamespace as NS

    def report(message):
        return NS(longrepr=NS(reprcrash=NS(message=message)))
    assert selftest.broken_by(report("NameError: name 'ceiling' is not defined")).startswith("NameError")
    assert selftest.broken_by(report("UnboundLocalError: cannot access local variable 'r'"))
    assert selftest.broken_by(report("AssertionError: assert 5 == 4")) is None
    assert selftest.broken_by(report("TypeError: unsupported operand")) is None
    assert selftest.broken_by(NS(longrepr="collection failed")) is None


def test_mutant_caught_by_a_test():
    r = selftest._spawn(["--run-mutant", "run.combine-ignores-unknown"], 180)
    assert r.get("error") is None, r
    assert r["caught_by"].startswith("test tests/solve/test_proofs.py::test_combine_unknown_part_is_never_proved"), r


@pytest.mark.slow   # over 5 s on 2 cores; `pytest -m slow` and the self-test run it
def test_mutant_caught_by_exact_reverification():
    """Without CEGIS refinement, candidates violate the ∀𝒫 hypothesis of T-D8 ⇒ T-D1 for populations
    the solver never saw; the exact check of the hypothesis on its whole family rejects them."""
    r = selftest._spawn(["--run-mutant", "search.cegis-never-refines"], 180)
    assert r.get("error") is None, r
    assert r["caught_by"].startswith("exact re-verification"), r


def test_detectors_pass_on_the_unmutated_engine():
    dets = ["test:tests/solve/test_proofs.py::test_combine_unknown_part_is_never_proved", "claim:T-APPB", "claim:T-P4.converse"]
    r = selftest._spawn(["--run-detectors", ",".join(dets)], 180)
    assert r.get("error") is None and r["caught_by"] is None, r
    assert r["ran"] == dets


def test_bad_arguments_exit_2(capsys):
    assert selftest.main(["--only", "no.such.mutant"]) == 2
    assert "unknown mutant" in capsys.readouterr().err
    assert selftest.main(["--jobs", "0"]) == 2


def test_outside_a_source_tree_it_says_so_instead_of_reporting_misses(tmp_path, monkeypatch, capsys):
    """Installed without the source tree, the battery's tests are not on disk: every mutant used to be
    "missed" (exit 1). It must say it needs the source tree, in one line, with exit 2, and run nothing."""
    from theorems.cli.main import main
    assert selftest.missing_detectors() == []          # in this checkout every detector file is there
    monkeypatch.setattr(selftest, "ROOT", tmp_path)    # as in site-packages: no tests/ beside the package
    assert selftest.missing_detectors() == selftest.TESTS
    monkeypatch.setattr(selftest, "_spawn", lambda *a, **k: pytest.fail("a mutant was run without its tests"))
    assert main(["selftest", "--mutants", "--only", "run.combine-ignores-unknown"]) == 2
    err = capsys.readouterr().err.strip()
    assert "needs dpcheck's source tree" in err and len(err.splitlines()) == 1
    assert main(["selftest"]) == 2                      # the battery alone needs the tests too
    assert main(["selftest", "--list"]) == 0            # listing the mutants does not


@pytest.mark.slow
def test_the_battery_passes_on_the_unmutated_engine(capsys):
    assert selftest.main(["--json"]) == 0, capsys.readouterr().out
    doc = json.loads(capsys.readouterr().out)
    assert doc["battery"]["passed"] and not doc["battery"]["failures"]


@pytest.mark.slow
def test_every_mutant_is_caught(capsys):
    code = selftest.main(["--mutants", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["mutants"] >= 50 and doc["caught"] == doc["mutants"] and doc["missed"] == [], doc["missed"]
    assert code == 0
    for r in doc["results"]:
        assert {"id", "description", "caught_by", "seconds"} <= set(r)


def test_every_source_edit_mutant_still_finds_its_text():
    """A refactor that moves a mutant's target text leaves that mutant unable to run (the self-test then
    reports an error, not a catch): each one-edit mutant's text occurs exactly once in its target."""
    import inspect
    import textwrap
    from theorems.selftest import faults as mutants
    assert len(mutants.EDITS) > 50
    for mid, targets, old in mutants.EDITS:
        counts = []
        for target in ((targets,) if isinstance(targets, str) else targets):  # alternatives: one must hold it
            try:
                _, _, fn = mutants._resolve(target)
            except mutants.MissingTarget:
                continue
            fn = fn.fget if isinstance(fn, property) else getattr(fn, "__func__", fn)
            counts.append(textwrap.dedent(inspect.getsource(fn)).count(old))
        assert 1 in counts, f"{mid}: {old!r} occurs {counts} times in {targets}"
