"""Property tests (hypothesis): exact notions against brute force, constructions against theory."""
from fractions import Fraction

import sympy as sp
from hypothesis import given, settings, strategies as st

from symbolic.notions.families.dp import PureDP
from symbolic.model.mechanism import Mechanism, compose, post_process
from symbolic.core.ops import ExactOps
from symbolic.core.prob import Kernel
from symbolic.core.tables import databases


def rows(draw, n_rows, m):
    out = []
    for _ in range(n_rows):
        w = draw(st.lists(st.integers(1, 9), min_size=m, max_size=m))
        out.append([sp.Rational(x, sum(w)) for x in w])
    return out


@st.composite
def mechanisms(draw, n=1, k=2, m=2):
    dbs = databases(n, tuple(range(k)))
    return Mechanism.from_table(dict(zip(dbs, rows(draw, len(dbs), m))), n=n, domain=tuple(range(k)),
                                outputs=tuple(range(m)))


def tight_E(m):
    """max over neighbours and outputs of the likelihood ratio (all entries are positive)."""
    t = m.table()
    return max(t.p(d, o) / t.p(tuple(v if j == i else x for j, x in enumerate(d)), o)
               for i, d, v in t.neighbours() for o in t.outputs)


@settings(max_examples=40, deadline=None)
@given(mechanisms(n=2, k=2, m=3))
def test_pure_dp_holds_exactly_at_the_tight_E(m):
    E = tight_E(m)
    assert PureDP.body(ExactOps(), m.table(), E=E)
    if E > 1:
        assert not PureDP.body(ExactOps(), m.table(), E=E - sp.Rational(1, 10**6))


@settings(max_examples=25, deadline=None)
@given(mechanisms(), mechanisms())
def test_composition_is_at_most_the_product_of_factors(a, b):
    c = compose(a, b)
    assert tight_E(c) <= tight_E(a) * tight_E(b)
    assert PureDP.body(ExactOps(), c.table(), E=tight_E(a) * tight_E(b))


@settings(max_examples=25, deadline=None)
@given(mechanisms(k=3, m=2), st.lists(st.integers(0, 5), min_size=4, max_size=4))
def test_post_processing_never_increases_the_tight_E(a, w):
    w0, w1 = [w[0] + 1, w[1]], [w[2], w[3] + 1]
    k = Kernel({0: {"x": Fraction(w0[0], sum(w0)), "y": Fraction(w0[1], sum(w0))},
                1: {"x": Fraction(w1[0], sum(w1)), "y": Fraction(w1[1], sum(w1))}})
    b = post_process(a, k)
    assert PureDP.body(ExactOps(), b.table(), E=tight_E(a))
