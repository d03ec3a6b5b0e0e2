"""The public API: every promised name exists in both places, the package top loads lazily, and a
user can state, check and evaluate with these names alone."""
from __future__ import annotations

import subprocess
import sys

import pytest

import symbolic
import symbolic.api as api

FAST = dict(second_solver=False)


def test_api_has_no_duplicates_and_the_package_lists_the_same_names():
    assert len(set(api.__all__)) == len(api.__all__)
    assert set(symbolic.__all__) == set(api.__all__) | {"__version__"}
    assert set(api.__all__) <= set(dir(symbolic))


@pytest.mark.parametrize("name", api.__all__)
def test_every_name_importable_from_both(name):
    ns = {}
    exec(f"from symbolic import {name} as a\nfrom symbolic.api import {name} as b", ns)
    assert ns["a"] is ns["b"] is getattr(api, name)


def test_version_and_unknown_names():
    from symbolic.core import __version__
    assert symbolic.__version__ == __version__
    with pytest.raises(AttributeError):
        symbolic.no_such_name  # noqa: B018


def _loaded_after(code):
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(sorted(m for m in ('z3', 'cvc5', "
                          "'symbolic.api') if m in sys.modules))"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_engine_modules_and_light_names_load_no_solver():
    assert _loaded_after("import symbolic.core.errors") == "[]"
    assert _loaded_after("from symbolic import DPCheckError, clip, Sizes") == "[]"
    assert "'z3'" in _loaded_after("import symbolic; symbolic.ClaimResult")


def test_evaluating_a_table_loads_no_solver(tmp_path):
    """The public API and `dpcheck eval` evaluate notions exactly without importing z3 or cvc5; a check loads
    them on first use."""
    assert _loaded_after("from symbolic.api import PureDP, evaluate, randomized_response\n"
                         "assert evaluate(PureDP, randomized_response(3), E=3)") == "['symbolic.api']"
    table = tmp_path / "rr.json"
    table.write_text('{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}')
    assert _loaded_after(f"from theorems.cli.main import main\n"
                         f"assert main(['eval', 'PureDP', '--mechanism', {str(table)!r}, '--param', 'E=3']) == 0") \
        .splitlines()[-1] == "['symbolic.api']"
    assert "'z3'" in _loaded_after("from symbolic.api import Sizes, check, check_implies, PureDP, E\n"
                                   "check_implies(PureDP(E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2))")


def test_pure_dp_implies_approx_dp_is_proved():
    from symbolic import ApproxDP, E, Param, PureDP, Proved, Settings, Sizes, check, implication_claim
    delta = Param("delta", lower=0, upper=1)
    claim = implication_claim(PureDP(E.symbol), ApproxDP(E.symbol, delta.symbol), params=(E, delta),
                              sizes=Sizes(2, 2, 2))
    res = check(claim, Settings(**FAST))
    assert isinstance(res.verdict, Proved), res.verdict
    assert res.verdict.bounds == Sizes(2, 2, 2) and res.agrees


def test_false_implication_is_refuted_exactly():
    from symbolic import ApproxDP, E, Param, PureDP, Refuted, Settings, Sizes, check_implies, claim_json, result_text
    delta = Param("delta", lower=0, upper=1)
    res = check_implies(ApproxDP(E.symbol, delta.symbol), PureDP(E.symbol), params=(E, delta), sizes=Sizes(1, 2, 2),
                        settings=Settings(**FAST))
    assert isinstance(res.verdict, Refuted)
    assert res.verdict.verified_exactly is True
    assert claim_json(res)["verified_exactly"] is True and "counterexample at" in result_text(res)


def test_evaluate_randomized_response():
    from symbolic import PureDP, evaluate, explain, randomized_response
    rr = randomized_response(3)
    assert evaluate(PureDP, rr, E=3) is True
    assert evaluate(PureDP(3), rr) is True
    assert evaluate(PureDP, rr, E="29/10") is False
    holds, why = explain(PureDP(2), rr)
    assert holds is False and "Pr[A(d)=o]=3/4" in why


def test_evaluate_over_all_populations_and_given_population():
    from symbolic import Bayesian0DP, Bayesian0DPFor, evaluate, randomized_response, uniform
    rr = randomized_response(3)
    assert evaluate(Bayesian0DP, rr, E=3) is True
    assert evaluate(Bayesian0DP, rr, E=2) is False
    assert evaluate(Bayesian0DPFor, rr, population=uniform(n=1, domain=(0, 1)), E=3) is True


def test_evaluate_refuses_what_it_cannot_decide():
    from symbolic import Bayesian0DPFor, E, InvalidParameter, PureDP, evaluate, randomized_response
    rr = randomized_response(3)
    with pytest.raises(InvalidParameter, match="symbols"):
        evaluate(PureDP(E.symbol), rr)
    with pytest.raises(InvalidParameter, match="mechanism"):
        evaluate(PureDP, rr, rr, E=3)
    with pytest.raises(InvalidParameter, match="one population"):
        evaluate(Bayesian0DPFor, rr, E=3)
    with pytest.raises(InvalidParameter, match="has its parameters already"):
        evaluate(PureDP(3), rr, E=3)


def test_notion_library_names_every_dp_notion():
    from symbolic import ApproxDP, PureDP, notion_library
    lib = notion_library()
    assert lib["PureDP"] is PureDP and lib["ApproxDP"] is ApproxDP


def test_smt2_export_through_the_api(tmp_path):
    from symbolic import PureDP, E, Settings, Sizes, check_implies, smt2_queries, write_smt2, FreeLunchPrivacy
    res = check_implies(FreeLunchPrivacy(E.symbol), PureDP(E.symbol), sizes=Sizes(1, 2, 2), settings=Settings(**FAST))
    assert smt2_queries(res)
    names = write_smt2(res, str(tmp_path / "q.smt2"))
    assert names and all(open(n).read().rstrip().endswith("(check-sat)") for n in names)
