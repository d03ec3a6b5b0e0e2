"""`dpcheck check ID`: one catalogue claim, its verdict and counterexample tables (or, for a definition's
ID, the definition: its notions, their parameters and summaries, and what to run with them)."""
from __future__ import annotations

import json
import time

import click

from symbolic import InvalidSize
from theorems.cli.app import command, ui
from theorems.cli.audit_workers import scope_line, scoped
from theorems.cli.lookup import claim_or_definition, search_sizes, settings
from theorems.cli.console import print_text, spinner
from theorems.cli.io import exit_code, output, param_values, say, writable
from theorems.cli.recheck import OPTION as SAVE_OPTION, save_counterexample
from theorems.cli.options import Seconds, confirm_option, effort_options, size_options


DEFAULT_BUDGET = 60.0   # nominal seconds of exploring beyond a claim's own sizes


@command("check", short_help="check one claim: verdict, counterexample tables", examples=[
    ("dpcheck check T-P4.converse", "verdict and the minimal counterexample's tables"),
    ("dpcheck check T-P1 --json", "only the JSON document on stdout"),
    ("dpcheck check T-P5 --n 2 --domain 3 --outputs 2 --effort thorough", "larger sizes, more effort"),
    ("dpcheck check K-3.3.5 --confirm-effort 4", "cvc5 with four times its limits, to confirm the proof"),
    ("dpcheck check T-P1 --budget 0 --smt2 q.smt2", "default sizes only; SMT-LIB files"),
    ("dpcheck check K-3.3.1 --assume 'delta<1/10'", "narrow a parameter's range"),
    ("dpcheck check T-P1 --param eps=1/2", "at one value: ε = 1/2, i.e. E = e^(1/2)"),
    ("dpcheck check T-APPB --save-counterexample cx", "the tables as files `dpcheck eval` reads"),
    ("dpcheck check T-D1", "a definition: its notion, summary and source")])
@click.argument("claim_id", metavar="ID")
@size_options("the claim's own sizes")
@effort_options
@confirm_option
@click.option("--budget", type=Seconds(True), default=None,
              help="effort for exploring larger sizes after the claim's own, in nominal seconds of solver steps "
                   "(10^6 z3 steps or one processor second each, times the --effort level); 0: the claim's sizes only; "
                   "default 60, or 0 when --n, --domain or --outputs set the sizes (e.g. --budget 0)")
@click.option("--json", "as_json", is_flag=True,
              help="print only the JSON document on stdout, the audit's schema with one claim (e.g. --json)")
@click.option("--assume", multiple=True, metavar="RANGE",
              help="narrow a parameter's range, open or closed ends; may be repeated "
                   "(e.g. --assume '0<delta<=1' or --assume 'E>=2')")
@click.option("--param", "param", multiple=True, metavar="NAME=VALUE",
              help="fix a parameter at an exact value (a number, or exp/log/sqrt of numbers); eps=v gives E = e^v; "
                   "may be repeated (e.g. --param E=3 or --param eps=1/2)")
@click.option("--smt2", metavar="FILE", help="write the SMT-LIB queries, one file each: a proof's obligations "
              "(FILE-1.smt2, …), else the negated claim (e.g. --smt2 q.smt2)")
