"""Tight levels of user mechanisms (symbolic.derive.level): each expected formula below is derived by hand in
the comments and compared with the engine's at exact points and symbolically, never taken from the code."""
import pytest
import sympy as sp

from symbolic.core.errors import DPCheckError, InvalidDistribution, InvalidParameter, InvalidSize, UnknownName
from symbolic.core.ops import exact_sign
from symbolic.derive import level as level_module
from symbolic.model import example_tables
from symbolic.model.example_tables import randomized_response_doc
from symbolic.derive.level import derive_level
from symbolic.derive.level_render import level_json, level_text
from symbolic.derive.piecewise_max import MaxResult, Piece
from symbolic.model.mechanism import Mechanism
from symbolic.model.symbolic_table import symbolic_mechanism_from_json

R = sp.Rational


def rr_doc(k, rng="0<p<1"):
    """k-ary randomized response: keep with probability p, each other value with (1-p)/(k-1)."""
    return randomized_response_doc(k, rng)


def agrees(d, expected, points, *, ratio=False):
    """The derived formula (or level ratio) equals ``expected`` (a function of the parameter values) at the
    exact points; the table's symbols are looked up by name."""
    syms = d.mechanism.symbols
    got = d.level_ratio if ratio else d.formula
    for pt in points:
        at = {syms[k]: v for k, v in pt.items()}
        value = got.xreplace(at)
        assert exact_sign(value - expected(**pt)) == 0, (pt, value, expected(**pt))
    return True


# ---------------------------------------------------------------- randomized response
def test_binary_rr_pure_dp():
    # keep p > 1/2: the largest ratio is P(0|0)/P(0|1) = p/(1-p), so ε = log(p/(1-p)).
    d = derive_level("pure-dp", rr_doc(2, "1/2<p<1"))
    assert d.ok and d.proved and not d.infinite
    p = d.mechanism.symbols["p"]
    assert sp.simplify(d.level_ratio - p / (1 - p)) == 0
    agrees(d, lambda p: sp.log(p / (1 - p)), [{"p": R(3, 4)}, {"p": R(9, 10)}, {"p": R(501, 1000)}])
    assert {("pair", ((0,), (1,))), ("output", 0)} <= set(d.pieces[0][2][0])


def test_three_ary_rr_is_piecewise_in_the_keep_probability():
    # k = 3: entries p and (1-p)/2. The ratios are 2p/(1-p), its inverse (1-p)/(2p), and 1. 2p/(1-p) ≥ 1 iff
    # p ≥ 1/3, so ε = log(2p/(1-p)) for p ≥ 1/3 and log((1-p)/(2p)) below: the maximiser changes at 1/3.
    d = derive_level("pure-dp", rr_doc(3))
    assert d.ok and d.proved and isinstance(d.formula, sp.Piecewise)
    assert len(d.pieces) == 2 and "1/3" in d.pieces[0][0] and "1/3" in d.pieces[1][0]
    expected = lambda p: sp.log(2 * p / (1 - p)) if p >= R(1, 3) else sp.log((1 - p) / (2 * p))
    agrees(d, expected, [{"p": R(1, 10)}, {"p": R(1, 4)}, {"p": R(1, 3)}, {"p": R(1, 2)}, {"p": R(19, 20)}])
    # below 1/3 the maximiser is an off-diagonal output, above it the kept value
    low, high = dict(d.pieces[0][2][0]), dict(d.pieces[1][2][0])
    assert low["output"] != low["pair"][0][0] and high["output"] == high["pair"][0][0]


def test_three_ary_rr_narrowed_range_gives_one_piece():
    d = derive_level("pure-dp", rr_doc(3, "1/3<p<1"))
    p = d.mechanism.symbols["p"]
    assert d.ok and len(d.pieces) == 1 and sp.simplify(d.level_ratio - 2 * p / (1 - p)) == 0


