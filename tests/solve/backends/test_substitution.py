"""The second solver's rewrite of a query with its linear equalities solved (symbolic.solve.backends.substitution).

A wrong rewrite would let cvc5 "confirm" a proof on a question other than the proof's, so the rewrite is
checked against the query it comes from by exact evaluation: at every point of the rewritten query's
unknowns, the rewritten query holds exactly when the query holds at that point extended by the solved
values; and the solved equalities hold there.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings, strategies as st

from symbolic.solve.backends import cvc5_backend
from symbolic.solve.backends.substitution import MAX_TERMS, substituted


def _evaluate(data: dict, point: dict, nodes=None) -> list:
    """The payload's roots (or its ``nodes``) at ``point`` (exact rationals): every node kind a payload has."""
    vals = []
    for op, args, sort, value in data["nodes"]:
        a = [vals[i] for i in args]
        if op == "const":
            vals.append(Fraction(point[value]))
        elif op == "num":
            p, q = str(value).split("/")
            vals.append(Fraction(int(p), int(q)))
        elif op == "+":
            vals.append(sum(a, Fraction(0)))
        elif op == "-":
            vals.append(-a[0] if len(a) == 1 else a[0] - sum(a[1:], Fraction(0)))
        elif op == "neg":
            vals.append(-a[0])
        elif op == "*":
            out = Fraction(1)
            for t in a:
                out *= t
            vals.append(out)
        elif op == "/":
            vals.append(a[0] / a[1])
        elif op in ("<=", "<", ">=", ">", "="):
            x, y = a
            vals.append({"<=": x <= y, "<": x < y, ">=": x >= y, ">": x > y, "=": x == y}[op])
        elif op == "distinct":
            vals.append(len(set(a)) == len(a))
        elif op == "and":
            vals.append(all(a))
        elif op == "or":
            vals.append(any(a))
        elif op == "not":
            vals.append(not a[0])
        elif op == "=>":
            vals.append((not a[0]) or a[1])
        elif op == "xor":
            vals.append(a[0] != a[1])
        elif op in ("true", "false"):
            vals.append(op == "true")
        elif op == "ite":
            vals.append(a[1] if a[0] else a[2])
        elif op == "to_real":
            vals.append(a[0])
        else:
            raise AssertionError(op)
    return [vals[r] for r in (data["roots"] if nodes is None else nodes)]


class _Build:
    def __init__(self):
        self.nodes = []

    def add(self, op, args=(), sort="Real", value=None) -> int:
        self.nodes.append([op, list(args), sort, value])
        return len(self.nodes) - 1

    def var(self, name):
        return self.add("const", value=name)

    def num(self, q: Fraction):
        return self.add("num", value=f"{q.numerator}/{q.denominator}")

    def payload(self, roots):
        return {"nodes": self.nodes, "roots": roots, "logic": "QF_NRA"}


NAMES = ["a", "b", "c", "d", "e"]
small = st.fractions(min_value=-3, max_value=3, max_denominator=4)


@st.composite
def queries(draw):
    """A random query: some linear equalities (a table's rows, weights), then comparisons of random sums of
    products and conditional terms, some under "or" and "not"."""
    b = _Build()
    xs = {n: b.var(n) for n in NAMES}
    roots = []
    for _ in range(draw(st.integers(1, 3))):                      # linear equalities
        names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
        terms = [b.add("*", [b.num(draw(small.filter(bool))), xs[n]]) for n in names]
        roots.append(b.add("=", [b.add("+", terms) if len(terms) > 1 else terms[0], b.num(draw(small))], "Bool"))

    def term():
        factors = [xs[n] for n in draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3))]
        if draw(st.booleans()):
            factors.append(b.add("-", [b.num(draw(small)), xs[draw(st.sampled_from(NAMES))]]))
        if draw(st.integers(0, 3)) == 0:   # max(x, y) or min(x, y) of two unknowns, as the hockey-stick terms
            x, y = (xs[n] for n in draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2)))
            factors.append(b.add("ite", [b.add(draw(st.sampled_from([">", "<="])), [x, y], "Bool"), x, y]))
        return b.add("*", factors) if len(factors) > 1 else factors[0]

    def atom():
        op = draw(st.sampled_from(["<=", "<", ">=", ">", "="]))
        return b.add(op, [b.add("+", [term(), term()]), b.add("/", [term(), b.num(draw(small.filter(bool)))])], "Bool")

    for _ in range(draw(st.integers(1, 4))):
        shape = draw(st.sampled_from(["atom", "or", "not"]))
        if shape == "atom":
            roots.append(atom())
        elif shape == "or":
            roots.append(b.add("or", [atom(), atom()], "Bool"))
        else:
            roots.append(b.add("not", [atom()], "Bool"))
    return b.payload(roots)