@SAVE_OPTION
def check_claim(claim_id, n, domain, outputs, effort, timeout, confirm, budget, as_json, assume, param, smt2,
                save_prefix):
    """Check one claim of the catalogue: proved within the sizes searched, refuted by a minimal
    counterexample in exact rationals (re-verified in sympy), or unknown with the reason. ID is a
    catalogue ID from `dpcheck list`; for a definition's ID the definition is shown instead."""
    entry = claim_or_definition(claim_id)
    if entry.kind == "def":
        return show_definition(entry, as_json, ignored=[f for f, v in (("--n", n), ("--domain", domain),
                                                                         ("--outputs", outputs),
                                                                         ("--assume", assume), ("--param", param),
                                                                         ("--smt2", smt2),
                                                                         ("--save-counterexample", save_prefix),
                                                                         ("--timeout", timeout)) if v])
    claim = entry
    if budget is None:   # sizes the user set are the sizes checked; the catalogue's own are explored beyond
        budget = 0.0 if any(v is not None for v in (n, domain, outputs)) else DEFAULT_BUDGET
    if any(v is not None for v in (n, domain, outputs)):
        if not claim.parts:
            raise InvalidSize(f"{claim.id} is a {claim.kind} claim without sizes; drop --n, --domain, --outputs")
        claim = claim.with_sizes(n, domain, outputs)
        search_sizes(claim.sizes)
    for text in assume:
        claim = claim.assuming(text)
    if param:
        claim = claim.fixing(param_values(param, [p.name for p in claim.params], where=claim.id))
    s = settings(timeout, effort).confirming(confirm)
    if smt2:
        writable(smt2, "--smt2")
    if save_prefix:
        writable(f"{save_prefix}-x.json", "--save-counterexample")
    from symbolic import check, claim_json, result_text
    if ui().verbose:
        say("note", f"checking {claim.id} at sizes up to {claim.sizes}, effort {s.level} ({s.query_effort:,} z3 "
                    f"steps a solver call, {s.effort:,} a part)"
                    + (f", then exploring with {budget:g} nominal s of effort" if budget > 0 else ", the claim's sizes only"))
    t0 = time.monotonic()
    with spinner(ui(), f"checking {claim.id}", json_stdout=as_json):
        res = check(claim, s, explore=budget)
    if ui().verbose:
        say("note", f"{claim.id}: {res.verdict.name} after {time.monotonic() - t0:.1f} s")
    if smt2:
        from symbolic import write_smt2
        names = write_smt2(res, smt2)
        if not ui().quiet:
            last = f" … {names[-1]}" if len(names) > 1 else ""
            say("note", f"wrote {len(names)} SMT-LIB file(s): {names[0]}{last}")
    doc = scoped(res, claim_json(res))
    if as_json:
        print(output([doc]))
    else:
        print_text(ui(), result_text(res))
        if claim.display:
            print(claim.display(res))
        if line := scope_line(doc):
            print(line)
    if save_prefix:
        save_counterexample(res, save_prefix, as_json=as_json, quiet=ui().quiet)
    return exit_code([doc])


def definition_json(d) -> dict:
    from theorems.registry import SOURCES
    return {"id": d.id, "kind": "def", "source": d.source, "source_name": SOURCES.get(d.source, d.source),
            "statement": d.statement,
            "notions": [{"name": nt.name, "summary": nt.summary, "arity": nt.arity, "population": nt.population,
                         "parameters": [{"name": p.name, "range": p.range_text(), "meaning": p.meaning}
                                        for p in nt.params]} for nt in d.notions]}


def show_definition(d, as_json, ignored=()):
    """A definition's ID given to `check`: nothing to check, so show what it is and what to run."""
    doc = definition_json(d)
    if ignored and not ui().quiet:
        say("note", f"{d.id} is a definition, not a claim: {', '.join(ignored)} ignored")
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), "claims": [], "definition": doc}, indent=2, ensure_ascii=False))
        return 0
    lines = [f"{d.id} [def] {d.statement}", f"  source: {d.source} ({doc['source_name']})",
             "  a definition, not a claim: there is no verdict to check"]
    for nt in doc["notions"]:
        params = ", ".join(p["name"] for p in nt["parameters"])
        lines.append(f"  notion {nt['name']}({params}): {nt['summary'] or '(no summary)'}")
        lines += [f"    parameter {p['range']}" + (f": {p['meaning']}" if p["meaning"] else "")
                  for p in nt["parameters"]]
    if not doc["notions"]:
        lines.append("  implemented as an engine function, not as a notion")
    else:
        lines += _how_to_use(d.notions[0])
    related = _claims_citing(d.id)
    if related:
        lines.append(f"  claims about it: {', '.join(related[:12])}" + (" …" if len(related) > 12 else ""))
    print("\n".join(lines))
    return 0


def _inside(spec):
    """A value inside a parameter's range, for an example command line."""
    import sympy as sp
    lo, hi = spec.lower, spec.upper
    if lo is not None and hi is not None:
        return sp.Rational(lo) + (sp.Rational(hi) - sp.Rational(lo)) / 2
    if lo is not None:
        return sp.Rational(lo) + 1
    return sp.Rational(hi) - 1 if hi is not None else sp.Integer(1)


def _how_to_use(nt):
    if nt.arity != 1:
        return [f"  {nt.name} relates {nt.arity} mechanism(s): it is used inside claims (see `dpcheck list`)"]
    params = " ".join(f"--param {p.name}={_inside(p)}" for p in nt.params)
    pop = " --population pop.json" if nt.population == "given" else ""
    out = ["  to use it:", f"    dpcheck eval {nt.name} --mechanism table.json{pop} {params}".rstrip()
           + "   # on your own table"]
    if [p.name for p in nt.params] in (["E"], []):
        other = "PureDP" if nt.name != "PureDP" else "FreeLunchPrivacy"
        out.append(f"    dpcheck implies {nt.name} {other} --n 2   # does it imply {other}?")
    return out


def _claims_citing(def_id):
    import re
    from theorems.registry import claims
    pat = re.compile(rf"(?<![\w.-]){re.escape(def_id)}(?![\w.-])")
    return [c.id for c in claims().values() if pat.search(c.statement)]
