"""Sampling m of n without replacement (replace one record): one step's enclosure holds the exact value (the
bound is tight there), the symmetric step takes the larger order at every loss, several steps are bounded above
by at least the attained pair, and the run is read from the flags, a file and a DpEvent alike."""
from __future__ import annotations

import json
from fractions import Fraction as F

import mpmath as mp
import pytest

from symbolic.core.certified import flint_module
from symbolic.core.errors import InvalidParameter
from symbolic.derive.accounting.adapters import stages_from_dp_event
from symbolic.derive.accounting.loss_laws import StepLoss
from symbolic.derive.accounting.run import Stage, account
from symbolic.derive.accounting.symmetric import SymmetricStep
from theorems.cli.main import main

WOR = "without-replacement"


def _one_step_delta(eps, q):
    """δ(ε) of one step on the databases where the record adds 1 (σ = 1): the mixture against N(0, 1), whose
    threshold y* has the closed form y* = log((e^ε − 1 + q)/q) + 1/2."""
    eps, q = (mp.mpf(x.numerator) / x.denominator for x in (eps, q))
    y = mp.log((mp.e ** eps - 1 + q) / q) + mp.mpf(1) / 2
    tail = lambda t: mp.ncdf(-t)
    return (1 - q) * tail(y) + q * tail(y - 1) - mp.e ** eps * tail(y)


@pytest.mark.slow
def test_one_step_is_enclosed_around_its_exact_value():
    q, eps = F(1, 4), F(1, 2)
    lo, hi = account((Stage("gaussian", F(1), q, 1, sampling=WOR),), epsilon=eps, precision=F(1, 10 ** 4)).delta
    with mp.workdps(30):
        want = _one_step_delta(eps, q)
        assert mp.mpf(lo.numerator) / lo.denominator <= want <= mp.mpf(hi.numerator) / hi.denominator
    assert hi - lo < F(1, 1000) * hi


@pytest.mark.parametrize("loss", [F(-3, 2), F(-1, 4), F(1, 4), F(2)])
def test_the_symmetric_step_bounds_both_orders_at_every_loss(loss):
    r, a = (StepLoss("gaussian", (1, 1), (1, 5), o) for o in ("remove", "add"))
    fl = flint_module()
    x = (fl.arb(loss.numerator) / loss.denominator).exp()
    l = fl.arb(loss.numerator) / loss.denominator
    p, q = SymmetricStep(r, a).tails(l)
    for order in (r, a):
        u, v = order.tails(l)
        assert (p - x * q).upper() >= (u - x * v).upper()


def test_below_the_zero_loss_the_order_without_the_record_first_is_the_larger():
    r, a = (StepLoss("gaussian", (1, 1), (1, 5), o) for o in ("remove", "add"))
    fl = flint_module()
    l = fl.arb(-1)
    x = l.exp()
    (p, q), (u, v) = SymmetricStep(r, a).tails(l), a.tails(l)
    assert (p - x * q).upper() == (u - x * v).upper()
    ur, vr = r.tails(l)
    assert (ur - x * vr).upper() < (u - x * v).lower()


@pytest.mark.slow
def test_several_steps_are_bounded_above_by_at_least_the_attained_pair():
    eps = F(1)
    poisson = account((Stage("gaussian", F(1), F(1, 10), 4),), epsilon=eps)
    wor = account((Stage("gaussian", F(1), F(1, 10), 4, sampling=WOR),), epsilon=eps)
    assert wor.delta[0] == poisson.delta[0]          # the same databases attain the lower bound
    assert wor.delta[1] >= poisson.delta[1]
    assert wor.to_json()["sampling"] == WOR and "without replacement" in wor.text()


def test_a_run_mixing_the_two_relations_is_refused():
    with pytest.raises(InvalidParameter, match="one neighbour relation"):
        account((Stage("gaussian", F(1), F(1, 10), 2), Stage("gaussian", F(1), F(1, 10), 2, sampling=WOR)),
                delta=F(1, 10 ** 5))


@pytest.mark.slow
def test_the_flags_a_file_and_a_dp_event_give_one_run(capsys, tmp_path):
    event = {"class_name": "SelfComposedDpEvent", "count": 3, "event": {
        "class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": 100, "sample_size": 10,
        "event": {"class_name": "GaussianDpEvent", "noise_multiplier": 1.0}}}
    assert stages_from_dp_event(event) == (Stage("gaussian", F(1), F(1, 10), 3, sampling=WOR),)
    density = {"kind": "density", "domain": [0, 1], "outputs": "reals",
               "density": {"0": "exp(-y^2/2)/sqrt(2*pi)", "1": "exp(-(y-1)^2/2)/sqrt(2*pi)"}}
    run = {"kind": "composition", "times": 3, "of": {"kind": "subsampled", "sampling": WOR, "rate": "1/10",
                                                      "size": 100, "of": density}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    got = []
    for args in (["--noise", "gaussian:1", "--rate", "1/10", "--steps", "3", "--sampling", WOR],
                 ["--noise", str(path)]):
        assert main(["account", *args, "--delta", "1e-5", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        got.append((doc["epsilon"], doc["sampling"]))
    assert got[0] == got[1] and got[0][1] == WOR


@pytest.mark.slow
def test_the_published_run_without_replacement_is_below_the_rdp_bound(capsys):
    """The run of q = 1/100, σ = 1, T = 1000 sampled without replacement: its certified upper end is below
    dp-accounting's RDP number for it (Wang, Balle, Kasiviswanathan), which is above the certified lower end."""
    code = main(["account", "--noise", "gaussian:1", "--rate", "1/100", "--steps", "1000", "--sampling", WOR,
                 "--delta", "1e-5", "--libraries", "--json"])
    doc = json.loads(capsys.readouterr().out)
    lo, hi = F(doc["epsilon"]["lower"]), F(doc["epsilon"]["upper"])
    rdp = [x for x in doc["libraries"] if x["source"].startswith("dp-accounting RDP")]
    assert code == 0 and lo >= F("1.78") and rdp and rdp[0]["verdict"] == "proved"
