"""Tests for symbolic/notions/leakage.py: every quantity against an independent Fraction computation."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp

from symbolic.core.errors import DPCheckError, FloatNotAllowed, InvalidParameter
from symbolic.core.ops import UndecidedComparison
from symbolic.notions.leakage import (conditional_min_entropy, conditional_pml, discloses, leakage_capacity,
                          leakage_capacity_ratio, likelihood_ratios, max_pml, max_pml_ratio,
                          min_entropy, output_probability, pml, pml_ratio, posterior)
from symbolic.core.prob import Dist, Kernel

RR3 = Kernel({0: {0: "3/4", 1: "1/4"}, 1: {0: "1/4", 1: "3/4"}})    # randomized response, E = 3


def _rand_kernel(rng, nx, ny, zeros=False):
    rows = {}
    for x in range(nx):
        w = [rng.randint(0 if zeros else 1, 6) for _ in range(ny)]
        if sum(w) == 0:
            w[0] = 1
        rows[x] = {y: sp.Rational(w[y], sum(w)) for y in range(ny)}
    return Kernel(rows, outputs=range(ny))


def _rand_dist(rng, outcomes, zeros=False):
    w = [rng.randint(0 if zeros else 1, 5) for _ in outcomes]
    if sum(w) == 0:
        w[0] = 1
    return Dist(outcomes=outcomes, probs=[sp.Rational(v, sum(w)) for v in w])


def _F(x):
    x = sp.Rational(x)
    return Fraction(int(x.p), int(x.q))


def _ref_ratio(kernel, prior, y, attr=None):
    """D_∞(P_{U|Y=y} ‖ P_U) = max_u P(u|y)/P(u) via Bayes in Fractions (an independent route)."""
    attr = attr or (lambda x: x)
    px = {x: _F(p) for x, p in prior.items()}
    py = sum(px[x] * _F(kernel.prob(x, y)) for x in px)
    if py == 0:
        return Fraction(1)
    pu, puy = {}, {}
    for x, p in px.items():
        u = attr(x)
        pu[u] = pu.get(u, 0) + p
        puy[u] = puy.get(u, 0) + p * _F(kernel.prob(x, y)) / py
    return max(puy[u] / pu[u] for u in pu if pu[u] > 0)


def test_rr_values_by_hand():
    prior = Dist({0: "1/4", 1: "3/4"})
    assert output_probability(RR3, prior, 0) == sp.Rational(3, 8)
    assert pml(RR3, prior, 0) == sp.log(2)                # (3/4)/(3/8)
    assert pml(RR3, prior, 1) == sp.log(sp.Rational(6, 5))  # (3/4)/(5/8)
    assert max_pml(RR3, prior) == sp.log(2)
    assert likelihood_ratios(RR3, prior, 0) == {0: 2, 1: sp.Rational(2, 3)}


@pytest.mark.parametrize("seed", range(12))
def test_pml_matches_posterior_form(seed):
    rng = random.Random(seed)
    nx, ny = rng.randint(2, 4), rng.randint(2, 4)
    k, prior = _rand_kernel(rng, nx, ny, zeros=True), _rand_dist(rng, tuple(range(nx)), zeros=True)
    for y in k.outputs:
        assert _F(pml_ratio(k, prior, y)) == _ref_ratio(k, prior, y)
        attr = lambda x: x % 2
        assert _F(pml_ratio(k, prior, y, attribute=attr)) == _ref_ratio(k, prior, y, attr)
    assert _F(max_pml_ratio(k, prior)) == max(_ref_ratio(k, prior, y) for y in k.outputs)


def test_zero_probability_output_leaks_nothing():
    k = Kernel({0: {"a": 1, "b": 0}, 1: {"a": "1/2", "b": "1/2"}})
    prior = Dist({0: 1, 1: 0})
    assert output_probability(k, prior, "b") == 0
    assert pml(k, prior, "b") == 0 and likelihood_ratios(k, prior, "b") == {}
    assert discloses(None, prior, k, "b") is False


def test_inputs_outside_the_support_do_not_count():
    k = Kernel({0: {"a": "1/10", "b": "9/10"}, 1: {"a": "1/2", "b": "1/2"}, 2: {"a": 1}})
    prior = Dist({0: "1/2", 1: "1/2", 2: 0})
    # P_Y(a) = 3/10; max over x in {0, 1} is 1/2, not P(a|2) = 1
    assert pml_ratio(k, prior, "a") == sp.Rational(5, 3)


@pytest.mark.parametrize("seed", range(8))
def test_preprocessing_inequality(seed):
    """S-PRE: ℓ(U→y) <= ℓ(X→y) for U - X - Y (deterministic and randomized U)."""
    rng = random.Random(100 + seed)
    k, prior = _rand_kernel(rng, 4, 3), _rand_dist(rng, (0, 1, 2, 3))
    uk = _rand_kernel(rng, 4, 2)
    for y in k.outputs:
        full = pml_ratio(k, prior, y)
        assert pml_ratio(k, prior, y, attribute=lambda x: x // 2) <= full
        assert pml_ratio(k, prior, y, attribute=uk) <= full


def test_conditional_pml_informed_adversary():
    """ℓ(X_1→y | X_2=x_2) for a count with randomized response on the sum (by hand)."""
    db = [(a, b) for a in (0, 1) for b in (0, 1)]
    k = Kernel({x: {"hi": "3/4", "lo": "1/4"} if sum(x) == 2 else {"hi": "1/4", "lo": "3/4"} for x in db})
    prior = Dist({(0, 0): "1/8", (0, 1): "3/8", (1, 0): "1/8", (1, 1): "3/8"})
    got = conditional_pml(k, prior, "hi", given={1: 1}, attribute=lambda x: x[0])
    # given X_2 = 1: X_1 uniform, P(hi|1,1) = 3/4, P(hi|0,1) = 1/4, P(hi|X_2=1) = 1/2
    assert got == sp.log(sp.Rational(3, 2))
    assert conditional_pml(k, prior, "hi", given=lambda x: x[1] == 0, attribute=lambda x: x[0]) == 0
    with pytest.raises(InvalidParameter, match="probability 0"):
        conditional_pml(k, Dist({(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 0}), "hi", given={1: 1})


def test_capacity_rr_and_infinite():
    assert leakage_capacity(RR3) == sp.log(3)
    assert leakage_capacity(Kernel({0: {0: 1}, 1: {0: "1/2", 1: "1/2"}})) == sp.oo
    assert leakage_capacity(Kernel({0: {0: "1/3", 1: "2/3"}, 1: {0: "1/3", 1: "2/3"}})) == 0


@pytest.mark.parametrize("seed", range(6))
def test_capacity_theorem2(seed):
    """Theorem 2: C = sup over full-support priors of max_y ℓ; bounded by it and approached by
    priors concentrating on the minimising input x' with a little mass on the maximising x."""
    rng = random.Random(200 + seed)
    k = _rand_kernel(rng, 3, 3)
    cap = leakage_capacity_ratio(k)
    for _ in range(5):
        assert max_pml_ratio(k, _rand_dist(rng, (0, 1, 2))) <= cap
    y, x, x2 = max(((y, a, b) for y in k.outputs for a in k.inputs for b in k.inputs),
                   key=lambda t: k.prob(t[1], t[0]) / k.prob(t[2], t[0]))
    d = sp.Rational(1, 10 ** 6)
    rest = [z for z in k.inputs if z not in (x, x2)]
    probs = {x: d, x2: 1 - d - d * len(rest), **{z: d for z in rest}} if x != x2 else None
    if probs is None:
        assert cap == 1
        return
    r = max_pml_ratio(k, Dist(probs))
    assert cap * (1 - sp.Rational(1, 10 ** 4)) <= r <= cap


