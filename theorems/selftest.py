"""Mutation self-test: seed one fault at a time into the engine and see whether the checks notice.

``dpcheck selftest`` runs the *battery* on the unmutated engine and checks that it passes (if it did
not, every mutant would look caught). ``dpcheck selftest --mutants`` then runs every mutant, each in
its own fresh process: the process patches ONE engine function, method or notion (found by name,
so line numbers do not matter; a target that no longer exists is reported as an error, never
skipped), then runs the battery's detectors in order and stops at the first that fires:

1. **tests**: fast pytest tests from ``tests/`` and doctests from ``symbolic/``, run in-process
   under the patch (tests that start the command line in a subprocess would not see the patch and
   are not used);
2. **catalogue verdicts**: a few catalogue claims at their default sizes through
   :func:`symbolic.run.check_claim`, with the verdict each is known to get; a different verdict
   counts, and so does a counterexample that fails exact re-verification (reported as "exact
   re-verification");
3. **second solver**: a proof that cvc5 contradicts (answers sat where z3 said unsat) is reported as
   caught "by the second solver".

A mutant lists the detectors expected to catch it first (so the run stays short); the rest of the
battery follows in its fixed order. Which detector fired is what the report shows.

Every mutant is a function that patches the engine: either a copy of one engine function with one
piece of its source text replaced (the text must occur exactly once, else the mutant is an error),
or a replacement written here. This module imports no solver: edited copies run in the engine
module's own namespace.

Run: ``python -m theorems.selftest [--mutants] [--json] [--jobs J] [--only ID,...]``.
"""
from __future__ import annotations

import __future__ as _future
import argparse
import contextlib
import dataclasses
import importlib
import inspect
import io
import json
import os
import pkgutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
MARK = "SELFTEST-RESULT "
PROGRESS = "SELFTEST-PROGRESS "


class MissingTarget(Exception):
    """The engine no longer has the function (or the source text) a mutant patches."""


# --- patching by name ----------------------------------------------------------------------------

def _resolve(target: str):
    """'module:Attr.attr' -> (owner, name, object)."""
    modname, _, path = target.partition(":")
    try:
        obj = importlib.import_module(modname)
    except ImportError as e:
        raise MissingTarget(f"{target}: module {modname} cannot be imported ({e})") from None
    owner, name = None, None
    for part in path.split("."):
        if part.startswith("__") or not hasattr(obj, part):
            raise MissingTarget(f"{target}: no attribute {part!r}")
        owner, name = obj, part
        obj = inspect.getattr_static(obj, part) if isinstance(obj, type) else getattr(obj, part)
    return owner, name, obj


def _set(owner, name, value):
    if dataclasses.is_dataclass(owner) and not isinstance(owner, type):
        object.__setattr__(owner, name, value)
    else:
        setattr(owner, name, value)


def _engine_modules():
    return [m for n, m in list(sys.modules.items())
            if m is not None and (n == "symbolic" or n.startswith("symbolic.") or n.startswith("theorems."))]


def _rebind(old, new):
    """Every module-level reference to ``old`` (``from x import f`` copies, notion bodies and
    sufficient families, claim callables) now points to ``new``."""
    def fix_fields(v):
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                if getattr(v, f.name, None) is old:
                    object.__setattr__(v, f.name, new)

    for mod in _engine_modules():
        for k, v in list(vars(mod).items()):
            if v is old:
                setattr(mod, k, new)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    fix_fields(x)
            else:
                fix_fields(v)


def install(target: str, new):
    """Replace the engine object named by ``target`` with ``new`` (and every reference to it)."""
    owner, name, old = _resolve(target)
    _set(owner, name, new)
    if not isinstance(owner, type):
        _rebind(old, new)
    return old


def wrap(target: str, factory: Callable):
    """Replace ``target`` by ``factory(original)``."""
    owner, name, old = _resolve(target)
    return install(target, factory(old))


def edit(targets, old_text: str, new_text: str, *more):
    """Replace ``old_text`` by ``new_text`` (and each further (old, new) pair in ``more``), each
    occurring exactly once, in the source of the first of ``targets`` (one name, or several
    alternatives for code that moved) that contains them all, and install the edited copy."""
    targets = (targets,) if isinstance(targets, str) else tuple(targets)
    pairs = [(old_text, new_text)] + [tuple(p) for p in more]
    seen = []
    for target in targets:
        try:
            owner, name, obj = _resolve(target)
        except MissingTarget as e:
            seen.append(str(e))
            continue
        fn = obj.fget if isinstance(obj, property) else obj
        fn = getattr(fn, "__func__", fn)
        if not inspect.isfunction(fn):
            seen.append(f"{target}: not a function")
            continue
        src = textwrap.dedent(inspect.getsource(fn))
        bad = [(o, src.count(o)) for o, _ in pairs if src.count(o) != 1]
        if bad:
            seen.append("; ".join(f"{target}: the text {o!r} occurs {k} times" for o, k in bad))
            continue
        if fn.__closure__:
            raise MissingTarget(f"{target}: a closure cannot be re-compiled")
        for o, n in pairs:
            src = src.replace(o, n)
        code = compile(src, inspect.getsourcefile(fn) or target, "exec",
                       flags=_future.annotations.compiler_flag, dont_inherit=True)
        ns = {}
        exec(code, fn.__globals__, ns)  # noqa: S102 - the engine's own source, edited here
        install(target, ns[fn.__name__])
        return
    raise MissingTarget("; ".join(seen))


