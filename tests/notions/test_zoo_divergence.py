"""The transcendental notions (zCDP, Gaussian DP, mutual-information DP) on worked examples.

Tight levels are computed here by an independent numeric oracle (mpmath at 30 digits: dense grids
refined by golden-section search, bisection on the level), and the engine's certified verdicts are
checked a relative 10⁻³ on either side of them; published implications (pure DP ⇒ zCDP at ε²/2,
pure DP ⇒ MI-DP at ε) are checked on random rational tables."""
from __future__ import annotations

import random

import mpmath as mpm
import pytest
import sympy as sp
import z3

from symbolic.api import E as E_PARAM, Param, Settings, Sizes, check_implies, explain
from symbolic.core.errors import FloatNotAllowed, InvalidParameter, Transcendental
from symbolic.core.ops import ExactOps, UndecidedComparison
from symbolic.core.tables import MechTable
from symbolic.model.mechanism import Mechanism, randomized_response
from symbolic.notions.continuum import capacity_at_most, gaussian_profile_bounded, hockey, renyi_bounded
from symbolic.notions.families.dp import PureDP
from symbolic.notions.info import NotionInfo
from symbolic.notions.zoo.divergence import (ALL, ENTRIES, GaussianDP, MutualInformationDP, ZeroConcentratedDP)
from symbolic.solve.backends.z3_ops import Z3Ops

R = sp.Rational
mpm.mp.dps = 30


def _mech(rows, outputs=None):
    outputs = outputs or tuple(range(len(rows[0])))
    return Mechanism.from_table({u: list(r) for u, r in enumerate(rows)}, outputs=outputs)


def _f(x):
    return mpm.mpf(sp.Rational(x).p) / sp.Rational(x).q


