"""dpcheck's engine: exact probability, mechanisms, populations, causal models, notions,
claims, the z3 search with CEGIS and exact re-verification. Nothing here knows any
particular paper; the sources' claims live in :mod:`theorems`.

The public names are those of :mod:`symbolic.api`, also available here (``from symbolic import
check, Claim, PureDP``). Each is loaded on first use from the module that defines it, so that
``from symbolic import DPCheckError`` or importing one engine module does not load the solvers.
"""
from symbolic.core import __version__

# every name of symbolic.api.__all__, by the module it comes from (tests/api/test_api.py checks that
# each is the very object symbolic.api exports)
_FROM = {
    "symbolic.core.errors": ("DPCheckError", "FloatNotAllowed", "InvalidDistribution", "InvalidParameter",
                             "InvalidSize", "UnknownName", "ParseError", "Transcendental", "EngineContradiction",
                             "clip"),
    "symbolic.core.exact": ("parse_number", "parse_expr", "expr_text", "CURVE_FUNCS", "CURVE_CONSTANTS"),
    "symbolic.core.budget": ("BudgetSpent",),
    "symbolic.notions.vocabulary": ("resolve_values", "EPS_ALIASES"),
    "symbolic.core.ops": ("UndecidedComparison",),
    "symbolic.core.prob": ("Dist", "Kernel"),
    "symbolic.core.tables": ("replace_record",),
    "symbolic.core.terms": ("MechVar", "KernelVar", "AdaptiveVar", "Compose", "PostProcess", "Fixed", "PoissonSubsample",
                            "SampleWithoutReplacement"),
    "symbolic.core.verdicts": ("Sizes", "Proved", "Refuted", "Unknown", "Vacuous", "Derived", "Counterexample",
                               "Witness", "Obligation"),
    "symbolic.model.mechanism": ("Mechanism", "randomized_response", "truncated_geometric", "exponential_mechanism", "constant",
                                 "name_and_shame", "compose", "post_process", "count_databases"),
    "symbolic.model.table_file": ("mechanism_from_json",),
    "symbolic.core.math_text": ("math_text", "math_latex", "tidy_text"),
    "symbolic.model.neighbours": ("ReplaceOne", "AddRemove", "AllPairs", "Hamming", "PolicyGraph", "Metric", "Pair"),
    "symbolic.model.population": ("Population", "population_from_json", "point_mass", "uniform", "iid",
                                  "product", "joint"),
    "symbolic.notions.base": ("Notion", "NotionInstance", "ParamSpec", "E_SPEC", "DELTA_SPEC"),
    "symbolic.notions.claims": ("Param", "E", "EPS_PARAMS", "Implies", "NotImplies", "Equivalent",
                                "Implication", "Claim", "Proof", "Check", "Fact"),
    "symbolic.notions.families.dp": ("PureDP", "ApproxDP", "FreeLunchPrivacy", "StrongAdversaryDP",
                            "StrongAdversaryDPFor", "Bayesian0DP", "IndependentBayesian0DP", "Bayesian0DPFor",
                            "WholeDatabaseInterventionDP", "WholeDatabaseInterventionDPFor",
                            "DataPointInterventionDP", "DataPointInterventionDPFor", "StrongBayesianDP",
                            "Noninterference", "StatisticalNondisclosure"),
    "symbolic.notions.families.semantic": ("Indistinguishable", "SemanticPrivacy", "ApproxSemanticPrivacy"),
    "symbolic.notions.families.pml": ("PMLAllPriors", "LeakageCapacityAtMost"),
    "symbolic.notions.leakage": ("pml", "max_pml", "leakage_capacity"),
    "symbolic.notions.info": ("NotionInfo",),
    "symbolic.notions.listed.catalog": ("notion_catalog", "find_notion"),
    "symbolic.derive.level": ("derive_level", "LevelDerivation", "LEVEL_NOTIONS", "level_notion"),
    "symbolic.derive.level_render": ("level_json", "level_text"),
    "symbolic.derive.continuous.level": ("derive_curve_level", "CURVE_NOTIONS", "curve_notion"),
    "symbolic.derive.continuous.values": ("CurveLevel",),
    "symbolic.derive.continuous.maps": ("curve_map", "CurveMap", "CURVE_MAP_EPS"),
    "symbolic.derive.operations.maps": ("operation_map",),
    "symbolic.derive.operations.map_value": ("OperationMap",),
    "symbolic.derive.accounting.run": ("account", "RunAccount", "Stage"),
    "symbolic.derive.accounting.stages": ("stages_from_document",),
    "symbolic.derive.accounting.adapters": ("event_document", "stages_from_autodp", "stages_from_description",
                                            "stages_from_dp_event", "stages_from_opacus_history"),
    "symbolic.derive.accounting.libraries": ("library_epsilons",),
    "symbolic.derive.accounting.calibrate": ("Calibration", "calibrate", "profile_points"),
    "symbolic.derive.level_points": ("level_points",),
    "symbolic.derive.accounting.conversions": ("rdp_conversions", "accountant_conversions"),
    "symbolic.derive.continuous.claims": ("decide_dominated", "decide_bounded_range", "CurveVerdict",
                                           "CURVE_CLAIM_TARGETS"),
    "symbolic.derive.continuous.conversions": ("decide_curve_claim", "decide_zcdp_to_dp", "decide_gdp_to_dp"),
    "symbolic.model.continuous": ("ContinuousMechanism", "continuous_from_json", "laplace", "gaussian",
                                  "discrete_laplace", "discrete_gaussian", "laplace_count_given_record", "is_continuous_document"),
    "symbolic.model.symbolic_table": ("SymbolicMechanism", "symbolic_mechanism", "symbolic_mechanism_from_json"),
    "symbolic.graph.hasse": ("diagram", "dot_text", "render_svg"),
    "symbolic.graph.pair": ("PairResult", "decide_pair"),
    "symbolic.graph.maps": ("implication_with_map",),
    "symbolic.graph.constants.derivation": ("derive_map", "MapDerivation"),
    "symbolic.graph.constants.growth": ("derive_map_growth", "MapGrowth"),
    "symbolic.graph.constants.table_level": ("table_level", "TableLevel"),
    "symbolic.graph.all_sizes": ("all_sizes_argument", "claim_scope", "scope_record"),
    "symbolic.graph.all_sizes_check": ("claim_holds_on_dominating_pair", "claim_reduces"),
    "symbolic.notions.induction": ("Induction",),
    "symbolic.notions.listed.inductions": ("INDUCTIONS",),
    "symbolic.solve.induction": ("InductionResult", "prove_induction"),
    "symbolic.graph.sweep": ("GraphResult", "run_graph", "graph_settings"),
    "symbolic.graph.constants.tightness": ("tighten_graph",),
    "symbolic.graph.user": ("load_user_notion",),
    "symbolic.solve.backends.settings": ("Settings",),
    "symbolic.solve.run": ("ClaimResult",),
    "symbolic.solve.queries.smt2_export": ("smt2_queries", "write_smt2"),
    "symbolic.solve.backends.signals": ("solver_ignores_sigint",),
    "symbolic.derive.closed_forms": ("Derivation",),
    "symbolic.report.html": ("audit_html",),
    "symbolic.report.html_layout": ("agreement_word",),
    "symbolic.report.html_svg": ("inline_svg",),
    "symbolic.report.recheck": ("counterexample_files", "recheck_commands"),
    "symbolic.report.reverify": ("reverify_counterexample", "reverified_violation"),
    "symbolic.graph.user_limits": ("UserLimit", "check_reached"),
    "symbolic.report.second_solver": ("limit_counts", "limit_words", "undecided"),
    "symbolic.report.latex": ("audit_latex",),
    "symbolic.report.markdown": ("audit_markdown",),
    "symbolic.report.results": ("result_text", "claim_json", "counterexample_text", "tool_json"),
    "symbolic.api": ("notion_library", "check", "implication_claim", "check_implies", "evaluate", "explain"),
}
_API = {name: module for module, names in _FROM.items() for name in names}

__all__ = ["__version__", *_API]


def __getattr__(name):
    if name not in _API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(_API[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
