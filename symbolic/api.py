"""dpcheck's public API: the names a user needs, in one place. Nothing outside ``__all__`` is promised.

Evaluate a notion exactly. Binary randomized response keeps the bit with probability E/(1+E);
at E = 3 it is ln 3-DP and no less:

>>> from symbolic.api import *
>>> rr = randomized_response(3)
>>> evaluate(PureDP, rr, E=3), evaluate(PureDP, rr, E=2)
(True, False)
>>> print(explain(PureDP(2), rr)[1])
i=1, d=(0,), d'=(1,), o=0: Pr[A(d)=o]=3/4 > E·Pr[A(d')=o]=2·1/4

Check an implication. Parameters of a claim are symbols with ranges (``E`` is E = e^ε ≥ 1); a
free mechanism ``A`` is chosen by the solver among all tables at the sizes searched (n data
points, |𝒟| values, |𝒪| outputs). ε-DP implies (ε,δ)-DP for every δ in [0, 1]:

>>> delta = Param("delta", lower=0, upper=1)
>>> claim = implication_claim(PureDP(E.symbol), ApproxDP(E.symbol, delta.symbol),
...                           params=(E, delta), sizes=Sizes(1, 2, 2))
>>> res = check(claim, Settings(second_solver=False))
>>> res.verdict.name, res.verdict.bounds
('proved', Sizes(n=1, domain=2, outputs=2))

State a notion of your own: a body written once over ``ops`` (exact numbers or solver terms), its
parameters with their ranges. A false implication is refuted by an exact counterexample, checked
again in exact arithmetic before it is reported:

>>> def floor(ops, A, P=None, *, E):
...     return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)
>>> Floor = Notion("Floor", (E_SPEC,), floor, summary="every output has probability ≥ 1/(1+E)")
>>> res = check_implies(PureDP(E.symbol), Floor(E.symbol), sizes=Sizes(1, 2, 2),
...                     settings=Settings(second_solver=False))
>>> isinstance(res.verdict, Refuted), res.verdict.verified_exactly
(True, True)

``result_text(res)`` and ``claim_json(res)`` render a result; ``write_smt2(res, path)`` exports its
solver queries as SMT-LIB. Errors raised on purpose are :class:`DPCheckError` subclasses.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import (DPCheckError, FloatNotAllowed, InvalidDistribution, InvalidParameter, InvalidSize,
                                  ParseError, Transcendental, UnknownName, EngineContradiction, clip)
from symbolic.core.budget import BudgetSpent
from symbolic.core.exact import CURVE_CONSTANTS, CURVE_FUNCS, expr_text, parse_expr, parse_number
from symbolic.core.ops import ExactOps, UndecidedComparison
from symbolic.core.prob import Dist, Kernel
from symbolic.core.tables import replace_record
from symbolic.core.terms import (AdaptiveVar, Compose, Fixed, KernelVar, MechVar, PoissonSubsample, PostProcess,
                                   SampleWithoutReplacement)
from symbolic.core.verdicts import (Counterexample, Derived, Obligation, Proved, Refuted, Sizes, Unknown, Vacuous,
                                    Witness)
from symbolic.model.mechanism import (Mechanism, compose, constant, count_databases, name_and_shame, post_process,
                                      randomized_response, truncated_geometric, exponential_mechanism)
from symbolic.model.table_file import mechanism_from_json
from symbolic.model.symbolic_table import SymbolicMechanism, symbolic_mechanism, symbolic_mechanism_from_json
from symbolic.model.population import Population, iid, joint, point_mass, population_from_json, product, uniform
from symbolic.notions.families import dp as _dp
from symbolic.notions.families import pml as _pml
from symbolic.notions.families import semantic as _semantic
from symbolic.core.math_text import math_latex, math_text, tidy_text
from symbolic.model.neighbours import AddRemove, AllPairs, Hamming, Metric, Pair, PolicyGraph, ReplaceOne
from symbolic.notions.base import DELTA_SPEC, E_SPEC, Notion, NotionInstance, ParamSpec
from symbolic.notions.induction import Induction
from symbolic.notions.claims import (EPS_PARAMS, Check, Claim, E, Equivalent, Fact, Implication, Implies, NotImplies,
                                     Param, Proof)
from symbolic.notions.families.dp import (ApproxDP, Bayesian0DP, Bayesian0DPFor, DataPointInterventionDP,
                                 DataPointInterventionDPFor, FreeLunchPrivacy, IndependentBayesian0DP, Noninterference,
                                 PureDP, StatisticalNondisclosure, StrongAdversaryDP, StrongAdversaryDPFor,
                                 StrongBayesianDP, WholeDatabaseInterventionDP, WholeDatabaseInterventionDPFor)
from symbolic.notions.info import NotionInfo
from symbolic.notions.vocabulary import EPS_ALIASES, resolve_values
from symbolic.notions.leakage import leakage_capacity, max_pml, pml
from symbolic.notions.families.pml import LeakageCapacityAtMost, PMLAllPriors
from symbolic.notions.families.semantic import ApproxSemanticPrivacy, Indistinguishable, SemanticPrivacy
from symbolic.solve.backends.settings import Settings
from symbolic.solve.backends.signals import solver_ignores_sigint

# the search and its results, the derivations, the graph, the notion listing and the reports load on first use
# (``__getattr__`` below): a program that evaluates notions on tables imports no solver
_LAZY_FROM = {
    "symbolic.report.results": ("claim_json", "counterexample_text", "result_text", "tool_json"),
    "symbolic.solve.run": ("ClaimResult",),
    "symbolic.solve.queries.smt2_export": ("smt2_queries", "write_smt2"),
    "symbolic.derive.level": ("LEVEL_NOTIONS", "LevelDerivation", "derive_level", "level_notion"),
    "symbolic.derive.level_render": ("level_json", "level_text"),
    "symbolic.derive.continuous.level": ("CURVE_NOTIONS", "derive_curve_level", "curve_notion"),
    "symbolic.derive.continuous.values": ("CurveLevel",),
    "symbolic.derive.continuous.maps": ("CURVE_MAP_EPS", "CurveMap", "curve_map"),
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
    "symbolic.derive.continuous.claims": ("CURVE_CLAIM_TARGETS", "CurveVerdict", "decide_bounded_range",
                                          "decide_dominated"),
    "symbolic.derive.continuous.conversions": ("decide_curve_claim", "decide_gdp_to_dp", "decide_zcdp_to_dp"),
    "symbolic.derive.closed_forms": ("Derivation",),
    "symbolic.model.continuous": ("ContinuousMechanism", "continuous_from_json", "discrete_gaussian", "discrete_laplace",
                                  "gaussian", "laplace", "laplace_count_given_record", "is_continuous_document"),
    "symbolic.graph.hasse": ("diagram", "dot_text", "render_svg"),
    "symbolic.graph.constants.derivation": ("MapDerivation", "derive_map"),
    "symbolic.graph.constants.growth": ("MapGrowth", "derive_map_growth"),
    "symbolic.graph.constants.table_level": ("TableLevel", "table_level"),
    "symbolic.graph.all_sizes": ("all_sizes_argument", "claim_scope", "scope_record"),
    "symbolic.graph.all_sizes_check": ("claim_holds_on_dominating_pair", "claim_reduces"),
    "symbolic.graph.maps": ("implication_with_map",),
    "symbolic.graph.pair": ("PairResult", "decide_pair"),
    "symbolic.graph.sweep": ("GraphResult", "graph_settings", "run_graph"),
    "symbolic.graph.constants.tightness": ("tighten_graph",),
    "symbolic.graph.user": ("load_user_notion",),
    "symbolic.notions.listed.catalog": ("find_notion", "notion_catalog"),
    "symbolic.notions.listed.inductions": ("INDUCTIONS",),
    "symbolic.solve.induction": ("InductionResult", "prove_induction"),
    "symbolic.report.html": ("audit_html",),
    "symbolic.report.html_layout": ("agreement_word",),
    "symbolic.report.html_svg": ("inline_svg",),
    "symbolic.report.latex": ("audit_latex",),
    "symbolic.report.markdown": ("audit_markdown",),
    "symbolic.report.recheck": ("counterexample_files", "recheck_commands"),
    "symbolic.report.reverify": ("reverify_counterexample", "reverified_violation"),
    "symbolic.graph.user_limits": ("UserLimit", "check_reached"),
    "symbolic.report.second_solver": ("limit_counts", "limit_words", "undecided"),
}
_LAZY = {name: module for module, names in _LAZY_FROM.items() for name in names}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    # notions and claims
    "Notion", "NotionInstance", "ParamSpec", "E_SPEC", "DELTA_SPEC", "Param", "E", "EPS_PARAMS",
    "Implies", "NotImplies", "Equivalent", "Implication", "Claim", "Proof", "Check", "Fact", "Sizes",
    # induction in k: group privacy and composition for every k (stated, and proved by the engine)
    "Induction", "INDUCTIONS", "prove_induction", "InductionResult",
    # the notion library: the DP family, some semantic and leakage notions, every notion by name
    "PureDP", "ApproxDP", "FreeLunchPrivacy", "StrongAdversaryDP", "StrongAdversaryDPFor", "Bayesian0DP",
    "IndependentBayesian0DP", "Bayesian0DPFor", "WholeDatabaseInterventionDP", "WholeDatabaseInterventionDPFor",
    "DataPointInterventionDP", "DataPointInterventionDPFor", "StrongBayesianDP", "Noninterference",
    "StatisticalNondisclosure", "Indistinguishable", "SemanticPrivacy", "ApproxSemanticPrivacy", "PMLAllPriors",
    "LeakageCapacityAtMost", "notion_library",
    # the listing of notions: ID, class, neighbours, citation, definition
    "NotionInfo", "notion_catalog", "find_notion",
    # tight levels of a user's mechanism (entries may be symbolic)
    "derive_level", "LevelDerivation", "LEVEL_NOTIONS", "level_json", "level_text", "SymbolicMechanism",
    "symbolic_mechanism", "symbolic_mechanism_from_json",
    # mechanisms with infinite output spaces (densities on ℝ, mass functions on ℤ) and their levels
    "ContinuousMechanism", "continuous_from_json", "laplace", "gaussian", "discrete_laplace", "discrete_gaussian",
    "laplace_count_given_record",
    "derive_curve_level", "CurveLevel", "CURVE_NOTIONS", "curve_notion", "is_continuous_document", "curve_map", "CurveMap", "CURVE_MAP_EPS",
    "operation_map", "OperationMap",
    # certified accounting of a training run, and the libraries' descriptions of one
    "account", "RunAccount", "Stage", "stages_from_document", "event_document", "stages_from_autodp",
    "stages_from_description", "stages_from_dp_event", "stages_from_opacus_history", "library_epsilons",
    "Calibration", "calibrate", "profile_points", "level_points", "rdp_conversions", "accountant_conversions",
    "decide_dominated", "decide_bounded_range", "CurveVerdict", "CURVE_CLAIM_TARGETS", "decide_curve_claim",
    "decide_zcdp_to_dp", "decide_gdp_to_dp",
    # the implication graph
    "run_graph", "graph_settings", "GraphResult", "implication_with_map", "tighten_graph",
    # tight constants between notions (A(E) ⇒ B(f(E)), f derived, proved and attained)
    "derive_map", "derive_map_growth", "MapDerivation", "MapGrowth", "table_level", "TableLevel", "level_notion", "all_sizes_argument", "claim_scope", "claim_reduces", "claim_holds_on_dominating_pair", "scope_record", "PairResult", "decide_pair", "diagram", "dot_text", "render_svg", "load_user_notion",
    # mechanisms, populations, distributions
    "Mechanism", "randomized_response", "truncated_geometric", "exponential_mechanism", "constant", "name_and_shame", "compose",
    "post_process", "mechanism_from_json", "count_databases", "Population", "population_from_json", "point_mass",
    "uniform", "iid", "product", "joint", "Dist", "Kernel",
    # neighbours, for notions of one's own: "replace one record", and the neighbour relations as values
    "replace_record", "ReplaceOne", "AddRemove", "AllPairs", "Hamming", "PolicyGraph", "Metric", "Pair",
    # mechanism terms in claims
    "MechVar", "KernelVar", "AdaptiveVar", "Compose", "PostProcess", "Fixed", "PoissonSubsample", "SampleWithoutReplacement",
    # checking
    "Settings", "check", "implication_claim", "check_implies", "ClaimResult",
    # verdicts
    "Proved", "Refuted", "Unknown", "Vacuous", "Derived", "Counterexample", "Witness", "Obligation",
    # exact evaluation
    "evaluate", "explain", "parse_number", "parse_expr", "expr_text", "CURVE_FUNCS", "CURVE_CONSTANTS",
    # formulas printed as mathematics (terminal, HTML, LaTeX)
    "math_text", "math_latex", "tidy_text",
    # parameter values as users give them (eps=v for E = e^v)
    "resolve_values", "EPS_ALIASES",
    # closed forms
    "Derivation", "pml", "max_pml", "leakage_capacity",
    # reports and export
    "audit_html", "audit_latex", "audit_markdown", "inline_svg", "agreement_word",
    "result_text", "claim_json", "counterexample_text", "tool_json", "smt2_queries", "write_smt2",
    "counterexample_files", "recheck_commands", "reverify_counterexample", "reverified_violation",
    # limits of a user's own notion
    "UserLimit", "check_reached",
    # what ended the second solver's undecided queries
    "limit_counts", "limit_words", "undecided",
    # errors
    "DPCheckError", "FloatNotAllowed", "InvalidDistribution", "InvalidParameter", "InvalidSize", "UnknownName",
    "ParseError", "Transcendental", "UndecidedComparison", "EngineContradiction", "clip", "BudgetSpent",
    # for programs that run checks in worker processes
    "solver_ignores_sigint",
]


def notion_library() -> dict:
    """Every notion of the DP, semantic and leakage families, by name (a new dict on each call); the
    whole listing, zoo included, is :func:`notion_catalog`.

    >>> lib = notion_library()
    >>> lib["PureDP"] is PureDP, "ApproxDP" in lib
    (True, True)
    """
    return {n.name: n for m in (_dp, _semantic, _pml) for n in m.ALL}


def check(claim: Claim, settings: Settings | None = None, *, explore: float = 0.0) -> ClaimResult:
    """Check a claim: every part over its sizes, one verdict (``ClaimResult.verdict``). ``settings``:
    time limits and search options (default :class:`Settings`); ``explore``: seconds to spend
    proving larger sizes after a proof at the claim's own sizes.

    >>> claim = implication_claim(PureDP(E.symbol), PureDP(E.symbol ** 2), sizes=Sizes(1, 2, 2))
    >>> res = check(claim, Settings(second_solver=False))
    >>> res.verdict.name, res.verdict.bounds
    ('proved', Sizes(n=1, domain=2, outputs=2))
    """
    from symbolic.solve import run
    return run.check_claim(claim, settings, explore=explore)


def implication_claim(hypotheses, conclusion, *, params=EPS_PARAMS, sizes: Sizes = Sizes(2, 2, 2)) -> Claim:
    """An ad hoc claim ``hypotheses ⇒ conclusion`` (one notion instance, or a tuple of them for a
    conjunction) over the claim parameters ``params``, checked up to ``sizes``.

    >>> claim = implication_claim(PureDP(E.symbol), FreeLunchPrivacy(E.symbol), sizes=Sizes(2, 2, 2))
    >>> claim.statement, [p.range_text() for p in claim.params]
    ('PureDP(E) ⇒ FreeLunchPrivacy(E)', ['1 ≤ E'])
    >>> claim.fixing({"E": 3}).params[0].range_text()
    'E = 3'
    """
    hyp = " ∧ ".join(map(str, hypotheses)) if isinstance(hypotheses, (tuple, list)) else str(hypotheses)
    return Claim("adhoc", "⇒", "-", f"{hyp} ⇒ {conclusion}", "(ad hoc)", (Implies(hypotheses, conclusion),),
                 params=tuple(params), sizes=sizes)


def check_implies(hypotheses, conclusion, *, params=EPS_PARAMS, sizes: Sizes = Sizes(2, 2, 2),
                  settings: Settings | None = None) -> ClaimResult:
    """Check ``hypotheses ⇒ conclusion`` at sizes up to ``sizes`` (see :func:`implication_claim`).

    >>> res = check_implies(PureDP(E.symbol), FreeLunchPrivacy(E.symbol), sizes=Sizes(2, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> res.verdict.name, res.verdict.counterexample.sizes
    ('refuted', Sizes(n=2, domain=2, outputs=2))
    """
    return check(implication_claim(hypotheses, conclusion, params=params, sizes=sizes), settings)


def _instance(notion, params) -> NotionInstance:
    if isinstance(notion, Notion):
        return notion(**params)
    if not isinstance(notion, NotionInstance):
        raise InvalidParameter(f"evaluate takes a Notion or a notion with its parameters, not {clip(notion, 40)}")
    if params:
        raise InvalidParameter(f"{notion} has its parameters already; drop {', '.join(params)}")
    if notion.on is not None:
        raise InvalidParameter(f"{notion} is applied to terms with .of(...); evaluate applies it to the "
                               f"mechanisms it is given: leave .of(...) out")
    return notion


def _table(x):
    return x.table() if hasattr(x, "table") else x


def explain(notion, *mechanisms, population=None, arithmetic="auto", **params) -> tuple:
    """``(holds, reason)``: does the notion hold, in exact arithmetic, for these mechanisms (as many
    as its arity; :class:`Mechanism` objects or tables) and ``population`` (for notions relative to
    one population)? ``notion`` is a :class:`Notion` with ``params`` given as keywords, or a notion
    with its parameters (numbers). ``reason``: the first failed comparison when it fails, else None.
    A notion over all populations is decided on its finite family of populations (or exactly over every
    belief); given ``population``, it is evaluated at that one population instead: a failure there is
    a failure of the notion, a pass says nothing about the other populations.

    ``arithmetic``: ``"auto"`` evaluates a rational table in one pass over integers where the notion
    has such a reading (``Notion.fast``: ε-DP, (ε,δ)-DP), else with sympy; ``"sympy"`` always runs the
    body with sympy numbers (same verdict and reason, slower).

    >>> explain(PureDP, randomized_response(3), E=3)
    (True, None)
    >>> explain(PureDP, randomized_response(3), E=2, arithmetic="sympy")[0]
    False
    """
    if arithmetic not in ("auto", "sympy"):
        raise InvalidParameter(f"arithmetic={clip(arithmetic, 40)} must be 'auto' or 'sympy'")
    inst = _instance(notion, params)
    nt, values = inst.notion, inst.param_values()
    symbolic = [k for k, v in values.items() if getattr(v, "free_symbols", None)]
    if symbolic:
        raise InvalidParameter(f"{inst}: parameter(s) {', '.join(symbolic)} are symbols; evaluate needs numbers")
    if len(mechanisms) != nt.arity:
        raise InvalidParameter(f"{nt.name} is a notion of {nt.arity} mechanism(s); evaluate got {len(mechanisms)}")
    tabs = [_table(m) for m in mechanisms]
    pop = None if population is None else _table(population)
    if arithmetic == "auto" and nt.fast is not None and nt.population == "none":
        res = nt.fast(*tabs, P=pop, **values)
        if res is not None:
            return res
    ops = ExactOps()
    if nt.population in ("all", "product") and pop is None:
        shape = tabs[0] if tabs else pop
        fam = nt.sufficient(shape.n, shape.domain) if nt.sufficient and shape is not None else None
        if fam is None:
            return _every_belief(inst, tabs)
        holds = all(nt.body(ops, *tabs, P=q.table(), **values) for q in fam)
    else:
        if nt.population == "given" and pop is None:
            raise InvalidParameter(f"{nt.name} is relative to one population: give population=...")
        holds = nt.body(ops, *tabs, P=pop, **values)
    holds = bool(holds)
    return holds, (None if holds else ops.reason())


def _every_belief(inst, tabs) -> tuple:
    """A notion over every belief with no finite family, decided exactly at the table (see
    :mod:`symbolic.solve.queries.every_belief`); an error when that cannot be decided."""
    if len(tabs) != 1 or inst.on is not None:
        raise DPCheckError(f"{inst.notion.name} quantifies over all populations and has no finite family to decide it")
    from symbolic.report.results import pop_json
    from symbolic.solve.queries.every_belief import on_one_table
    res = on_one_table(inst, tabs[0], witness=True)   # a belief to show: its conditionals defined where possible
    if res.status == "undecided":
        raise DPCheckError(f"{inst.notion.name} quantifies over all populations and could not be decided exactly "
                           f"for every belief: {res.reason}")
    if res.status == "holds":
        return True, None
    belief = ", ".join(f"{d}: {v}" for d, v in pop_json(res.belief).items())
    ops = ExactOps()
    holds = inst.notion.body(ops, tabs[0], P=res.belief, **inst.param_values())
    why = ops.reason() if not holds else None
    return False, f"fails for the belief {{{belief}}}" + (f": {why}" if why else "")


def evaluate(notion, *mechanisms, population=None, arithmetic="auto", **params) -> bool:
    """Does the notion hold for these mechanisms, in exact arithmetic? (See :func:`explain`.)

    >>> evaluate(ApproxDP, randomized_response(3), E=2, delta=sp.Rational(1, 4))
    True
    """
    return explain(notion, *mechanisms, population=population, arithmetic=arithmetic, **params)[0]


_missing = [name for name in __all__ if name not in globals() and name not in _LAZY]
if _missing or len(set(__all__)) != len(__all__):
    raise ImportError(f"symbolic.api: __all__ names what it does not define, or twice: {_missing}")
