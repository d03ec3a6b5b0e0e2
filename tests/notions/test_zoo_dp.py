"""The polynomial DP-type notions of the zoo (symbolic.notions.zoo.dp, zoo_dp_laws): worked examples
from their papers, each satisfied at its known level and failed just below (10⁻³⁰ under, exact
arithmetic), and implications between them decided by the engine (exact counterexamples re-checked
here by evaluating both notions on them).

Known levels come from the papers' own formulas computed here in sympy: randomised response keeps
a bit with probability E/(1+E); the truncated geometric mechanism with α = 1/E has neighbouring
ratio E and ratio E^k at distance k; Mironov's closed form for the Rényi divergence of randomised
response; the four-point pair of Dong, Roth, Su whose trade-off function is f_{ε,δ}; Jorgensen, Yu,
Cormode's sampling mechanism with π_i = (e^{ε_i} − 1)/(e^t − 1)."""
from __future__ import annotations

import itertools

import pytest
import sympy as sp

from symbolic.api import (ApproxDP, E, FreeLunchPrivacy, Mechanism, Param, Proved, PureDP, Refuted, Settings, Sizes,
                          check_implies, evaluate, explain, name_and_shame, randomized_response)
from symbolic.core.tables import databases
from symbolic.model.neighbours import AddRemove, count_constraint
from symbolic.notions.zoo import dp as z
from symbolic.notions.zoo import dp_laws as w

R = sp.Rational
TINY = R(1, 10 ** 30)
Es = E.symbol
DELTA = Param("delta", lower=0, upper=1)
ds = DELTA.symbol
QUICK = Settings(second_solver=False)


def tight(notion, mech, name, level, **others):
    """The notion holds at ``name`` = level and fails at level − 10⁻³⁰ (other parameters fixed)."""
    assert evaluate(notion, mech, **{name: level}, **others) is True, f"{notion.name} should hold at {name}={level}"
    assert evaluate(notion, mech, **{name: level - TINY}, **others) is False, (
        f"{notion.name} should fail just below {name}={level}")


def geometric_line(E, labels):
    """Truncated geometric noise on the position of a value in ``labels`` (n = 1, outputs the
    positions): Pr[o | c] = α^|o−c|·(1−α)/(1+α) inside, α^|o−c|/(1+α) at the ends, α = 1/E."""
    a, k = 1 / sp.sympify(E), len(labels)
    rows = {(x,): [a ** abs(o - c) / (1 + a) * (1 if o in (0, k - 1) else 1 - a) for o in range(k)]
            for c, x in enumerate(labels)}
    return Mechanism.from_table(rows, n=1, domain=tuple(labels), outputs=tuple(range(k)))


def product_rr(levels):
    """Each record i reported truthfully with probability E_i/(1+E_i), independently."""
    n, levels = len(levels), [sp.sympify(e) for e in levels]
    outs = databases(n, (0, 1))
    rows = {d: [sp.Mul(*[(e if x == y else 1) / (1 + e) for e, x, y in zip(levels, d, o)]) for o in outs]
            for d in databases(n, (0, 1))}
    return Mechanism.from_table(rows, n=n, domain=(0, 1), outputs=tuple(outs))


# --- worked examples ----------------------------------------------------------------------------------

@pytest.mark.parametrize("Ev", [2, R(3, 2), 5])
def test_unbounded_dp_geometric_around_absent(Ev):
    """Values a, ⊥, b on a line (⊥ in the middle): noise on the position is ε-unbounded DP (each
    add/remove moves one step) but only 2ε-bounded DP (a → b moves two): Kifer–Machanavajjhala's
    factor 2 between the two, attained."""
    mech = geometric_line(Ev, ("a", "⊥", "b"))
    nt = z.dp_over(AddRemove(absent="⊥"))
    tight(nt, mech, "E", sp.sympify(Ev))
    tight(PureDP, mech, "E", sp.sympify(Ev) ** 2)
    rr_presence = randomized_response(Ev)   # ⊥ = 0 absent, 1 present: one record's presence, randomised
    tight(z.UnboundedDP, rr_presence, "E", sp.sympify(Ev))


