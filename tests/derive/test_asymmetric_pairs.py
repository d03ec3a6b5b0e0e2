"""Density and mass levels take both directions of every neighbouring pair unless the pair is shown mirrored.
Asymmetric pairs (two Laplace scales, Gaussians of two scales, discrete Laplace laws of two scales, one of
them tilted) have different hockey-stick divergences in the two directions; the engine's certified
enclosure must hold the larger one, computed here apart from the engine: by mpmath, splitting each
integral at the roots of p − E·q found by bracketing, and summing mass functions over the integers
term by term (so a piece boundary at a non-integer root is where it falls)."""
from __future__ import annotations

import mpmath as mp
import pytest

from symbolic import derive_level

LAWS = {
    "laplace scales": ("density", lambda y: mp.exp(-abs(y)) / 2, lambda y: mp.exp(-abs(y) / 2) / 4,
                       {"0": "exp(-abs(y))/2", "1": "exp(-abs(y)/2)/4"}),
    "gaussian scales": ("density", lambda y: mp.exp(-y ** 2 / 2) / mp.sqrt(2 * mp.pi),
                        lambda y: mp.exp(-(y - mp.mpf(1) / 2) ** 2 / 8) / mp.sqrt(8 * mp.pi),
                        {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1/2)^2/8)/sqrt(8*pi)"}),
    "discrete laplace scales": ("mass", lambda y: mp.exp(-abs(y)), lambda y: mp.exp(-abs(y - 1) / 2),
                                {"0": "exp(-abs(y))", "1": "exp(-abs(y-1)/2)"}),
    "discrete laplace tilted": ("mass", lambda y: mp.exp(-abs(y)), lambda y: mp.exp(-abs(y - 1) / 3 + y / 5),
                                {"0": "exp(-abs(y))", "1": "exp(-abs(y-1)/3 + y/5)"}),
}


def _document(kind, laws):
    if kind == "density":
        return {"kind": "density", "outputs": "reals", "domain": [0, 1], "density": laws}
    return {"kind": "mass", "outputs": "integers", "domain": [0, 1], "normalise": True, "mass": laws}


def _hockey_stick(kind, p, q, E):
    """∫ or Σ of max(0, p − E·q), for normalised p and q."""
    if kind == "mass":
        ys = [mp.mpf(k) for k in range(-1500, 1501)]     # exact integers as mpf: y / 5 is no float division
        zp, zq = mp.fsum(p(y) for y in ys), mp.fsum(q(y) for y in ys)
        return mp.fsum(max(0, p(y) / zp - E * q(y) / zq) for y in ys)
    g = lambda y: p(y) - E * q(y)  # noqa: E731
    grid = [mp.mpf(k) / 20 for k in range(-600, 601)]
    roots = [mp.findroot(g, (a, b), solver="anderson") for a, b in zip(grid, grid[1:]) if mp.sign(g(a)) != mp.sign(g(b))]
    kinks = [mp.mpf(0), mp.mpf(1) / 2, mp.mpf(1)]          # where |y| and |y − 1| bend, and the Gaussian's mean
    cuts = [-mp.inf, *sorted(set(roots) | set(kinks)), mp.inf]   # g keeps its sign and is smooth on each piece
    return mp.fsum(max(0, mp.quad(g, [a, b])) for a, b in zip(cuts, cuts[1:]))


@pytest.mark.parametrize("name", sorted(LAWS))
@pytest.mark.parametrize("level, params, eps", [("approx-dp", {"eps": "1/2"}, "0.5"), ("total-variation", {}, "0")])
def test_the_level_of_an_asymmetric_pair_is_the_larger_direction(name, level, params, eps):
    kind, p, q, laws = LAWS[name]
    with mp.workdps(30):
        E = mp.exp(mp.mpf(eps))
        forward, backward = _hockey_stick(kind, p, q, E), _hockey_stick(kind, q, p, E)
    if level == "approx-dp":
        assert abs(forward - backward) > mp.mpf("1e-3")     # the two directions differ: the pair is asymmetric
    got = derive_level(level, _document(kind, laws), params=params)
    assert got.ok and got.enclosure is not None, got.unknown
    with mp.workdps(30):
        lo, hi = (mp.mpf(x.numerator) / x.denominator for x in got.enclosure)
        want = max(forward, backward)
        assert lo - mp.mpf("1e-20") <= want <= hi + mp.mpf("1e-20"), (name, level, lo, hi, forward, backward)
