"""Whether a notion holds at some level on a fixed table (what a separation needs: B at no level on the
counterexample), decided by the engine on hand-checked tables."""
from dataclasses import replace

import sympy as sp

from symbolic.model.mechanism import Mechanism
from symbolic.notions.families.dp import PureDP
from symbolic.solve.backends.settings import Settings
from symbolic.graph.separations.one_table import level_free

FAST = replace(Settings(), second_solver=False)
H = sp.Rational(1, 4)


def test_randomized_response_is_pure_dp_at_some_level():
    rr = Mechanism.from_table({0: [1 - H, H], 1: [H, 1 - H]}, n=1, domain=(0, 1), outputs=(0, 1))
    assert level_free(PureDP, rr, FAST) == "some level"      # at E = 3


def test_a_table_that_reveals_the_record_is_pure_dp_at_no_level():
    leak = Mechanism.from_table({0: [1, 0], 1: [H, 1 - H]}, n=1, domain=(0, 1), outputs=(0, 1))
    assert level_free(PureDP, leak, FAST) == "no level"      # Pr[1|0] = 0 < Pr[1|1]: no finite ratio
