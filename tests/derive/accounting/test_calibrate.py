"""Calibration and many points: the certified interval of the least σ (most steps, largest rate) meeting a
target holds the threshold, checked on both sides by the run's own enclosure; a list of ε gives each point's
enclosure from one build of the bounds, the same as one ε at a time."""
from __future__ import annotations

import pytest

import json
from fractions import Fraction as F

from symbolic.derive.accounting.calibrate import calibrate, profile_points
from symbolic.derive.accounting.run import Stage, account
from theorems.cli.main import main

RUN = Stage("gaussian", F(1), F(1, 10), 4)


@pytest.mark.slow
def test_the_least_sigma_lies_between_a_run_that_misses_and_one_that_meets_the_target():
    c = calibrate(RUN, "sigma", F(2), F(1, 10 ** 5))
    assert c.low < c.high <= c.low * F(102, 100)
    met = account((Stage("gaussian", c.high, F(1, 10), 4),), epsilon=F(2))
    missed = account((Stage("gaussian", c.low, F(1, 10), 4),), epsilon=F(2))
    assert met.delta[1] <= F(1, 10 ** 5) < missed.delta[0]


@pytest.mark.slow
def test_the_most_steps_meet_the_target_and_the_next_bound_does_not():
    c = calibrate(RUN, "steps", F(3), F(1, 10 ** 5))
    assert isinstance(c.low, int) and c.low < c.high
    assert account((Stage("gaussian", F(1), F(1, 10), c.low),), epsilon=F(3)).delta[1] <= F(1, 10 ** 5)
    assert account((Stage("gaussian", F(1), F(1, 10), c.high),), epsilon=F(3)).delta[0] > F(1, 10 ** 5)


@pytest.mark.slow
def test_a_list_of_epsilons_gives_the_enclosures_of_one_at_a_time(capsys):
    pts = profile_points((RUN,), [F(1, 2), F(2)])
    one = account((RUN,), epsilon=F(2))
    assert pts[1][0] == 2 and pts[1][1] <= one.delta[1] and one.delta[0] <= pts[1][2]
    assert main(["account", "--noise", "gaussian:1", "--rate", "1/10", "--steps", "4", "--epsilon", "1/2,2",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["epsilon"] for p in doc["profile"]] == ["1/2", "2"]


def test_calibration_without_a_target_exits_2(capsys):
    code = main(["account", "--noise", "gaussian:1", "--rate", "1/10", "--steps", "4", "--delta", "1e-5",
                 "--calibrate", "sigma"])
    assert code == 2 and "--epsilon" in capsys.readouterr().err
