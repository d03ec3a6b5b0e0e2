"""The private training run of the accounting issue (Poisson-subsampled Gaussian, q = 1/100, σ = 1, T = 1000,
δ = 1e-5), certified by `dpcheck account`, beside the libraries' numbers for the same run and their seconds
(dp-accounting's privacy-loss distribution, pessimistic and optimistic, and its RDP accountant; autodp's RDP
accountant where installed): none of theirs is proved, each is placed against the certified enclosure.
Usage: python bench/account_run.py [--steps T]"""
import sys
import time
from fractions import Fraction

from symbolic.derive.accounting.run import Stage, account

Q, SIGMA, DELTA = 0.01, 1.0, 1e-5


def _ours(steps):
    rows = []
    run = (Stage("gaussian", Fraction(1), Fraction(1, 100), steps),)
    for claim in (None, ("eps", Fraction(183, 100)), ("eps", Fraction(211, 100)), ("eps", Fraction(175, 100))):
        t = time.process_time()
        r = account(run, delta=Fraction(1, 10 ** 5), claim=claim)
        what = "enclosure" if claim is None else f"--claim eps={float(claim[1])}: {r.claim['verdict']}"
        rows.append((f"dpcheck account ({what})", r.epsilon, time.process_time() - t))
    return rows[0][1], rows


def _libraries(steps):
    rows = []
    try:
        from dp_accounting import dp_event, rdp
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return [("dp-accounting", "not installed", 0.0)]
    for name, kw in (("dp-accounting PLD pessimistic 1e-4", {}),
                     ("dp-accounting PLD optimistic 1e-4", {"pessimistic_estimate": False, "use_connect_dots": False})):
        t = time.process_time()
        p = pld.from_gaussian_mechanism(SIGMA, sampling_prob=Q, value_discretization_interval=1e-4, **kw)
        rows.append((name, p.self_compose(steps).get_epsilon_for_delta(DELTA), time.process_time() - t))
    t = time.process_time()
    acc = rdp.RdpAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(SIGMA)), steps)
    rows.append(("dp-accounting RDP accountant", acc.get_epsilon(DELTA), time.process_time() - t))
    try:
        from autodp import mechanism_zoo, transformer_zoo
        t = time.process_time()
        sub = transformer_zoo.AmplificationBySampling(PoissonSampling=True)(mechanism_zoo.GaussianMechanism(sigma=SIGMA), Q)
        comp = transformer_zoo.Composition()([sub], [steps])
        rows.append(("autodp RDP (generic Poisson amplification)", comp.get_approxDP(DELTA), time.process_time() - t))
    except Exception as e:      # a library's failure is reported, not hidden
        rows.append(("autodp", f"failed: {type(e).__name__}", 0.0))
    return rows


def main(argv):
    steps = int(argv[argv.index("--steps") + 1]) if "--steps" in argv else 1000
    (lo, hi), ours = _ours(steps)
    print(f"run: Poisson-subsampled Gaussian, q = {Q}, σ = {SIGMA}, T = {steps}, δ = {DELTA}")
    print(f"{'what':52} {'ε':>28} {'CPU s':>7}  against the certified enclosure")
    for name, value, secs in ours + _libraries(steps):
        if isinstance(value, tuple):
            shown, where = f"[{float(value[0]):.7f}, {float(value[1]):.7f}]", ""
        elif isinstance(value, float):
            f = Fraction(value)
            where = ("valid, loose by %.2g" % float(f - hi)) if f >= hi else (
                "not a guarantee: below the proved lower bound" if f < lo else "inside the enclosure (not decided)")
            shown = f"{value:.7f}"
        else:
            shown, where = str(value), ""
        print(f"{name:52} {shown:>28} {secs:7.1f}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