@pytest.mark.parametrize("delta", [R(1, 10), R(1, 3)])
def test_probabilistic_dp_name_and_shame(delta):
    """NS_δ publishes each record with probability δ. At n = 1 it is (0, δ)-probabilistic DP exactly.
    At n = 2 the ICDE 2008 definition takes, for each d, the outputs bad for *some* neighbour: every
    output publishing a record, mass 1 − (1−δ)²; the per-pair form of the zoo's listing would give δ,
    and (0, δ)-approximate DP holds."""
    tight(z.ProbabilisticDP, name_and_shame(delta, n=1), "delta", delta, E=1)
    ns2 = name_and_shame(delta, n=2)
    tight(z.ProbabilisticDP, ns2, "delta", 1 - (1 - delta) ** 2, E=1)
    assert evaluate(ApproxDP, ns2, E=1, delta=delta)
    assert not evaluate(ApproxDP, ns2, E=1, delta=delta - TINY)


def test_probabilistic_dp_is_stronger_than_approximate_dp():
    """P = (1/2, 1/2), Q = (1/2 − t, 1/2 + t): (0, t)-approximate DP, but every output of P has a
    ratio ≠ 1, so (0, δ)-probabilistic DP needs δ = 1 (Meiser's separation of the two)."""
    t = R(1, 100)
    mech = Mechanism.from_table({(0,): [R(1, 2), R(1, 2)], (1,): [R(1, 2) - t, R(1, 2) + t]}, outputs=(0, 1))
    tight(ApproxDP, mech, "delta", t, E=1)
    tight(z.ProbabilisticDP, mech, "delta", 1, E=1)
    tight(z.ProbabilisticDP, mech, "E", R(1, 2) / (R(1, 2) - t), delta=0)   # the largest ratio, both ways


@pytest.mark.parametrize("Ev", [3, R(5, 4)])
@pytest.mark.parametrize("k", [2, 3])
def test_local_dp_randomised_response(Ev, k):
    """Warner's randomised response (k-ary: truth with probability E/(E+k−1)) is ε-local DP exactly."""
    tight(z.LocalDP, randomized_response(Ev, k=k), "E", sp.sympify(Ev))


def test_local_dp_of_a_two_record_randomiser():
    """Two bits, each randomised at E: as one user's randomiser on (x1, x2) the level is E²."""
    tight(z.LocalDP, randomized_response(3, n=2), "E", 9)


@pytest.mark.parametrize("n,k", [(2, 1), (2, 2), (3, 2), (3, 3)])
def test_group_dp_product_randomised_response(n, k):
    """Randomised response on each of n records at E: groups of k records at E^k (Dwork–Roth Thm. 2.2
    is attained)."""
    tight(z.group_dp(k), randomized_response(2, n=n), "E", 2 ** k)


def _rr_of_and(Ev):
    """Randomised response (truth odds E) on f(d) = d1 AND d2."""
    keep = sp.sympify(Ev) / (1 + Ev)
    return Mechanism.from_table({d: [keep, 1 - keep] if d[0] * d[1] == 0 else [1 - keep, keep]
                                 for d in databases(2, (0, 1))}, outputs=(0, 1))


def test_individual_dp_follows_local_sensitivity():
    """Soria-Comas et al.'s point: only neighbours of the actual data set count. For f = AND, at
    D = (0, 0) no neighbour changes f, so even the noiseless release is 0-individually DP there, while
    it is ε-DP for no ε; at D = (1, 0) a neighbour changes f and randomised response at E is tight."""
    mech = _rr_of_and(3)
    tight(z.individual_dp((1, 0)), mech, "E", 3)
    assert evaluate(z.individual_dp((0, 0)), mech, E=1)
    assert evaluate(z.IndividualDP, mech, E=1)          # the default dataset is (0, 0)
    tight(PureDP, mech, "E", 3)
    exact_and = Mechanism.from_table({d: [1 - d[0] * d[1], d[0] * d[1]] for d in databases(2, (0, 1))},
                                     outputs=(0, 1))
    assert evaluate(z.IndividualDP, exact_and, E=1)
    assert not evaluate(PureDP, exact_and, E=10 ** 6)
    assert not evaluate(z.individual_dp((1, 0)), exact_and, E=10 ** 6)


