"""`dpcheck derive … --param NAME=VALUE` takes an expression in numbers (exp, log, sqrt; the restricted parser)
wherever it takes a number: the catalogue derivations, the exact scan of a notion's level, a symbolic table's
parameters (closed-form levels and the zCDP / GDP enclosures). Each result is compared with one computed here
from the definition, exactly (sympy) or to 30 digits (mpmath)."""
from __future__ import annotations

import json
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symbolic.core.exact import parse_expr
from theorems.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SHIFT = ("from symbolic.api import Notion, E_SPEC, ParamSpec\n"
         "def shift(ops, A, P=None, *, E, t):\n"
         "    return ops.And(ops.le(A.p(d, o), E * t * A.p(e, o)) for d in A.rows for e in A.rows for o in A.outputs)\n"
         "Shift = Notion('Shift', (E_SPEC, ParamSpec('t', lower=1)), shift)\n")


def run(capsys, *args):
    code = main(["derive", *args])
    got = capsys.readouterr()
    assert "Traceback" not in got.err and "not a number" not in got.err, got.err
    return code, got.out, got.err


def test_a_catalogue_derivation_takes_log_2(capsys):
    from theorems import saeidian_pml_closed_forms as cf
    code, out, err = run(capsys, "pml", "laplace-count", "--param", "eps=log(2)", "--param", "lam=1/4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    want = cf.laplace_count_pml().formula.subs({cf.EPS: sp.log(2), cf.LAM: sp.Rational(1, 4)})
    assert sp.simplify(parse_expr(doc["formula"]) - want) == 0


def test_the_exact_scan_takes_expressions_for_the_other_parameters(tmp_path, capsys):
    (tmp_path / "mine.py").write_text(SHIFT)
    own = f"{tmp_path / 'mine.py'}:Shift"
    rr = str(EXAMPLES / "rr.json")   # rows (3/4, 1/4), (1/4, 3/4): Shift holds iff E·t ≥ 3
    code, out, err = run(capsys, "level", own, "--mechanism", rr, "--param", "t=sqrt(9)/2", "--json")
    assert code == 0 and json.loads(out)["formula"] == "2", err
    code, out, err = run(capsys, "level", own, "--mechanism", rr, "--param", "eps=log(2)", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["formula"] == "3/2" and doc["fixed"] == {"E": "2"}, err
    # an irrational value is read, and the scan (rational root isolation) says it cannot use it: unknown, exit 1
    code, out, err = run(capsys, "level", own, "--mechanism", rr, "--param", "t=exp(1)")
    assert code == 1 and "unknown" in out and "t = exp(1)" in out, err


def test_a_symbolic_tables_parameter_takes_an_expression(capsys):
    rr3 = str(EXAMPLES / "rr3.json")   # p on the diagonal, (1 − p)/2 elsewhere
    code, out, err = run(capsys, "level", "pure-dp", "--mechanism", rr3, "--param", "p=exp(-1)", "--json")
    assert code == 0, err
    p = sp.exp(-1)
    ratio = max(p / ((1 - p) / 2), ((1 - p) / 2) / p, key=lambda r: sp.N(r, 30))   # e^(−1) > (1 − e^(−1))/2
    assert sp.simplify(parse_expr(json.loads(out)["formula"]) - sp.log(ratio)) == 0
    code, out, err = run(capsys, "level", "pure-dp", "--mechanism", rr3, "--param", "p=exp(1)")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "p=exp(1) is outside its range 0 < p < 1" in lines[0]


@pytest.mark.slow   # 25-80 s: the supremum over orders with e^(−1) in the rows
def test_the_zcdp_enclosure_of_a_table_at_an_expression(capsys):
    """At p = e^(−1) the largest D_α/α of rr3 is its KL divergence (approached as α → 1)."""
    code, out, err = run(capsys, "level", "zcdp", "--mechanism", str(EXAMPLES / "rr3.json"), "--param", "p=exp(-1)",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    mpmath.mp.dps = 30
    p = mpmath.e ** -1
    q = (1 - p) / 2
    kl = p * mpmath.log(p / q) + q * mpmath.log(q / p)
    lo, hi = (sp.Rational(doc["enclosure"][k]) for k in ("lower", "upper"))
    assert lo <= sp.Rational(mpmath.nstr(kl, 28)) <= hi and hi - lo < sp.Rational(1, 10 ** 8) and doc["ok"]


def test_an_integer_parameter_says_what_it_got_as_written(capsys):
    code, out, err = run(capsys, "pml", "threshold", "--param", "n=exp(1)", "--param", "k=1")
    assert code == 2 and "n='exp(1)' must be an integer" in err


def test_eulers_number_is_printed_as_e_not_as_the_level_E():
    from symbolic.core.math_text import math_text
    assert math_text(2 / (sp.E - 1)) == "2/(−1 + e)" and math_text(sp.Symbol("E") - 1) == "E − 1"


def test_the_catalogue_validators_read_expressions_and_decide_their_ranges_exactly():
    from symbolic.core.errors import InvalidParameter
    from symbolic.derive.closed_forms import valid_eps, valid_prob
    assert valid_eps("log(2)") == sp.log(2) and valid_prob("exp(-1)") == sp.exp(-1)
    for check, text in ((valid_eps, "-log(2)"), (valid_prob, "exp(1)"), (valid_prob, "1")):
        try:
            check(text)
        except InvalidParameter as e:
            assert text in str(e) and "outside" in str(e) or "negative" in str(e)
        else:
            raise AssertionError(f"{text} was accepted")
