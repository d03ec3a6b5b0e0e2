"""A notion that cannot be stated to the solver gives an honest ``unknown (transcendental: …)``,
never an error and never a verdict, while its exact reading still decides concrete tables."""
from __future__ import annotations

from symbolic.api import E, E_SPEC, ExactOps, Notion, PureDP, Settings, Sizes, Unknown, check_implies, evaluate
from symbolic.api import randomized_response
from symbolic.core.errors import Transcendental


def _log_ratio(ops, A, P=None, *, E):
    """Stands for a condition with a logarithm: decided exactly on numbers, not sayable to z3."""
    if not isinstance(ops, ExactOps):
        raise Transcendental("LogRatio compares logarithms of the table's entries")
    return ops.And(ops.le(A.p(d, o), E * A.p(d2, o)) for d in A.rows for d2 in A.rows for o in A.outputs)


LogRatio = Notion("LogRatio", (E_SPEC,), _log_ratio, summary="a stand-in for a transcendental notion")


def test_solver_side_gives_unknown_with_the_reason():
    for hyp, con in ((PureDP(E.symbol), LogRatio(E.symbol)), (LogRatio(E.symbol), PureDP(E.symbol))):
        res = check_implies(hyp, con, sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
        assert isinstance(res.verdict, Unknown)
        assert "transcendental: LogRatio compares logarithms" in res.verdict.reason


def test_exact_side_still_decides():
    rr = randomized_response(3)
    assert evaluate(LogRatio, rr, E=3) is True
    assert evaluate(LogRatio, rr, E=2) is False