def test_individual_dp_bounds_both_directions():
    """D's row must be within E of each neighbour's and each neighbour's within E of D's."""
    mech = Mechanism.from_table({(0,): [R(1, 2), R(1, 2)], (1,): [R(1, 4), R(3, 4)], (2,): [R(1, 2), R(1, 2)]},
                                outputs=(0, 1))
    tight(z.individual_dp(0), mech, "E", 2)         # 1/2 vs 1/4
    tight(z.individual_dp(1), mech, "E", 2)         # and 1/4 vs 1/2 from the other side
    with pytest.raises(Exception, match="not a database"):
        evaluate(z.individual_dp((0, 1)), mech, E=2)


def test_personalized_dp_levels_per_record():
    """Randomised response at E1 = 2 on record 1 and E2 = 3 on record 2 is (2, 3)-personalised DP,
    tight in each level; uniform ε-DP needs the larger level."""
    mech = product_rr([2, 3])
    tight(z.PersonalizedDP, mech, "E1", 2, E2=3)
    tight(z.PersonalizedDP, mech, "E2", 3, E1=2)
    tight(PureDP, mech, "E", 3)


def test_personalized_dp_sampling_mechanism():
    """Jorgensen, Yu, Cormode's sampling mechanism: keep record i with π_i = (E_i − 1)/(E_t − 1), then
    a ln E_t-DP count (truncated geometric, α = 1/E_t) of the kept records. At E_t = 3, E = (2, 3):
    Φ-personalised DP, tight for record 1."""
    Et, levels = 3, (2, 3)
    pi = [R(e - 1, Et - 1) for e in levels]
    a = R(1, Et)
    geo = lambda c: [a ** abs(o - c) / (1 + a) * (1 if o in (0, 2) else 1 - a) for o in range(3)]
    rows = {}
    for d in databases(2, (0, 1)):
        row = [0, 0, 0]
        for keep in itertools.product((0, 1), repeat=2):
            wgt = sp.Mul(*[p if kp else 1 - p for p, kp in zip(pi, keep)])
            row = [r + wgt * g for r, g in zip(row, geo(sum(x for x, kp in zip(d, keep) if kp)))]
        rows[d] = row
    mech = Mechanism.from_table(rows, outputs=(0, 1, 2))
    tight(z.PersonalizedDP, mech, "E1", 2, E2=3)
    assert evaluate(z.PersonalizedDP, mech, E1=2, E2=3)


def test_personalized_dp_needs_enough_levels():
    with pytest.raises(Exception, match="levels for 2 records; the table has n=3"):
        evaluate(z.PersonalizedDP, randomized_response(2, n=3), E1=2, E2=2)
    tight(z.personalized_dp(3), randomized_response(2, n=3), "E3", 2, E1=2, E2=2)


@pytest.mark.parametrize("Ev", [2, R(7, 3)])
def test_metric_dp_geometric(Ev):
    """Chatzikokolakis et al.: the geometric mechanism on 0..k−1 is ε·|x−x'|-private; as plain ε-DP on
    one record it needs (k−1)ε."""
    mech = geometric_line(Ev, (0, 1, 2, 3))
    tight(z.MetricDPL1, mech, "E", sp.sympify(Ev))
    tight(PureDP, mech, "E", sp.sympify(Ev) ** 3)
    tight(z.metric_dp(z.Metric("discrete")), mech, "E", sp.sympify(Ev) ** 3)


@pytest.mark.parametrize("Ev", [2, R(7, 3)])
def test_blowfish_line_graph(Ev):
    """He et al.'s line-graph policy: neighbouring values only; the geometric mechanism is ε-Blowfish
    on the line graph and needs (k−1)ε under the complete graph (ε-DP)."""
    mech = geometric_line(Ev, (0, 1, 2))
    tight(z.BlowfishLine, mech, "E", sp.sympify(Ev))
    tight(z.blowfish("complete"), mech, "E", sp.sympify(Ev) ** 2)
    tight(z.blowfish(((0, 2),)), mech, "E", sp.sympify(Ev) ** 2)


