"""Effects of interventions in a structural model, and bounded relative probability read from them
(Tschantz, Sen, Datta (2020), Def. 5), on a two-variable model computed by hand."""
import sympy as sp

from symbolic.core.ops import ExactOps
from symbolic.model.causal import SEM, Equation
from symbolic.notions.families.causal import brp_holds, effect_table, relative_probabilities

Q = sp.Rational(3, 4)


def _model():
    """X uniform on {0, 1}; Y := X with probability 3/4, the other value otherwise."""
    keep = Equation("Y", (0, 1), ("X",), lambda x: (Q, 1 - Q) if x == 0 else (1 - Q, Q), random=True)
    return SEM(("X",), {"X": (0, 1)}, {(0,): sp.Rational(1, 2), (1,): sp.Rational(1, 2)}, (keep,))


def test_the_effect_of_an_intervention_is_the_kernel_row():
    tab = effect_table(ExactOps(), _model(), "X", "Y")
    assert tab == {(0,): {(0,): Q, (1,): 1 - Q}, (1,): {(0,): 1 - Q, (1,): Q}}


def test_relative_probabilities_and_brp_at_and_below_the_largest_ratio():
    assert max(relative_probabilities(_model(), "X", "Y")) == 3
    assert bool(brp_holds(ExactOps(), _model(), "X", "Y", sp.Integer(3)))
    assert not bool(brp_holds(ExactOps(), _model(), "X", "Y", sp.Rational(29, 10)))