def test_local_dp_equals_pure_dp_at_one_record_and_refuses_more():
    doc = rr_doc(3, "1/3<p<1")
    assert derive_level("local-dp", doc).formula == derive_level("pure-dp", doc).formula
    two = {"n": 2, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
           "rows": {"0,0": ["p", "1-p"], "0,1": ["p", "1-p"], "1,0": ["p", "1-p"], "1,1": ["p", "1-p"]}}
    with pytest.raises(InvalidSize, match="local-dp"):
        derive_level("local-dp", two)


def test_rr_renyi_orders_two_and_three():
    # binary RR, p > 1/2: Σ_o P(o|0)^α P(o|1)^(1-α) = p^α (1-p)^(1-α) + (1-p)^α p^(1-α), the same for both
    # orders of the pair. α = 2: p²/(1-p) + (1-p)²/p, ε = log of it; α = 3: ε = ½ log(p³/(1-p)² + (1-p)³/p²).
    d2, d3 = derive_level("renyi-2", rr_doc(2, "1/2<p<1")), derive_level("renyi-dp", rr_doc(2, "1/2<p<1"),
                                                                         params={"alpha": 3})
    pts = [{"p": R(3, 5)}, {"p": R(7, 8)}]
    assert d2.ok and d3.ok
    agrees(d2, lambda p: sp.log(p ** 2 / (1 - p) + (1 - p) ** 2 / p), pts)
    agrees(d3, lambda p: sp.log(p ** 3 / (1 - p) ** 2 + (1 - p) ** 3 / p ** 2) / 2, pts)
    agrees(d2, lambda p: p ** 2 / (1 - p) + (1 - p) ** 2 / p, pts, ratio=True)


def test_three_ary_rr_renyi_two():
    # pair (0, 1): p²/((1-p)/2) + ((1-p)/2)²/p + ((1-p)/2)²/((1-p)/2) = 2p²/(1-p) + (1-p)²/(4p) + (1-p)/2;
    # every pair of inputs gives the same sum by symmetry.
    d = derive_level("renyi-2", rr_doc(3))
    assert d.ok
    agrees(d, lambda p: sp.log(2 * p ** 2 / (1 - p) + (1 - p) ** 2 / (4 * p) + (1 - p) / 2),
           [{"p": R(1, 5)}, {"p": R(1, 3)}, {"p": R(4, 5)}])


def test_rr_total_variation():
    # binary: ½(|p-(1-p)| + |(1-p)-p|) = 2p - 1 for p > 1/2. Three-ary: ½(|p - (1-p)/2|·2 + 0) = |3p - 1|/2.
    d = derive_level("total-variation", rr_doc(2, "1/2<p<1"))
    p = d.mechanism.symbols["p"]
    assert d.ok and sp.simplify(d.formula - (2 * p - 1)) == 0
    d3 = derive_level("tv", rr_doc(3))
    assert d3.ok and len(d3.pieces) == 2
    agrees(d3, lambda p: abs(3 * p - 1) / 2, [{"p": R(1, 7)}, {"p": R(1, 3)}, {"p": R(2, 3)}])


def test_rr_approx_dp_delta_at_log_two():
    # δ(ε) = Σ_o max(0, P(o|0) - e^ε P(o|1)); at e^ε = 2: max(0, p - 2(1-p)) + max(0, (1-p) - 2p), and for
    # p > 1/2 the second is 0: δ = 3p - 2 for p ≥ 2/3, else 0.
    d = derive_level("approx-dp", rr_doc(2, "1/2<p<1"), params={"eps": "log(2)"})
    assert d.ok and isinstance(d.formula, sp.Piecewise)
    agrees(d, lambda p: max(3 * p - 2, 0), [{"p": R(3, 5)}, {"p": R(2, 3)}, {"p": R(4, 5)}])
    assert derive_level("approx-dp", rr_doc(2, "1/2<p<1"), params={"E": 2}).formula == d.formula


def test_rr_bounded_range():
    # binary, p > 1/2: the loss is log(p/(1-p)) at o = 0 and -log(p/(1-p)) at o = 1: range 2 log(p/(1-p)).
    d = derive_level("bounded-range", rr_doc(2, "1/2<p<1"))
    assert d.ok
    agrees(d, lambda p: 2 * sp.log(p / (1 - p)), [{"p": R(3, 5)}, {"p": R(9, 10)}])


