"""symbolic.notions.families.semantic: every notion against a hand-computed example from the sources (K, L), and
invalid parameters."""
import pytest
import sympy as sp

from symbolic.notions.families.dp import ApproxDP, PureDP
from symbolic.core.errors import InvalidParameter
from symbolic.model.mechanism import Mechanism, name_and_shame, randomized_response, truncated_geometric
from symbolic.core.ops import ExactOps
from symbolic.model.population import Population, uniform
from symbolic.notions.families.semantic import (AdditiveSecrecy, ApproxSemanticPrivacyFor, CrossRatio, EventApprox, Indistinguishable,
                               InformedSemanticPrivacy, PointwiseApprox, PointwiseIndistinguishable,
                               PosteriorApproxFor, RealityObliviousSemanticPrivacyFor, SemanticPrivacyFor, Spread,
                               TwoPointSemanticPrivacy, hockey, informed, posterior_parts, pure_dp_at_distance,
                               statistical_difference)
from symbolic.core.tables import databases

R = sp.Rational
ops = ExactOps


def pair(x, y):
    """Two distributions as the rows of an n=1, |D|=2 table."""
    return Mechanism.from_table({(0,): list(x), (1,): list(y)}, n=1, domain=(0, 1),
                                outputs=tuple(range(len(x)))).table()


def holds(notion_inst, tab, P=None):
    vals = notion_inst.param_values()
    return bool(notion_inst.notion.body(ExactOps(), tab, P=P, **vals))


def xor_rr(E):
    """n=2 'XOR randomized response' (spec L-2.1): A(x)_1 = E/(1+E) if x1 ≠ x2 else 1/(1+E)."""
    return Mechanism.from_table({d: [1 - (E / (1 + E) if d[0] != d[1] else 1 / (1 + E)),
                                     E / (1 + E) if d[0] != d[1] else 1 / (1 + E)] for d in databases(2, (0, 1))},
                                n=2, domain=(0, 1), outputs=(0, 1)).table()


def test_sd_and_hockey_hand_values():
    assert statistical_difference(ops(), (R(1, 2), R(1, 2), 0), (R(1, 4), R(1, 4), R(1, 2))) == R(1, 2)
    assert hockey(ops(), (R(3, 4), R(1, 4)), (R(1, 4), R(3, 4)), 2) == R(1, 4)     # K-D1.2: minimal δ = 1/4


def test_event_and_pointwise_approx_eq6():
    t = pair((R(1, 2), R(1, 2)), (R(1, 4), R(3, 4)))                             # ratio 2 at o=0
    assert holds(EventApprox(2), t) and holds(PointwiseApprox(2), t)
    assert not holds(EventApprox(R(3, 2)), t) and not holds(PointwiseApprox(R(3, 2)), t)


def test_indistinguishability_hand_values():
    t = pair((R(1, 2), R(1, 2)), (R(1, 4), R(3, 4)))
    assert holds(Indistinguishable(R(3, 2), R(1, 8)), t)
    assert not holds(Indistinguishable(R(3, 2), R(1, 9)), t)
    assert holds(PointwiseIndistinguishable(R(3, 2), R(1, 2)), t)             # X(Bad)=1/2, Y(Bad)=1/4
    assert not holds(PointwiseIndistinguishable(R(3, 2), R(49, 100)), t)
    assert holds(PointwiseIndistinguishable(2, 0), t) and holds(Indistinguishable(2, 0), t)


def test_additive_secrecy_name_and_shame():
    t = name_and_shame(R(1, 3), n=1).table()
    assert holds(AdditiveSecrecy(R(1, 3)), t)
    assert not holds(AdditiveSecrecy(R(1, 4)), t)
    assert holds(ApproxDP(100, R(1, 3)), t) and not holds(ApproxDP(100, R(1, 4)), t)


def test_randomized_response_dp_and_group():
    rr = randomized_response(3).table()
    assert holds(PureDP(3), rr) and not holds(PureDP(R(29, 10)), rr)
    tg = truncated_geometric(2, n=2).table()
    assert holds(pure_dp_at_distance(2)(4), tg) and not holds(pure_dp_at_distance(2)(R(39, 10)), tg)