@settings(max_examples=300, deadline=None)
@given(queries(), st.lists(small, min_size=len(NAMES), max_size=len(NAMES)))
def test_the_rewritten_query_holds_exactly_where_the_query_holds_at_the_extended_point(query, values):
    s = substituted(query)
    if s is None:
        return
    left = {n for op, _, _, n in s.data["nodes"] if op == "const"}
    solved = [x for x, _ in s.solved]
    fresh = dict(s.fresh)
    assert not left & set(solved) and len(set(solved)) == len(solved)
    assert not set(fresh) & set(NAMES) and set(fresh) == {f"ite!{i}" for i, n in enumerate(query["nodes"]) if n[0] == "ite"}
    # a solved value that reads a conditional term's unknown: the point cannot be built in this order
    assume(not any(m and any(x in fresh for x, _ in m) for _, value in s.solved for m, _ in value))
    point = s.extend({n: v for n, v in zip(NAMES, values) if n not in solved})
    for u, node in fresh.items():    # each fresh unknown takes its conditional term's value at the point
        point[u], = _evaluate(query, point, [node])
    point = s.extend(point)
    assert all(_evaluate(s.data, point)) == all(_evaluate(query, point))


def _rows_query() -> dict:
    """Two rows of a 2-output table, each summing to one, and ``a·x > a·x`` over them (unsat) or
    ``a·x > b·y`` (sat)."""
    b = _Build()
    a, c, x, y = (b.var(n) for n in "acxy")
    one = b.num(Fraction(1))
    roots = [b.add("=", [b.add("+", [a, c]), one], "Bool"), b.add("=", [b.add("+", [x, y]), one], "Bool"),
             b.add(">=", [a, b.num(Fraction(0))], "Bool"), b.add(">=", [c, b.num(Fraction(0))], "Bool")]
    return b, roots, (a, c, x, y)


def test_cvc5_answers_the_rewritten_query_as_it_answers_the_query():
    b, roots, (a, c, x, y) = _rows_query()
    left = b.add("*", [a, b.add("+", [x, y])])
    unsat = b.payload(roots + [b.add(">", [left, a], "Bool")])
    sat = b.payload(roots + [b.add(">", [left, b.add("*", [c, x])], "Bool")])
    for query, expected in ((unsat, "unsat"), (sat, "sat")):
        s = substituted(query)
        assert s is not None and {v for v, _ in s.solved} == {"c", "y"}
        for data in (query, s.data):
            status, reason = cvc5_backend.solve(data, 30, cvc5_backend.CONFIGS[:1], rewrite=False)
            assert status == expected, reason


def test_the_substitution_stage_answers_in_its_own_name():
    b, roots, (a, c, x, y) = _rows_query()
    query = b.payload(roots + [b.add(">", [b.add("*", [a, b.add("+", [x, y])]), a], "Bool")])
    status, reason = cvc5_backend.solve(query, 30, [("substitution", dict(cvc5_backend.CONFIGS)["substitution"])])
    assert (status, reason.endswith("(substitution): unsat")) == ("unsat", True), reason


def test_a_conditional_term_becomes_an_unknown_defined_by_cases():
    b = _Build()
    x, y = b.var("x"), b.var("y")
    cond = b.add("ite", [b.add(">", [x, y], "Bool"), x, y])                     # max(x, y)
    one = b.num(Fraction(1))
    for op, expected in ((">", "unsat"), ("<", "unsat"), ("<=", "sat")):   # x = 1 ∧ y ≤ 1 ∧ max(x, y) ⋈ 1
        query = b.payload([b.add("=", [x, one], "Bool"), b.add("<=", [y, one], "Bool"), b.add(op, [cond, one], "Bool")])
        s = substituted(query)
        assert [v for v, _ in s.solved] == ["x"] and s.fresh == ((f"ite!{cond}", cond),)
        for data in (query, s.data):
            assert cvc5_backend.solve(data, 30, cvc5_backend.CONFIGS[:1], rewrite=False)[0] == expected
    b = _Build()                       # a query's own unknown with the name the fresh one would take
    x, taken = b.var("x"), b.var("ite!3")
    cond = b.add("ite", [b.add(">", [x, taken], "Bool"), x, taken])
    assert cond == 3
    s = substituted(b.payload([b.add("=", [x, b.num(Fraction(1))], "Bool"), b.add(">", [cond, taken], "Bool")]))
    assert s.fresh == (("ite!3'", 3),)


