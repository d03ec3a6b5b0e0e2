"""The privacy libraries' own ε for a run, computed by them (each optional: a library not installed is said
so), for `account` to decide as claims: dp-accounting's privacy-loss distribution (pessimistic, its default
grid) and RDP accountant, autodp's RDP accountant, Opacus's RDP accountant. Their numbers are floating point
and unproved; the enclosure says which are valid, how loose, and which are not guarantees."""
from __future__ import annotations

from fractions import Fraction


def _dp_accounting(stages, delta: float):
    from dp_accounting import dp_event, rdp
    from dp_accounting.pld import privacy_loss_distribution as pld
    if stages[0].sampling != "poisson":
        yield from _dp_accounting_without_replacement(stages, delta)
        return
    total, events = None, []
    for s in stages:
        make = pld.from_gaussian_mechanism if s.noise == "gaussian" else pld.from_laplace_mechanism
        one = make(float(s.scale), sampling_prob=float(s.rate), value_discretization_interval=1e-4).self_compose(s.steps)
        total = one if total is None else total.compose(one)
        base = (dp_event.GaussianDpEvent if s.noise == "gaussian" else dp_event.LaplaceDpEvent)(float(s.scale))
        events.append(dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(float(s.rate), base), s.steps))
    yield "dp-accounting PLD (pessimistic, 1e-4)", total.get_epsilon_for_delta(delta)
    acc = rdp.RdpAccountant()
    acc.compose(dp_event.ComposedDpEvent(events))
    yield "dp-accounting RDP", acc.get_epsilon(delta)


def _dp_accounting_without_replacement(stages, delta: float):
    """Its RDP accountant under replace-one (Wang, Balle, Kasiviswanathan 2019); its PLD takes Poisson only."""
    from dp_accounting import dp_event, rdp
    if any(s.noise != "gaussian" for s in stages):
        return
    events = [dp_event.SelfComposedDpEvent(dp_event.SampledWithoutReplacementDpEvent(
        s.rate.denominator, s.rate.numerator, dp_event.GaussianDpEvent(float(s.scale))), s.steps) for s in stages]
    acc = rdp.RdpAccountant(neighboring_relation=rdp.rdp_privacy_accountant.NeighborRel.REPLACE_ONE)
    acc.compose(dp_event.ComposedDpEvent(events))
    yield "dp-accounting RDP (without replacement)", acc.get_epsilon(delta)


def _autodp(stages, delta: float):
    from autodp import mechanism_zoo, transformer_zoo
    if any(s.noise != "gaussian" or s.sampling != "poisson" for s in stages):
        return
    mechs = [mechanism_zoo.NoisySGD_Mechanism(prob=float(s.rate), sigma=float(s.scale), niter=s.steps)
             for s in stages]
    comp = mechs[0] if len(mechs) == 1 else transformer_zoo.Composition()(mechs, [1] * len(mechs))
    yield "autodp RDP (NoisySGD)", comp.get_approxDP(delta)


def _opacus(stages, delta: float):
    from opacus.accountants import RDPAccountant
    if any(s.noise != "gaussian" or s.sampling != "poisson" for s in stages):
        return
    acc = RDPAccountant()
    acc.history = [(float(s.scale), float(s.rate), s.steps) for s in stages]
    yield "Opacus RDP", acc.get_epsilon(delta)


def library_epsilons(stages, delta: Fraction) -> list:
    """[(library, ε as an exact fraction of the float it gave, or None, note)] for each library.

    >>> from symbolic.derive.accounting.run import Stage
    >>> got = library_epsilons((Stage("gaussian", Fraction(1), Fraction(1, 10), 5),), Fraction(1, 10 ** 5))
    >>> all((eps is None) == bool(note) for _, eps, note in got)     # a number, or why there is none
    True
    """
    out = []
    for name, fn in (("dp-accounting", _dp_accounting), ("autodp", _autodp), ("opacus", _opacus)):
        try:
            for label, eps in fn(stages, float(delta)):
                out.append((label, Fraction(eps) if eps == eps and eps not in (float("inf"),) else None, ""))
        except ImportError:
            out.append((name, None, "not installed"))
        except Exception as e:     # a library's own failure is reported as such
            out.append((name, None, f"failed: {type(e).__name__}"))
    return out


__all__ = ["library_epsilons"]
