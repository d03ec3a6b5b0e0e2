"""T-source specifics: group effects derived by sympy, Table 1 rendering, source examples."""
from dataclasses import replace

import pytest

import sympy as sp

from symbolic.report.html import audit_html
from symbolic.report.results import claim_json, result_text, tool_json
from symbolic.solve.run import check_claim
from symbolic.solve.search import Settings
from theorems.registry import get


@pytest.mark.slow   # 3.3 s
def test_group_effects_in_prog_status():
    res = check_claim(get("T-GRP"), replace(Settings.profile("ci"), second_solver=False))
    eps = sp.Symbol("epsilon", nonnegative=True)
    ex = res.verdict.extras
    assert ex["effect R_1"] == 2 * eps and ex["effect R_2"] == eps
    assert ex["effect joint ⟨R_1,R_2⟩"] == 2 * eps and ex["total"] == 3 * eps
    assert all(ok for _, ok in res.verdict.checks)
    assert [p.verdict.name for p in res.parts] == ["proved"] * 3
    shown = result_text(res) + audit_html({"tool": tool_json(), "claims": [claim_json(res)]})
    assert "RP = E²" in shown and "prog_status(E²)" in shown
    assert "**" not in shown.split("<style")[0] + shown.split("</style>")[-1]


def test_assoc_counterexample_is_correlated():
    """§1.1: the engine's DP mechanism violating T-D3 uses a population with dependent points."""
    res = check_claim(get("T-ASSOC"), replace(Settings.profile("ci"), second_solver=False))
    cx = res.verdict.counterexample
    P = {d: p for d, p in cx.populations["P"].probs.items() if p}
    m1 = {v: sum(p for d, p in P.items() if d[0] == v) for v in (0, 1)}
    m2 = {v: sum(p for d, p in P.items() if d[1] == v) for v in (0, 1)}
    assert any(P.get((a, b), 0) != m1[a] * m2[b] for a in (0, 1) for b in (0, 1))


@pytest.mark.slow   # over 6 s on 2 cores; `pytest -m slow` and the self-test run it
def test_rr_parts():
    res = check_claim(get("T-RR"), replace(Settings.profile("ci"), second_solver=False))
    assert [p.verdict.name for p in res.parts] == ["proved", "refuted", "refuted"]


def test_sequence_model_brp_does_not_depend_on_the_population():
    """The sufficient family of one population for the sequence-model BRP notions: their truth value is
    the same under every population (X, the one exogenous variable, is always intervened)."""
    import random

    import sympy as sp

    from symbolic.core.ops import ExactOps
    from symbolic.model.population import Population
    from symbolic.core.tables import MechTable
    from theorems.tschantz_causal import BRP_XY, BRP_XYZ, BRP_XZ, BRP_XZ_given_Y

    rng = random.Random(3)

    def row(m):
        w = [rng.randint(0, 3) for _ in range(m)]
        w[0] += sum(w) == 0
        return tuple(sp.Rational(x, sum(w)) for x in w)

    dom = (0, 1, 2)
    seen = set()
    for _ in range(12):
        K1 = MechTable(1, dom, (0, 1), {(x,): row(2) for x in dom})
        K2 = {y: MechTable(1, dom, (0, 1), {(x,): row(2) for x in dom}) for y in (0, 1)}
        E = sp.Rational(rng.choice([1, 2, 3, 4, 8]), 1)
        for notion in (BRP_XY, BRP_XYZ, BRP_XZ, BRP_XZ_given_Y):
            ref = notion.body(ExactOps(), K1, K2, P=notion.sufficient(1, dom)[0].table(), E=E)
            seen.add(ref)
            for _ in range(3):
                w = [rng.randint(0, 4) for _ in dom]
                w[rng.randrange(3)] += 1
                P = Population({(x,): sp.Rational(wx, sum(w)) for x, wx in zip(dom, w)}, n=1, domain=dom).table()
                assert notion.body(ExactOps(), K1, K2, P=P, E=E) == ref
    assert seen == {True, False}
