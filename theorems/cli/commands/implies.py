"""`dpcheck implies A B`: an ad hoc question between two notions, with no source to agree with."""
from __future__ import annotations

import json
import time
from dataclasses import replace

import click

from theorems.cli.app import command, ui
from theorems.cli.commands.operation_claims import operated_claim
from theorems.cli.audit_workers import scope_line, scoped
from theorems.cli.lookup import notion, one_mechanism, search_sizes, settings, user_limit
from theorems.cli.console import print_text, spinner
from theorems.cli.io import exit_code, name_value_pairs, param_values
from theorems.cli.recheck import OPTION as SAVE_OPTION, save_counterexample
from theorems.cli.options import Seconds, effort_options, size_options


@command("implies", short_help="ad hoc: does notion A imply notion B?", examples=[
    ("dpcheck implies StrongAdversaryDP PureDP --n 2", "sizes up to n = 2"),
    ("dpcheck implies PureDP FreeLunchPrivacy --n 1 --assume 'E>2'", "E > 2 only"),
    ("dpcheck implies DataPointInterventionDP PureDP --json", "only the JSON record"),
    ("dpcheck implies pure-dp approx-dp --n 1", "ε-DP ⇒ (ε, 0)-DP: notions with several parameters"),
    ("dpcheck implies approx-dp pure-dp --n 1 --param eps=1 --param delta=0", "at ε = 1, δ = 0"),
    ("dpcheck implies mine.py:Floor pure-dp --n 2 --effort 4", "your own notion, defined in mine.py"),
    ("dpcheck implies pure-dp free-lunch --n 2 --save-counterexample cx", "tables as files `dpcheck eval` reads"),
    ("dpcheck implies PureDP SemanticPrivacy --n 2 --target 'eps=E-1'", "ε-DP ⇒ (e^ε − 1)-semantic privacy"),
    ("dpcheck implies zcdp approx-dp --target 'E=exp(rho+2*sqrt(rho*log(1/delta)))' --assume '0<delta<=1'",
     "ρ-zCDP ⇒ (ρ + 2√(ρ log 1/δ), δ)-DP for every ρ and δ"),
    ("dpcheck implies pure-dp pure-dp --subsample poisson --target 'E=1+q*(E-1)'", "amplification by subsampling"),
    ("dpcheck implies approx-dp approx-dp --compose 2 --target 'E=E^2' --target 'delta=2*delta'", "basic composition")])
@click.argument("a", metavar="NOTION_A")
@click.argument("b", metavar="NOTION_B")
@size_options("2")
@effort_options
@click.option("--budget", type=Seconds(False), default=900.0, show_default=True,
              help="wall-clock safety net for the whole question, in seconds; what is cut off by it is unknown and "
                   "says so (e.g. --budget 1800)")
@click.option("--json", "as_json", is_flag=True, help="print only the JSON record of the claim (e.g. --json)")
@click.option("--assume", multiple=True, metavar="RANGE",
              help="narrow E's range; may be repeated (e.g. --assume 'E>=2' or --assume '1<E<3')")
@click.option("--param", "param", multiple=True, metavar="NAME=VALUE",
              help="fix a parameter of A at an exact value (a number, or exp/log/sqrt of numbers); eps=v gives "
                   "E = e^v; may be repeated (e.g. --param E=3 or --param eps=1/2)")
@click.option("--target", "target", multiple=True, metavar="NAME=EXPR",
              help="set a parameter of B to an expression in the question's parameters (numbers, E, + - * / ^, "
                   "exp, log, sqrt, and Phi for the conversions of privacy curves; never evaluated as code); it may "
                   "name B's other parameters, which then range over B's own range; may be repeated (e.g. --target "
                   "'eps=E-1' or --target 'E=exp(rho+2*sqrt(rho*log(1/delta)))')")
@click.option("--compose", metavar="K", help="B is asked of K runs of A's mechanisms (K = 2 or 3; the runs "
              "independent, each satisfying A; `derive map --compose` gives the level for any K) (e.g. --compose 2)")
@click.option("--subsample", metavar="SCHEME", help="B is asked of A's mechanism run on a random subsample: poisson "
              "(the rate a parameter q in (0, 1) that --target and --param may name), poisson:Q, or "
              "without-replacement:N (e.g. --subsample poisson --target 'E=1+q*(E-1)')")