def test_posteriors_xor_rr_hand_values():
    A = xor_rr(sp.Integer(2))
    b = Population({(1, 0): R(1, 10), (1, 1): R(9, 10)}, n=2, domain=(0, 1)).table()
    w0, wi, Z0, Zi = posterior_parts(ExactOps(), A, b, 0, 1)
    assert w0[(1, 0)] / Z0 == R(2, 11) and wi[(1, 0)] / Zi == R(1, 19)
    assert not holds(PosteriorApproxFor(2), A, b) and holds(PosteriorApproxFor(4), A, b)
    assert holds(CrossRatio(4), A) and not holds(CrossRatio(R(39, 10)), A)
    sd = R(27, 209)                                                             # spec K-D2.1 unit test
    assert holds(SemanticPrivacyFor(sd), A, b) and not holds(SemanticPrivacyFor(sd - R(1, 10**6)), A, b)


def test_semantic_privacy_rr_n1():
    A = randomized_response(3).table()
    b = uniform(n=1, domain=(0, 1)).table()
    assert holds(SemanticPrivacyFor(R(1, 4)), A, b) and not holds(SemanticPrivacyFor(R(24, 100)), A, b)
    # sup over beliefs is 2-√3 ≈ 0.268: the two-point closed form decides it
    assert holds(TwoPointSemanticPrivacy(R(27, 100)), A) and not holds(TwoPointSemanticPrivacy(R(26, 100)), A)


def test_approx_semantic_privacy_spec_example():
    A = Mechanism.from_table({(0,): [1, 0], (1,): [R(9, 10), R(1, 10)]}, n=1, domain=(0, 1), outputs=(0, 1)).table()
    b = uniform(n=1, domain=(0, 1)).table()
    # t1: A(x_{-1}) = A(0) never outputs t1, so Z1(t1) = 0 < Z0(t1): bad unless ε ≥ 1 (zero-normaliser
    # convention; the spec's "SD = 1/2" there overlooks it). t0: SD = 1/38. Pr[t1] = 1/20.
    assert holds(ApproxSemanticPrivacyFor(1, 0), A, b)
    assert not holds(ApproxSemanticPrivacyFor(R(1, 2), R(1, 21)), A, b)
    assert holds(ApproxSemanticPrivacyFor(R(1, 38), R(1, 20)), A, b)
    assert not holds(ApproxSemanticPrivacyFor(R(1, 38), R(1, 21)), A, b)
    assert not holds(ApproxSemanticPrivacyFor(R(1, 39), R(99, 100)), A, b)


def test_reality_oblivious_and_informed():
    A = Mechanism.from_table({x: [1 - R(2 ** sum(x) - 1, 100), R(2 ** sum(x) - 1, 100)] for x in databases(3, (0, 1))},
                             n=3, domain=(0, 1), outputs=(0, 1)).table()
    b = Population({(0, 0, 0): R(1, 2), (1, 0, 0): R(1, 2)}, n=3, domain=(0, 1)).table()
    # real x = 111 draws t=1 with probability 7/100, where SD = 1/2
    assert not holds(RealityObliviousSemanticPrivacyFor(R(1, 4), R(6, 100)), A, b)
    assert holds(RealityObliviousSemanticPrivacyFor(R(1, 4), R(7, 100)), A, b)
    assert informed(ExactOps(), b, (0, 0, 0)) and not informed(ExactOps(), b, (1, 1, 1))
    # b is informed only for databases agreeing with 000/100 off coordinate 1: there t=1 is rare
    assert holds(InformedSemanticPrivacy(R(1, 4), R(1, 100)), A, b)
    assert not holds(InformedSemanticPrivacy(R(1, 4), R(1, 1000)), A, b)


def test_spread():
    assert holds(Spread(4), pair((R(1, 2), R(1, 2)), (R(1, 5), R(4, 5))))
    assert not holds(Spread(3), pair((R(1, 2), R(1, 2)), (R(1, 5), R(4, 5))))


@pytest.mark.parametrize("make", [lambda: Indistinguishable(2, R(3, 2)), lambda: Indistinguishable(R(1, 2), 0),
                                  lambda: AdditiveSecrecy(-R(1, 10)), lambda: PointwiseIndistinguishable(2, -1),
                                  lambda: SemanticPrivacyFor(-1), lambda: ApproxSemanticPrivacyFor(R(1, 2), 2),
                                  lambda: TwoPointSemanticPrivacy(-R(1, 3)), lambda: pure_dp_at_distance(2)(R(1, 2))])
