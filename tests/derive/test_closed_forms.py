"""Tests for the closed forms of theorems/saeidian_pml_closed_forms.py (PML of the Laplace and truncated
geometric counts and of randomized response; the finite ones through derive_level), of
theorems/lecture_derivations.py (Laplace scales under composition) and for symbolic/report/plots.py: each
derived formula against an independent numeric integration, a direct mixture, or exact enumeration. (What
Saeidian et al.'s Proposition 12 and Example 3.3 add is tested in tests/theorems/test_theorems_s.py.)"""
from __future__ import annotations

import dataclasses
import itertools
import math

import pytest
import sympy as sp

from symbolic.derive.closed_forms import D, DELTA, EPS, K, LAM, N, P, taylor
from symbolic.model.mechanism import randomized_response
from theorems import lecture_derivations as ld, saeidian_pml_closed_forms as cf
from symbolic.core.errors import FloatNotAllowed, InvalidParameter, InvalidSize
from symbolic.notions.leakage import leakage_capacity, max_pml, pml
from symbolic.core.prob import Dist, Kernel


@pytest.fixture(scope="module")
def lap():
    return cf.laplace_count_pml()


@pytest.fixture(scope="module")
def rr():
    return cf.rr_pml()


@pytest.fixture(scope="module")
def geo():
    return cf.truncated_geometric_pml(sizes=(2,))      # the claim's (2, 3): tests/theorems/test_theorems_s.py (slow)


def _num(expr, **vals):
    return float(expr.subs({sp.Symbol(k, positive=True) if k != "n" else N: v for k, v in vals.items()}))


def _f(expr, subs):
    return float(sp.N(expr.subs(subs), 30))


# ------------------------------------------------------------------ (a) Laplace counting query
@pytest.mark.parametrize("n,b,p", [(1, 1.0, 0.3), (3, 0.5, 0.2), (5, 0.4, 0.5), (8, 0.25, 0.7), (4, 2.0, 0.05)])
def test_laplace_sup_over_y_matches_direct_mixture(lap, n, b, p):
    eps = 1 / (n * b)
    expected = _f(lap.extras["sup_y_given_p"], {EPS: eps, P: sp.nsimplify(p)})
    grid = [-3 + 0.01 * i for i in range(701)]                       # y in [-3, 4]
    got, y_at = cf.numeric_laplace_count_pml(n, b, p, grid)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert y_at >= 1 - 1e-9 or y_at <= 1e-9                          # attained on a tail
    inner, _ = cf.numeric_laplace_count_pml(n, b, p, [0.02 + 0.01 * i for i in range(97)])
    assert inner < expected - 1e-6                                     # strictly smaller inside (0, 1)


@pytest.mark.parametrize("n,b,p", [(2, 1.0, 0.3), (6, 0.3, 0.6)])
def test_laplace_tail_ratios_by_quadrature(lap, n, b, p):
    eps, pp = 1 / (n * b), sp.nsimplify(p)
    for x_i, key in ((1, "tail_ratio_x1"), (0, "tail_ratio_x0")):
        want = _f(lap.extras[key], {EPS: eps, P: pp})
        assert cf.numeric_laplace_tail_ratio(n, b, p, x_i) == pytest.approx(want, rel=1e-7)
        # the ratio is constant on the tail: a deeper cut gives the same number
        cut = 2.5 if x_i == 1 else -1.5
        assert cf.numeric_laplace_tail_ratio(n, b, p, x_i, cut=cut) == pytest.approx(want, rel=1e-7)


@pytest.mark.parametrize("lam,n,b", [(0.1, 4, 0.5), (0.25, 3, 1.0), (0.5, 2, 0.25)])
def test_laplace_sup_over_p(lap, lam, n, b):
    grid = [lam + (1 - 2 * lam) * i / 40 for i in range(41)]
    ys = [-1.0, 0.0, 0.5, 1.0, 2.0]
    best = max(cf.numeric_laplace_count_pml(n, b, p, ys)[0] for p in grid)
    assert best == pytest.approx(_f(lap.formula, {EPS: 1 / (n * b), LAM: sp.nsimplify(lam)}), rel=1e-9)


def test_laplace_limits_and_series(lap):
    ex = lap.extras
    assert ex["lambda_to_0"] == EPS
    assert sp.simplify(ex["eps_to_infinity"] + sp.log(LAM)) == 0        # log(1/λ)
    assert sp.expand(ex["series"] - taylor(lap.formula, EPS, 4)) == 0
    assert sp.expand(ex["series"].coeff(EPS, 1) - (1 - LAM)) == 0 and ex["series"].coeff(EPS, 0) == 0