# --- the mutants ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
    id: str
    description: str
    apply: Callable = dataclasses.field(repr=False)
    first: tuple = ()          # detectors to try before the rest of the battery


MUTANTS: list = []


def mutant(id, description, *first):
    def deco(f):
        MUTANTS.append(Mutant(id, description, f, tuple(first)))
        return f
    return deco


def _E(target, old, new, id, description, *first):
    """A mutant that is one source edit."""
    MUTANTS.append(Mutant(id, description, lambda: edit(target, old, new), tuple(first)))


T = "test:"
C = "claim:"
TRUST = "test:tests/test_trust.py::"

# -- search: solver answers, CEGIS, the size grid, minimisation ---------------------------------------
_E("symbolic.search:Solver.solve", 'return "unknown", self.s.reason_unknown()', 'return "unsat", None',
   "search.unknown-as-unsat", "z3 'unknown' read as unsat (Solver.solve)",
   TRUST + "test_solver_never_reads_unknown_as_unsat")
_E("symbolic.search:Solver._counter_population", "if not self.enc.universal:", "if True:",
   "search.cegis-never-refines", "the CEGIS oracle never refines: every candidate is accepted for the ∀𝒫 hypotheses",
   C + "T-P5")
_E("symbolic.search:_run_local", "if s.check(part) != z3.unsat:", "if s.check(part) == z3.sat:",
   "search.locality-unknown-as-unsat", "locality step: a disjunct z3 could not decide counted as refuted",
   TRUST + "test_locality_step_never_proves_a_false_claim_under_time_pressure")
_E("symbolic.search:grid", "for n in range(lo.n, hi.n + 1)", "for n in range(lo.n + 1, hi.n + 1)",
   "search.grid-skips-smallest-n", "size grid off by one: the smallest n is never searched",
   T + "tests/test_search.py::test_p1_proved_with_symbolic_E")
_E("symbolic.search:grid", "for m in range(lo.outputs, hi.outputs + 1)", "for m in range(lo.outputs, hi.outputs)",
   "search.grid-drops-largest-outputs", "size grid off by one: the largest |O| is never searched",
   T + "tests/test_search.py::test_p1_proved_with_symbolic_E")
_E("symbolic.search:check_implication", "unknown.append((sizes, res.reason))", "pass",
   "search.undecided-size-ignored", "check_implication: a size the solver could not decide is dropped from the sweep",
   TRUST + "test_an_undecided_size_makes_the_verdict_unknown")
_E("symbolic.search:check_implication", "return Refuted(cx, ok, minimal,", "return Refuted(cx, True, minimal,",
   "search.refuted-always-verified", "a counterexample is reported as re-verified whatever the exact check said",
   T + "tests/test_search.py::test_reverification_rejects_corrupted_models")
_E("symbolic.search:check_implication", "minimal = not unknown", "minimal = True",
   "search.minimal-always", "a counterexample is called minimal although a smaller size was undecided",
   TRUST + "test_refutation_after_an_undecided_size_is_not_called_minimal")