def test_rr_pml_and_maximal_leakage():
    # prior (1/3, 2/3): P_Y(0) = (2-p)/3, P_Y(1) = (1+p)/3; the ratios P(0|0)/P_Y(0) = 3p/(2-p) and
    # P(1|1)/P_Y(1) = 3p/(1+p); for p > 1/2, 2 - p < 1 + p, so ε = log(3p/(2-p)).
    d = derive_level("pml", rr_doc(2, "1/2<p<1"), prior={"0": "1/3", "1": "2/3"})
    assert d.ok
    agrees(d, lambda p: sp.log(3 * p / (2 - p)), [{"p": R(3, 5)}, {"p": R(19, 20)}])
    # maximal leakage: Σ_y max_x P(y|x) = p + p = 2p
    m = derive_level("maximal-leakage", rr_doc(2, "1/2<p<1"))
    assert m.ok
    agrees(m, lambda p: sp.log(2 * p), [{"p": R(3, 5)}, {"p": R(19, 20)}])
    with pytest.raises(InvalidParameter, match="prior"):
        derive_level("pml", rr_doc(2, "1/2<p<1"))


# ---------------------------------------------------------------- truncated geometric, exponential mechanism
def truncated_geometric_doc(n):
    """Pr[o | c] = α^|o-c|/(1+α) at o ∈ {0, n}, (1-α)/(1+α)·α^|o-c| inside, c the count of d ∈ {0,1}^n."""
    return example_tables.truncated_geometric_doc(n)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_truncated_geometric_with_symbolic_alpha(n):
    # neighbouring counts c, c+1: Pr[o|c]/Pr[o|c+1] = α^(|o-c| - |o-c-1|) ∈ {α, 1/α} (the boundary weights
    # cancel), so the tight ε is log(1/α).
    d = derive_level("pure-dp", truncated_geometric_doc(n))
    a = d.mechanism.symbols["a"]
    assert d.ok and d.proved and sp.simplify(d.level_ratio * a - 1) == 0


def exponential_mechanism(n, a):
    """Exponential mechanism for the count on {0,1}^n with utility -|o - c| (sensitivity 1) and weights
    exp(a·u/2): Pr[o | c] = exp(-a|o-c|/2) / Σ_o' exp(-a|o'-c|/2)."""
    import itertools
    table = {}
    for d in itertools.product((0, 1), repeat=n):
        c = sum(d)
        w = [sp.exp(-a * abs(o - c) / 2) for o in range(n + 1)]
        table[d] = [x / sp.Add(*w) for x in w]
    return Mechanism.from_table(table, n=n, domain=(0, 1), outputs=tuple(range(n + 1)))


def test_exponential_mechanism_one_record_is_half_the_parameter():
    # n = 1 is randomized response with keep probability 1/(1+e^(-a/2)): ε = a/2.
    a = sp.Symbol("a", positive=True)
    d = derive_level("pure-dp", exponential_mechanism(1, a), assumptions=["a>0"])
    assert d.ok and sp.simplify(d.formula - d.mechanism.symbols["a"] / 2) == 0


def test_exponential_mechanism_on_a_count():
    # n = 2: rows c=0: (1, w, w²)/Z0 and c=1: (w, 1, w)/Z1 with w = e^(-a/2), Z0 = 1+w+w², Z1 = 1+2w.
    # Ratios c=0 over c=1: (1/w)·Z1/Z0 at o=0 and w·Z1/Z0 elsewhere; the reverse: (1/w)·Z0/Z1 at o ∈ {1, 2}.
    # Z1 - Z0 = w - w² > 0, so the maximum is e^(a/2)·Z1/Z0 = e^(a/2)(1+2w)/(1+w+w²) (c=2 mirrors c=0).
    a = sp.Symbol("a", positive=True)
    d = derive_level("pure-dp", exponential_mechanism(2, a), assumptions=["a>0"])
    assert d.ok and d.proved
    w = lambda a: sp.exp(-a / 2)
    agrees(d, lambda a: sp.exp(a / 2) * (1 + 2 * w(a)) / (1 + w(a) + w(a) ** 2),
           [{"a": R(1, 3)}, {"a": R(1)}, {"a": R(7)}], ratio=True)
    assert dict(d.pieces[0][2][0])["output"] in (0, 2)


