"""The substitution stage on every node kind z3 can emit: random z3 queries (sums, differences, unary minus,
products, powers, division by a numeral, conditional terms; every relation; and, or, not, implies, xor,
Boolean equality, distinct, true and false), written as the second solver receives them, then rewritten.
The rewritten query must hold at a point exactly when the query holds there, extended by the solved
values, decided by z3's own exact evaluation of the query and by an evaluator of the payload."""
from __future__ import annotations

import z3
from hypothesis import Phase, assume, given, settings, strategies as st

from symbolic.solve.backends.cvc5_backend import payload
from symbolic.solve.backends.smt2 import lower
from symbolic.solve.backends.substitution import substituted
from tests.solve.backends.test_substitution import _evaluate as evaluate

NAMES = ("a", "b", "c", "d", "e")
small = st.fractions(min_value=-3, max_value=3, max_denominator=4)
@st.composite
def z3_queries(draw):
    xs = [z3.Real(n) for n in NAMES]

    def num():
        q = draw(small)
        return z3.RealVal(f"{q.numerator}/{q.denominator}")

    def term(depth):
        kind = draw(st.sampled_from(["var", "var", "num"] + (["+", "-", "neg", "*", "/", "ite", "pow"] if depth else [])))
        if kind == "var":
            return draw(st.sampled_from(xs))
        if kind == "num":
            return num()
        if kind == "+":
            return term(depth - 1) + term(depth - 1)
        if kind == "-":
            return term(depth - 1) - term(depth - 1)
        if kind == "neg":
            return -term(depth - 1)
        if kind == "*":
            return term(depth - 1) * term(depth - 1)
        if kind == "/":
            q = draw(small.filter(bool))
            return term(depth - 1) / z3.RealVal(f"{q.numerator}/{q.denominator}")
        if kind == "pow":
            return term(depth - 1) ** 2
        return z3.If(boolean(0), term(depth - 1), term(depth - 1))

    def relation(depth):
        op = draw(st.sampled_from(["<=", "<", ">=", ">", "==", "distinct"]))
        x, y = term(depth), term(depth)
        return z3.Distinct(x, y) if op == "distinct" else {"<=": x <= y, "<": x < y, ">=": x >= y, ">": x > y,
                                                           "==": x == y}[op]

    def boolean(depth):
        kind = draw(st.sampled_from(["rel", "rel", "rel"] + (["and", "or", "not", "implies", "xor", "iff", "const"]
                                                              if depth else [])))
        if kind == "rel":
            return relation(1)
        if kind == "const":
            return z3.BoolVal(draw(st.booleans()))
        if kind == "not":
            return z3.Not(boolean(depth - 1))
        p, q = boolean(depth - 1), boolean(depth - 1)
        return {"and": z3.And(p, q), "or": z3.Or(p, q), "implies": z3.Implies(p, q), "xor": z3.Xor(p, q),
                "iff": p == q}[kind]

    roots = []
    for _ in range(draw(st.integers(1, 3))):          # linear equalities, as a table's rows give them
        names = draw(st.lists(st.integers(0, len(xs) - 1), min_size=1, max_size=4, unique=True))
        lhs = z3.Sum([num() * xs[i] for i in names]) if len(names) > 1 else num() * xs[names[0]]
        roots.append(lhs == num())
    roots += [boolean(2) for _ in range(draw(st.integers(1, 3)))]
    return roots


def _holds_in_z3(roots, point) -> bool:
    sub = [(z3.Real(k), z3.RealVal(f"{v.numerator}/{v.denominator}")) for k, v in point.items() if k in NAMES]
    values = [z3.simplify(z3.substitute(r, *sub)) for r in roots]
    assert all(z3.is_true(v) or z3.is_false(v) for v in values), values
    return all(z3.is_true(v) for v in values)


# no shrinking: a failing query is shown as drawn (shrinking through z3's term building takes minutes)
@settings(max_examples=100, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(z3_queries(), st.lists(small, min_size=len(NAMES), max_size=len(NAMES)))
def test_the_rewrite_of_any_z3_query_holds_exactly_where_the_query_does(roots, values):
    query = payload(lower(roots))
    s = substituted(query)
    if s is None:       # left as it is: cvc5 gets the query itself
        return
    solved, fresh = [x for x, _ in s.solved], dict(s.fresh)
    assume(not any(m and any(x in fresh for x, _ in m) for _, value in s.solved for m, _ in value))
    point = s.extend({n: v for n, v in zip(NAMES, values) if n not in solved})
    for u, node in fresh.items():    # each fresh unknown takes its conditional term's value at the point
        point[u], = evaluate(query, point, [node])
    point = s.extend(point)
    original = all(evaluate(query, point))
    assert original == _holds_in_z3(roots, point)        # the payload says what z3's terms say
    assert all(evaluate(s.data, point)) == original