def test_blowfish_with_a_count_constraint():
    """Q: exactly one of two records is 1 (the count is public). The neighbours are the two swaps;
    releasing the index of the 1 by randomised response at E is tight, and rows outside I_Q are free."""
    keep = R(3, 4)
    rows = {(0, 1): [keep, 1 - keep], (1, 0): [1 - keep, keep], (0, 0): [1, 0], (1, 1): [0, 1]}
    mech = Mechanism.from_table(rows, outputs=(0, 1))
    tight(z.blowfish("complete", count_constraint(1, 1)), mech, "E", 3)
    assert not evaluate(PureDP, mech, E=10 ** 6)


@pytest.mark.parametrize("Ev", [2, 3, R(11, 10)])
def test_bounded_range_randomised_response(Ev):
    """Randomised response at E: largest ratio E, smallest 1/E, so the range is E² (ε-DP gives 2ε-BR,
    Durfee–Rogers, attained)."""
    tight(w.BoundedRange, randomized_response(Ev), "E", sp.sympify(Ev) ** 2)


def test_bounded_range_infinite_ratio():
    """An output only one database can produce makes the range infinite."""
    mech = Mechanism.from_table({(0,): [R(1, 2), R(1, 2)], (1,): [0, 1]}, outputs=(0, 1))
    assert not evaluate(w.BoundedRange, mech, E=10 ** 6)
    same = Mechanism.from_table({(0,): [R(1, 2), R(1, 2), 0], (1,): [R(1, 4), R(3, 4), 0]}, outputs=(0, 1, 2))
    tight(w.BoundedRange, same, "E", 3)     # (1/2)/(1/4) over (1/2)/(3/4); the never-seen output is ignored


def mironov_rr_level(E, alpha):
    """E^{α−1} level of randomised response (p = E/(1+E)) from Mironov's closed form of D_α."""
    p = E / (1 + E)
    return p ** alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha)


@pytest.mark.parametrize("Ev", [3, R(3, 2)])
@pytest.mark.parametrize("alpha", [2, 3, 4])
def test_renyi_dp_randomised_response(Ev, alpha):
    level = sp.nsimplify(mironov_rr_level(sp.sympify(Ev), alpha)) ** R(1, alpha - 1)
    tight(w.renyi_dp(alpha), randomized_response(Ev), "E", level)
    assert level < Ev       # D_α < D_∞ = ε here


def test_renyi_dp_infinite_divergence():
    mech = Mechanism.from_table({(0,): [R(1, 2), R(1, 2)], (1,): [0, 1]}, outputs=(0, 1))
    ok, why = explain(w.RenyiDP2, mech, E=10 ** 6)
    assert not ok and "D_α = ∞" in why
    zero_both = Mechanism.from_table({(0,): [R(1, 2), R(1, 2), 0], (1,): [R(1, 2), R(1, 2), 0]}, outputs=(0, 1, 2))
    assert evaluate(w.RenyiDP3, zero_both, E=1)


@pytest.mark.parametrize("Ev", [3, R(3, 2)])
def test_tv_privacy(Ev):
    Ev = sp.sympify(Ev)
    tight(w.TVPrivacy, randomized_response(Ev), "delta", (Ev - 1) / (Ev + 1))
    tight(w.TVPrivacy, name_and_shame(R(1, 5), n=1), "delta", R(1, 5))