# ---------------------------------------------------------------- zeros, several parameters, numeric tables
def test_zero_entry_gives_infinity_said_plainly():
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1, 2], "params": {"p": "0<p<1"},
           "rows": {"0": ["p", "1-p", "0"], "1": ["1-p", "p/2", "p/2"]}}
    d = derive_level("pure-dp", doc)
    assert d.infinite and d.formula == sp.oo and d.ok
    assert "P(1, 2) = p/2 > 0 = P(0, 2)" in d.message
    j = level_json(d)
    assert j["infinite"] is True and j["formula"] == "oo" and j["attained_by"][0]["output"] == 2
    assert derive_level("renyi-2", doc).infinite and derive_level("bounded-range", doc).infinite
    # total variation and δ stay finite: here TV = max(|p - (1-p)| + |1-p - p/2| + p/2)/2 at the pair
    tv = derive_level("tv", doc)
    assert tv.ok and not tv.infinite


def test_two_parameters_keep_an_exact_max_when_the_order_changes():
    # row 0 = (p, 1-p), row 1 = (q, 1-q) with p > 1/2 > q: ratios p/q and (1-q)/(1-p); which is larger
    # depends on both, so the level is max(p/q, (1-q)/(1-p)).
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1", "q": "0<q<1/2"},
           "rows": {"0": ["p", "1-p"], "1": ["q", "1-q"]}}
    d = derive_level("pure-dp", doc)
    assert d.ok and not d.proved
    agrees(d, lambda p, q: max(p / q, (1 - q) / (1 - p)),
           [{"p": R(3, 5), "q": R(1, 10)}, {"p": R(19, 20), "q": R(2, 5)}], ratio=True)


def test_numeric_table_and_fixed_parameters():
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    assert derive_level("pure-dp", doc).formula == sp.log(3)
    assert derive_level("pure-dp", rr_doc(2, "1/2<p<1"), params={"p": "3/4"}).formula == sp.log(3)
    with pytest.raises(InvalidParameter, match="outside"):
        derive_level("pure-dp", rr_doc(2, "1/2<p<1"), params={"p": "1/4"})


# ---------------------------------------------------------------- checks, JSON, errors
def test_a_wrong_maximum_fails_the_checks(monkeypatch):
    real = level_module.maximise

    def doubled(units, ranges):
        res = real(units, ranges)
        return MaxResult(2 * res.expr, tuple(Piece(x.symbol, x.lower, x.upper, 2 * x.expr, x.labels, x.sample)
                                             for x in res.pieces), res.steps, res.proved)
    monkeypatch.setattr(level_module, "maximise", doubled)
    for nid in ("pure-dp", "tv", "renyi-2", "maximal-leakage"):
        assert not derive_level(nid, rr_doc(2, "1/2<p<1")).ok, nid


def test_json_has_the_contract_keys():
    j = level_json(derive_level("pure-dp", rr_doc(3)))
    assert {"formula", "latex", "assumptions", "attained_by", "proof", "sizes", "checks"} <= set(j)
    assert j["sizes"] == {"n": 1, "domain": 3, "outputs": 3} and j["assumptions"] == ["0 < p < 1"]
    assert j["proof"] and all(c["ok"] for c in j["checks"]) and len(j["maximisers"]) == 2
    import json
    json.dumps(j)
    assert "attained by" in level_text(derive_level("pure-dp", rr_doc(3)))


