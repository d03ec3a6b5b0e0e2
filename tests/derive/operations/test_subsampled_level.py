"""The level of a subsampled finite table: the published amplification number, formulas in q from the table
engine, brute-force recomputation over the neighbouring pairs in exact fractions, subsample-then-compose, and
bad input."""
import json
from fractions import Fraction
from itertools import combinations, product
from math import comb
from pathlib import Path

import pytest
import sympy as sp

from symbolic.core.ops import exact_sign
from symbolic.derive.level import derive_level
from theorems.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"
RR1 = json.loads((EXAMPLES / "rr-one.json").read_text())
THREE = {"n": 1, "domain": [0, 1, 2], "outputs": [0, 1, 2],
         "rows": {"0": ["1/3", "1/3", "1/3"], "1": ["2/3", "1/6", "1/6"], "2": ["1/6", "1/6", "2/3"]}}


def _poisson(of, rate, **more):
    return {"kind": "subsampled", "of": of, "sampling": "poisson", "rate": rate, **more}


def _rows(table):
    return {int(k): [Fraction(v) for v in row] for k, row in table["rows"].items()}


def _poisson_pairs(table, q, absent=0):
    """The add/remove pairs of the Poisson-subsampled table, built here from the definition."""
    rows = _rows(table)
    out = []
    for x, row in rows.items():
        if x != absent:
            mix = [(1 - q) * a + q * b for a, b in zip(rows[absent], row)]
            out += [(rows[absent], mix), (mix, rows[absent])]
    return out


def _hockey(pairs, E):
    return max(sum(max(a - E * b, 0) for a, b in zip(p, r)) for p, r in pairs)


def test_poisson_subsampling_of_one_dp_at_a_tenth_gives_the_published_epsilon():
    """q = 1/10 of ε = 1 randomized response: ε′ = log(1 + (e − 1)/10) = 0.158565078740429, exactly."""
    d = derive_level("pure-dp", _poisson(RR1, "1/10"))
    assert d.ok and d.proved
    assert exact_sign(d.formula - sp.log(1 + (sp.E - 1) / 10)) == 0
    assert abs(float(d.formula) - 0.158565078740429) < 1e-12
    assert d.operation and "Poisson sampling at rate q = 1/10" in d.operation[0]


def test_the_rate_left_symbolic_gives_formulas_in_q():
    d = derive_level("pure-dp", _poisson(RR1, "q", params={"q": "0<q<1"}))
    q = sp.Symbol("q", positive=True)
    assert d.proved and exact_sign(sp.simplify(d.formula - sp.log(1 + q * (sp.E - 1)))) == 0


@pytest.mark.slow
def test_total_variation_of_subsampled_randomized_response_is_q_tanh():
    q = sp.Symbol("q", positive=True)
    rr_eps = {**RR1, "params": {"eps": "eps>0"},
              "rows": {"0": ["exp(eps)/(1+exp(eps))", "1/(1+exp(eps))"], "1": ["1/(1+exp(eps))", "exp(eps)/(1+exp(eps))"]}}
    tv = derive_level("approx-dp", _poisson(rr_eps, "q", params={"q": "0<q<1"}), params={"E": "1"})
    eps = sp.Symbol("eps", positive=True)
    assert tv.ok and sp.simplify((tv.formula - q * sp.tanh(eps / 2)).rewrite(sp.exp)) == 0


@pytest.mark.parametrize("absent", [0, 1, 2])
def test_poisson_levels_equal_a_brute_force_over_the_add_remove_pairs(absent):
    q = Fraction(1, 4)
    pairs = _poisson_pairs(THREE, q, absent)
    doc = _poisson(THREE, "1/4", absent=absent)
    eps = derive_level("pure-dp", doc)
    assert eps.ok and exact_sign(eps.formula - sp.log(max(a / b for p, r in pairs for a, b in zip(p, r)))) == 0
    for E in (Fraction(1), Fraction(6, 5)):
        delta = derive_level("approx-dp", doc, params={"E": str(E)})
        assert delta.ok and delta.formula == _hockey(pairs, E)
    renyi = derive_level("renyi-2", doc)
    best = max(sum(a * a / b for a, b in zip(p, r)) for p, r in pairs)
    assert renyi.ok and exact_sign(renyi.formula - sp.log(sp.Rational(best.numerator, best.denominator))) == 0