def test_queries_outside_the_fragment_or_without_equalities_are_left_as_they_are():
    b = _Build()
    x, y = b.var("x"), b.var("y")
    integer = b.add("const", sort="Int", value="k")                              # an integer unknown
    assert substituted(b.payload([b.add("=", [x, b.num(Fraction(1))], "Bool"), b.add(">", [integer, y], "Bool")])) is None
    by_unknown = b.add("/", [x, y])                                              # division by an unknown
    assert substituted(b.payload([b.add("=", [x, y], "Bool"), b.add(">", [by_unknown, y], "Bool")])) is None
    no_equality = b.payload([b.add(">", [b.add("*", [x, y]), y], "Bool")])
    assert substituted(no_equality) is None
    square = b.add("=", [b.add("*", [x, x]), b.num(Fraction(2))], "Bool")        # not linear: not solved
    assert substituted(b.payload([square, b.add(">", [x, y], "Bool")])) is None


def test_an_equality_under_a_disjunction_is_not_solved():
    b = _Build()
    x, y = b.var("x"), b.var("y")
    eq = b.add("=", [x, b.num(Fraction(1))], "Bool")
    other = b.add(">", [y, x], "Bool")
    assert substituted(b.payload([b.add("or", [eq, other], "Bool")])) is None


def test_a_polynomial_past_the_cap_leaves_the_query_as_it_is():
    b = _Build()
    xs = [b.var(f"x{i}") for i in range(14)]
    sums = [b.add("+", [xs[i], xs[i + 1], b.num(Fraction(1))]) for i in range(0, 14, 2)]
    big = b.add("*", sums + sums)       # (3 monomials)^14 before the substitution: past the cap
    assert 3 ** 14 > MAX_TERMS
    query = b.payload([b.add("=", [xs[0], b.num(Fraction(1, 2))], "Bool"), b.add(">", [big, xs[1]], "Bool")])
    assert substituted(query) is None


@pytest.mark.parametrize("op", ["<=", "<", ">=", ">", "="])
def test_a_comparison_of_constants_after_the_substitution_is_decided(op):
    b = _Build()
    x = b.var("x")
    half = b.num(Fraction(1, 2))
    query = b.payload([b.add("=", [x, half], "Bool"), b.add(op, [x, half], "Bool")])
    s = substituted(query)
    expected = op in ("<=", ">=", "=")
    assert [n[0] for n in s.data["nodes"]] == ["true" if expected else "false"]


def _nested(depth: int, op: str) -> dict:
    """x = 1 and, around x < 1, ``op`` nested ``depth`` deep ("not" once a level; "or" of a formula with
    itself, a Boolean DAG of ``depth`` nodes that is 2^depth leaves as a tree)."""
    b = _Build()
    x = b.var("x")
    one = b.num(Fraction(1))
    f = b.add("<", [x, one], "Bool")
    for _ in range(depth):
        f = b.add(op, [f] if op == "not" else [f, f], "Bool")
    return b.payload([b.add("=", [x, one], "Bool"), f])


def test_a_boolean_dag_shared_many_times_is_rewritten_once_a_node():
    """An "or" of a formula with itself, 40 deep: 2^40 leaves as a tree, 42 nodes as written. The rewrite
    reads each node once (it took 33 s at depth 20 when it walked the tree) and keeps the sharing."""
    s = substituted(_nested(40, "or"))
    assert s is not None and len(s.data["nodes"]) <= 45
    assert all(_evaluate(s.data, {})) is False    # x := 1 makes x < 1 false, and every "or" of it


def test_a_formula_nested_past_the_recursion_limit_is_left_as_it_is():
    """No exception escapes the rewrite (the child would die before the configurations after it ran): the
    query is left as it is, and the ladder goes on to coverings on the query itself."""
    assert substituted(_nested(5000, "not")) is None
    s = substituted(_nested(300, "not"))
    assert s is not None and all(_evaluate(s.data, {})) is False


def test_a_product_past_the_cap_is_refused_before_it_is_multiplied_out():
    b = _Build()
    xs = [b.var(f"x{i}") for i in range(60)]
    total = b.add("+", xs)
    big = b.add("*", [total, total, total, total])     # (60 monomials)^4: refused at the third factor
    query = b.payload([b.add("=", [xs[0], b.num(Fraction(1))], "Bool"), b.add(">", [big, xs[1]], "Bool")])
    assert substituted(query) is None


def test_numerals_are_read_exactly_or_the_query_is_left_as_it_is():
    def query(numeral):
        b = _Build()
        x, c = b.var("x"), b.add("num", value=numeral)
        return b.payload([b.add("=", [x, c], "Bool"), b.add(">=", [x, c], "Bool")])
    s = substituted(query("3"))
    assert s.text() == "x := 3" and s.data["nodes"] == [["true", [], "Bool", None]]
    assert substituted(query("1/0")) is None