def test_invalid_parameters_rejected(make):
    with pytest.raises(InvalidParameter):
        make()


# --- issue 34: a violation is shown where the posteriors it compares are defined ----------------------

ONE_SIDED = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["1", "0"], "1": ["1/2", "1/2"]}}


def _named_pair_defined(table, belief, reason):
    """The (i, t) the reason names, and whether both normalisers of its posteriors are > 0 at ``belief``."""
    import re
    from symbolic.core.ops import ExactOps
    i, t = (int(x) for x in re.search(r"i=(\d+), t=(\d+)", reason).groups())
    _, _, Z0, Zi = posterior_parts(ExactOps(), table, belief, i - 1, t)
    return Z0 > 0 and Zi > 0


def test_eval_shows_a_violating_belief_whose_posteriors_are_defined():
    """t = 1 never occurs with entry 1 at the default 0, so b̄_1[·|1] is undefined at every belief; the
    point mass on 1 "fails" only by the zero-normaliser convention. The belief shown must fail at a
    defined pair (i, t), and the reason must name that pair."""
    from symbolic.api import explain, mechanism_from_json
    from symbolic.notions.families.semantic import SemanticPrivacy
    from symbolic.solve.queries.every_belief import on_one_table
    mech = mechanism_from_json(ONE_SIDED)
    holds, why = explain(SemanticPrivacy, mech, eps=R(1, 10))
    assert not holds and "undefined" not in why
    res = on_one_table(SemanticPrivacy(R(1, 10)), mech.table(), witness=True)
    assert res.status == "fails"
    assert _named_pair_defined(mech.table(), res.belief, why.split(": ", 1)[1])


def test_the_undefined_case_is_said_as_such_when_it_is_the_only_failure():
    """At the point mass on 1 the only failure is the undefined posterior: the reason says so."""
    from symbolic.api import explain, mechanism_from_json, population_from_json
    from symbolic.notions.families.semantic import SemanticPrivacyFor
    mech = mechanism_from_json(ONE_SIDED)
    holds, why = explain(SemanticPrivacyFor, mech, population=population_from_json({"1": "1"}, n=1, domain=(0, 1)),
                         eps=R(1, 10))
    assert not holds and "b̄_i[·|t] is undefined" in why and "convention" in why


def test_implies_shows_a_witness_belief_whose_posteriors_are_defined(capsys):
    """The solver's witness for (ε,δ)-DP ⇏ (1/10)-semantic privacy was a point mass at which the posterior
    it compares is 0/0; the witness shown is now one where the named posteriors are defined."""
    import json
    from symbolic.api import mechanism_from_json, population_from_json
    from theorems.cli.main import main
    assert main(["implies", "approx-dp", "SemanticPrivacy", "--n", "1", "--target", "eps=1/10", "--json"]) == 0
    cx = json.loads(capsys.readouterr().out)["counterexample"]
    assert "undefined" not in cx["violated"]
    mech = mechanism_from_json(cx["tables"]["A"])
    belief = population_from_json(cx["population"]["P'"], n=1, domain=(0, 1))
    assert _named_pair_defined(mech.table(), belief.table(), cx["violated"])


def test_every_notion_a_definition_names_is_listed(capsys):
    """SemanticPrivacy's description pointed to TwoPointSemanticPrivacy, which `dpcheck notions` did not
    list. Every notion of the library that a listed definition names must be listed itself."""
    import json
    import re
    from symbolic.api import notion_library
    from theorems.cli.main import main
    assert main(["notions", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["notions"]
    names = {n["name"] for n in listed} | {n["id"] for n in listed}
    library = notion_library()
    named = {(n["id"], w) for n in listed for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", n["definition"]) if w in library}
    assert ("SemanticPrivacy", "TwoPointSemanticPrivacy") in named
    assert {w for _, w in named} <= names
    two_point = next(n for n in listed if n["id"] == "TwoPointSemanticPrivacy")
    assert two_point["class"] == "polynomial" and "SemanticPrivacy implies it" in two_point["definition"]
