"""`dpcheck derive map A B --max-n N`: the map at n + 1 carried over from n, with no new search, only when the
table attaining it at n still attains it (exactly) and the solver proves it at n + 1."""
import pytest
import sympy as sp

from symbolic.core.verdicts import Sizes
from symbolic.graph.constants.derivation import derive_map
from symbolic.graph.constants.growth import derive_map_growth
from symbolic.notions.listed.catalog import find_notion
from symbolic.solve.backends.settings import Settings

E = sp.Symbol("E", real=True)
FAST = Settings(second_solver=False)


def _carried(run) -> bool:
    return any(text.startswith("carried over") and ok for text, ok in run.checks)


@pytest.mark.slow
def test_group_privacy_stops_growing_and_n3_is_carried_over_from_n2():
    """ε-DP ⇒ group privacy for groups of two: E at n=1, E² from n=2 on. At n=2 the n=1 table, lifted, still
    attains E (two records that both change include the one it reads), but E is not enough there (the proof
    fails), so n=2 is derived afresh; n=3 is carried over, tight, with its lifted table and no search."""
    g = derive_map_growth(find_notion("pure-dp").notion, find_notion("group-dp").notion, max_n=3, settings=FAST)
    assert [r.formula for r in g.runs] == [E, E**2, E**2]
    assert [_carried(r) for r in g.runs] == [False, False, True]
    n3 = g.runs[2]
    assert n3.tight and n3.estimates == () and n3.proof is not None
    rows = n3.attained_by["mechanism"]["rows"]
    assert len(rows) == 8 and all(rows[f"{a},{b},0"] == rows[f"{a},{b},1"] for a in "01" for b in "01")


@pytest.mark.slow   # two searches at n = 2 (12 s); its seeded fault runs it by name
def test_a_map_that_grows_is_not_carried_over():
    """ε-DP ⇒ local DP: E at n=1, E² at n=2 (two records change between the extreme databases). The carried
    E is refuted at n=2, so the search finds E²; a carry from a table that is not tight never happens."""
    pure, local = find_notion("pure-dp").notion, find_notion("local-dp").notion
    n1 = derive_map(pure, local, sizes=Sizes(1, 2, 2), settings=FAST)
    n2 = derive_map(pure, local, sizes=Sizes(2, 2, 2), settings=FAST, carry=n1)
    assert (n1.formula, n2.formula, _carried(n2), n2.tight) == (E, E**2, False, True)
    untight = type(n1)(**{**n1.__dict__, "attained_by": None})
    again = derive_map(pure, local, sizes=Sizes(2, 2, 2), settings=FAST, carry=untight)
    assert again.formula == E**2 and not _carried(again)


def test_a_lifted_table_that_does_not_attain_the_formula_is_refused():
    """The n=1 record of ε-DP ⇒ group privacy with its table replaced by the uniform one (which satisfies ε-DP
    at level 1, not E): lifted to n=2 it does not attain E, so nothing is carried, proof or not."""
    from symbolic.graph.constants.carry import lifted_attainment
    from symbolic.graph.constants.fit import Shape
    pure, group = find_notion("pure-dp").notion, find_notion("group-dp").notion
    n1 = derive_map(pure, group, sizes=Sizes(1, 2, 2), settings=FAST)
    mech = {**n1.attained_by["mechanism"], "rows": {"0": ["1/2", "1/2"], "1": ["1/2", "1/2"]}}
    doctored = type(n1)(**{**n1.__dict__, "attained_by": {**n1.attained_by, "mechanism": mech}})
    spec = next(p for p in group.params if p.name == "E")
    got, why = lifted_attainment(doctored, pure, group, "E", spec, lambda point: {}, Shape(2, 2, 2), Sizes(2, 2, 2),
                                 [E])
    assert got is None and "does not attain" in why
    real, _ = lifted_attainment(n1, pure, group, "E", spec, lambda point: {}, Shape(2, 2, 2), Sizes(2, 2, 2), [E])
    assert real is not None and real["reverified"] and len(real["mechanism"]["rows"]) == 4