def test_sampling_without_replacement_averages_over_the_subsets():
    """m = 1 of N = 3 from a rational table: each row the mean of the records' rows; replace-one pairs."""
    base = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    rows = _rows(base)
    table = {d: [sum(rows[d[i]][o] for i in range(3)) / 3 for o in range(2)] for d in product((0, 1), repeat=3)}
    neighbours = [(d, e) for d in table for e in table if sum(a != b for a, b in zip(d, e)) == 1]
    want = max(table[d][o] / table[e][o] for d, e in neighbours for o in range(2))
    doc = {"kind": "subsampled", "of": base, "sampling": "without-replacement", "rate": "1/3", "size": 3}
    d = derive_level("pure-dp", doc)
    assert d.ok and d.level_ratio == sp.Rational(want.numerator, want.denominator)
    # the amplification bound of sampling without replacement, log(1 + (m/N)(e^ε − 1)), holds and is attained
    assert exact_sign(d.formula - sp.log(1 + (sp.Integer(3) - 1) / 3)) == 0
    two = {"n": 2, "domain": [0, 1], "outputs": [0, 1], "rows": {
        "0,0": ["3/4", "1/4"], "0,1": ["1/2", "1/2"], "1,0": ["1/2", "1/2"], "1,1": ["1/4", "3/4"]}}
    rows2 = {tuple(int(v) for v in k.split(",")): [Fraction(x) for x in r] for k, r in two["rows"].items()}
    table = {d: [sum(rows2[tuple(d[i] for i in s)][o] for s in combinations(range(3), 2)) / comb(3, 2)
                 for o in range(2)] for d in product((0, 1), repeat=3)}
    want = max(table[d][o] / table[e][o] for d in table for e in table if sum(a != b for a, b in zip(d, e)) == 1
               for o in range(2))
    d2 = derive_level("pure-dp", {"kind": "subsampled", "of": two, "sampling": "without-replacement",
                                  "rate": "2/3", "size": 3})
    assert d2.ok and d2.level_ratio == sp.Rational(want.numerator, want.denominator)


def test_subsample_then_compose_equals_the_explicit_product_of_the_subsampled_rows():
    q, k = Fraction(1, 4), 3
    pairs = _poisson_pairs(THREE, q)
    comp = {"kind": "composition", "of": _poisson(THREE, "1/4"), "times": k}
    E = Fraction(3, 2)
    want = Fraction(0)
    for p, r in pairs:
        total = Fraction(0)
        for outs in product(range(3), repeat=k):
            a = b = Fraction(1)
            for o in outs:
                a, b = a * p[o], b * r[o]
            total += max(a - E * b, 0)
        want = max(want, total)
    d = derive_level("approx-dp", comp, params={"E": "3/2"})
    assert d.ok and d.value == sp.Rational(want.numerator, want.denominator)
    eps = derive_level("pure-dp", comp)
    one = max(a / b for p, r in pairs for a, b in zip(p, r))
    assert exact_sign(eps.value - k * sp.log(sp.Rational(one.numerator, one.denominator))) == 0


def test_nested_files_are_read_relative_to_the_file_that_names_them(tmp_path, capsys):
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "rr.json").write_text(json.dumps(RR1))
    (tmp_path / "inner" / "sub.json").write_text(json.dumps(_poisson("rr.json", "1/10")))
    (tmp_path / "ten.json").write_text(json.dumps({"kind": "composition", "of": "inner/sub.json", "times": 10}))
    assert main(["derive", "level", "pure-dp", "--mechanism", str(tmp_path / "ten.json"), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert abs(float(sp.Rational(got["enclosure"]["lower"])) - 1.58565078740429) < 1e-12


@pytest.mark.parametrize("doc, field", [
    (_poisson("rr.json", "0"), '"rate"'),
    (_poisson("rr.json", "1"), '"rate"'),
    (_poisson("rr.json", "3/2"), '"rate"'),
    (_poisson("rr.json", 0.1), '"rate"'),
    (_poisson("rr.json", "q"), '"rate"'),
    (_poisson("rr.json", "__import__('os')"), '"rate"'),
    ({"kind": "subsampled", "of": "rr.json", "rate": "1/2"}, '"sampling"'),
    (_poisson("rr.json", "1/2", size=3), '"size"'),
    (_poisson("rr.json", "1/2", absent=7), '"absent"'),
    (_poisson("rr.json", "1/2", seed=1), "seed"),
    (_poisson("two.json", "1/2"), '"of"'),
    (_poisson({"kind": "density", "density": {}}, "1/2"), '"of"'),
    (_poisson({"kind": "composition", "of": "rr.json", "times": 2}, "1/2"), '"of"'),
    ({"kind": "subsampled", "of": "rr.json", "sampling": "without-replacement", "rate": "1/2"}, '"size"'),
    ({"kind": "subsampled", "of": "rr.json", "sampling": "without-replacement", "rate": "1/2", "size": 3}, '"rate"'),
    ({"kind": "subsampled", "of": "rr.json", "sampling": "without-replacement", "rate": "2/3", "size": 3}, '"of"'),
    ({"kind": "subsampled", "of": "rr.json", "sampling": "without-replacement", "rate": "1/20", "size": 20},
     '"size"'),
])
def test_bad_subsampled_files_exit_2_with_one_line_naming_the_field(doc, field, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)   # short paths: an error line clips a long one
    (tmp_path / "rr.json").write_text(json.dumps(RR1))
    (tmp_path / "two.json").write_text(json.dumps({"n": 2, "domain": [0, 1], "outputs": [0], "rows": {
        "0,0": ["1"], "0,1": ["1"], "1,0": ["1"], "1,1": ["1"]}}))
    (tmp_path / "s.json").write_text(json.dumps(doc))
    assert main(["derive", "level", "pure-dp", "--mechanism", "s.json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("dpcheck: error:") and field in err, err
