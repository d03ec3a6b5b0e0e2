"""The notions Kasiviswanathan and Smith's proofs go through (theorems/kasiviswanathan_smith_lemmas.py):
hand examples, exact instances of the hand steps between them, and constants shown not to be vacuous."""
import sympy as sp

from symbolic.core.verdicts import Refuted, Sizes


def test_posterior_spread_where_safe_exact_example():
    from symbolic.model.mechanism import Mechanism
    from symbolic.core.ops import ExactOps
    from symbolic.model.population import uniform
    from theorems.kasiviswanathan_smith_lemmas import posterior_spread_where_safe_at
    from symbolic.core.tables import databases
    R = sp.Rational
    A = Mechanism.from_table({d: [R(1, 2) - R(sum(d), 8), R(1, 2) + R(sum(d), 8)] for d in databases(2, (0, 1))},
                             n=2, domain=(0, 1), outputs=(0, 1)).table()
    b = uniform(n=2, domain=(0, 1)).table()
    for i in range(2):
        for t in range(2):
            inst = posterior_spread_where_safe_at(i, t)(3, 9)
            assert inst.notion.body(ExactOps(), A, P=b, **inst.param_values())
            tight = posterior_spread_where_safe_at(i, t)(3, 1)
            assert not tight.notion.body(ExactOps(), A, P=b, **tight.param_values())


def test_k51_global_ratio_safety_route_fails():
    """The K-A.3 belief-free step is false under Theorem 5.1's hypothesis (see K51_PROOF in theorems/kasiviswanathan_smith.py)."""
    from symbolic.model.mechanism import Mechanism
    from symbolic.core.ops import ExactOps
    from symbolic.notions.families.semantic import hockey
    from theorems.kasiviswanathan_smith_lemmas import RatioSafeMass
    R = sp.Rational
    h = R(1, 2)
    rows = {(0, 0): [h, h], (0, 1): [h, h], (1, 0): [h, h], (1, 1): [0, 1]}
    A = Mechanism.from_table(rows, n=2, domain=(0, 1), outputs=(0, 1)).table()
    Ev, d = R(11, 10), R(1, 100)
    nb = {x: [y for y in rows if sum(a != c for a, c in zip(x, y)) == 1] for x in rows}
    inside = {x for x in rows if all(hockey(ExactOps(), rows[x], rows[y], Ev) <= d and
                                     hockey(ExactOps(), rows[y], rows[x], Ev) <= d for y in nb[x])}
    assert inside == {(0, 0)}
    inst = RatioSafeMass(3, h - R(1, 1000))
    assert not inst.notion.body(ExactOps(), A, **inst.param_values())


def _random_instance(rng, outputs):
    """An exact n=2 mechanism: rows with weights 100 ± 4 (so neighbours are usually within
    e^ε = 11/10), one database sometimes far off (so ℰ is not always everything)."""
    from symbolic.model.mechanism import Mechanism
    R = sp.Rational
    rows = {}
    odd = rng.choice([None, None, (0, 0), (0, 1), (1, 0), (1, 1)])
    for x in ((0, 0), (0, 1), (1, 0), (1, 1)):
        w = [R(100 + rng.randint(-4, 4) + (60 * (o == 0) if x == odd else 0)) for o in range(outputs)]
        rows[x] = [v / sum(w) for v in w]
    return Mechanism.from_table(rows, n=2, domain=(0, 1), outputs=tuple(range(outputs))).table()


def _belief_on(rng, xs, inside, d):
    """An exact belief with mass ≥ 1-δ on the databases ``inside`` (random within and outside)."""
    from symbolic.model.population import Population
    R = sp.Rational
    out = [x for x in xs if x not in inside]
    rest = R(rng.randint(0, 10), 10) * d if out else 0
    w_in = [R(rng.randint(0, 9)) for _ in inside]
    w_in[rng.randrange(len(inside))] += 1
    w_out = [R(rng.randint(1, 9)) for _ in out]
    probs = {x: (1 - rest) * v / sum(w_in) for x, v in zip(inside, w_in)}
    probs.update({x: rest * v / sum(w_out) for x, v in zip(out, w_out)})
    return Population(probs, n=2, domain=(0, 1)).table()


