"""Mechanism factories and constructions, checked exactly."""
import sympy as sp
import pytest

from symbolic.notions.families.dp import PureDP
from symbolic.core.errors import InvalidParameter, InvalidSize, InvalidDistribution
from symbolic.model.mechanism import (Mechanism, compose, constant, name_and_shame, post_process, randomized_response,
                                truncated_geometric)
from symbolic.core.ops import ExactOps
from symbolic.model.population import iid, point_mass, product, uniform
from symbolic.core.prob import Dist, Kernel


def dp(m, E):
    return PureDP.body(ExactOps(), m.table(), E=E)


def test_kary_rr_tight_epsilon():
    m = randomized_response(4, k=3)
    assert m.prob((0,), 0) == sp.Rational(4, 6) and m.prob((0,), 2) == sp.Rational(1, 6)
    assert dp(m, 4) and not dp(m, sp.Rational(39, 10))


def test_rr_symbolic_rows_validate():
    E = sp.Symbol("E", positive=True)
    m = randomized_response(E, n=2)
    assert sp.simplify(sum(m[(0, 1)].probs) - 1) == 0


def test_name_and_shame_publishes_with_probability():
    d = sp.Symbol("delta", positive=True)
    m = name_and_shame(d, n=2)
    nothing = m.prob((0, 1), (None, None))
    assert sp.expand(1 - nothing - (1 - (1 - d) ** 2)) == 0


def test_composition_adds_epsilons_on_an_example():
    c = compose(randomized_response(3), randomized_response(2))
    assert dp(c, 6) and not dp(c, sp.Rational(59, 10))


def test_post_processing_keeps_dp():
    k = Kernel({0: {"x": "1/3", "y": "2/3"}, 1: {"x": 1}})
    m = post_process(randomized_response(3), k)
    assert dp(m, 3)


def test_constant_is_zero_dp():
    assert dp(constant({"a": "1/5", "b": "4/5"}, n=2, domain=(0, 1, 2)), 1)


def test_bad_sizes_and_parameters():
    with pytest.raises(InvalidSize):
        truncated_geometric(2, n=0)
    with pytest.raises(InvalidParameter):
        randomized_response(sp.Rational(1, 2))
    with pytest.raises(InvalidParameter):
        name_and_shame(2, n=1)
    with pytest.raises(InvalidDistribution):
        Mechanism.from_table({0: [1, 0]}, n=1, domain=(0, 1), outputs=(0, 1))  # missing a row


def test_populations():
    p = product([Dist({0: "1/3", 1: "2/3"}), Dist({0: "1/2", 1: "1/2"})])
    assert p.prob((1, 0)) == sp.Rational(1, 3)
    assert iid(Dist.uniform((0, 1, 2)), n=2).prob((2, 2)) == sp.Rational(1, 9)
    assert point_mass((1, 0), domain=(0, 1)).prob((1, 0)) == 1
    assert sum(uniform(n=3, domain=(0, 1)).probs) == 1


def test_the_list_form_of_a_table_is_the_keyed_form_in_lexicographic_order():
    """"rows" as a list: one row per database in lexicographic order over the domain. It reads as the
    keyed form does (same databases, same exact rows), and every malformed list is refused in one line."""
    import itertools
    import pytest
    from symbolic.api import InvalidDistribution, InvalidSize, FloatNotAllowed, mechanism_from_json
    keyed = {"0,0": ["1/2", "1/2"], "0,1": ["1/3", "2/3"], "1,0": ["1/4", "3/4"], "1,1": ["1", "0"]}
    a = mechanism_from_json({"n": 2, "domain": [0, 1], "outputs": [0, 1], "rows": keyed})
    b = mechanism_from_json({"n": 2, "domain": [0, 1], "outputs": [0, 1], "rows": list(keyed.values())})
    assert a.table().rows == b.table().rows and [d for d, _ in b.rows] == list(itertools.product((0, 1), repeat=2))
    bad = [({"rows": [["1/2", "1/2"]] * 3}, InvalidDistribution, "has 4, one per database"),
           ({"rows": [["1/2", "1/2"]] * 4, "domain": None}, InvalidSize, 'needs "domain" and "outputs"'),
           ({"rows": [["1/2", "1/2"]] * 3 + [{"0": "1"}]}, InvalidDistribution, "give a list of 2 probabilities"),
           ({"rows": [["1/2", "1/2"]] * 3 + [["1/2", "1/3"]]}, InvalidDistribution, "sums to 5/6"),
           ({"rows": [["1/2", "1/2"]] * 3 + [["1/2", 0.5]]}, FloatNotAllowed, "is a float"),
           ({"rows": [["1/2", "1/2"]] * 3 + [["3/2", "-1/2"]]}, InvalidDistribution, "is negative")]
    for edit, error, words in bad:
        doc = {"n": 2, "domain": [0, 1], "outputs": [0, 1], **edit}
        doc = {k: v for k, v in doc.items() if v is not None}
        with pytest.raises(error, match=words.replace("(", r"\(")):
            mechanism_from_json(doc)


def test_a_keyed_table_in_the_usual_spelling_reads_as_any_other_spelling():
    """Keys spelled "a,b" exactly (the common case) take the list form's one-pass reader; other spellings
    (spaces, a sign) take the key-by-key reader. Both give the same table, and a bad row is named by the
    first database that has it, on either path."""
    import itertools
    import pytest
    from symbolic.api import InvalidDistribution, mechanism_from_json
    dbs = list(itertools.product((0, 1, 2), repeat=2))
    rows = [["1/2", "1/2"] if sum(d) % 2 else ["1/3", "2/3"] for d in dbs]
    usual = {",".join(map(str, d)): r for d, r in zip(dbs, rows)}
    spaced = {f" {a}, +{b}": r for (a, b), r in zip(dbs, rows)}
    head = {"n": 2, "domain": [0, 1, 2], "outputs": [0, 1]}
    a, b, c = (mechanism_from_json({**head, "rows": r}) for r in (usual, spaced, rows))
    assert a.table().rows == b.table().rows == c.table().rows
    assert [d for d, _ in a.rows] == dbs and a[(1, 2)] is a[(0, 1)]   # equal rows share one Dist
    bad = list(rows)
    bad[5] = bad[7] = ["3/4", "1/2"]
    for form in ({",".join(map(str, d)): r for d, r in zip(dbs, bad)}, bad):
        with pytest.raises(InvalidDistribution, match=r"row \(1, 2\) sums to 5/4"):
            mechanism_from_json({**head, "rows": form})