def _golden_min(g, lo, hi, iters=60):
    """min of g on [lo, hi] near a grid minimum (golden-section search)."""
    phi = (mpm.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(iters):
        c, d = b - phi * (b - a), a + phi * (b - a)
        if g(c) < g(d):
            b = d
        else:
            a = c
    return min(g(a), g(lo), g(hi))


def _grid_min(g, lo, hi, n=300):
    xs = [lo + (hi - lo) * mpm.mpf(k) / n for k in range(n + 1)]
    vals = [g(x) for x in xs]
    k = min(range(len(xs)), key=vals.__getitem__)
    return _golden_min(g, xs[max(k - 1, 0)], xs[min(k + 1, n)])


def _renyi(p, q, a):
    return mpm.log(sum(_f(x) ** a * _f(y) ** (1 - a) for x, y in zip(p, q) if x)) / (a - 1)


def oracle_rho(p, q):
    """sup_{α>1} D_α(p‖q)/α, both orders (the tight zCDP level of a two-row table)."""
    best = 0
    for x, y in ((p, q), (q, p)):
        kl = sum(_f(a) * mpm.log(_f(a) / _f(b)) for a, b in zip(x, y) if a)
        best = max(best, kl, -_grid_min(lambda t: -_renyi(x, y, 1 + mpm.exp(t)) / (1 + mpm.exp(t)), -12, 6))
    return best


def _delta(mu, e):
    return mpm.ncdf(-e / mu + mu / 2) - mpm.exp(e) * mpm.ncdf(-e / mu - mu / 2)


def oracle_mu(p, q):
    """The least μ with H_{e^ε} ≤ δ_μ(ε) for all ε ≥ 0, both orders (the tight GDP level)."""
    def ok(mu):
        for x, y in ((p, q), (q, p)):
            r = max(_f(a) / _f(b) for a, b in zip(x, y) if b)
            h = lambda t: sum(max(0, _f(a) - t * _f(b)) for a, b in zip(x, y))
            if r > 1 and _grid_min(lambda t: _delta(mu, mpm.log(t)) - h(t), 1, r, 60) < 0:
                return False
        return True
    lo, hi = mpm.mpf("0.01"), mpm.mpf(10)
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def _around(level):
    """Rationals a relative 10⁻³ below and above a numeric level."""
    x = sp.Rational(str(mpm.nstr(level, 30)))
    return x * R(999, 1000), x * R(1001, 1000)


def _rr(E):
    return [E / (1 + E), 1 / (1 + E)], [1 / (1 + E), E / (1 + E)]


# Bin(4, 1/3) against Bin(4, 2/3): a discretised Gaussian-type pair with full support
BINOMIAL = [[sp.binomial(4, o) * R(2 ** (4 - o), 81) for o in range(5)],
            [sp.binomial(4, o) * R(2 ** o, 81) for o in range(5)]]


# --- zCDP -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("E", [R(2), R(3), R(7, 2)])
def test_zcdp_of_randomized_response_at_its_tight_level(E):
    p, q = _rr(E)
    below, above = _around(oracle_rho(p, q))
    A = randomized_response(E)
    assert explain(ZeroConcentratedDP, A, rho=above) == (True, None)
    holds, reason = explain(ZeroConcentratedDP, A, rho=below)
    assert not holds and "D_α ∈" in reason and "> ρα" in reason


@pytest.mark.parametrize("E", [R(2), R(3), R(10)])
def test_pure_dp_gives_zcdp_at_half_eps_squared(E):
    # Bun & Steinke (2016), Prop. 1.4: ε-DP ⇒ (ε²/2)-zCDP; ρ is a transcendental parameter here
    assert explain(ZeroConcentratedDP, randomized_response(E), rho=sp.log(E) ** 2 / 2) == (True, None)
    assert explain(ZeroConcentratedDP, randomized_response(E, k=3), rho=sp.log(E) ** 2 / 2) == (True, None)


def test_zcdp_exactly_at_a_tangency_is_never_refuted():
    # binary RR: D_α/α decreases to its supremum KL = ε·(E−1)/(E+1) as α → 1, so ρ = KL holds with no slack
    E = R(3)
    try:
        holds = explain(ZeroConcentratedDP, randomized_response(E), rho=sp.log(E) * (E - 1) / (E + 1))[0]
    except UndecidedComparison as e:
        assert "too closely" in str(e)
    else:
        assert holds


def test_zcdp_of_a_gaussian_type_table():
    below, above = _around(oracle_rho(*BINOMIAL))
    B = _mech(BINOMIAL)
    assert explain(ZeroConcentratedDP, B, rho=above)[0]
    assert not explain(ZeroConcentratedDP, B, rho=below)[0]


def test_a_zero_entry_breaks_zcdp_and_gdp_at_every_level():
    Z = _mech([[R(1, 2), R(1, 2)], [1, 0]])
    for rho in (1, 10 ** 6):
        holds, reason = explain(ZeroConcentratedDP, Z, rho=rho)
        assert not holds and "D_α = ∞" in reason
    for mu in (1, 50):
        holds, reason = explain(GaussianDP, Z, mu=mu)
        assert not holds and "never gives" in reason
    assert not explain(PureDP, Z, E=10 ** 6)[0]


def test_identical_rows_are_private_at_level_zero():
    A = _mech([[R(1, 3), R(2, 3)], [R(1, 3), R(2, 3)]])
    assert explain(ZeroConcentratedDP, A, rho=0)[0] and explain(GaussianDP, A, mu=0)[0]
    assert explain(MutualInformationDP, A, E=1)[0]
    B = randomized_response(R(11, 10))
    assert not explain(ZeroConcentratedDP, B, rho=0)[0] and not explain(GaussianDP, B, mu=0)[0]
    assert not explain(MutualInformationDP, B, E=1)[0]


def _random_table(rng, outputs):
    rows = []
    for _ in range(2):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        rows.append([R(x, sum(w)) for x in w])
    return rows


@pytest.mark.parametrize("seed", range(12))
def test_pure_dp_implies_zcdp_and_mi_dp_on_random_tables(seed):
    rng = random.Random(seed)
    rows = _random_table(rng, rng.choice([2, 3]))
    A = _mech(rows)
    E = max(max(a / b, b / a) for a, b in zip(*rows))          # the tight pure-DP level
    assert explain(PureDP, A, E=E)[0]
    assert explain(ZeroConcentratedDP, A, rho=sp.log(E) ** 2 / 2)[0]      # Bun & Steinke, Prop. 1.4
    assert explain(MutualInformationDP, A, E=E)[0]                        # Cuff & Yu: ε-DP ⇒ ε-MI-DP
    if E > 1:
        below, above = _around(oracle_rho(*rows))
        assert explain(ZeroConcentratedDP, A, rho=above)[0]
        assert not explain(ZeroConcentratedDP, A, rho=below)[0]


# --- Gaussian DP -----------------------------------------------------------------------------------

@pytest.mark.parametrize("E", [R(2), R(3)])
def test_gdp_of_randomized_response_at_its_tight_level(E):
    p, q = _rr(E)
    mu = oracle_mu(p, q)
    assert abs(mu - 2 * mpm.sqrt(2) * mpm.erfinv(2 * _f(E / (1 + E)) - 1)) < mpm.mpf(10) ** -6  # oracle check
    below, above = _around(mu)
    A = randomized_response(E)
    assert explain(GaussianDP, A, mu=above) == (True, None)
    holds, reason = explain(GaussianDP, A, mu=below)
    assert not holds and "δ_μ(ε) ∈" in reason


def test_gdp_of_a_gaussian_type_table():
    below, above = _around(oracle_mu(*BINOMIAL))
    B = _mech(BINOMIAL)
    assert explain(GaussianDP, B, mu=above)[0]
    assert not explain(GaussianDP, B, mu=below)[0]


def test_gdp_takes_transcendental_levels():
    A = randomized_response(3)
    assert explain(GaussianDP, A, mu=sp.log(4))[0]              # log 4 ≈ 1.386 > μ* ≈ 1.349
    assert not explain(GaussianDP, A, mu=sp.sqrt(R(18, 10)))[0]  # √1.8 ≈ 1.342 < μ*


def test_hockey_is_exact():
    p, q = _rr(R(3))
    assert hockey(p, q, 1) == R(1, 2) and hockey(p, q, 3) == 0 and hockey(p, q, 2) == R(1, 4)


# --- mutual-information DP -------------------------------------------------------------------------

def _bsc_capacity_E(f):
    """e^C for the binary symmetric channel with crossover f: C = log 2 − h(f) nats."""
    return sp.exp(sp.log(2) + f * sp.log(f) + (1 - f) * sp.log(1 - f))


@pytest.mark.parametrize("E, n", [(R(3), 1), (R(5, 2), 1), (R(3), 2)])
def test_mi_dp_of_randomized_response_is_its_capacity(E, n):
    Ec = _bsc_capacity_E(1 / (1 + E))
    A = randomized_response(E, n=n)
    assert explain(MutualInformationDP, A, E=Ec + R(1, 10 ** 6))[0]
    holds, reason = explain(MutualInformationDP, A, E=Ec - R(1, 10 ** 6))
    assert not holds and "nats >" in reason
    assert explain(MutualInformationDP, A, E=Ec)[0]               # a tie, proved by exact arithmetic
    assert explain(MutualInformationDP, A, E=E)[0]                # ε-DP ⇒ ε-MI-DP (Cuff & Yu 2016)


def test_mi_dp_of_a_noiseless_channel_is_log_k():
    A = _mech([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert explain(MutualInformationDP, A, E=3)[0]
    assert not explain(MutualInformationDP, A, E=R(299, 100))[0]


def _ba_capacity(W):
    """Blahut–Arimoto in mpmath (the oracle), 1500 steps."""
    k = len(W)
    w = [mpm.mpf(1) / k] * k
    for _ in range(1500):
        q = [sum(w[u] * _f(W[u][y]) for u in range(k)) for y in range(len(W[0]))]
        d = [sum(_f(x) * mpm.log(_f(x) / q[y]) for y, x in enumerate(W[u]) if x) for u in range(k)]
        w = [w[u] * mpm.exp(d[u]) for u in range(k)]
        s = sum(w)
        w = [x / s for x in w]
    return sum(w[u] * d[u] for u in range(k))


def test_capacity_of_an_asymmetric_channel():
    W = [[R(1, 2), R(1, 2), 0], [0, R(1, 3), R(2, 3)], [R(1, 5), R(1, 5), R(3, 5)]]
    below, above = _around(mpm.exp(_ba_capacity(W)))
    assert capacity_at_most(W, sp.log(above)).holds is True
    dec = capacity_at_most(W, sp.log(below))
    assert dec.holds is False and "prior" in dec.reason


# --- solver mode, symbols and bad input -------------------------------------------------------------

def _z3_table():
    one = z3.RealVal(1)
    return MechTable(1, (0, 1), (0, 1), {(0,): (one, one - one), (1,): (one - one, one)})


@pytest.mark.parametrize("notion, params", [(ZeroConcentratedDP, {"rho": 1}), (GaussianDP, {"mu": 1}),
                                            (MutualInformationDP, {"E": 2})])
def test_solver_mode_raises_transcendental(notion, params):
    with pytest.raises(Transcendental, match="solver cannot state it"):
        notion.body(Z3Ops(), _z3_table(), **params)
    A = randomized_response(3).table()
    name = list(params)[0]
    with pytest.raises(Transcendental, match="symbolic"):
        notion.body(ExactOps(), A, **{name: sp.Symbol(name, positive=True)})
    p = sp.Symbol("p", positive=True)
    S = Mechanism.from_table({0: [p, 1 - p], 1: [1 - p, p]}, outputs=(0, 1)).table()
    with pytest.raises(Transcendental, match="symbolic"):
        notion.body(ExactOps(), S, **params)


def test_an_implication_into_zcdp_is_unknown_transcendental():
    rho = Param("rho", lower=0)
    res = check_implies(PureDP(E_PARAM.symbol), ZeroConcentratedDP(rho.symbol), params=(E_PARAM, rho),
                        sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
    assert res.verdict.name == "unknown" and "transcendental: zcdp" in res.verdict.reason


@pytest.mark.parametrize("notion, bad, err", [
    (ZeroConcentratedDP, {"rho": -1}, InvalidParameter), (ZeroConcentratedDP, {"rho": 0.5}, FloatNotAllowed),
    (GaussianDP, {"mu": -R(1, 2)}, InvalidParameter), (MutualInformationDP, {"E": R(1, 2)}, InvalidParameter),
])
def test_bad_parameters_are_refused(notion, bad, err):
    with pytest.raises(err):
        explain(notion, randomized_response(3), **bad)


def test_entries_list_the_three_notions():
    assert [e.id for e in ENTRIES] == ["zcdp", "gaussian-dp", "mi-dp"]
    assert all(isinstance(e, NotionInfo) and e.cls == "transcendental" and e.notion in ALL for e in ENTRIES)
    assert {e.notion.params[0].name for e in ENTRIES} == {"rho", "mu", "E"}


def test_pair_deciders_agree_with_each_other_on_order():
    p, q = _rr(R(3))
    assert renyi_bounded(p, q, R(6, 10)).holds is True and renyi_bounded(p, q, R(5, 10)).holds is False
    assert gaussian_profile_bounded(p, q, R(14, 10)).holds is True
    assert gaussian_profile_bounded(p, q, R(13, 10)).holds is False
