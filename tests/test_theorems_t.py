"""T-source specifics: group effects derived by sympy, Table 1 rendering, source examples."""
import sympy as sp

from symbolic.run import check_claim
from symbolic.search import Settings
from theorems.registry import get


def test_group_effects_in_prog_status():
    res = check_claim(get("T-GRP"), Settings.profile("ci"))
    eps = sp.Symbol("epsilon", nonnegative=True)
    ex = res.verdict.extras
    assert ex["effect R_1"] == 2 * eps and ex["effect R_2"] == eps
    assert ex["effect joint ⟨R_1,R_2⟩"] == 2 * eps and ex["total"] == 3 * eps
    assert all(ok for _, ok in res.verdict.checks)
    assert [p.verdict.name for p in res.parts] == ["proved"] * 3


def test_assoc_counterexample_is_correlated():
    """§1.1: the engine's DP mechanism violating T-D3 uses a population with dependent points."""
    res = check_claim(get("T-ASSOC"), Settings.profile("ci"))
    cx = res.verdict.counterexample
    P = {d: p for d, p in cx.populations["P"].probs.items() if p}
    m1 = {v: sum(p for d, p in P.items() if d[0] == v) for v in (0, 1)}
    m2 = {v: sum(p for d, p in P.items() if d[1] == v) for v in (0, 1)}
    assert any(P.get((a, b), 0) != m1[a] * m2[b] for a in (0, 1) for b in (0, 1))


def test_rr_parts():
    res = check_claim(get("T-RR"), Settings.profile("ci"))
    assert [p.verdict.name for p in res.parts] == ["proved", "refuted", "refuted"]