def test_laplace_substitution_and_errors():
    d = cf.laplace_count_pml(eps=1, lam=sp.Rational(1, 4))
    assert sp.simplify(d.formula - sp.log(4 * sp.E / (sp.E + 3))) == 0
    for bad in (dict(lam=0), dict(lam=sp.Rational(3, 5)), dict(eps=-1)):
        with pytest.raises(InvalidParameter, match="lam=|eps="):
            cf.laplace_count_pml(**bad)
    with pytest.raises(FloatNotAllowed):
        cf.laplace_count_pml(eps=0.5)


def test_derivation_is_frozen(lap):
    with pytest.raises(dataclasses.FrozenInstanceError):
        lap.formula = sp.Integer(0)
    assert lap.at({EPS: 0, LAM: sp.Rational(1, 3)}) == 0
    assert [s for s, _ in lap.steps if "agree" in s] and all(isinstance(t, str) for t, _ in lap.steps)


# ------------------------------------------------------------------ (b) truncated geometric
@pytest.mark.parametrize("n,alpha,p", [(1, "1/2", "1/3"), (2, "1/3", "1/2"), (4, "2/3", "1/5"),
                                       (5, "1/2", "4/5"), (3, "9/10", "1/10")])
def test_truncated_geometric_exact_enumeration(geo, n, alpha, p):
    alpha, p = sp.Rational(alpha), sp.Rational(p)
    got = cf.truncated_geometric_pml_exact(n, alpha, p)
    want = geo.extras["sup_o_given_p"].subs({EPS: -sp.log(alpha), P: p})
    assert sp.simplify(got - want) == 0


def test_truncated_geometric_kernel_rows_and_dp():
    g = cf.truncated_geometric_kernel(4, sp.Rational(1, 3))
    for c in range(5):
        assert sum(g[c].probs) == 1
    assert leakage_capacity(Kernel({c: g[c] for c in (1, 2)})) == sp.log(3)   # neighbours: ε = log 3
    with pytest.raises(InvalidParameter, match="alpha="):
        cf.truncated_geometric_kernel(2, 2)
    with pytest.raises(InvalidSize, match="n="):
        cf.truncated_geometric_kernel(0, sp.Rational(1, 2))


def test_truncated_geometric_sup_over_p(geo):
    lam, alpha = sp.Rational(1, 5), sp.Rational(1, 2)
    grid = [lam + (1 - 2 * lam) * sp.Rational(i, 6) for i in range(7)]
    best = max((cf.truncated_geometric_pml_exact(3, alpha, p) for p in grid), key=lambda v: float(v))
    assert sp.simplify(best - geo.formula.subs({EPS: sp.log(2), LAM: lam})) == 0


@pytest.mark.slow
def test_truncated_geometric_n3_gives_the_n2_pieces():
    """derive_level on the n = 3 table (at the crossing n = 2 located) gives n = 2's pieces, maximised at
    o = n for x_i = 1 and o = 0 for x_i = 0."""
    two, three = cf.truncated_geometric_pml(sizes=(2,)), cf.truncated_geometric_pml(sizes=(2, 3))
    assert sp.simplify(two.extras["sup_o_given_p"] - three.extras["sup_o_given_p"]) == 0
    assert [t for t, _ in three.steps if t.startswith("n=3: derive_level pml on 1 < E and 0 < p ≤ 1/2: maximiser x=1, y=3")]


@pytest.mark.slow
def test_derive_level_sides_must_be_decided():
    """A wrong crossing leaves one side with two candidates: sided_pml refuses rather than guess."""
    rr = randomized_response(sp.Symbol("E", positive=True))
    s = cf.sided_pml(rr)
    assert s.cut == sp.Rational(1, 2) and s.located.proved
    assert (cf.maximiser(s.low)["output"], cf.maximiser(s.high)["output"]) == (1, 0)
    with pytest.raises(AssertionError, match="did not decide one maximiser"):
        cf.sided_pml(rr, cut=sp.Rational(1, 3))
    with pytest.raises(InvalidSize, match="n=0"):
        cf.truncated_geometric_pml(sizes=(0,))