@pytest.mark.parametrize("doc, error, match", [
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
      "rows": {"0": ["p", "p"], "1": ["1/2", "1/2"]}}, InvalidDistribution, "sums to"),
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<2"},
      "rows": {"0": ["p", "1-p"], "1": ["1/2", "1/2"]}}, InvalidDistribution, "negative"),
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": None},
      "rows": {"0": ["p", "1-p"], "1": ["1/2", "1/2"]}}, InvalidParameter, "no range"),
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
      "rows": {"0": ["q", "1-q"], "1": ["1/2", "1/2"]}}, DPCheckError, "known: exp, log, p, sqrt"),
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
      "rows": {"0": [0.5, 0.5], "1": ["1/2", "1/2"]}}, DPCheckError, "float"),
    ({"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<q<1"},
      "rows": {"0": ["p", "1-p"], "1": ["1/2", "1/2"]}}, InvalidParameter, "about q"),
])
def test_tables_that_are_not_distributions_are_refused(doc, error, match):
    with pytest.raises(error, match=match):
        symbolic_mechanism_from_json(doc)


def test_caller_assumptions_declare_and_narrow_ranges():
    doc = {k: v for k, v in rr_doc(2).items() if k != "params"}
    assert symbolic_mechanism_from_json(doc, assumptions=["1/2<p<1"]).assumptions() == ("1/2 < p < 1",)
    narrowed = symbolic_mechanism_from_json(rr_doc(2), assumptions=["p>1/2"])
    assert narrowed.assumptions() == ("1/2 < p < 1",)
    with pytest.raises(InvalidParameter, match="does not declare"):
        symbolic_mechanism_from_json(rr_doc(2), assumptions=["0<q<1"])


def test_parameter_errors_name_the_valid_ones():
    with pytest.raises(UnknownName, match="renyi-2"):
        derive_level("renyi2", rr_doc(2))
    with pytest.raises(InvalidParameter, match="valid: p"):
        derive_level("pure-dp", rr_doc(2), params={"eps": 1})
    with pytest.raises(InvalidParameter, match="exactly one"):
        derive_level("approx-dp", rr_doc(2))
    with pytest.raises(InvalidParameter, match="integer order"):
        derive_level("renyi-dp", rr_doc(2), params={"alpha": "3/2"})


def test_priors_and_sizes_are_checked():
    with pytest.raises(InvalidDistribution, match="prior"):
        derive_level("pml", rr_doc(2, "1/2<p<1"), prior={"0": "1/3", "1": "1/3"})
    with pytest.raises(DPCheckError, match="outside the domain"):
        derive_level("pml", rr_doc(2, "1/2<p<1"), prior={"0": "1/3", "1": "1/3", "7": "1/3"})
    # a symbolic prior over the table's own parameter: P(1) = p
    d = derive_level("pml", rr_doc(2, "1/2<p<1"), prior={"0": "1-p", "1": "p"})
    assert d.ok
    big = {"n": 9, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
           "rows": {",".join(f"{(i >> k) & 1}" for k in range(9)): ["p", "1-p"] for i in range(512)}}
    with pytest.raises(InvalidSize, match="at most"):
        derive_level("pure-dp", big)
    with pytest.raises(InvalidParameter, match="fixed by the name"):
        derive_level("renyi-2", rr_doc(2), params={"alpha": 3})


def test_eulers_number_is_written_so_it_reads_back():
    # with eps = 1 the level contains e itself; sympy writes it "E", which here is the parameter e^ε
    doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "0<p<1"},
           "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    from symbolic.derive.level_render import level_json, level_text
    d = derive_level("approx-dp", doc, params={"eps": "1"})
    j = level_json(d)
    assert "exp(1)" in j["formula"] and "E" not in j["formula"].replace("exp", "")
    assert "exp(1)" in level_text(d)


def test_the_renyi_order_is_required_and_the_help_says_so(tmp_path, capsys):
    """The help read "renyi-dp (--param alpha=2)", as if α = 2 were the default, while leaving it out is an
    error: the help now says the order is needed, and the error says there is no default."""
    import json
    from theorems.cli.main import main
    assert main(["derive", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "renyi-dp (needs --param alpha=K" in text and "(--param alpha=2)" not in text
    f = tmp_path / "rr.json"
    f.write_text(json.dumps(randomized_response_doc(2)))
    assert main(["derive", "level", "renyi-dp", "--mechanism", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "there is no default" in err
    assert main(["derive", "level", "renyi-dp", "--mechanism", str(f), "--param", "alpha=2"]) == 0
