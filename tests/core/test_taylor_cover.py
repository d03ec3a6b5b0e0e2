"""The certified Taylor step and the covering after it leave no gap in the range: whenever
``nonnegative_from_zero`` answers True, the cells each covering proved join up (every covering that
succeeds proves cells whose union is its whole interval), the Taylor step's interval [lo, lo + d] starts at
lo, and the covering after it starts at lo + d and ends at hi. A property over functions x^k·(a + b·x + c·x²)
that vanish to order k at 0."""
from __future__ import annotations

import sympy as sp
from hypothesis import Phase, given, settings as hsettings, strategies as st

import symbolic.core.intervals as intervals

x = sp.Symbol("x", real=True)
positive = st.fractions(min_value=sp.Rational(1, 8), max_value=4, max_denominator=8)


def _joined(cells, lo, hi) -> bool:
    """Do the closed cells cover [lo, hi] with no gap?"""
    reach = lo
    for a, b in sorted(cells):
        if a > reach:
            return False
        reach = max(reach, b)
    return reach >= hi


@given(st.integers(1, 3), positive, st.fractions(min_value=-2, max_value=2, max_denominator=8), positive,
       st.sampled_from([sp.Rational(1, 4), sp.Rational(1, 2), sp.Integer(1), sp.Integer(2)]))
@hsettings(max_examples=40, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))   # no shrinking: minutes
def test_the_taylor_step_and_the_covering_after_it_leave_no_gap(k, a, b, c, hi):
    g = x ** k * (sp.Rational(a) + sp.Rational(b) * x + sp.Rational(c) * x ** 2)
    calls, original = [], intervals._halving_cover

    def recording(lo_, hi_, proved, negative_at, max_cells):
        cells = []

        def noting(p, q):
            ok = proved(p, q)
            if ok:
                cells.append((p, q))
            return ok
        answer = original(lo_, hi_, noting, negative_at, max_cells)
        calls.append((lo_, hi_, answer[0], cells))
        return answer
    intervals._halving_cover = recording
    try:
        answer, _cells, order = intervals.nonnegative_from_zero(g, x, 0, hi)
    finally:
        intervals._halving_cover = original
    for lo_, hi_, ok, cells in calls:
        if ok is True:
            assert _joined(cells, lo_, hi_), (lo_, hi_, cells)
    if answer is True:
        done = [(lo_, hi_) for lo_, hi_, ok, _ in calls if ok is True]
        assert _joined(done, sp.Integer(0), hi), (g, done)
        assert done and min(lo_ for lo_, _ in done) == 0