# ------------------------------------------------------------------ (c) randomized response
@pytest.mark.parametrize("p", ["1/10", "1/3", "1/2", "7/8"])
def test_rr_against_pml_module(rr, p):
    d, p = rr, sp.Rational(p)
    E = sp.Integer(3)
    kern, prior = cf.rr_kernel(E), Dist({0: 1 - p, 1: p})
    for y, key in ((1, "y1"), (0, "y0")):
        assert sp.simplify(pml(kern, prior, y) - d.extras[key].subs({EPS: sp.log(3), P: p})) == 0
    assert sp.simplify(max_pml(kern, prior) - d.formula.subs({EPS: sp.log(3), P: p})) == 0


def test_rr_sup_over_p_is_capacity(rr, lap):
    d = rr
    assert d.extras["sup_over_p"] == EPS and d.extras["limit_p_to_1"] == EPS
    assert leakage_capacity(cf.rr_kernel(sp.Integer(3))) == sp.log(3)
    vals = [float(d.formula.subs({EPS: sp.log(3), P: sp.Rational(1, 10 ** j)})) for j in (1, 3, 6)]
    assert vals[0] < vals[1] < vals[2] < math.log(3)
    assert math.log(3) - vals[2] < 1e-5
    assert sp.simplify(d.extras["sup_over_lambda"] - lap.formula) == 0


# ------------------------------------------------------------------ (e) Laplace noise under composition
def _max_log_ratio(b, shifts, ys):
    """max over the vector y of Σ_j log Lap(y_j; s_j, b)/Lap(y_j; 0, b) (numeric, on a grid;
    the coordinates are independent, so the max is taken per coordinate)."""
    return sum(max((abs(y) - abs(y - s)) / b for y in ys) for s in shifts)


def test_k_releases_scale():
    d = ld.laplace_k_releases_scale()
    assert d.extras["factor"] == K and d.extras["magnitude_factor"] == K and d.extras["std_factor"] == K
    ys = [-5 + 0.01 * i for i in range(1001)]
    for k, eps, delta in [(3, 1.0, 1.0), (5, 0.5, 2.0)]:
        b = _f(d.formula, {K: k, EPS: sp.nsimplify(eps), DELTA: sp.nsimplify(delta)})
        assert _max_log_ratio(b, [delta], ys) == pytest.approx(eps / k, rel=1e-9)
    assert ld.laplace_k_releases_scale(k=4, eps=2).formula == 2 * DELTA
    with pytest.raises(InvalidSize, match="k=0"):
        ld.laplace_k_releases_scale(k=0)


def test_histogram_scales_by_enumeration():
    h = ld.histogram_laplace_scales()
    assert h.extras["ratio"] == D / 2 and h.extras["l1_sensitivity"] == 2
    d_bins, records, eps = 3, 2, 1.0
    ys = [-3 + 0.05 * i for i in range(121)]
    hist = lambda db: [sum(1 for r in db if r == j) for j in range(d_bins)]
    worst_joint, worst_bin = 0.0, 0.0
    for db in itertools.product(range(d_bins), repeat=records):
        for i, v in itertools.product(range(records), range(d_bins)):
            nb = list(db); nb[i] = v
            diff = [a - b for a, b in zip(hist(nb), hist(db))]
            b_joint = _f(h.extras["joint_scale"], {EPS: eps})
            worst_joint = max(worst_joint, _max_log_ratio(b_joint, [x for x in diff if x], ys))
            b_bin = _f(h.formula, {D: d_bins, EPS: eps})
            worst_bin = max(worst_bin, max((_max_log_ratio(b_bin, [x], ys) for x in diff if x), default=0))
    assert worst_joint == pytest.approx(eps, rel=1e-9)
    assert worst_bin * d_bins == pytest.approx(eps, rel=1e-9)       # d per-bin releases compose to ε
    with pytest.raises(InvalidSize, match="d=1"):
        ld.histogram_laplace_scales(d=1)


# ------------------------------------------------------------------ plots
def test_plot_curves_writes_png(tmp_path):
    from symbolic.report import plots
    path = plots.plot_curves(tmp_path / "sub" / "c.png", [("a", [1, 2, 3], [1.0, 2.0, 4.0], 2.0), ("b", [1, 2], [3.0, 1.0])],
                             xlabel="x", ylabel="y", title="t")
    assert path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    log = plots.plot_curves(tmp_path / "l.png", [("a", [1, 2], [0.1, 0.01])], xlabel="x", ylabel="y", title="t", logy=True)
    assert log.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InvalidParameter):
        plots.plot_curves(tmp_path / "x.png", [("a", [1, 2], [1.0])], xlabel="x", ylabel="y", title="t")
