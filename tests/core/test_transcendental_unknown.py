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


def test_a_logarithm_in_a_parameter_map_is_transcendental_not_an_error():
    import sympy as sp
    from symbolic.api import Notion, ParamSpec
    rho = ParamSpec("rho", lower=0)
    Rho = Notion("Rho", (rho,), lambda ops, A, P=None, *, rho: ops.And(ops.le(A.p(d, o), (1 + rho) * A.p(d, o))
                                                                     for d in A.rows for o in A.outputs))
    res = check_implies(PureDP(E.symbol), Rho(sp.atan(E.symbol) ** 2 / 2), sizes=Sizes(1, 2, 2),
                        settings=Settings(second_solver=False))
    assert isinstance(res.verdict, Unknown) and res.verdict.reason.startswith("transcendental: ")
    assert "atan" in res.verdict.reason
    # log and exp of a ranging parameter are relaxed between Taylor bounds (symbolic.solve.backends.constants):
    # ρ = ln(E)²/2 ≥ 0 for every E, which the relaxation keeps, so this one is proved
    res = check_implies(PureDP(E.symbol), Rho(sp.log(E.symbol) ** 2 / 2), sizes=Sizes(1, 2, 2),
                        settings=Settings(second_solver=False))
    assert res.verdict.name == "proved" and "log(E) between Taylor bounds" in res.verdict.certificate["method"]
