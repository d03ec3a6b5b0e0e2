"""`--save-counterexample PREFIX` of `dpcheck check` and `dpcheck implies`: the refutation's tables as
files in the format `dpcheck eval` reads, and the `eval` commands that re-check it."""
from __future__ import annotations

import json
import shlex

import click

from theorems.cli.io import say, writable

OPTION = click.option("--save-counterexample", "save_prefix", metavar="PREFIX",
                      help="write a refutation's tables in the format `dpcheck eval` reads: PREFIX-A.json for "
                           "mechanism A, PREFIX-P.json for the population of a hypothesis relative to one, "
                           "PREFIX-P2.json for the population at which a conclusion over all populations fails; "
                           "and print the `eval` commands that re-check each file (e.g. --save-counterexample cx)")


def claim_part(claim, text):
    """(the part or proof step of ``claim`` whose text is ``text``, the parameters it was checked with),
    or None: a claim's parts are checked with the claim's parameters, a proof's steps with their own."""
    parts = [(imp, claim.params) for imp in claim.parts]
    if claim.proof is not None:
        parts += [(s.implication, s.params) for s in claim.proof.steps if hasattr(s, "implication")]
    return next(((imp, params) for imp, params in parts if str(imp) == text), None)


def save_counterexample(res, prefix, *, as_json=False, quiet=False, names=None):
    """Write the files and say what was written and how to re-check it (on stdout, or on stderr when
    stdout carries a JSON document); returns the paths. ``names``: notion name → how `eval` names it."""
    from symbolic import Refuted, counterexample_files, recheck_commands
    v = res.verdict
    if not isinstance(v, Refuted):
        say("note", f"--save-counterexample: the verdict is {v.name}, there is no counterexample to save")
        return {}
    files = counterexample_files(v.counterexample)
    if not files:
        say("note", "--save-counterexample: the counterexample has no plain table (families or kernels only); "
                    "its JSON record shows it")
        return {}
    writable(f"{prefix}-x.json", "--save-counterexample")
    paths = {}
    for label, (kind, doc) in files.items():
        paths[label] = f"{prefix}-{label}.json"
        with open(paths[label], "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    imp = (claim_part(res.claim, v.counterexample.implication) or (None,))[0]
    lines = ["wrote " + ", ".join(f"{p} ({files[k][0]})" for k, p in paths.items())]
    commands = recheck_commands(imp, v.counterexample, paths, names) if imp is not None else []
    commands += _at_witness(imp, v.counterexample, paths, names, files)
    lines += [f"re-check: {cmd}   # {inst} {should}" for inst, should, cmd in commands]
    for path in paths.values():   # every file written is re-checked, or it is said why not
        if not any(shlex.quote(path) in cmd.split() for _, _, cmd in commands):
            lines.append(f"no `dpcheck eval` command re-checks {path}: the implication's notions are not "
                         f"evaluated on these files alone (several tables, a family or symbolic parameters); "
                         f"the counterexample's JSON record shows it whole")
    for line in lines:  # what the user asked for: on stdout, unless stdout carries JSON
        if not as_json:
            print(line)
        elif not quiet:
            say("note", line)
    return paths


def _at_witness(imp, cx, paths, names, files):
    """``(instance, should, command)`` that evaluates the conclusion at the saved witness population P'
    (PREFIX-P2.json) of a conclusion over all populations: it must fail there."""
    import sympy as sp
    from symbolic import expr_text
    label = "P2"   # P' as counterexample_files labels it
    mech = [k for k, (kind, _) in files.items() if kind == "mechanism"]
    if imp is None or label not in paths or len(mech) != 1:
        return []
    c = imp.conclusion
    if c.on is not None or c.notion.arity != 1 or c.notion.population not in ("all", "product"):
        return []
    env = {sp.Symbol(k, real=True): v for k, v in cx.parameters.items()}
    args = []
    for name, expr in c.param_values().items():
        value = sp.nsimplify(sp.sympify(expr).subs(env))
        if value.free_symbols:
            return []
        args.append(f"--param {shlex.quote(f'{name}={expr_text(value)}')}")
    name = shlex.quote((names or {}).get(c.notion.name, c.notion.name))
    cmd = (f"dpcheck eval {name} --mechanism {shlex.quote(paths[mech[0]])} --population {shlex.quote(paths[label])} "
           f"{' '.join(args)}").rstrip()
    return [(str(c), "fails at this population", cmd)]