def test_k51_slice_glue_on_exact_instances():
    """The hand steps (2) and (5) of K51_PROOF checked exactly on random instances: the slice at every
    (i, t) satisfies SliceHypothesis(ℰ) whenever b(ℰ) ≥ 1-δ; the event merge by U = {π > ρ} keeps Σc, Σd
    and turns the cross-multiplied SD into (c0' + c2')·Σd - (d0' + d2')·Σc; and the theorem's own
    statement holds on the instance."""
    import random
    from symbolic.core.ops import ExactOps
    from symbolic.notions.families.semantic import LocallyDPSemanticPrivacy, locally_indist, posterior_parts
    from theorems.kasiviswanathan_smith_lemmas import event_merge, slice_hypothesis, slice_table
    rng = random.Random(7)
    ops = ExactOps()
    R = sp.Rational
    Ev, d = R(11, 10), R(1, 100)
    checked = partial = 0
    for k in range(60):
        A = _random_instance(rng, 2 + k % 2)
        xs = sorted(A.rows)
        inside = [j for j, x in enumerate(xs) if locally_indist(ops, A, x, Ev, d)]
        if not inside:
            continue
        b = _belief_on(rng, xs, [xs[j] for j in inside], d)
        assert sum(b.p(xs[j]) for j in inside) >= 1 - d
        checked += 1
        partial += len(inside) < 4
        for i in range(2):
            for t in A.outputs:
                T = slice_table(A, b, i, t)
                hyp = slice_hypothesis(inside)(Ev, d)
                assert hyp.notion.body(ops, T, **hyp.param_values())
                w0, wi, Z0, Zi = posterior_parts(ops, A, b, i, t)
                c, dd = T.rows[(0,)][:-1], T.rows[(1,)][:-1]
                assert sum(c) == Z0 and sum(dd) == Zi
                U = {j for j in range(4) if c[j] * Zi > dd[j] * Z0}
                f = event_merge(inside, U, 4)
                cc = [sum(c[j] for j in range(4) if f[j] == g) for g in range(4)]
                dm = [sum(dd[j] for j in range(4) if f[j] == g) for g in range(4)]
                sd = sum(max(0, w0[x] * Zi - wi[x] * Z0) for x in xs)
                assert sd == (cc[0] + cc[2]) * Zi - (dm[0] + dm[2]) * Z0
        inst = LocallyDPSemanticPrivacy(Ev, d, Ev ** 3 - 1 + R(1, 5), R(1, 5))
        assert inst.notion.body(ops, A, P=b, **inst.param_values())
    assert checked >= 40 and partial >= 10


def test_slice_notions_on_hand_examples():
    from symbolic.core.ops import ExactOps
    from theorems.kasiviswanathan_smith_lemmas import LocalSliceGap, SliceEventBound, slice_hypothesis
    from symbolic.core.tables import MechTable
    R = sp.Rational
    ops = ExactOps()
    h = R(1, 2)
    # c = (1/2, 0, 0, 0), d = (0, 1/2, 0, 0): gaps 1/2 each, π({0,2}) - ρ({0,2}) = 1
    T = MechTable(1, (0, 1), tuple(range(5)), {(0,): (h, 0, 0, 0, h), (1,): (0, h, 0, 0, h)})
    hyp = slice_hypothesis((0, 1))(R(11, 10), R(1, 100))
    assert not hyp.notion.body(ops, T, **hyp.param_values())
    wide = slice_hypothesis((0, 1))(R(11, 10), 1)
    assert wide.notion.body(ops, T, **wide.param_values())  # gaps 1/2 + 1/2 ≤ 1
    bound = SliceEventBound(R(531, 1000), R(1, 15))
    assert not bound.notion.body(ops, T, **bound.param_values())
    small = SliceEventBound(R(531, 1000), h)  # Σc = 1/2 ≤ β
    assert small.notion.body(ops, T, **small.param_values())
    # LocalSliceGap on the mechanism of test_k51_global_ratio_safety_route_fails: ℰ = {00}, gaps 0
    from symbolic.model.mechanism import Mechanism
    rows = {(0, 0): [h, h], (0, 1): [h, h], (1, 0): [h, h], (1, 1): [0, 1]}
    A = Mechanism.from_table(rows, n=2, domain=(0, 1), outputs=(0, 1)).table()
    gap = LocalSliceGap(R(11, 10), R(1, 100))
    assert gap.notion.body(ops, A, **gap.param_values())