@pytest.mark.parametrize("Ev,delta", [(3, R(1, 10)), (R(3, 2), R(1, 4)), (2, 0)])
def test_f_dp_four_point_pair(Ev, delta):
    """Dong, Roth, Su: P = (0, (1−δ)E/(1+E), (1−δ)/(1+E), δ), Q its mirror, has trade-off function
    exactly f_{ε,δ}: f-DP at (E, δ), not at E or δ just below."""
    Ev = sp.sympify(Ev)
    P = [0, (1 - delta) * Ev / (1 + Ev), (1 - delta) / (1 + Ev), delta]
    mech = Mechanism.from_table({(0,): P, (1,): P[::-1]}, outputs=(0, 1, 2, 3))
    tight(w.TradeOffDP, mech, "E", Ev, delta=delta)
    if delta:
        tight(w.TradeOffDP, mech, "delta", delta, E=Ev)


def test_f_dp_output_limit():
    big = Mechanism.from_table({(0,): [R(1, 13)] * 13, (1,): [R(1, 13)] * 13}, outputs=tuple(range(13)))
    with pytest.raises(Exception, match="2\\^\\|𝒪\\| deterministic tests"):
        evaluate(w.TradeOffDP, big, E=1, delta=0)


# --- implications decided by the engine -----------------------------------------------------------------

def substituted(ni, values):
    """The notion instance with its parameter expressions evaluated at ``values`` (name -> number)."""
    return ni.notion(*[sp.sympify(a).subs({s: values[s.name] for s in sp.sympify(a).free_symbols}) for a in ni.args])


def verdict(hyp, concl, sizes, params=(E,)):
    return check_implies(hyp, concl, sizes=sizes, params=params, settings=QUICK).verdict


def proved(hyp, concl, sizes, params=(E,)):
    v = verdict(hyp, concl, sizes, params)
    assert isinstance(v, Proved) and v.bounds == sizes, f"{hyp} ⇒ {concl} at {sizes}: {v}"


def refuted(hyp, concl, sizes, params=(E,)):
    """Refuted with an exact counterexample, which is checked again here: the hypothesis holds on it
    and the conclusion fails, at the counterexample's parameter values."""
    v = verdict(hyp, concl, sizes, params)
    assert isinstance(v, Refuted) and v.verified_exactly, f"{hyp} ⇒ {concl} at {sizes}: {v}"
    cex = v.counterexample
    A = cex.mechanisms["A"]
    assert evaluate(substituted(hyp, cex.parameters), A) is True
    assert evaluate(substituted(concl, cex.parameters), A) is False
    return cex


