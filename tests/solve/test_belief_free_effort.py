"""The effort of the belief-free step (``FIXED_SECONDS`` in symbolic.solve.one_size): at the default level
it must reach the refutation of ε-DP ⇒ ε-posterior approximation at two records, a claim false for every
E > 1 (the factor is E², L-2.1). With a step too short for its query, the split with E symbolic runs next
and spends the part's whole processor time, and the default level ends unknown where four times the
effort refutes at once. Every bound here is counted work (z3 units), never seconds."""
import pytest

from symbolic.api import E, PureDP, Settings, Sizes, check_implies, claim_json
from symbolic.notions.claims import Implies
from symbolic.notions.families.semantic import PosteriorApprox
from symbolic.report.reverify import reverify_counterexample
from symbolic.solve.backends.effort import Meter
from symbolic.solve.one_size import search_size
from symbolic.solve.queries.verify import verify

Es = E.symbol
CI = Settings(second_solver=False)


def test_the_default_effort_refutes_at_a_fixed_value_with_the_belief_free():
    """At (2,2,2) the size is refuted by the belief-free step at E = 2, within a tenth of the part's effort;
    the account is a fifth of it, so a search that misses this step ends unknown instead of running on."""
    imp = Implies(PureDP(Es), PosteriorApprox(Es))
    meter = Meter(CI.effort // 5)
    res, (fixed, _, _) = search_size(imp, (E,), Sizes(2, 2, 2), CI, meter)
    assert res.status == "sat", res.reason
    assert res.how.startswith("fixed E=2, belief free"), res.how
    assert fixed == {"E": 2}
    assert meter.spent <= CI.effort // 10, f"{meter.spent:,} z3 units"
    ok, _, problems = verify(imp, (E,), res.assignment)
    assert ok, problems


@pytest.mark.slow   # the whole claim with its minimisation; the test of the step above runs by default
def test_the_whole_claim_is_refuted_exactly_at_the_default_effort():
    """The claim as `dpcheck implies PureDP PosteriorApprox --n 2` asks it: refuted at n = 2 through the
    belief-free step, minimal, and its counterexample's record re-verified exactly apart from the search."""
    out = check_implies(PureDP(Es), PosteriorApprox(Es), sizes=Sizes(2, 2, 2), settings=CI)
    v = out.verdict
    assert v.name == "refuted" and v.verified_exactly and v.minimal, v
    assert "belief free" in v.note and v.counterexample.sizes == Sizes(2, 2, 2)
    ok, problems = reverify_counterexample(out.claim.parts[0], out.claim.params, claim_json(out)["counterexample"])
    assert ok, problems