def test_slice_event_bound_constant_is_not_vacuous():
    """The 4-atom lemma fails for a small enough β: the engine refutes it and the counterexample is
    re-verified exactly (so the proved β = 1/15 is a real constraint)."""
    from symbolic.notions.claims import E, Implies
    from symbolic.solve.search import Settings, check_implication
    from symbolic.solve.queries.solver import fresh_context
    from theorems.kasiviswanathan_smith_lemmas import SliceEventBound, slice_hypothesis
    R = sp.Rational
    fresh_context()
    imp = Implies(slice_hypothesis((0, 1), expanded=True)(E.symbol, R(1, 100)),
                  SliceEventBound(E.symbol ** 3 - R(4, 5), R(1, 50)), parameters={"E": R(11, 10)})
    v = check_implication(imp, (E,), Sizes(1, 2, 5), Sizes(1, 2, 5), Settings())
    assert isinstance(v, Refuted) and v.verified_exactly


def test_k41_slices_on_the_counterexample():
    """On the Lemma 4.1 counterexample (joint hockeys 1/10⁴): every transcript's slice satisfies the
    per-t hypothesis (step 1 of K41_PROOF); the bad transcripts are t1 and t2, which the per-t lemma
    allows because P(t), Q(t) ≤ 1/100 there (with β = 1/1000 the lemma fails on t1)."""
    from symbolic.core.ops import ExactOps
    from theorems.kasiviswanathan_smith_lemmas import (PosteriorIndistWhereHeavy, joint_bad_transcripts,
                                                       joint_slice_hypotheses)
    from symbolic.core.tables import MechTable
    from theorems.kasiviswanathan_smith import _k41_mechanism
    R = sp.Rational
    ops = ExactOps()
    A = _k41_mechanism()["A"].table()
    hyp = joint_slice_hypotheses(2)(2, R(1, 10 ** 4))
    assert hyp.notion.body(ops, A, **hyp.param_values())
    bads = joint_bad_transcripts(ops, A, 2, 8, R(1, 50))
    assert [bool(b) for b, _, _ in bads] == [False, True, True]
    assert sum(pt for b, pt, _ in bads if b) == R(493, 35000)
    lemma = PosteriorIndistWhereHeavy(2, R(1, 10 ** 4), 8, R(1, 50), R(1, 100))
    p, q = A.rows[(0,)], A.rows[(1,)]
    for t in range(3):
        c, d = p[2 * t:2 * t + 2], q[2 * t:2 * t + 2]
        T = MechTable(1, (0, 1), (0, 1, 2), {(0,): tuple(c) + (1 - sum(c),), (1,): tuple(d) + (1 - sum(d),)})
        assert lemma.notion.body(ops, T, **lemma.param_values())
    tight = PosteriorIndistWhereHeavy(2, R(1, 10 ** 4), 8, R(1, 50), R(1, 1000))
    c, d = p[2:4], q[2:4]
    T = MechTable(1, (0, 1), (0, 1, 2), {(0,): tuple(c) + (1 - sum(c),), (1,): tuple(d) + (1 - sum(d),)})
    assert not tight.notion.body(ops, T, **tight.param_values())


def test_k41_per_transcript_constant_is_not_vacuous():
    from symbolic.notions.claims import E, Implies
    from symbolic.solve.search import Settings, check_implication
    from symbolic.solve.queries.solver import fresh_context
    from theorems.kasiviswanathan_smith_lemmas import PosteriorIndistWhereHeavy
    R = sp.Rational
    fresh_context()
    imp = Implies((), PosteriorIndistWhereHeavy(E.symbol, R(1, 10 ** 4), E.symbol ** 3, R(1, 50), R(1, 110)),
                  parameters={"E": 2})
    v = check_implication(imp, (E,), Sizes(1, 2, 3), Sizes(1, 2, 3), Settings())
    assert isinstance(v, Refuted) and v.verified_exactly