def test_min_entropy_and_posterior():
    assert min_entropy(Dist({"a": "1/4", "b": "3/4"})) == sp.log(sp.Rational(4, 3))
    prior = Dist.uniform((0, 1))
    post = posterior(None, prior, RR3, 1)
    assert post[1] == sp.Rational(3, 4) and post[0] == sp.Rational(1, 4)
    assert conditional_min_entropy(None, prior, RR3, 1) == sp.log(sp.Rational(4, 3))
    assert conditional_min_entropy(lambda x: 0, prior, RR3, 1) == 0


@pytest.mark.parametrize("seed", range(10))
def test_entropy_drop_bounded_by_pml(seed):
    """H_∞(U) - H_∞(U|Y=y) <= ℓ(X→y) (notes, pre-processing) and Theorem 4: an attribute
    with H_∞(U) > max_y ℓ(X→y) is never disclosed."""
    rng = random.Random(300 + seed)
    k, prior = _rand_kernel(rng, 4, 3, zeros=True), _rand_dist(rng, (0, 1, 2, 3))
    uk = _rand_kernel(rng, 4, 3, zeros=True)
    pu = Dist(outcomes=uk.outputs, probs=[sum(prior[x] * uk.prob(x, u) for x in prior.outcomes)
                                          for u in uk.outputs])
    for y in k.outputs:
        if output_probability(k, prior, y) == 0:
            continue
        drop = sp.exp(min_entropy(pu) - conditional_min_entropy(uk, prior, k, y))
        assert sp.nsimplify(drop) <= pml_ratio(k, prior, y)
        if sp.exp(min_entropy(pu)) > max_pml_ratio(k, prior):
            assert not discloses(uk, prior, k, y)


