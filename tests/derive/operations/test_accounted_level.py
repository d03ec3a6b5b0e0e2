"""δ(ε) and total variation of a subsampled Gaussian file (and of runs of it) through `derive level`: the
certified enclosure holds the one-step closed form computed independently in 30 digits."""
from __future__ import annotations

import json
from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp

from symbolic.derive.level import derive_level
from symbolic.derive.operations.accounted_level import accounted_level

EX = Path(__file__).resolve().parents[3] / "docs" / "examples"
SUB = json.loads((EX / "gaussian-poisson.json").read_text())
SUB = {**SUB, "of": json.loads((EX / "gaussian.json").read_text())}


def _one_step(eps, q, sigma=1):
    """Closed form of one step, the order with the record first (the larger here)."""
    e = mp.mpf(eps.p) / eps.q
    y = sigma ** 2 * mp.log((mp.e ** e - 1 + q) / q) + mp.mpf(1) / 2
    return (1 - q) * mp.ncdf(-y / sigma) + q * mp.ncdf(-(y - 1) / sigma) - mp.e ** e * mp.ncdf(-y / sigma)


@pytest.mark.parametrize("eps", [sp.Rational(1, 100), sp.Rational(1, 20)])
def test_one_subsampled_step_holds_the_closed_form(eps):
    d = derive_level("approx-dp", SUB, params={"sigma": "1", "eps": str(eps)})
    lo, hi = d.enclosure
    with mp.workdps(30):
        want = sp.Rational(str(_one_step(eps, mp.mpf(1) / 100)))
    assert d.ok and lo - sp.Rational(1, 10 ** 25) <= want <= hi + sp.Rational(1, 10 ** 25)


def test_runs_of_it_are_enclosed_and_a_missing_epsilon_is_said():
    comp = {"kind": "composition", "of": SUB, "times": 3}
    tv = derive_level("total-variation", comp, params={"sigma": "1"})
    assert tv.ok and 0 < tv.enclosure[0] <= tv.enclosure[1] < 1
    with pytest.raises(Exception, match="eps"):
        accounted_level("approx-dp", comp, {"sigma": "1"})
