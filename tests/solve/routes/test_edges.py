import pytest
"""The edges route (symbolic.solve.routes.edges): a hypothesis over every population kept on the simplex's
edges, its ∀t eliminated exactly; the lemma against the exact minimum of a quadratic on [0, 1], and
claims whose hypothesis holds only as a limit of populations decided in the plain form."""
import itertools

import sympy as sp
import z3

from symbolic.api import E, FreeLunchPrivacy, PureDP, Settings, Sizes, check_implies
from symbolic.notions.base import Notion
from symbolic.notions.claims import Implication
from symbolic.notions.families.pml import EntryPMLAllPriors
from symbolic.notions.families.semantic import PosteriorApprox
from symbolic.solve.routes import edges
from symbolic.solve.queries.encode import Encoding
from symbolic.solve.backends.effort import Meter, units

Es = E.symbol
FAST = Settings(second_solver=False)
VALUES = [sp.Rational(k, 4) for k in (-5, -2, -1, 0, 1, 3, 8)]


def _minimum(c0, c1, c2):
    """min over t ∈ [0, 1] of c0 + c1·t + c2·t², exactly."""
    p = lambda t: c0 + c1 * t + c2 * t * t
    points = [sp.Integer(0), sp.Integer(1)]
    if c2 != 0 and 0 < -c1 / (2 * c2) < 1:
        points.append(-c1 / (2 * c2))
    return min(p(t) for t in points)


def test_a_quadratic_is_nonnegative_on_the_unit_interval_exactly_when_the_lemma_says():
    c0, c1, c2 = sp.symbols("c0 c1 c2")
    env = {n: z3.Real(n) for n in ("c0", "c1", "c2")}
    forms = {op: edges.all_of_unit_interval(c0 + c1 * edges.T + c2 * edges.T ** 2, op, env) for op in (">=", ">", "==")}
    for a, b, c in itertools.product(VALUES, repeat=3):
        sub = [(env["c0"], z3.RealVal(str(a))), (env["c1"], z3.RealVal(str(b))), (env["c2"], z3.RealVal(str(c)))]
        truth = {op: z3.is_true(z3.simplify(z3.substitute(f, *sub))) for op, f in forms.items()}
        low = _minimum(a, b, c)
        assert truth[">="] == (low >= 0), (a, b, c)
        assert truth[">"] == (low > 0), (a, b, c)
        assert truth["=="] == (a == b == c == 0)
    assert edges.all_of_unit_interval(c0 + edges.T ** 3, ">=", env) is None


def _decide(hyp, concl, sizes=Sizes(2, 2, 2)):
    enc = Encoding(Implication((hyp,), concl), (E,), sizes, {})
    return edges.decide(enc, FAST, Meter(units(60)))


@pytest.mark.slow   # over 7 s on 2 cores; `pytest -m slow` and the self-test run it
def test_entry_leakage_over_every_prior_gives_free_lunch_privacy_at_two_records():
    """Saeidian et al. Theorem 11 (3) ⇒ (1): the supremum over priors is reached only as the prior's
    mass on one database tends to 0, which the edges' ∀t keeps. Before: CEGIS did not converge."""
    res = _decide(EntryPMLAllPriors(Es), FreeLunchPrivacy(Es))
    assert res.status == "unsat" and res.obligations
    out = check_implies(EntryPMLAllPriors(Es), FreeLunchPrivacy(Es), sizes=Sizes(2, 2, 2), settings=FAST)
    assert out.verdict.name == "proved" and "edges" in out.verdict.certificate["method"]


def test_a_false_claim_on_the_edges_is_not_proved():
    """Free-lunch privacy at (E + 1)/2 < E does not follow: the route finds a re-verified table."""
    res = _decide(EntryPMLAllPriors(Es), FreeLunchPrivacy((Es + 1) / 2))
    assert res.status != "unsat"
    res = _decide(EntryPMLAllPriors(Es ** 2), PureDP(Es))
    assert res.status != "unsat"


def test_claims_without_a_hypothesis_over_every_population_are_not_taken():
    assert _decide(PureDP(Es), FreeLunchPrivacy(Es)) is None


def test_a_hypothesis_over_product_populations_keeps_only_product_edges():
    """t·δ_00 + (1-t)·δ_11 is no product population; only edges between neighbours are kept."""
    from symbolic.notions.families.pml import EntryPMLProductPriors
    enc = Encoding(Implication((EntryPMLProductPriors(Es),), FreeLunchPrivacy(Es)), (E,), Sizes(2, 2, 2), {})
    env = {v.decl().name(): v for _, _, v in enc.vars}
    readings = {"exactly": 0, "by their germs": 0}
    every = edges._edge_instances(enc, EntryPMLAllPriors(Es), env, readings)
    products = edges._edge_instances(enc, enc.universal[0], env, readings)
    assert every is not None and products is not None and 0 < len(products) < len(every)