def test_discloses():
    k = Kernel({0: {"lo": 1}, 1: {"lo": "1/2", "hi": "1/2"}, 2: {"hi": 1}})
    X = Dist.uniform((0, 1, 2))
    assert discloses(lambda x: x >= 1, X, k, "hi")
    assert not discloses(None, X, k, "hi")
    assert discloses(lambda x: x >= 1, Dist({0: 0, 1: "1/2", 2: "1/2"}), k, "lo")
    q = sp.Symbol("q", positive=True)
    with pytest.raises(UndecidedComparison):
        discloses(None, Dist({0: q, 1: 1 - q, 2: 0}), k, "lo")


def test_symbolic_entries():
    E, p = sp.Symbol("E", positive=True), sp.Symbol("p", positive=True)
    k = Kernel({0: {0: E / (1 + E), 1: 1 / (1 + E)}, 1: {0: 1 / (1 + E), 1: E / (1 + E)}})
    r = likelihood_ratios(k, Dist({0: 1 - p, 1: p}), 1)
    assert sp.simplify(r[1] - E / (p * E + 1 - p)) == 0
    assert sp.simplify(r[0] - 1 / (p * E + 1 - p)) == 0


def test_correlated_entries_leak_like_theorem10():
    """S-TH10 flavour: n perfectly correlated entries and an ε-DP count (truncated geometric,
    α = 1/2): ℓ(X_1→n) = log 1/(q + (1-q)α^n) -> log 1/q, the most any mechanism can leak."""
    from theorems.saeidian_pml_closed_forms import truncated_geometric_kernel
    q, a = sp.Rational(1, 5), sp.Rational(1, 2)
    prev = 0
    for n in (1, 2, 4, 8, 16):
        g = truncated_geometric_kernel(n, a)
        k = Kernel({x: g[n * x] for x in (0, 1)})             # X = (x, .., x): the count is n·x
        val = pml_ratio(k, Dist({0: 1 - q, 1: q}), n)
        assert val == 1 / (q + (1 - q) * a ** n)
        assert prev < val < 1 / q
        prev = val
    assert 1 / q - prev < sp.Rational(1, 1000)
    # with independent entries (same marginal q) the same mechanism leaks at most ε = log 2
    from theorems.saeidian_pml_closed_forms import truncated_geometric_pml_exact
    assert sp.exp(truncated_geometric_pml_exact(8, a, q)) <= 2


def test_invalid_inputs():
    prior = Dist.uniform((0, 1))
    with pytest.raises(InvalidParameter, match="kernel="):
        pml({0: {0: 1}}, prior, 0)
    with pytest.raises(InvalidParameter, match="prior="):
        pml(RR3, {0: 1}, 0)
    with pytest.raises(InvalidParameter, match="y=7"):
        pml(RR3, prior, 7)
    with pytest.raises(InvalidParameter, match="not an input of the kernel"):
        pml(RR3, Dist.uniform((0, 1, 2)), 0)
    with pytest.raises(InvalidParameter, match="attribute="):
        pml(RR3, prior, 0, attribute=3)
    with pytest.raises(InvalidParameter, match="given="):
        conditional_pml(RR3, prior, 0, given=3)
    with pytest.raises(InvalidParameter, match="P_Y"):
        posterior(None, Dist({0: 1, 1: 0}), Kernel({0: {"a": 1}, 1: {"b": 1}}), "b")
    with pytest.raises(InvalidParameter, match="dist="):
        min_entropy([1])
    with pytest.raises(FloatNotAllowed):
        Dist({0: 0.5, 1: 0.5})
    assert issubclass(InvalidParameter, DPCheckError)


@pytest.mark.slow   # the audit's S-PROP12 record runs the same check
def test_the_laplace_count_pml_agrees_with_the_general_route_for_densities():
    """Saeidian et al.'s Laplace count (Prop. 12): the module's tail ratio r/(pr + 1 − p) at r = e^ε is what the
    engine's general route computes from the count's law given one record (a mixture of Laplace densities over
    the other records) at n = 2, p = 1/3, with ε a symbol."""
    from theorems.saeidian_pml_closed_forms import general_route_pml
    g = general_route_pml(2, sp.Rational(1, 3))
    assert g["difference"] == 0
    eps = sp.Symbol("epsilon", positive=True)
    assert sp.simplify(g["formula"] - (eps + sp.log(3 / (sp.exp(eps) + 2)))) == 0


@pytest.mark.slow
def test_the_general_route_gives_the_same_pml_at_three_records():
    """The source says the supremum does not depend on n once ε is fixed: at n = 3, p = 1/2 too."""
    from theorems.saeidian_pml_closed_forms import general_route_pml
    assert general_route_pml(3, sp.Rational(1, 2))["difference"] == 0