EQUIVALENCES = [   # (a, b, sizes, params): a ⇔ b, each direction proved
    (z.group_dp(1)(Es), PureDP(Es), Sizes(2, 2, 2), (E,)),                        # Dwork–Roth, k = 1
    (z.blowfish("complete")(Es), PureDP(Es), Sizes(2, 3, 2), (E,)),               # He et al.: complete graph
    (z.BlowfishLine(Es), z.MetricDPL1(Es), Sizes(1, 3, 2), (E,)),                 # one record: d_G = line metric
    (z.PersonalizedDP(Es, Es), PureDP(Es), Sizes(2, 2, 2), (E,)),                 # equal levels
    (z.LocalDP(Es), FreeLunchPrivacy(Es), Sizes(2, 2, 2), (E,)),                  # same condition, two bodies
    (z.metric_dp(z.Metric("discrete"))(Es), FreeLunchPrivacy(Es), Sizes(2, 2, 2), (E,)),
    (w.TVPrivacy(ds), ApproxDP(1, ds), Sizes(2, 2, 2), (E, DELTA)),               # TV privacy is (0, δ)-DP
    (w.TradeOffDP(Es, ds), ApproxDP(Es, ds), Sizes(1, 2, 3), (E, DELTA)),         # Dong–Roth–Su Prop. 2.5
    pytest.param(w.TradeOffDP(Es, ds), ApproxDP(Es, ds), Sizes(2, 2, 2), (E, DELTA), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("a,b,sizes,params", EQUIVALENCES, ids=lambda x: str(x) if not isinstance(x, tuple) else "")
def test_equivalences(a, b, sizes, params):
    proved(a, b, sizes, params)
    proved(b, a, sizes, params)


IMPLIES = [   # (hypothesis, conclusion, sizes, params): proved
    (PureDP(Es), z.group_dp(2)(Es ** 2), Sizes(2, 2, 2), (E,)),                   # Dwork–Roth Thm. 2.2
    (z.GroupDP2(Es), PureDP(Es), Sizes(2, 2, 2), (E,)),
    (z.UnboundedDP(Es), PureDP(Es ** 2), Sizes(1, 3, 2), (E,)),                   # Kifer–Machanavajjhala: 2ε
    (PureDP(Es), z.UnboundedDP(Es), Sizes(2, 2, 2), (E,)),                        # ⊥ is a value of 𝒟
    (z.LocalDP(Es), PureDP(Es), Sizes(2, 2, 2), (E,)),
    (z.ProbabilisticDP(Es, ds), ApproxDP(Es, ds), Sizes(1, 2, 2), (E, DELTA)),    # PDP ⇒ ADP
    (z.ProbabilisticDP(Es, ds), ApproxDP(Es, ds), Sizes(2, 2, 2), (E, DELTA)),
    (PureDP(Es), z.IndividualDP(Es), Sizes(2, 2, 2), (E,)),
    (PureDP(Es), z.MetricDPL1(Es ** 2), Sizes(1, 3, 2), (E,)),
    (z.MetricDPL1(Es), z.BlowfishLine(Es), Sizes(2, 2, 2), (E,)),
    (w.BoundedRange(Es), PureDP(Es), Sizes(1, 2, 3), (E,)),                       # Durfee–Rogers: BR ⇒ DP
    (PureDP(Es), w.BoundedRange(Es ** 2), Sizes(1, 2, 3), (E,)),                  # and DP ⇒ 2ε-BR
    pytest.param(PureDP(Es), w.RenyiDP2(Es), Sizes(1, 2, 2), (E,), marks=pytest.mark.slow),   # Mironov: D_α ≤ D_∞
    (w.RenyiDP2(Es), ApproxDP(2 * Es, R(1, 2)), Sizes(1, 2, 2), (E,)),            # Mironov Prop. 3, α = 2, δ = 1/2
]


@pytest.mark.parametrize("hyp,concl,sizes,params", IMPLIES, ids=lambda x: str(x) if not isinstance(x, tuple) else "")
def test_implications(hyp, concl, sizes, params):
    proved(hyp, concl, sizes, params)


NOT_IMPLIES = [   # (hypothesis, conclusion, sizes, params): refuted, counterexample exact
    (PureDP(Es), z.GroupDP2(Es), Sizes(2, 2, 2), (E,)),
    (z.UnboundedDP(Es), PureDP(Es), Sizes(1, 3, 2), (E,)),                        # the factor 2 is needed
    (PureDP(Es), z.LocalDP(Es), Sizes(2, 2, 2), (E,)),
    (ApproxDP(Es, ds), z.ProbabilisticDP(Es, ds), Sizes(1, 2, 2), (E, DELTA)),
    (z.IndividualDP(Es), PureDP(Es), Sizes(2, 2, 2), (E,)),
    (z.PersonalizedDP(Es, Es ** 2), PureDP(Es), Sizes(2, 2, 2), (E,)),
    (z.BlowfishLine(Es), PureDP(Es), Sizes(1, 3, 2), (E,)),
    (PureDP(Es), w.BoundedRange(Es), Sizes(1, 2, 2), (E,)),
    (w.RenyiDP2(Es), PureDP(Es), Sizes(1, 2, 2), (E,)),
    (w.RenyiDP2(Es), w.RenyiDP3(Es), Sizes(1, 2, 2), (E,)),                       # D_α grows with α
    (ApproxDP(Es, ds), w.TradeOffDP(Es, ds / 2), Sizes(1, 2, 2), (E, DELTA)),
]


@pytest.mark.parametrize("hyp,concl,sizes,params", NOT_IMPLIES, ids=lambda x: str(x) if not isinstance(x, tuple) else "")
def test_separations(hyp, concl, sizes, params):
    refuted(hyp, concl, sizes, params)


@pytest.mark.slow
def test_pure_dp_gives_renyi_of_order_three():
    proved(PureDP(Es), w.RenyiDP3(Es), Sizes(1, 2, 2))