def test_the_germ_of_a_polynomial_is_its_sign_next_to_each_end():
    """At t = 1/1000 (and 1 − 1/1000) the first nonzero coefficient decides the sign of these
    polynomials (coefficients at most 2, the first nonzero one at least 1/4)."""
    c = sp.symbols("c0 c1 c2 c3")
    env = {x.name: z3.Real(x.name) for x in c}
    f = sum(ck * edges.T ** k for k, ck in enumerate(c))
    values = [sp.Rational(k, 4) for k in (-8, -1, 0, 1, 8)]
    forms = {(op, one): edges.germ(f, op, env, at_one=one) for op in (">=", ">", "==") for one in (False, True)}
    for vals in itertools.product(values, repeat=4):
        sub = [(env[x.name], z3.RealVal(str(v))) for x, v in zip(c, vals)]
        for one in (False, True):
            near = f.subs(dict(zip(c, vals))).subs(edges.T, 1 - sp.Rational(1, 1000) if one else sp.Rational(1, 1000))
            if near == 0 and any(vals):
                continue   # a root at exactly that point: not the germ's question
            for op, truth in ((">=", near >= 0), (">", near > 0), ("==", near == 0 and not any(vals))):
                got = z3.is_true(z3.simplify(z3.substitute(forms[op, one], *sub)))
                assert got == bool(truth), (vals, op, one)


def test_posterior_approximation_gives_pure_dp_in_the_limit_of_beliefs():
    """PosteriorApprox(E) ⇒ PureDP(E) at n = 1 holds only as the belief tends to a point mass (no
    finite set of beliefs proves it); its body on an edge is a disjunction (the zero-normaliser
    cases), whose germ at each end keeps that limit. (E + 1)/2 is refuted, re-verified."""
    assert _decide(PosteriorApprox(Es), PureDP(Es), Sizes(1, 2, 2)).status == "unsat"
    assert _decide(PosteriorApprox(Es), PureDP((Es + 1) / 2), Sizes(1, 2, 2)).status == "sat"


def _flipped_mass(ops, A, P):
    """Σ_x 𝒫(x)·(2·Pr[A(x')=0] − 1) ≤ 0, x' being x with its first record changed: on the edge
    between a and b it speaks of the rows of a' and b', not of a and b."""
    return ops.le(ops.sum(P.p(x) * (2 * A.p((1 - x[0],) + tuple(x[1:]), 0) - 1) for x in A.rows), 0)


FlippedMass = Notion("FlippedMass", (), _flipped_mass, population="all",
                     summary="every population's mass-weighted Pr[A(x')=0] is at most 1/2")
Corners = Notion("Corners", (), lambda ops, A, P=None: ops.le(A.p((0, 0), 0) + A.p((1, 1), 0), 1),
                 summary="Pr[A(00)=0] + Pr[A(11)=0] ≤ 1")


@pytest.mark.slow   # over 5 s on 2 cores; `pytest -m slow` and the self-test run it
def test_edges_among_the_disjuncts_databases_first_then_every_edge():
    """A disjunct is asked first with the edges between the databases it mentions; a model of those
    alone (here: the edge between 00 and 11 constrains only the rows 10 and 01) is asked again
    with every edge, which proves the claim."""
    res = _decide(FlippedMass(), Corners())
    assert res.status == "unsat", res.reason
    assert "(0 on the edges among the databases they mention)" in res.how
    # PosteriorApprox ⇒ PureDP at two records: every disjunct on its own edge (undecided on all six)
    res = _decide(PosteriorApprox(Es), PureDP(Es))
    assert res.status == "unsat" and "(16 on the edges among the databases they mention)" in res.how


def test_the_database_of_an_adaptive_row_is_its_own():
    dbs = {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert edges._database(((1, 0), 1), dbs) == (1, 0)                 # Pr[A(10) = 1]
    assert edges._database(((2, (0, 1)), 0), dbs) == (0, 1)            # Pr[A₂(01) = 0] after A₁ gave 2
    assert edges._database((("marginal", 1), 0), dbs) is None         # a population's entry
    assert edges._database((3, 0), dbs) is None                        # a kernel's row after output 3