_E("symbolic.search:_value", "sp.Rational(x.numerator_as_long(), x.denominator_as_long())",
   "sp.Rational(x.numerator_as_long(), x.denominator_as_long() + 1)",
   "search.model-values-misread", "a z3 model's rational values are read with the denominator off by one",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb")


@mutant("search.minimise-accepts-unverified",
        "minimisation accepts candidates without exact re-verification (and its queries lose the negated "
        "conclusion, so such candidates need not be counterexamples)",
        T + "tests/test_search.py::test_quality_minimal_counterexample_appb")
def _minimise_unverified():
    edit("symbolic.search:minimise", "if new is None or not verify(imp2, params, new)[0]:", "if new is None:",
         ("status, m = solver.solve(tuple(fixes + [c, neg]))", "status, m = solver.solve(tuple(fixes + [c]))"))


@mutant("search.structured-ignores-product", "structured witnesses for a product-population notion include "
        "non-product populations", TRUST + "test_structured_product_populations_are_products")
def _structured_product():
    import symbolic.search as s
    s._STRUCTURED.clear()
    wrap("symbolic.search:structured_populations", lambda real: lambda sizes, product=False: real(sizes, False))


_E("symbolic.search:_in_range", "return", "return True or",
   "search.cheap-values-out-of-range", "parameter range ignored when choosing the fixed values of the cheap phase",
   C + "K-3.3.1", C + "K-3.3.6")

# -- encode: the solver's view of a claim -----------------------------------------------------------
_E("symbolic.encode:Encoding.new_population", "for j in range(1, n):", "for j in range(1, n - 1):",
   "encode.product-drops-last-marginal", "the last marginal is dropped from the encoded product population",
   TRUST + "test_product_population_encoding_is_the_product_of_all_marginals")
_E("symbolic.encode:Encoding._row", "self.base.append(z3.Sum(row) == 1)", "pass",
   "encode.row-sum-to-one-dropped", "sum-to-one dropped from every unknown distribution (Encoding._row)",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")
_E("symbolic.encode:Encoding.real", "self.base.append(v >= 0) if group != \"param\" else None", "None",
   "encode.nonnegativity-dropped", "non-negativity dropped from every unknown probability (Encoding.real)",
   T + "tests/test_search.py::test_quality_minimal_counterexample_appb", C + "T-P1")
_E("symbolic.encode:Encoding._build_params", "if p.lower is not None:", "if False:",
   "encode.param-lower-bound-dropped", "parameter lower bounds (E ≥ 1, δ ≥ 0) dropped from the query",
   TRUST + "test_encoding_keeps_parameters_in_range")
_E("symbolic.encode:Encoding._guard_divisors", "self.base.append(to_z3(sub.base, self.penv, self.ops) != 0)", "pass",
   "encode.divisor-guard-dropped", "divisor guard dropped: the search may put a parameter where an expression divides by 0",
   T + "tests/test_search.py::test_parameter_expressions_are_only_searched_where_defined")
_E("symbolic.encode:Encoding.negated_conclusion_parts", "for x in conjuncts([c])]", "for x in conjuncts([c])[:-1]]",
   "encode.conclusion-drops-last-conjunct", "the negated conclusion loses its last conjunct (one instance never checked)",
   C + "S-TH4")
_E("symbolic.encode:eval_notion", "for member in tabs[i].values())", "for member in list(tabs[i].values())[:1])",
   "encode.family-first-member-only", "a notion on an adaptive family is checked on its first member only "
   "(a dropped quantifier)", T + "tests/test_search.py::test_locality_proves_only_what_holds")
_E("symbolic.encode:eval_notion", "zip(ni.notion.params, ni.args)", "zip(ni.notion.params, tuple(reversed(ni.args)))",
   "encode.parameters-swapped", "a notion's parameters are bound in reverse order (ε and δ swapped)",
   C + "K-D1.1")

# -- verify: exact re-verification ---------------------------------------------------------------------
wrap_verify = lambda real: lambda imp, params, asg: (True, real(imp, params, asg)[1], [])
MUTANTS.append(Mutant("verify.always-accepts", "exact re-verification accepts every candidate",
                      lambda: wrap("symbolic.verify:verify", wrap_verify),
                      (T + "tests/test_search.py::test_reverification_rejects_corrupted_models",)))
_E(("symbolic.verify:_hypothesis_problems", "symbolic.verify:_verify"), "for q in ni.notion.sufficient(n, dom):",
   "for q in ni.notion.sufficient(n, dom)[:1]:",
   "verify.first-population-only", "a ∀𝒫 hypothesis is re-verified on the first population of its family only",
   TRUST + "test_verify_checks_every_population_of_a_hypothesis_family")
_E("symbolic.verify:_check_row", "if exact_sign(x) < 0:", "if False:",
   "verify.negative-entries-accepted", "re-verification accepts negative probabilities",
   TRUST + "test_verify_rejects_negative_entries")
_E("symbolic.verify:_check_row", "if sp.nsimplify(sp.Add(*row)) != 1:", "if False:",
   "verify.row-sums-unchecked", "re-verification does not check that rows sum to 1",
   T + "tests/test_search.py::test_reverification_rejects_corrupted_models")
_E(("symbolic.verify:_verify",), "if eval_notion(ops2, c, env, witness,", "if False and eval_notion(ops2, c, env, witness,",
   "verify.conclusion-unchecked", "re-verification never checks that the conclusion fails",
   T + "tests/test_search.py::test_verify_rejects_a_non_counterexample", TRUST + "test_verify_rejects_a_non_counterexample")
_E(("symbolic.verify:_hypothesis_problems", "symbolic.verify:_verify"), "elif not eval_notion(ops, ni, env, pop,",
   "elif False and eval_notion(ops, ni, env, pop,",
   "verify.given-hypotheses-unchecked", "re-verification skips hypotheses relative to the shared population",
   TRUST + "test_verify_checks_hypotheses_on_the_shared_population")

# -- run: combining parts, derivations, chains, reporting -----------------------------------------------
_E("symbolic.run:combine", "    if unknown:\n", "    if unknown and not any(isinstance(v, Proved) for v in verdicts):\n",
   "run.combine-ignores-unknown", "combine() ignores an Unknown part once another part is proved",
   TRUST + "test_combine_unknown_part_is_never_proved")
_E("symbolic.run:combine", "return bad[0] if bad else refuted[0]", "return refuted[0]",
   "run.combine-hides-unverified", "combine() reports a verified refutation and hides an unverified one",
   TRUST + "test_combine_surfaces_an_unverified_refutation")
_E("symbolic.run:combine", "    if refuted:\n", "    if refuted and not any(isinstance(v, Proved) for v in verdicts):\n",
   "run.combine-proved-beats-refuted", "combine() reports proved when one part is proved and another refuted",
   C + "T-RR", C + "T-ASSOC")
_E("symbolic.run:_checked", "if isinstance(v, Derived) and not all(ok for _, ok in v.checks):", "if False:",
   "run.derived-checks-ignored", "a derivation whose own checks fail is still reported as derived",
   TRUST + "test_failed_derivation_checks_are_not_a_result")
_E("symbolic.run:chain", "for p in parts[:lemmas]:", "for p in parts[:0]:",
   "run.chain-skips-lemmas", "a chained proof does not require its lemmas to be proved",
   TRUST + "test_chain_requires_its_lemmas")
_E("symbolic.run:ClaimResult.agrees", "v = self.verdict", "return True",
   "run.agrees-always", "every result is reported as agreeing with its source",
   TRUST + "test_agreement_and_definiteness")


@mutant("run.explore-unchecked", "explore lists larger sizes as proved without checking them",
        TRUST + "test_explore_reports_only_sizes_it_proved")
def _explore_unchecked():
    from symbolic.verdicts import Sizes

    def fake(claim, settings, seconds):
        s = claim.sizes
        return tuple((Sizes(s.n + a, s.domain + b, s.outputs + c), 0.0)
                     for a, b, c in ((1, 0, 0), (0, 1, 0), (0, 0, 1))), None
    install("symbolic.run:_explore", fake)


# -- ops: the two number types ---------------------------------------------------------------------------
_E("symbolic.ops:ExactOps.le", "lambda s: s >= 0", "lambda s: s > 0",
   "ops.exact-le-strict", "exact ≤ evaluated as <", T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.ops:ExactOps.lt", "lambda s: s > 0", "lambda s: s >= 0",
   "ops.exact-lt-nonstrict", "exact < evaluated as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:ExactOps.eq", "lambda s: s == 0", "lambda s: s >= 0",
   "ops.exact-eq-as-ge", "exact = evaluated as ≥", TRUST + "test_exact_and_solver_evaluation_agree")


@mutant("ops.exact-sign-float-tolerance", "exact_sign compares in floats with a 1e-9 tolerance",
        TRUST + "test_exact_sign_near_misses")
def _float_sign():
    def exact_sign(x):
        import sympy as sp
        from symbolic.ops import UndecidedComparison
        x = sp.sympify(x)
        if x.free_symbols:
            raise UndecidedComparison(f"cannot decide the sign of {x}")
        v = float(sp.N(x, 30))
        return 0 if abs(v) <= 1e-9 else (1 if v > 0 else -1)
    install("symbolic.ops:exact_sign", exact_sign)


_E("symbolic.ops:ExactOps.max0", "return x if exact_sign(x) > 0 else sp.Integer(0)", "return x",
   "ops.exact-max0-identity", "exact max(0, x) returns x", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.le", "return self._t(a) <= self._t(b)", "return self._t(a) < self._t(b)",
   "ops.z3-le-strict", "solver ≤ encoded as <", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.lt", "return self._t(a) < self._t(b)", "return self._t(a) <= self._t(b)",
   "ops.z3-lt-nonstrict", "solver < encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.ge", "return self._t(a) >= self._t(b)", "return self._t(a) > self._t(b)",
   "ops.z3-ge-strict", "solver ≥ encoded as >", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.eq", "return self._t(a) == self._t(b)", "return self._t(a) <= self._t(b)",
   "ops.z3-eq-as-le", "solver = encoded as ≤", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.max0", "return self.z3.If(x > 0, x, self.z3.RealVal(0))", "return x",
   "ops.z3-max0-identity", "solver max(0, x) encoded as x", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.Implies", "return self.Or([self.Not(a), b])", "return self.And([a, b])",
   "ops.z3-implies-as-and", "solver implication encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:Z3Ops.Or", "return self.z3.Or(xs) if xs else self.z3.BoolVal(False)",
   "return self.z3.And(xs) if xs else self.z3.BoolVal(False)",
   "ops.z3-or-as-and", "solver disjunction encoded as a conjunction", TRUST + "test_exact_and_solver_evaluation_agree")
_E("symbolic.ops:to_z3", "return out if k > 0 else 1 / out", "return out",
   "ops.to-z3-negative-power", "a negative power x^-k is given to the solver as x^k",
   T + "tests/test_search.py::test_parameter_expressions_are_only_searched_where_defined")
_E("symbolic.ops:Z3Ops.sqrt", "self.z3.And(s >= 0, s * s == self._t(x))", "s * s == self._t(x)",
   "ops.z3-sqrt-sign-dropped", "the solver's square root may be the negative root", TRUST + "test_solver_square_root_is_the_nonnegative_root")

# -- tables and populations: neighbours, marginals ---------------------------------------------------------
_E("symbolic.tables:MechTable.neighbours", "for i in range(self.n):", "for i in range(self.n - 1):",
   "tables.neighbours-skip-last-index", "off-by-one neighbour relation: the last data point is never replaced",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")
_E("symbolic.tables:MechTable.neighbours", "if v != d[i]:", "if v > d[i]:",
   "tables.neighbours-one-direction", "neighbours only in one direction (d_i replaced by larger values only)",
   TRUST + "test_neighbour_relation_is_complete", C + "T-P1")
_E("symbolic.tables:PopTable.marginal", "if d[i] == v", "if d[i] != v",
   "tables.marginal-complement", "Pr[D_i = v] computed as Pr[D_i ≠ v]", TRUST + "test_population_marginals")
_E("symbolic.population:product", "for m, v in zip(marginals, d)", "for m, v in zip(marginals, reversed(d))",
   "population.product-misaligned", "product population pairs the marginals with the data points in reverse",
   TRUST + "test_population_marginals")

# -- notions: weakened / strengthened, one per family ------------------------------------------------------
_E("symbolic.dp_notions:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), E * E * A.p(replace(d, i, v), o),",
   "notion.pure-dp-weakened", "ε-DP weakened to 2ε (E² in place of E)", T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.dp_notions:_pure_dp", "ops.le(A.p(d, o), E * A.p(replace(d, i, v), o),",
   "ops.le(A.p(d, o), A.p(replace(d, i, v), o),",
   "notion.pure-dp-strengthened", "ε-DP strengthened to 0-DP (the factor e^ε dropped)",
   T + "tests/test_notions.py::test_rr_is_exactly_log3_dp")
_E("symbolic.dp_notions:_approx_dp", "for o in A.outputs), delta,", "for o in A.outputs), 2 * delta,",
   "notion.approx-dp-weakened", "(ε,δ)-DP weakened to (ε,2δ)", T + "tests/test_notions.py::test_approx_dp_event_encoding_matches_enumeration")
_E("symbolic.dp_notions:_strong_adversary", "ops.le(n1 * m2, E * n2 * m1,", "ops.le(n1 * m1, E * n2 * m2,",
   "notion.strong-adversary-swapped", "strong-adversary DP with the two conditionals' denominators swapped",
   T + "tests/test_notions.py::test_sufficient_family_agrees_with_solver", C + "T-P1")
_E("symbolic.dp_notions:_bayesian0", "for u, v in itertools.permutations(A.domain, 2):",
   "for u, v in itertools.combinations(A.domain, 2):",
   "notion.bayesian0-one-direction", "Bayesian₀ DP checks each pair of values in one direction only",
   TRUST + "test_notions_on_hand_tables", C + "T-F2c")
_E("symbolic.dp_notions:_whole_db", "E * pr(o, replace(d, i, v))", "E * pr(o, d)",
   "notion.whole-db-intervention-self", "whole-database intervention DP compares a database with itself",
   C + "T-P2")
_E("symbolic.dp_notions:_data_point", "ops.le(pr[u][j], E * pr[v][j],", "ops.le(pr[u][j], E * E * pr[v][j],",
   "notion.data-point-intervention-weakened", "data-point intervention DP weakened to 2ε", C + "T-P5", C + "T-P4.converse")


@mutant("notion.data-point-family-truncated", "T-D8's sufficient family of populations cut to its first member",
        C + "T-P5")
def _dp_family():
    wrap("symbolic.dp_notions:DataPointInterventionDP.sufficient", lambda real: lambda n, dom: real(n, dom)[:1])


_E("symbolic.semantic:_semantic", "ok = posterior_sd_ok(ops, A, P, i, t, eps)", "ok = posterior_sd_ok(ops, A, P, i, t, 2 * eps)",
   "notion.semantic-privacy-weakened", "ε-semantic privacy weakened to 2ε", T + "tests/test_semantic.py")
_E("symbolic.semantic:hockey", "ops.max0(a - E * b)", "ops.max0(a - b)",
   "notion.hockey-stick-strengthened", "the hockey-stick divergence ignores e^ε (indistinguishability strengthened)",
   T + "tests/test_semantic.py")
_E("symbolic.pml_notions:_pml_under", "ops.le(A.p(d, o), E * output_prob(ops, A, P, o),",
   "ops.le(A.p(d, o), E * E * output_prob(ops, A, P, o),",
   "notion.pml-weakened", "ε-PML weakened to 2ε", T + "tests/test_pml_notions.py")
_E("symbolic.pml_notions:_pml_under", "ops.Implies(ops.gt(P.p(d), 0),", "ops.Implies(ops.ge(P.p(d), 0),",
   "notion.pml-support-guard", "PML also counts inputs outside the prior's support (strengthened)",
   T + "tests/test_pml_notions.py")
_E("symbolic.causal:SEM.do", "done.update(assignment)", "pass",
   "causal.do-ignored", "do(...) ignores the intervention", T + "tests/test_causal.py")
_E("symbolic.brp:brp_holds", "for x1, x2 in itertools.permutations(tab, 2)", "for x1, x2 in itertools.combinations(tab, 2)",
   "notion.brp-one-direction", "BRP bounds relative probabilities in one direction only", C + "T-BRP-DP")

# -- mechanisms and constructions ------------------------------------------------------------------------
_E("symbolic.mechanism:truncated_geometric", "a = 1 / E", "a = 1 / E ** 2",
   "mechanism.geometric-constant", "truncated geometric mechanism built with α = e^{-2ε} (a wrong constant)",
   T + "tests/test_notions.py::test_truncated_geometric_epsilon")
_E("symbolic.terms:Compose.eval", "a1.p(d, o1) * fam[o1].p(d, o2)", "a1.p(d, o1) * fam[a1.outputs[0]].p(d, o2)",
   "terms.compose-not-adaptive", "adaptive composition ignores the first stage's output",
   TRUST + "test_adaptive_composition_uses_the_first_output")

# -- closed forms ------------------------------------------------------------------------------------------
_E("symbolic.closed_forms:rr_pml", "P <= sp.Rational(1, 2)", "P <= sp.Rational(1, 3)",
   "closed.rr-pml-branch-point", "rr_pml's branch point moved from p ≤ 1/2 to p ≤ 1/3",
   TRUST + "test_rr_pml_between_the_branch_points")
_E("symbolic.closed_forms:laplace_shift_loss", "sup = sp.simplify(sp.Max(*sups))", "sup = sp.simplify(2 * sp.Max(*sups))",
   "closed.laplace-loss-constant", "the Laplace shift loss is derived as 2Δ/b (a wrong constant)",
   T + "symbolic/closed_forms.py::symbolic.closed_forms.laplace_shift_loss")
_E("symbolic.closed_forms:laplace_k_releases_scale", "b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]",
   "b_k = sp.solve(sp.Eq(loss, EPS / (K + 1)), B)[0]",
   "closed.k-releases-constant", "L-1.4: k releases derived with ε/(k+1) each", T + "tests/test_closed_forms.py::test_k_releases_scale")
_E("symbolic.closed_forms:histogram_laplace_scales", "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])",
   "joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1 - 1)])",
   "closed.histogram-l1-off-by-one", "L-1.5: the joint release counts one coordinate too few",
   T + "tests/test_closed_forms.py::test_histogram_scales_by_enumeration")
_E("symbolic.closed_forms:_entry_sup", "P <= sp.Rational(1, 2)", "P <= sp.Rational(1, 3)",
   "closed.entry-sup-branch-point", "the per-p supremum of S-PROP12 switches branch at p = 1/3",
   TRUST + "test_prop12_per_p_between_the_branch_points")
_E("symbolic.pml:pml_ratio", "return sp.Max(*ratios.values()) if ratios else sp.Integer(1)",
   "return sp.Min(*ratios.values()) if ratios else sp.Integer(1)",
   "pml.ratio-min", "PML takes the smallest likelihood ratio instead of the largest", T + "tests/test_pml.py")
_E("symbolic.closed_forms:chernoff_threshold_leakage", "bound = -sp.log(1 - sp.exp(-N * kl))",
   "bound = -sp.log(1 - sp.exp(-2 * N * kl))",
   "closed.chernoff-constant", "S-EX33's Chernoff bound derived with e^{-2n KL} (a wrong constant)",
   T + "tests/test_closed_forms.py::test_chernoff_bound_dominates")


# --- the battery ----------------------------------------------------------------------------------------

TESTS = [
    "tests/test_trust.py",
    "tests/test_search.py",
    "tests/test_notions.py",
    "tests/test_properties.py",
    "tests/test_causal.py",
    "tests/test_mechanism.py",
    "tests/test_prob.py",
    "tests/test_semantic.py",
    "tests/test_pml.py",
    "tests/test_pml_notions.py",
    "tests/test_closed_forms.py",
    "tests/test_theorems_t.py",
    "symbolic/closed_forms.py",
    "symbolic/pml.py",
]


@dataclass(frozen=True)
class ClaimCheck:
    """A catalogue claim and the verdict it is known to get at its default sizes (``parts``: each
    part's verdict; ``at``: the sizes of the counterexample)."""

    id: str
    verdict: str
    parts: tuple | None = None
    at: tuple | None = None


CLAIMS = [  # cheapest first; the proved ones include the second solver's re-check
    ClaimCheck("T-APPB", "refuted", ("refuted", "refuted"), at=(1, 2, 2)),
    ClaimCheck("T-P4.converse", "refuted", ("refuted", "refuted"), at=(2, 2, 2)),
    ClaimCheck("S-FLP-DP", "refuted", ("proved", "refuted")),
    ClaimCheck("S-TH4", "refuted", ("proved", "refuted")),
    ClaimCheck("T-RR", "refuted", ("proved", "refuted", "refuted")),
    ClaimCheck("T-ASSOC", "refuted", ("refuted",)),
    ClaimCheck("L-EQ6", "proved", ("proved", "proved")),
    ClaimCheck("T-NI", "proved", ("proved", "proved")),
    ClaimCheck("K-D1.1", "proved", ("proved", "proved")),
    ClaimCheck("T-L1", "proved", ("proved",)),
    ClaimCheck("T-TH1", "proved", ("proved",)),
    ClaimCheck("K-3.3.1", "proved", ("proved",)),
    ClaimCheck("K-3.3.6", "proved", ("proved",)),
    ClaimCheck("T-P1", "proved", ("proved", "proved")),
    ClaimCheck("T-P5", "proved", ("proved", "proved")),
    ClaimCheck("T-P2", "proved", ("proved", "proved")),
    ClaimCheck("T-BRP-DP", "proved", ("proved", "proved")),
    ClaimCheck("T-F2c", "refuted", ("proved", "refuted")),
]

BATTERY = [T + t for t in TESTS] + [C + c.id for c in CLAIMS]


def _claim_settings():
    from symbolic.search import Settings
    return Settings.profile("ci")


def _run_claim(check: ClaimCheck):
    """None if the claim gets its known verdict, else how the difference showed."""
    from symbolic.run import check_claim
    from theorems.registry import get
    try:
        res = check_claim(get(check.id), _claim_settings())
    except Exception as e:  # noqa: BLE001 - an engine crash is a detection, reported as such
        return f"crash in catalogue claim {check.id}: {type(e).__name__}: {str(e)[:120]}"
    v = res.verdict
    for pv in [p.verdict for p in res.parts] + [v]:
        cert = getattr(pv, "certificate", None) or {}
        if cert.get("second_verdict") == "sat" or "solvers disagree" in (getattr(pv, "reason", "") or ""):
            return f"second solver: cvc5 answers sat on a query of {check.id} that z3 called unsat"
        if pv.name == "refuted" and not pv.verified_exactly:
            return f"exact re-verification: a counterexample for {check.id} fails the exact check"
    if v.name != check.verdict:
        why = getattr(v, "reason", "") or ""
        return f"catalogue verdict: {check.id} is {v.name}, expected {check.verdict}" + (f" ({why[:100]})" if why else "")
    if check.parts is not None:
        got = tuple(p.verdict.name for p in res.parts)
        if got != check.parts:
            return f"catalogue verdict: {check.id} parts are {got}, expected {check.parts}"
    if check.at is not None and v.name == "refuted" and v.counterexample.sizes.as_tuple() != check.at:
        return (f"catalogue verdict: {check.id}'s counterexample is at {v.counterexample.sizes.as_tuple()}, "
                f"expected the minimal {check.at}")
    return None


class _Recorder:
    """pytest plugin: the first failing test (or collection error)."""

    def __init__(self):
        self.failed = None
        self.ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.failed:
            self.ran += report.when == "call"
        if report.failed and self.failed is None:
            msg = str(getattr(report, "longreprtext", "") or "").strip().splitlines()
            last = next((l for l in reversed(msg) if l.startswith("E ")), msg[-1] if msg else "")
            self.failed = f"{report.nodeid}" + (f" ({last.strip()[:120]})" if last else "")

    def pytest_collectreport(self, report):
        if report.failed and self.failed is None:
            self.failed = f"collecting {report.nodeid} failed"


def _run_tests(args):
    """None if every test passes; the first failure otherwise. A broken detector raises."""
    import pytest
    rec = _Recorder()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = pytest.main([*args, "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                            "--rootdir", str(ROOT), "-W", "ignore::pytest.PytestAssertRewriteWarning"],
                           plugins=[rec])
    code = int(code)
    if rec.failed is not None:
        return f"test {rec.failed}"
    if code != 0 or rec.ran == 0:
        raise RuntimeError(f"detector {' '.join(args)} did not run (pytest exit {code}): {out.getvalue()[-300:]}")
    return None


def _order(first):
    out = list(first)
    for d in BATTERY:
        if d not in out and not any(d.startswith(T) and f.startswith(d + "::") for f in out):
            out.append(d)
    return out


def run_detectors(detectors, *, progress=None):
    """Run detectors in order (consecutive tests in one pytest session); stop at the first that fires.
    Returns (caught_by or None, detectors run)."""
    claims = {c.id: c for c in CLAIMS}
    i, ran = 0, []
    while i < len(detectors):
        d = detectors[i]
        if d.startswith(T):
            j = i
            while j < len(detectors) and detectors[j].startswith(T):
                j += 1
            group = [x[len(T):] for x in detectors[i:j]]
            if progress:
                progress(", ".join(group))
            ran += detectors[i:j]
            fired = _run_tests(group)
            i = j
        else:
            cid = d[len(C):]
            if progress:
                progress(d)
            ran.append(d)
            fired = _run_claim(claims[cid])
            i += 1
        if fired:
            return fired, ran
    return None, ran


def _prepare():
    """Import every engine module and the catalogue, so that patches reach every reference."""
    os.chdir(ROOT)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import symbolic
    for info in pkgutil.iter_modules(symbolic.__path__):
        if info.name != "plots":
            importlib.import_module(f"symbolic.{info.name}")
    from theorems.registry import claims
    claims()


def _child(mutant_id, detectors):
    """In the subprocess: patch, run the detectors, print one result line."""
    started = time.monotonic()
    result = {"id": mutant_id, "caught_by": None, "error": None, "ran": []}

    def progress(what):
        print(PROGRESS + what, flush=True)
    try:
        _prepare()
        if mutant_id != "none":
            m = {x.id: x for x in MUTANTS}[mutant_id]
            m.apply()
            detectors = _order(m.first)
        result["caught_by"], result["ran"] = run_detectors(detectors, progress=progress)
    except MissingTarget as e:
        result["error"] = f"the patch target is gone: {e}"
    except Exception as e:  # noqa: BLE001 - reported, never hidden
        result["error"] = f"{type(e).__name__}: {e}"
    result["seconds"] = round(time.monotonic() - started, 2)
    sys.stdout.flush()
    print(MARK + json.dumps(result), flush=True)
    return 0


# --- the parent: run mutants in subprocesses ------------------------------------------------------------

_RUNNING = set()
_LOCK = threading.Lock()


def _spawn(args, limit):
    """Run ``python -m theorems.selftest args`` with a time limit; the parsed result line."""
    cmd = [sys.executable, "-m", "theorems.selftest", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env, start_new_session=True)
    with _LOCK:
        _RUNNING.add(p)
    try:
        out, _ = p.communicate(timeout=limit)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill(p)
        out, _ = p.communicate()
        timed_out = True
    finally:
        with _LOCK:
            _RUNNING.discard(p)
    lines = out.splitlines()
    res = next((json.loads(l[len(MARK):]) for l in reversed(lines) if l.startswith(MARK)), None)
    seconds = round(time.monotonic() - start, 2)
    if res is None:
        last = [l[len(PROGRESS):] for l in lines if l.startswith(PROGRESS)]
        why = (f"time limit of {limit:g} s reached" if timed_out else f"process ended with code {p.returncode}")
        res = {"caught_by": None, "error": why + (f" while running {last[-1]}" if last else "")
               + ("" if timed_out else ": " + " | ".join(lines[-3:])[:300]), "ran": []}
    res["seconds"] = seconds
    return res


def _kill(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_all():
    with _LOCK:
        for p in list(_RUNNING):
            _kill(p)


def run_battery(jobs=2, limit=600.0):
    """The battery on the unmutated engine, split over ``jobs`` processes: every detector must pass."""
    chunks = [BATTERY[k::jobs] for k in range(jobs)] if jobs > 1 else [BATTERY]
    with ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda ch: _spawn(["--run-detectors", ",".join(ch)], limit), chunks))
    failures = [r["caught_by"] or r["error"] for r in results if r["caught_by"] or r["error"]]
    return {"detectors": len(BATTERY), "passed": not failures, "failures": failures,
            "seconds": round(max(r["seconds"] for r in results), 2)}


def run_mutants(mutants, jobs=2, limit=240.0, report=None):
    def one(m):
        r = _spawn(["--run-mutant", m.id], limit)
        row = {"id": m.id, "description": m.description, "caught_by": r.get("caught_by"),
               "seconds": r["seconds"]}
        if r.get("error"):
            row["error"] = r["error"]
        if report:
            report(row)
        return row
    with ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(one, mutants))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="dpcheck selftest", description=(
        "Seeded-fault self-test. Without --mutants: check that the detector battery passes on the "
        "unmutated engine. With --mutants: run every seeded fault and report what caught it."))
    ap.add_argument("--mutants", action="store_true", help="run the seeded faults")
    ap.add_argument("--json", action="store_true", help="print only a JSON document on stdout")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    ap.add_argument("--only", default=None, help="comma-separated mutant IDs")
    ap.add_argument("--limit", type=float, default=240.0, help="seconds per mutant (default 240)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--run-mutant", help=argparse.SUPPRESS)
    ap.add_argument("--run-detectors", help=argparse.SUPPRESS)
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if args.run_mutant:
        return _child(args.run_mutant, None)
    if args.run_detectors:
        return _child("none", args.run_detectors.split(","))
    if args.jobs < 1 or not args.limit > 0:
        print("selftest: --jobs must be at least 1 and --limit positive", file=sys.stderr)
        return 2
    if args.list:
        for m in MUTANTS:
            print(f"{m.id:<40} {m.description}")
        return 0
    chosen = MUTANTS
    if args.only:
        ids = [x.strip() for x in args.only.split(",") if x.strip()]
        known = {m.id for m in MUTANTS}
        bad = [x for x in ids if x not in known]
        if bad:
            print(f"selftest: unknown mutant {bad[0][:80]!r}; `--list` shows them", file=sys.stderr)
            return 2
        chosen = [m for m in MUTANTS if m.id in ids]
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    start = time.monotonic()
    try:
        if not args.mutants:
            say(f"battery on the unmutated engine: {len(BATTERY)} detectors, {args.jobs} processes ...")
            bat = run_battery(args.jobs, max(args.limit, 600.0))
            doc = {"battery": bat, "seconds": round(time.monotonic() - start, 2)}
            if args.json:
                print(json.dumps(doc, indent=2))
            else:
                say("battery passes" if bat["passed"] else "battery FAILS on the unmutated engine:")
                for f in bat["failures"]:
                    say("  " + f)
                say(f"{doc['seconds']:.1f} s")
            return 0 if bat["passed"] else 1

        say(f"{len(chosen)} mutants, {args.jobs} at a time, {args.limit:g} s each at most")
        say(f"{'mutant':<40} {'caught by':<70} {'s':>6}")
        results = run_mutants(chosen, args.jobs, args.limit, report=lambda r: say(
            f"{r['id']:<40} {(r['caught_by'] or 'MISSED: ' + r.get('error', 'no detector fired'))[:70]:<70} "
            f"{r['seconds']:6.1f}"))
    except KeyboardInterrupt:
        _kill_all()
        print("selftest: interrupted", file=sys.stderr)
        return 130
    missed = [r["id"] for r in results if not r["caught_by"]]
    doc = {"mutants": len(results), "caught": len(results) - len(missed), "missed": missed,
           "results": results, "seconds": round(time.monotonic() - start, 2)}
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        say(f"{doc['caught']}/{doc['mutants']} caught in {doc['seconds']:.0f} s"
            + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
