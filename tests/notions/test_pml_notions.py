"""Each PML and disclosure notion against hand-computed examples (exact), and its sufficient family against the
solver's CEGIS oracle idea: the family must catch the violations we construct by hand."""
from __future__ import annotations

import sympy as sp

from symbolic.notions.families import disclosure as dn
from symbolic.notions.families import pml as pn
from symbolic.notions import prior_terms as pt
from symbolic.notions.families.dp import PureDP
from symbolic.model.mechanism import Mechanism
from symbolic.core.ops import ExactOps
from symbolic.model.population import Population, product, uniform
from symbolic.core.prob import Dist

R = sp.Rational


def mech(rows, n=1, domain=(0, 1), outputs=(0, 1)):
    return Mechanism.from_table(rows, n=n, domain=domain, outputs=outputs).table()


def pop(probs, n=1, domain=(0, 1)):
    return Population(probs, n=n, domain=domain).table()


RR3 = mech({(0,): [R(3, 4), R(1, 4)], (1,): [R(1, 4), R(3, 4)]})       # capacity log 3
IDENT = mech({(0,): [1, 0], (1,): [0, 1]})


def holds(notion, *tabs, P=None, **kw):
    return bool(notion.body(ExactOps(), *tabs, P=P, **kw))   # a Truth (a bool that keeps its reason) as a bool


def test_pml_under_hand_values():
    # RR3 under P = (1/4, 3/4): P_Y(0) = 3/16 + 3/16 = 3/8, so exp ℓ(X→0) = (3/4)/(3/8) = 2
    P = pop({(0,): R(1, 4), (1,): R(3, 4)})
    assert holds(pn.PMLUnder, RR3, P=P, E=2)
    assert not holds(pn.PMLUnder, RR3, P=P, E=R(199, 100))
    # an x with P(x) = 0 does not count (support-restricted)
    P0 = pop({(1,): 1})
    assert holds(pn.PMLUnder, IDENT, P=P0, E=1)


def test_all_priors_is_the_capacity_and_point_masses_decide_it():
    fam = pt.point_masses(1, (0, 1))
    assert all(holds(pn.PMLAllPriors, RR3, P=q.table(), E=3) for q in fam)
    assert not all(holds(pn.PMLAllPriors, RR3, P=q.table(), E=R(29, 10)) for q in fam)
    # full-support priors approach 3 without reaching it (Remark 13): at P = (1/100, 99/100),
    # exp ℓ(X→0) = (3/4)/(102/400) = 50/17 ≈ 2.94
    P = pop({(0,): R(1, 100), (1,): R(99, 100)})
    assert not holds(pn.PMLAllPriors, RR3, P=P, E=R(29, 10))
    assert holds(pn.PMLAllPriors, RR3, P=P, E=R(50, 17)) and not holds(pn.PMLAllPriors, RR3, P=P, E=R(49, 17))
    assert holds(pn.PMLUnder, RR3, P=P, E=R(5, 2)) is False               # 3/4 / (1/400+... ) > 5/2
    assert holds(pn.PMLUnder, RR3, P=P, E=3)


def test_conditional_pml_is_dp_at_point_masses():
    tg = mech({(0, 0): [R(2, 3), R(1, 3)], (0, 1): [R(1, 3), R(2, 3)], (1, 0): [R(1, 3), R(2, 3)],
               (1, 1): [R(1, 6), R(5, 6)]}, n=2)
    fam = pt.point_masses(2, (0, 1))
    for E in (2, R(3, 2), 4):
        dp = PureDP.body(ExactOps(), tg, E=E)
        assert all(holds(pn.ConditionalPMLAllPriors, tg, P=q.table(), E=E) for q in fam) == dp
        assert all(holds(pn.EntryPMLProductPriors, tg, P=q.table(), E=E) for q in fam) == dp


