"""The level of a k-fold composition of a finite table, through count vectors: the published number, the explicit
product table at small k, a large k on two outputs, seeded faults caught by the checks, and bad input."""
import json
import random
from itertools import product
from pathlib import Path

import pytest
import sympy as sp

from symbolic.core.ops import exact_sign
from symbolic.derive import composition as comp
from symbolic.derive.composition_checks import mp_check, product_check
from symbolic.derive.loss_counts import hockey_pair
from symbolic.derive.level import derive_level
from theorems.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
RR_HALF = json.loads((ROOT / "docs" / "examples" / "rr-half.json").read_text())


def _comp(of, k):
    return {"kind": "composition", "of": of, "times": k}


def test_five_fold_randomized_response_at_half_gives_the_published_delta():
    """5-fold ε = 1/2 randomized response: δ(ε′ = 1) = 0.184097926255053 (Kairouz–Oh–Viswanath's sum)."""
    d = derive_level("approx-dp", _comp(RR_HALF, 5), params={"eps": "1"})
    lo, hi = d.enclosure
    assert d.ok and hi - lo < sp.Rational(1, 10 ** 20)
    assert abs(lo - sp.Rational("0.184097926255053")) < sp.Rational(1, 10 ** 9)
    # the same sum written independently over the binomial: j runs of the output favouring d, j > (k + 2)/2
    s = sp.exp(sp.Rational(1, 2))
    p, q = s / (1 + s), 1 / (1 + s)
    ref = sum(sp.binomial(5, j) * (p ** j * q ** (5 - j) - sp.E * q ** j * p ** (5 - j)) for j in range(4, 6))
    assert exact_sign(d.value - ref) == 0


def test_pure_and_renyi_levels_of_the_five_fold_composition_are_five_times_one_run():
    assert derive_level("pure-dp", _comp(RR_HALF, 5)).value == sp.Rational(5, 2)
    r = derive_level("renyi-dp", _comp(RR_HALF, 5), params={"alpha": "2"})
    s = sp.exp(sp.Rational(1, 2))
    one = sp.log((s / (1 + s)) ** 2 * (1 + s) + (1 / (1 + s)) ** 2 * (1 + s) / s)
    assert r.ok and exact_sign(r.value - 5 * one) == 0


def _random_table(rng):
    rows = {}
    for d in ("0", "1"):
        w = [rng.randint(0, 4) for _ in range(3)]
        w[rng.randrange(3)] += 1
        rows[d] = [str(sp.Rational(x, sum(w))) for x in w]
    return {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2], "rows": rows}


def _product_level(notion, table, k, E=1, alpha=2):
    """The level of the explicit product table, by enumeration in exact rationals (independent of the engine)."""
    rows = {d: [sp.Rational(x) for x in r] for d, r in table["rows"].items()}
    best = sp.Integer(0) if notion != "pure-dp" else None
    for d, e in (("0", "1"), ("1", "0")):
        p, q = rows[d], rows[e]
        tot, ratio = sp.Integer(0), sp.Integer(0)
        for t in product(range(3), repeat=k):
            P, Q = sp.Mul(*(p[i] for i in t)), sp.Mul(*(q[i] for i in t))
            if notion in ("approx-dp", "total-variation"):
                tot += max(0, P - E * Q)
            elif P > 0 and Q == 0:
                return sp.oo
            elif P > 0:
                ratio = max(ratio, P / Q)
                tot += P ** alpha * Q ** (1 - alpha)
        val = {"pure-dp": ratio, "renyi-dp": tot}.get(notion, tot)
        best = val if best is None else max(best, val)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_k_fold_equals_the_explicit_product_table_on_random_rational_tables(seed):
    rng = random.Random(seed)
    table, k = _random_table(rng), rng.randint(1, 4)
    doc = _comp(table, k)
    delta = derive_level("approx-dp", doc, params={"E": "3/2"})
    assert delta.ok and delta.value == _product_level("approx-dp", table, k, E=sp.Rational(3, 2))
    tv = derive_level("tv", doc)
    assert tv.ok and tv.value == _product_level("total-variation", table, k)
    for notion, params in (("pure-dp", {}), ("renyi-dp", {"alpha": "2"})):
        d, ref = derive_level(notion, doc, params=params), _product_level(notion, table, k)
        if ref == sp.oo:
            assert d.infinite and d.ok
        else:   # ε = log(ratio) (pure) and log(Σ P²/Q) (Rényi at 2)
            assert d.ok and sp.exp(d.value) == ref