@SAVE_OPTION
def implies(a, b, n, domain, outputs, effort, timeout, budget, as_json, assume, param, target, compose, subsample,
            save_prefix):
    """Does notion A imply notion B, for every E = e^ε ≥ 1 (E stays a symbol), at every size up to the
    given ones? Notions by ID or name (`dpcheck notions`), or FILE.py:NAME for a notion of your own.
    Parameters are matched by name (E to E, δ to δ), a level in [1, ∞) to a level (γ = E), and the
    target's other parameters are set to the least value of their range (δ = 0): `implies pure-dp
    approx-dp` asks ε-DP ⇒ (ε, 0)-DP, `implies approx-dp pure-dp` asks (ε, δ)-DP ⇒ ε-DP for every δ. The
    answer is proved within bounds, refuted by an exact counterexample, or unknown."""
    from symbolic import E, Sizes, check, claim_json, implication_claim, implication_with_map, result_text
    from symbolic import check_reached
    notions = [notion(name, user_limit(settings(timeout, effort))) for name in (a, b)]
    for nt in notions:
        one_mechanism(nt, "implies")
    sizes = Sizes(n or 2, domain or 2, outputs or 2)
    search_sizes(sizes)
    if all([p.name for p in nt.params] in (["E"], []) for nt in notions):
        got = [nt(E.symbol) if nt.params else nt() for nt in notions]
        claim = implication_claim(got[0], got[1], sizes=sizes)
    else:  # other parameters: matched by name, the target's others at their least level (δ = 0)
        claim, _ = implication_with_map(notions[0], notions[1], sizes=sizes)
        got = list(claim.parts[0].instances)
    if compose is not None or subsample is not None:
        claim = operated_claim(claim, compose, subsample, outputs, n, domain)
        got = [claim.parts[0].hypotheses[0], claim.parts[0].conclusion]
    if target:
        claim = _with_target(claim, target, b)
        got = list(claim.parts[0].instances)
    for text in assume:
        claim = claim.assuming(text)
    if param:
        claim = claim.fixing(param_values(param, [p.name for p in claim.params], where=f"{a} ⇒ {b}"))
    dominated = _through_dominating_pair(claim, as_json)
    if dominated is not None:
        return dominated
    if target:
        _no_curve_functions(claim)
    with spinner(ui(), f"checking {got[0]} ⇒ {got[1]}", json_stdout=as_json):
        res = check(claim, replace(settings(timeout, effort), budget=budget, stop_at=time.monotonic() + budget))
    check_reached(*notions)   # a user's code out of its limit: no verdict, even if a step went on without it
    doc = scoped(res, claim_json(res))
    if as_json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_text(ui(), result_text(res))
        if line := scope_line(doc):
            print(line)
    if save_prefix:
        save_counterexample(res, save_prefix, as_json=as_json, quiet=ui().quiet,
                            names={nt.name: spec for nt, spec in zip(notions, (a, b))})
    return exit_code([doc])


def _through_dominating_pair(claim, as_json):
    """A claim decided on privacy curves at every size (symbolic.derive.continuous.conversions): printed, and
    its exit code; None for any other claim (the general check runs)."""
    from symbolic import decide_curve_claim
    decided = decide_curve_claim(claim)
    if decided is None:
        return None
    verdict, statement, range_text = decided
    doc = verdict.to_json(statement, range_text)
    if as_json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(verdict.text(statement, range_text))
    return 0 if doc["verdict"] in ("proved", "refuted") else 1


def _with_target(claim, items, b):
    """The claim with B's parameters named in ``items`` (NAME=EXPR) set to those expressions. A target may name
    B's other parameters (not set by a target, not the question's): each named one then ranges over B's own
    range, as a parameter of the question (``--target 'E=exp(rho+2*sqrt(rho*log(1/delta)))'`` asks it for
    every δ)."""
    from symbolic import CURVE_CONSTANTS, CURVE_FUNCS, DPCheckError, Param, implication_claim, parse_expr
    hyp, concl = claim.parts[0].hypotheses, claim.parts[0].conclusion
    names = [p.name for p in concl.notion.params]
    values = dict(concl.param_values())
    targets = name_value_pairs(items, "--target", f"NAME=EXPR with NAME a parameter of {b}, e.g. eps=E-1")
    symbols = {p.name: p.symbol for p in claim.params}
    free = {p.name: Param(p.name, p.lower, p.upper, p.lower_strict, p.upper_strict) for p in concl.notion.params
            if p.name not in targets and p.name not in symbols}
    for k, v in targets.items():
        if k not in names:
            raise DPCheckError(f"--target {k}: {b} has no parameter {k!r}; its parameters: {', '.join(names) or 'none'}")
        values[k] = parse_expr(v, {**symbols, **{n: q.symbol for n, q in free.items()}}, what=f"--target {k}",
                               functions=CURVE_FUNCS, constants=CURVE_CONSTANTS)
    named = tuple(q for q in free.values() if any(q.symbol in values[k].free_symbols for k in targets))
    for q in named:
        values[q.name] = q.symbol
    new = concl.notion(**values)
    new = new.of(*concl.on) if concl.on is not None else new
    return implication_claim(hyp if len(hyp) != 1 else hyp[0], new, params=claim.params + named, sizes=claim.sizes)


def _no_curve_functions(claim):
    """Φ, erf and π in a target are read only for the claims decided on privacy curves."""
    import sympy as sp

    from symbolic import DPCheckError
    for arg in claim.parts[0].conclusion.args:
        if sp.sympify(arg).has(sp.erf, sp.erfc, sp.pi):
            raise DPCheckError(f"--target {claim.parts[0].conclusion}: Phi, erf and pi are read only for claims "
                               f"decided on privacy curves (zcdp or gaussian-dp ⇒ approx-dp, pure-dp ⇒ zcdp or "
                               f"gaussian-dp, bounded-range ⇒ zcdp); use exp, log and sqrt here")