def test_entry_pml_product_hand_value():
    # n=2, K(1|x) = x_1 (reveals entry 1); product prior P1 = (1/2,1/2): exp ℓ(X_1→1) = 1/(1/2) = 2
    K = mech({(a, b): [1 - a, a] for a in (0, 1) for b in (0, 1)}, n=2)
    P = product([Dist({0: R(1, 2), 1: R(1, 2)}), Dist({0: R(1, 3), 1: R(2, 3)})]).table()
    assert holds(pn.EntryPMLProductPriors, K, P=P, E=2)
    assert not holds(pn.EntryPMLProductPriors, K, P=P, E=R(19, 10))
    assert holds(pn.EntryPMLAllPriors, K, P=P, E=2)
    assert not holds(pn.EntryPMLAllPriors, K, P=P, E=R(19, 10))


def test_disclosure_and_singling_out():
    P = pop({(0,): R(1, 3), (1,): R(1, 3), (2,): R(1, 3)}, domain=(0, 1, 2))
    K = mech({(0,): [1, 0], (1,): [R(1, 2), R(1, 2)], (2,): [0, 1]}, domain=(0, 1, 2))
    U = mech({(0,): [1, 0], (1,): [0, 1], (2,): [0, 1]}, domain=(0, 1, 2))   # U = 1{x ≥ 1}
    assert holds(dn.Discloses, K, U, P=P)           # y=1 comes only from x ∈ {1, 2}
    assert not holds(dn.NoDisclosure, K, U, P=P)
    assert holds(dn.SinglesOut, K, P=P) is False     # y=0 from {0,1}, y=1 from {1,2}
    assert holds(dn.NoSinglingOut, K, P=P)
    assert holds(dn.MinEntropyAbove, U, P=P, E=R(3, 2)) is False   # P_U(1) = 2/3, 3/2·2/3 = 1
    assert holds(dn.MinEntropyAtLeast, U, P=P, E=R(3, 2))
    assert holds(dn.DisclosesToAllAdversaries, K, U, P=uniform(n=1, domain=(0, 1, 2)).table())


def test_capacity_closed_form_and_zero_pattern():
    assert holds(pn.CapacityClosedForm, RR3, E=3) and not holds(pn.CapacityClosedForm, RR3, E=R(5, 2))
    assert holds(pn.ZeroPattern, IDENT) and not holds(pn.NoZeroPattern, IDENT)
    assert holds(pn.NoZeroPattern, RR3) and holds(pn.MinPositiveEntry, RR3, E=4)
    assert not holds(pn.MinPositiveEntry, RR3, E=3)


def test_pre_processing_and_posterior_bound_hand_example():
    # S-spec tight example: R = 3, Q = (1/5, 2/5, 2/5), f = (0,0,1), K_y = (3/10, 3/10, 1/10): posterior 9/11 = bound
    P = pop({(0,): R(1, 5), (1,): R(2, 5), (2,): R(2, 5)}, domain=(0, 1, 2))
    K = mech({(0,): [R(3, 10), R(7, 10)], (1,): [R(3, 10), R(7, 10)], (2,): [R(1, 10), R(9, 10)]}, domain=(0, 1, 2))
    f = mech({(0,): [1, 0], (1,): [1, 0], (2,): [0, 1]}, domain=(0, 1, 2))
    assert holds(dn.PosteriorBound, K, f, P=P, E=3)
    assert not holds(dn.PosteriorBound, K, f, P=P, E=R(29, 10))
    assert holds(dn.PreProcessing, K, f, P=P)


def test_th10_group_bound_hand_value():
    # n=1, RR with E: exp ℓ(X→y) ≤ 1/(P(u) + (1-P(u))/E); uniform prior: 1/(1/2+1/6) = 3/2 for E=3
    P = pop({(0,): R(1, 2), (1,): R(1, 2)})
    assert holds(pn.EntryLeakageGroupBound, RR3, P=P, E=3)
    assert not holds(pn.EntryLeakageGroupBound, IDENT, P=P, E=3)


def test_pml_all_lists_the_disclosure_notions():
    """The CLI and the agreement tests find notions through ``pml.ALL``: it keeps the disclosure notions."""
    assert all(any(n is m for m in pn.ALL) for n in dn.ALL) and any(pt.FullSupport is m for m in pn.ALL)
    assert len({n.name for n in pn.ALL}) == len(pn.ALL) == 37
