"""Exact decision of a notion over every belief at fixed tables (symbolic.solve.queries.every_belief), the exact
maximum of a quadratic over a polytope it rests on, and the re-verification that uses it."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy as sp
from flint import fmpq

from symbolic import ApproxSemanticPrivacy, E, PureDP, SemanticPrivacy, Settings, Sizes, check_implies
from symbolic.core.exact import at_values
from symbolic.core.formula import FormulaOps
from symbolic.core.ops import ExactOps
from symbolic.core.quadratic import Polytope, affine_form, maximum, quadratic_form, simplex_bound, value_at, vertices
from symbolic.core.tables import MechTable, PopTable, databases
from symbolic.solve.queries.encode import eval_notion
from symbolic.solve.queries.every_belief import Decider, decide_every_belief, formula_dnf

R = sp.Rational
BIN = (0, 1)
FAST = Settings(second_solver=False)


def _table(n, rows):
    return MechTable(n, BIN, BIN, {d: (R(a), 1 - R(a)) for d, a in zip(databases(n, BIN), rows)})


def _holds(notion, A, belief):
    return eval_notion(ExactOps(), notion, {"A": A}, belief, {}, at_values)


def _beliefs(n, rng, count, top=5):
    dbs = databases(n, BIN)
    for _ in range(count):
        w = [rng.randint(0, top) for _ in dbs]
        if sum(w):
            yield PopTable(n, BIN, {d: R(x, sum(w)) for d, x in zip(dbs, w)})


# the mechanism of the K-2.2b finding: semantically private at level exactly 1/4 (attained at b(0) = 3/8)
TIGHT = _table(1, ["25/34", "9/34"])


def test_the_tight_level_holds_and_anything_below_it_fails_at_an_exact_belief():
    assert decide_every_belief(SemanticPrivacy(R(1, 4)), {"A": TIGHT}, {}, 1, BIN).status == "holds"
    below = decide_every_belief(SemanticPrivacy(R(249, 1000)), {"A": TIGHT}, {}, 1, BIN)
    assert below.status == "fails"
    assert not _holds(SemanticPrivacy(R(249, 1000)), TIGHT, below.belief)
    # the level is attained: at b(0) = 3/8 the statistical difference is exactly 1/4
    at = PopTable(1, BIN, {(0,): R(3, 8), (1,): R(5, 8)})
    assert _holds(SemanticPrivacy(R(1, 4)), TIGHT, at) and not _holds(SemanticPrivacy(R(1, 4) - R(1, 10**6)), TIGHT, at)


def test_approximate_semantic_privacy_with_an_if_over_bad_transcripts_is_decided():
    assert decide_every_belief(ApproxSemanticPrivacy(R(1, 4), R(1, 100)), {"A": TIGHT}, {}, 1, BIN).status == "holds"
    res = decide_every_belief(ApproxSemanticPrivacy(R(249, 1000), R(1, 100)), {"A": TIGHT}, {}, 1, BIN)
    assert res.status == "fails" and not _holds(ApproxSemanticPrivacy(R(249, 1000), R(1, 100)), TIGHT, res.belief)


@pytest.mark.parametrize("seed", range(4))
def test_at_two_records_holds_means_no_belief_violates_and_fails_is_confirmed(seed):
    rng = random.Random(seed)
    A = _table(2, [R(rng.randint(1, 9), 10) for _ in range(4)])
    seen = set()
    for level in (R(1, 5), R(1, 2), R(9, 10)):
        res = decide_every_belief(SemanticPrivacy(level), {"A": A}, {}, 2, BIN)
        seen.add(res.status)
        if res.status == "holds":
            assert all(_holds(SemanticPrivacy(level), A, b) for b in _beliefs(2, rng, 150))
        else:
            assert res.status == "fails" and not _holds(SemanticPrivacy(level), A, res.belief)
    assert seen <= {"holds", "fails"}


@pytest.mark.parametrize("notion, rows", [(ApproxSemanticPrivacy(R(1, 3), R(1, 10)), ["1/10", "1/2", "0", "9/10"]),
                                           (SemanticPrivacy(R(1, 20)), ["2/5", "1/2", "1/2", "3/5"])])
def test_the_normal_form_of_the_negation_is_exact_at_beliefs_with_zeros(notion, rows):
    rng = random.Random(7)
    A = _table(2, rows)
    dbs = databases(2, BIN)
    symbols = [sp.Dummy(f"b{j}") for j in range(4)]
    ops, decider = FormulaOps(), Decider(symbols)
    formula = eval_notion(ops, notion, {"A": A}, PopTable(2, BIN, dict(zip(dbs, symbols))), {}, at_values)
    conjs = formula_dnf(formula, ops, positive=False, keep=decider.possible)   # pruned as it is built
    forms = {c: decider.form(c) for conj in conjs for c in conj}
    assert all(kind != "other" for kind, _ in forms.values())
    checked = violated = 0
    for b in _beliefs(2, rng, 120, top=3):
        point = tuple(fmpq(int(b.p(d).p), int(b.p(d).q)) for d in dbs)
        some = any(all(_atom(forms[c], c.op, point) for c in conj) for conj in conjs)
        assert some == (not _holds(notion, A, b))
        checked, violated = checked + 1, violated + some
    assert checked > 100 and 0 < violated < checked


def _atom(form, op, point):
    kind, f = form
    v = value_at(f, point) if kind == "quadratic" else sum((a * x for a, x in zip(f[0], point)), f[1])
    return v > 0 if op == ">" else (v >= 0 if op == ">=" else v == 0)


def test_the_maximum_of_a_quadratic_over_a_polytope_is_exact():
    rng = random.Random(3)
    x = sp.symbols("x0:3")
    grid = [tuple(fmpq(i, 12) for i in p) for p in itertools.product(range(13), repeat=3) if sum(p) == 12]
    for _ in range(25):
        q = sum(R(rng.randint(-5, 5)) * a * b for a, b in itertools.combinations_with_replacement(x, 2)) \
            + sum(R(rng.randint(-3, 3)) * a for a in x)
        cut = affine_form(R(rng.randint(-2, 2)) * x[0] + R(rng.randint(-2, 2)) * x[1] + R(1, 3), x)
        P = Polytope(3, (), (cut,))
        form = quadratic_form(q, x)
        best = maximum(P, form)
        inside = [p for p in grid if P.contains(p)]
        if best is None:
            assert not inside and not vertices(P)
            continue
        value, point = best
        assert P.contains(point) and value_at(form, point) == value
        assert all(value_at(form, p) <= value for p in inside)


def test_the_bound_without_solving_is_never_below_the_maximum_and_tightens():
    rng = random.Random(11)
    x = sp.symbols("x0:4")
    whole = Polytope(4, (), ())
    tight = 0
    for _ in range(30):
        q = sum(R(rng.randint(-6, 4)) * a * b for a, b in itertools.combinations_with_replacement(x, 2)) \
            + R(rng.randint(-2, 2)) * x[0]
        form = quadratic_form(q, x)
        top = maximum(whole, form)[0]
        bounds = [simplex_bound(form, extra) for extra in (0, 1, 2, 4)]
        assert all(b >= top for b in bounds)
        assert all(later <= earlier for earlier, later in zip(bounds, bounds[1:]))
        tight += bounds[-1] < bounds[0]
    assert tight > 5


def test_a_conjunction_is_empty_only_when_it_is():
    b = sp.symbols("b0:2")
    ops = FormulaOps()
    # b0 > 0 and b0 ≤ 0: empty; b0·b1 > 1/4: empty (max 1/4); b0·b1 ≥ 1/4: the point (1/2, 1/2)
    assert Decider(b).decide([ops.lt(0, b[0]), ops.le(b[0], 0)]) == "empty"
    assert Decider(b).decide([ops.lt(R(1, 4), b[0] * b[1])]) == "empty"
    assert Decider(b).decide([ops.le(R(1, 4), b[0] * b[1])]) == (fmpq(1, 2), fmpq(1, 2))
    # a strict atom that vanishes on the whole polytope empties it
    assert Decider(b).decide([ops.eq(b[0], b[1]), ops.lt(b[1], b[0])]) == "empty"


def test_a_counterexample_over_every_belief_is_now_re_verified_exactly():
    Es = E.symbol
    res = check_implies(SemanticPrivacy((Es - 1) / 2), PureDP(Es ** 2), params=(E,), sizes=Sizes(1, 2, 2), settings=FAST)
    v = res.verdict
    assert v.name == "refuted" and v.verified_exactly
    cx = v.counterexample
    A, level = cx.mechanisms["A"], (cx.parameters["E"] - 1) / 2
    assert decide_every_belief(SemanticPrivacy(level), {"A": A}, {}, 1, BIN).status == "holds"
    assert not eval_notion(ExactOps(), PureDP(cx.parameters["E"] ** 2), {"A": A}, None, {}, at_values)


def test_what_cannot_be_read_stays_undecided():
    from symbolic.notions.base import Notion
    rooted = Notion("Rooted", (), lambda ops, A, P: ops.le(ops.sqrt(P.p((0,))), 1), population="all")
    res = decide_every_belief(rooted(), {"A": TIGHT}, {}, 1, BIN)
    assert res.status == "undecided" and "square root" in res.reason


def test_evaluating_a_notion_over_every_belief_on_a_table_is_exact():
    from symbolic.api import explain, randomized_response
    A = randomized_response(3)   # likelihood ratio 3: semantically private exactly at (√3 - 1)/(√3 + 1) ≈ 0.268
    assert explain(SemanticPrivacy, A, eps=R(27, 100)) == (True, None)
    holds, reason = explain(SemanticPrivacy, A, eps=R(26, 100))
    assert not holds and reason.startswith("fails for the belief")


def test_the_command_line_evaluates_semantic_privacy_exactly(tmp_path, capsys):
    import json
    from theorems.cli.main import main
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}))
    assert main(["eval", "SemanticPrivacy", "--mechanism", str(f), "--param", "eps=1/4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "fails" and "3/8" in doc["reason"]


def test_the_graph_samples_decide_a_notion_over_every_belief():
    from symbolic.graph.sampling import holds_exactly
    assert holds_exactly(SemanticPrivacy, TIGHT, None, {"eps": R(1, 4)}) is True
    assert holds_exactly(SemanticPrivacy, TIGHT, None, {"eps": R(1, 5)}) is False


def test_a_notion_argument_outside_its_range_is_no_counterexample():
    """SemanticPrivacy(s) ⇒ PureDP((1 + s)/(1 - s)): at s ≥ 1 the target's E is not ≥ 1, where ε-DP is not
    defined, so a table there re-verifies nothing; only a counterexample with s < 1 counts (and one exists:
    the tight map is ((1 + s)/(1 - s))²)."""
    from symbolic.api import Param
    from symbolic.solve.queries.verify import Assignment, argument_problems
    s = Param("s", lower=0)
    res = check_implies(SemanticPrivacy(s.symbol), PureDP((1 + s.symbol) / (1 - s.symbol)), params=(s,),
                        sizes=Sizes(1, 2, 2), settings=FAST)
    v = res.verdict   # the first candidate (s ≥ 1) is refused, and the search asks again inside the ranges
    assert v.name == "refuted" and v.verified_exactly and 0 <= v.counterexample.parameters["s"] < 1
    imp = res.claim.parts[0]
    assert argument_problems(imp, Assignment({}, {}, {"s": R(2)}))
    assert not argument_problems(imp, Assignment({}, {}, {"s": R(1, 2)}))