def test_a_large_k_on_two_outputs_is_a_sum_over_k_plus_one_count_vectors():
    rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    A, B, hits, total = hockey_pair([sp.Rational(3, 4), sp.Rational(1, 4)],
                                         [sp.Rational(1, 4), sp.Rational(3, 4)], 200, sp.Integer(3))
    assert total == 201 and 0 < hits < total
    d = derive_level("approx-dp", _comp(rr, 200), params={"E": "3"})
    assert d.ok and d.value == A - 3 * B and 0 < d.value < 1
    assert derive_level("pure-dp", _comp(rr, 200)).value == 200 * sp.log(3)


def test_rr_half_five_fold_from_the_cli_reads_the_table_next_to_the_file(capsys):
    f = str(ROOT / "docs" / "examples" / "rr-half-5fold.json")
    assert main(["derive", "level", "approx-dp", "--mechanism", f, "--param", "eps=1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("approx-dp: delta = 0.184097926255053")


def test_seeded_faults_are_caught_by_the_checks():
    """A δ with one direction's loss dropped, or a count vector left out, fails both cross-checks."""
    p, q = [sp.Rational(3, 5), sp.Rational(1, 5), sp.Rational(1, 5)], [sp.Rational(1, 5), sp.Rational(1, 5), sp.Rational(3, 5)]
    rows, k, own = {(0,): p, (1,): q}, 3, {"E": sp.Integer(2)}
    blocks_of = lambda d, e: [(rows[d], rows[e], k)]
    right = [(d, e, comp._pair_level("approx-dp", own, blocks_of(d, e))) for d, e in (((0,), (1,)), ((1,), (0,)))]
    assert product_check("approx-dp", own, blocks_of, right)[1] and mp_check("approx-dp", own, blocks_of, right)[1]
    A, B, _, _ = hockey_pair(p, q, k, 2)
    top = p[0] ** 3 - 2 * q[0] ** 3   # the all-first-output vector's term, left out
    wrong = A - 2 * B - top
    bad = [(right[0][0], right[0][1], (wrong, (wrong, wrong), "")), right[1]]
    assert not product_check("approx-dp", own, blocks_of, bad)[1]
    assert not mp_check("approx-dp", own, blocks_of, bad)[1]


def test_a_large_output_set_is_refused_in_one_line():
    table = {"n": 1, "domain": [0, 1], "outputs": list(range(6)),
             "rows": {"0": ["1/21", "2/21", "3/21", "4/21", "5/21", "6/21"],
                      "1": ["6/21", "5/21", "4/21", "3/21", "2/21", "1/21"]}}
    with pytest.raises(Exception, match="count vectors"):
        derive_level("tv", _comp(table, 1000))


@pytest.mark.parametrize("doc, field", [
    ({"kind": "composition", "times": 2}, '"of"'),
    ({"kind": "composition", "of": "rr-half.json"}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": 0}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": -1}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": 0.5}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": "x"}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": 10 ** 9}, '"times"'),
    ({"kind": "composition", "of": "rr-half.json", "times": True}, '"times"'),
    ({"kind": "composition", "of": {"kind": "density", "density": {}}, "times": 2}, '"of"'),
    ({"kind": "composition", "of": {"kind": "composition", "of": {}, "times": 2}, "times": 2}, '"of"'),
    ({"kind": "composition", "of": "missing.json", "times": 2}, "missing.json"),
    ({"kind": "subsampled", "of": "rr-half.json", "rate": "1/2"}, "subsampled"),
])
def test_bad_composition_files_exit_2_with_one_line_naming_the_field(doc, field, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)   # short paths: an error line clips a long one
    (tmp_path / "rr-half.json").write_text(json.dumps(RR_HALF))
    (tmp_path / "c.json").write_text(json.dumps(doc))
    assert main(["derive", "level", "approx-dp", "--mechanism", "c.json", "--param", "eps=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("dpcheck: error:") and field in err


@pytest.mark.parametrize("args, words", [
    (["lip"], "not yet derived"),
    (["approx-dp"], "exactly one of eps"),
    (["renyi-dp", "--param", "alpha=1"], "1 < α"),
    (["approx-dp", "--param", "eps=-1"], "ε ≥ 0"),
])
def test_bad_notions_and_parameters_exit_2(args, words, capsys):
    f = str(ROOT / "docs" / "examples" / "rr-half-5fold.json")
    assert main(["derive", "level", *args, "--mechanism", f]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err


def test_count_vectors_at_a_tie_with_e_prime_are_left_out_exactly():
    """Ratios 3 and 1/2 meet E′ = 3/2 at one of each: P(c) = E′Q(c) there, decided exactly (no float)."""
    table = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2],
             "rows": {"0": ["3/8", "1/8", "1/2"], "1": ["1/8", "1/4", "5/8"]}}
    for k in (2, 3):
        d = derive_level("approx-dp", _comp(table, k), params={"E": "3/2"})
        assert d.ok and d.value == _product_level("approx-dp", table, k, E=sp.Rational(3, 2))


def test_a_renyi_level_not_multiplied_by_k_fails_both_checks():
    p, q = [sp.Rational(3, 4), sp.Rational(1, 4)], [sp.Rational(1, 4), sp.Rational(3, 4)]
    rows, k, own = {(0,): p, (1,): q}, 3, {"alpha": sp.Integer(2)}
    one = sp.log(sp.Rational(9, 4) + sp.Rational(1, 12))   # D_2 of one run: Σ p²/q = 9/4 + 1/12
    for value, ok in ((k * one, True), ((k - 1) * one, False)):
        enc = (value.evalf(50) - sp.Rational(1, 10 ** 40), value.evalf(50) + sp.Rational(1, 10 ** 40))
        enc = tuple(sp.Rational(str(x)) for x in enc)
        res = [((0,), (1,), (value, enc, "")), ((1,), (0,), (value, enc, ""))]
        blocks_of = lambda d, e: [(rows[d], rows[e], k)]
        assert product_check("renyi-dp", own, blocks_of, res)[1] is ok
        assert mp_check("renyi-dp", own, blocks_of, res)[1] is ok


@pytest.mark.parametrize("command", [["eval", "PureDP", "--param", "E=3"], ["derive", "level", "lip", "--param", "E=3"]])
def test_a_command_that_takes_a_table_says_where_a_composition_goes(command, capsys):
    comp_file = str(ROOT / "docs" / "examples" / "rr-half-5fold.json")
    assert main([*command, "--mechanism", comp_file]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ("read by `derive level`" in err[0] or "of a composition" in err[0]), err


def _brute(tables, notion, E=None, alpha=None):
    """The level of the composition of ``tables`` (one run each) by enumerating every output tuple."""
    rows = [{int(k): [sp.Rational(x) for x in r] for k, r in t["rows"].items()} for t in tables]
    best = None
    for d, e in ((0, 1), (1, 0)):
        total = sp.Integer(0)
        ratio = None
        for outs in product(*(range(len(r[0])) for r in rows)):
            P = sp.Mul(*(r[d][o] for r, o in zip(rows, outs)))
            Q = sp.Mul(*(r[e][o] for r, o in zip(rows, outs)))
            if notion == "approx-dp":
                total += max(P - E * Q, 0)
            elif notion == "renyi-dp":
                total += P ** alpha * Q ** (1 - alpha)
            else:
                ratio = P / Q if ratio is None else max(ratio, P / Q)
        v = {"approx-dp": total, "renyi-dp": sp.log(total) / (alpha - 1) if notion == "renyi-dp" else None,
             "pure-dp": sp.log(ratio) if ratio is not None else None}[notion]
        best = v if best is None or exact_sign(v - best) > 0 else best
    return best


def test_a_list_of_different_tables_equals_the_enumerated_product():
    a = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    b = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2],
         "rows": {"0": ["1/2", "1/3", "1/6"], "1": ["1/6", "1/3", "1/2"]}}
    doc = {"kind": "composition", "of": [a, b, a]}
    d = derive_level("approx-dp", doc, params={"E": "2"})
    assert d.ok and d.value == _brute([a, b, a], "approx-dp", E=2)
    r = derive_level("renyi-dp", doc, params={"alpha": "3"})
    assert r.ok and exact_sign(r.value - _brute([a, b, a], "renyi-dp", alpha=3)) == 0
    e = derive_level("pure-dp", doc)
    assert e.ok and exact_sign(e.value - (2 * sp.log(3) + sp.log(3))) == 0
    assert "table 1 × 2, table 2 × 1" in d.steps[0]   # equal tables merged into one block


def test_a_list_over_different_domains_is_refused_naming_the_entry(tmp_path, capsys):
    a = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    c = {"n": 1, "domain": [0, 1, 2], "outputs": [0, 1],
         "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"], "2": ["1/2", "1/2"]}}
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "l.json").write_text(json.dumps({"kind": "composition", "of": ["a.json", c]}))
    assert main(["derive", "level", "pure-dp", "--mechanism", str(tmp_path / "l.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "entry 2" in err


def test_a_symbolic_number_of_runs_gives_formulas_in_k_for_the_levels_linear_in_k():
    rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    doc = {"kind": "composition", "of": rr, "times": "k", "params": {"k": "k>=1"}}
    k = sp.Symbol("k", positive=True)
    eps = derive_level("pure-dp", doc)
    assert eps.ok and eps.value is None and sp.simplify(eps.formula - k * sp.log(3)) == 0
    r2 = derive_level("renyi-dp", doc, params={"alpha": "2"})
    assert r2.ok and sp.simplify(r2.formula - k * sp.log(sp.Rational(7, 3))) == 0   # Σ p²/q = 9/4 + 1/12
    at = derive_level("approx-dp", doc, params={"eps": "1", "k": "5"})
    assert at.ok and at.value == derive_level("approx-dp", _comp(rr, 5), params={"eps": "1"}).value
    summed = derive_level("approx-dp", doc, params={"eps": "1"})    # two likelihood ratios: a binomial sum in k
    assert summed.ok and sp.N(summed.formula.subs(summed.formula.free_symbols.pop(), 5).doit() - at.value, 30) == 0


@pytest.mark.parametrize("doc, args, field", [
    ({"kind": "composition", "of": "rr-half.json", "times": "k"}, [], '"params"'),
    ({"kind": "composition", "of": "rr-half.json", "times": "k", "params": {"k": "k>=0"}}, [], "at least 1"),
    ({"kind": "composition", "of": "rr-half.json", "times": "k", "params": {"k": "k>=1"}}, ["--param", "k=1/2"],
     "positive integer"),
    ({"kind": "composition", "of": "rr-half.json", "times": "k", "params": {"k": "k>=1"}}, ["--param", "k=0"],
     "positive integer"),
])
def test_bad_symbolic_runs_exit_2_naming_the_field(doc, args, field, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rr-half.json").write_text(json.dumps(RR_HALF))
    (tmp_path / "c.json").write_text(json.dumps(doc))
    assert main(["derive", "level", "pure-dp", "--mechanism", "c.json", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err, err


def test_zcdp_of_runs_of_tables_adds_and_holds_the_closed_form():
    """k runs of ε-randomized response are k·ε·tanh(ε/2)-zCDP (its ρ is the KL limit; Bun, Steinke 2016)."""
    import json
    from pathlib import Path
    from symbolic.derive.level import derive_level
    ex = Path(__file__).resolve().parents[3] / "docs" / "examples"
    rr_one, rr_half = (json.loads((ex / f).read_text()) for f in ("rr-one.json", "rr-half.json"))
    three = derive_level("zcdp", {"kind": "composition", "of": rr_one, "times": 3})
    both = derive_level("zcdp", {"kind": "composition", "of": [rr_one, rr_half]})
    want3 = 3 * sp.tanh(sp.Rational(1, 2))
    want2 = sp.tanh(sp.Rational(1, 2)) + sp.tanh(sp.Rational(1, 4)) / 2
    for d, want in ((three, want3), (both, want2)):
        lo, hi = d.enclosure
        assert d.ok and lo <= sp.Rational(str(sp.N(want, 40))) + sp.Rational(1, 10 ** 30) and \
            sp.Rational(str(sp.N(want, 40))) - sp.Rational(1, 10 ** 30) <= hi and hi - lo < sp.Rational(1, 10 ** 9)
