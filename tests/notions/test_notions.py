"""Notions against the sources' worked examples; sufficient families against the solver."""
import random

import pytest
import sympy as sp
import z3

from symbolic.notions.families.dp import (ApproxDP, Bayesian0DP, DataPointInterventionDP, DataPointInterventionDPFor,
                                 IndependentBayesian0DP, PureDP, StrongAdversaryDP,
                                 StrongAdversaryDPFor, StrongBayesianDP, brp_all_data_points_notion)
from symbolic.solve.queries.encode import Encoding
from symbolic.core.errors import FloatNotAllowed, InvalidParameter
from symbolic.model.mechanism import randomized_response, truncated_geometric
from symbolic.core.ops import ExactOps
from symbolic.solve.backends.z3_ops import Z3Ops
from symbolic.core.tables import MechTable, databases
from theorems.tschantz_causal import (source_appb_mechanism, source_appb_population, source_p4_mechanism,
                                      source_p4_population)


def ev(notion, A, P=None, **kw):
    return notion.body(ExactOps(), A, P=P, **kw)


def test_rr_is_exactly_log3_dp():
    A = randomized_response(3).table()
    assert ev(PureDP, A, E=3) and not ev(PureDP, A, E=sp.Rational(299, 100))


def test_truncated_geometric_epsilon():
    A = truncated_geometric(2, n=3).table()
    assert ev(PureDP, A, E=2) and not ev(PureDP, A, E=sp.Rational(19, 10))


def test_source_prop4_example():
    """T-source eqs. (18)-(19): satisfies Definition 7 for 𝒫 with 𝒫(D_i=2)=0, not Definition 1."""
    A = source_p4_mechanism()["A"].table()
    P = source_p4_population().table()
    for E in (1, 2, 5):
        assert ev(DataPointInterventionDPFor, A, P, E=E)
        assert not ev(PureDP, A, E=E)


def test_source_appendix_b_example():
    A = source_appb_mechanism()["A"].table()
    P = source_appb_population().table()
    assert ev(StrongAdversaryDPFor, A, P, E=1) and not ev(PureDP, A, E=100)


def test_approx_dp_event_encoding_matches_enumeration():
    """Σ_o max(0, p(o) - E q(o)) ≤ δ equals the check over all 2^|O| events."""
    import itertools
    rng = random.Random(1)
    for _ in range(30):
        rows = {}
        for d in databases(1, (0, 1)):
            w = [rng.randint(0, 5) for _ in range(3)]
            w[0] += 1
            rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
        A = MechTable(1, (0, 1), (0, 1, 2), rows)
        E, delta = sp.Rational(rng.randint(10, 30), 10), sp.Rational(rng.randint(0, 10), 20)
        brute = all(sum(A.p(d, o) for o in S) <= E * sum(A.p(d2, o) for o in S) + delta
                    for d in A.rows for d2 in A.rows if d != d2
                    for r in range(4) for S in itertools.combinations(A.outputs, r))
        assert ev(ApproxDP, A, E=E, delta=delta) == brute


def test_invalid_parameters_rejected():
    with pytest.raises(InvalidParameter, match="E=1/2"):
        PureDP(sp.Rational(1, 2))
    with pytest.raises(InvalidParameter, match="delta"):
        ApproxDP(2, sp.Rational(3, 2))
    with pytest.raises(FloatNotAllowed):
        PureDP(1.5)


def _random_mech(rng, n=2, k=2, m=2, positive=False):
    rows = {}
    for d in databases(n, tuple(range(k))):
        w = [rng.randint(1 if positive else 0, 4) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows[d] = tuple(sp.Rational(x, sum(w)) for x in w)
    return MechTable(n, tuple(range(k)), tuple(range(m)), rows)


@pytest.mark.parametrize("notion", [StrongAdversaryDP, Bayesian0DP, IndependentBayesian0DP,
                                    DataPointInterventionDP, StrongBayesianDP, brp_all_data_points_notion])
def test_sufficient_family_agrees_with_solver(notion):
    """Exact re-verification decides ∀𝒫 on a finite family; z3 searching all 𝒫 must agree."""
    from symbolic.notions.claims import E, Implies
    from symbolic.core.verdicts import Sizes
    rng = random.Random(7)
    seen = set()
    for trial in range(8):
        A = _random_mech(rng, positive=trial % 2 == 0)
        Ev = sp.Rational(rng.choice([3, 4, 6, 10, 20, 40]), 2)
        fam = notion.sufficient(2, (0, 1))
        exact_holds = all(ev(notion, A, q.table(), E=Ev) for q in fam)
        enc = Encoding(Implies((), notion(E.symbol)), (E,), Sizes(2, 2, 2), {"E": Ev})
        ops = Z3Ops()
        tab = MechTable(2, A.domain, A.outputs, {d: tuple(z3.RealVal(str(x)) for x in r) for d, r in A.rows.items()})
        pop = enc.new_population("Q", product=notion.population == "product")
        body = notion.body(ops, tab, P=pop, E=z3.RealVal(str(Ev)))
        parts, todo = [], [body]
        while todo:  # one query per conjunct: ∃𝒫 violating that instance
            x = todo.pop()
            (todo.extend(x.children()) if z3.is_and(x) else parts.append(x))
        violated = False
        for part in parts:
            s = z3.Solver()
            s.set("timeout", 20000)
            s.add(enc.base + [z3.Not(part)])
            answer = s.check()
            assert answer != z3.unknown
            if answer == z3.sat:
                violated = True
                break
        assert exact_holds == (not violated), (trial, A.rows, Ev)
        seen.add(exact_holds)
    assert seen == {True, False}  # both outcomes exercised
