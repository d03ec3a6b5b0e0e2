"""Causal models: do(), exact queries, M^A and prog_status; Lemmas 1-2 of the T-source."""

import sympy as sp

from symbolic.model.causal import mechanism_model, prog_status_model
from symbolic.model.mechanism import randomized_response, truncated_geometric
from symbolic.core.ops import ExactOps
from symbolic.core.tables import MechTable, PopTable, databases

ops = ExactOps()


def symbolic_tables(n=2, k=2, m=2):
    dom, outs = tuple(range(k)), tuple(range(m))
    rows = {}
    for d in databases(n, dom):
        xs = [sp.Symbol(f"a_{''.join(map(str, d))}_{o}") for o in outs[:-1]]
        rows[d] = tuple(xs) + (1 - sum(xs),)
    ps = [sp.Symbol(f"p_{''.join(map(str, d))}") for d in databases(n, dom)]
    probs = dict(zip(databases(n, dom), ps[:-1] + [1 - sum(ps[:-1])]))
    return MechTable(n, dom, outs, rows), PopTable(n, dom, probs)


def test_lemma1_symbolically():
    A, P = symbolic_tables()
    model = mechanism_model(A, P)
    for d in A.rows:
        w = model.do(D1=d[0], D2=d[1]).worlds(ops)
        for j, o in enumerate(A.outputs):
            assert sp.simplify(ops.sum(x for a, x in w if a["O"] == o) - A.rows[d][j]) == 0


def test_lemma2_symbolically():
    A, P = symbolic_tables(k=3)
    model = mechanism_model(A, P)
    for v in A.domain:
        w = model.do(D2=v).worlds(ops)
        for j, o in enumerate(A.outputs):
            lhs = ops.sum(x for a, x in w if a["O"] == o)
            rhs = sum(P.marginal_rest(ops, 1, (r,)) * A.rows[(r, v)][j] for r in A.domain)
            assert sp.expand(lhs - rhs) == 0


def test_conditioning_differs_from_intervention_under_correlation():
    A = randomized_response(3, n=2).table()
    P = PopTable(2, (0, 1), {(0, 0): sp.Rational(1, 2), (1, 1): sp.Rational(1, 2), (0, 1): 0, (1, 0): 0})
    model = mechanism_model(A, P)
    o = (0, 0)
    num, den = model.prob_given(ops, {"O": o}, {"D1": 0})
    cond = num / den
    do = model.do(D1=0).prob(ops, O=o)
    assert cond == sp.Rational(9, 16) and do == sp.Rational(1, 2) * (sp.Rational(9, 16) + sp.Rational(3, 16))


def test_prog_status_copies_r1():
    A = truncated_geometric(2, n=2).table()
    sem = prog_status_model(A, {0: sp.Rational(1, 3), 1: sp.Rational(2, 3)})
    w = sem.do(R1=1).worlds(ops)
    assert all(a["R2"] == 1 and a["D1"] == 1 and a["D2"] == 1 for a, _ in w)
    assert sp.nsimplify(sum(x for _, x in w)) == 1
    # intervening on R2 cuts the copy: D1 keeps R1's distribution
    assert sem.do(R2=0).prob(ops, D1=1) == sp.Rational(2, 3)
