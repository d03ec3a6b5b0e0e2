"""The checks of a derived level evaluate the notion's own body at exact sample points, without the
formula: the right formula passes them, a wrong one is caught."""
import sympy as sp

from symbolic.derive.level import derive_level, level_notion
from symbolic.derive.level_checks import run_checks
from symbolic.model.example_tables import randomized_response_doc


def test_the_checks_pass_the_derived_formula_and_catch_a_wrong_one():
    d = derive_level("pure-dp", randomized_response_doc(2, "1/2<p<1"))
    notion, _ = level_notion("pure-dp")
    right = run_checks(notion, {}, d.mechanism, None, d.formula, d.level_ratio)
    assert right and all(ok for _, ok in right)
    p = d.mechanism.symbols["p"]
    wrong_ratio = p / (1 - p) + 1                      # too large: the notion holds just below it
    wrong = run_checks(notion, {}, d.mechanism, None, sp.log(wrong_ratio), wrong_ratio)
    assert wrong and not any(ok for _, ok in wrong)
