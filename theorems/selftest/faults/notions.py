"""Seeded faults of the notions' bodies (DP-type, semantic, PML/leakage, causal, the ε vocabulary): one engine edit each, with the checks expected to catch it."""
from __future__ import annotations

from theorems.selftest.mutation import C, T, TRUST, _E, mutant, wrap

VALUES = "test:tests/solve/test_param_values.py::"


_E("symbolic.notions.vocabulary:resolve_values", "v = sp.exp(v)", "v = v",
   "values.eps-read-as-E", "eps=v is read as E = v instead of E = e^v", VALUES + "test_eps_is_read_as_e_to_the_eps")


# -- notions: weakened / strengthened, one per family ------------------------------------------------------
_E("symbolic.notions.families.dp:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), E * E * A.p(replace(d, i, v), o),",
   "notion.pure-dp-weakened", "ε-DP weakened to 2ε (E² in place of E)", T + "tests/notions/test_notions.py::test_rr_is_exactly_log3_dp")


_E("symbolic.notions.families.dp:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), A.p(replace(d, i, v), o),",
   "notion.pure-dp-strengthened", "ε-DP strengthened to 0-DP (the factor e^ε dropped)",
   T + "tests/notions/test_notions.py::test_rr_is_exactly_log3_dp")


_E("symbolic.notions.families.dp:_approx_dp", "for o in A.outputs), delta,", "for o in A.outputs), 2 * delta,",
   "notion.approx-dp-weakened", "(ε,δ)-DP weakened to (ε,2δ)", T + "tests/notions/test_notions.py::test_approx_dp_event_encoding_matches_enumeration")


_E("symbolic.notions.families.dp:_approx_dp", "for o in A.outputs), delta,", "for o in A.outputs), delta / 2,",
   "notion.approx-dp-strengthened", "(ε,δ)-DP strengthened to (ε,δ/2)",
   T + "tests/notions/test_notions.py::test_approx_dp_event_encoding_matches_enumeration")


_E("symbolic.notions.families.dp:_strong_adversary", "ops.le(n1 * m2, E * n2 * m1,", "ops.le(n1 * m1, E * n2 * m2,",
   "notion.strong-adversary-swapped", "strong-adversary DP with the two conditionals' denominators swapped",
   T + "tests/notions/test_notions.py::test_sufficient_family_agrees_with_solver", C + "T-P1")


_E("symbolic.notions.families.dp:_strong_adversary", "if d not in mass or d2 not in mass:",
   "if d not in mass or d2 not in mass or d2 < d:",
   "notion.strong-adversary-one-way", "strong-adversary DP checks each neighbour pair in one direction only",
   T + "tests/notions/test_notions.py::test_sufficient_family_agrees_with_solver", C + "T-P1")


_E("symbolic.notions.families.dp:_bayesian0", "for u, v in itertools.permutations(A.domain, 2):",
   "for u, v in itertools.combinations(A.domain, 2):",
   "notion.bayesian0-one-direction", "Bayesian₀ DP checks each pair of values in one direction only",
   TRUST + "test_notions_on_hand_tables", C + "T-F2c")


_E("symbolic.notions.families.dp:_bayesian0", "nu, nv = joint.get((u, o), 0), joint.get((v, o), 0)",
   "nu, nv = joint.get((v, o), 0), joint.get((v, o), 0)",
   "notion.bayesian0-swapped-conditional", "Bayesian₀ DP takes Pr[O=o, D_i=u] from the other value v (swapped)",
   TRUST + "test_notions_on_hand_tables")


_E("symbolic.notions.families.dp:_whole_db", "E * pr(o, replace(d, i, v))", "E * pr(o, d)",
   "notion.whole-db-intervention-self", "whole-database intervention DP compares a database with itself",
   C + "T-P2")


_E("symbolic.notions.families.dp:_data_point", "ops.le(pr[u][j], E * pr[v][j],", "ops.le(pr[u][j], E * E * pr[v][j],",
   "notion.data-point-intervention-weakened", "data-point intervention DP weakened to 2ε", C + "T-P5", C + "T-P4.converse")


@mutant("notion.data-point-family-truncated", "T-D8's sufficient family of populations cut to its first member",
        TRUST + "test_verify_checks_every_population_of_a_hypothesis_family")
def _dp_family():
    wrap("symbolic.notions.families.dp:DataPointInterventionDP.sufficient", lambda real: lambda n, dom: real(n, dom)[:1])


_E("symbolic.notions.families.semantic:_semantic", "ok = posterior_sd_ok(ops, A, P, i, t, eps)", "ok = posterior_sd_ok(ops, A, P, i, t, 2 * eps)",
   "notion.semantic-privacy-weakened", "ε-semantic privacy weakened to 2ε", T + "tests/notions/test_semantic.py")


_E("symbolic.notions.families.semantic:_semantic", "ok = posterior_sd_ok(ops, A, P, i, t, eps)", "ok = posterior_sd_ok(ops, A, P, i, t, eps / 2)",
   "notion.semantic-privacy-strengthened", "ε-semantic privacy strengthened to ε/2", T + "tests/notions/test_semantic.py")


_E("symbolic.notions.families.semantic:hockey", "ops.max0(a - E * b)", "ops.max0(a - b)",
   "notion.hockey-stick-strengthened", "the hockey-stick divergence ignores e^ε (indistinguishability strengthened)",
   T + "tests/notions/test_semantic.py")


_E("symbolic.notions.families.pml:_pml_under", "ops.le(A.p(d, o), E * output_prob(ops, A, P, o),",
   "ops.le(A.p(d, o), E * E * output_prob(ops, A, P, o),",
   "notion.pml-weakened", "ε-PML weakened to 2ε", T + "tests/notions/test_pml_notions.py")


_E("symbolic.notions.families.pml:_pml_under", "ops.Implies(ops.gt(P.p(d), 0),", "ops.Implies(ops.ge(P.p(d), 0),",
   "notion.pml-support-guard", "PML also counts inputs outside the prior's support (strengthened)",
   T + "tests/notions/test_pml_notions.py")


_E("symbolic.notions.families.causal:brp_holds", "for x1, x2 in itertools.permutations(tab, 2)", "for x1, x2 in itertools.combinations(tab, 2)",
   "notion.brp-one-direction", "BRP bounds relative probabilities in one direction only", C + "T-BRP-DP")


_E("symbolic.notions.leakage:pml_ratio", "return sp.Max(*ratios.values()) if ratios else sp.Integer(1)",
   "return sp.Min(*ratios.values()) if ratios else sp.Integer(1)",
   "pml.ratio-min", "PML takes the smallest likelihood ratio instead of the largest", T + "tests/derive/test_pml.py")


_E("symbolic.notions.listed.readings:reading", "if (n, domain) == sizes:", "if n == sizes[0]:",
   "reading.two-point-at-any-domain", "ε-semantic privacy is read through its two-point form at n = 1 over any domain",
   T + "tests/notions/test_reading_sizes.py::test_a_closed_form_reading_is_used_only_at_the_sizes_where_it_is_proved")
