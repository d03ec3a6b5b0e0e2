"""`--save-counterexample PREFIX` of `dpcheck check` and `dpcheck implies`: the refutation's tables as
files in the format `dpcheck eval` reads, and the `eval` commands that re-check it."""
from __future__ import annotations

import json

import click

from theorems.cli_io import say, writable

OPTION = click.option("--save-counterexample", "save_prefix", metavar="PREFIX",
                      help="write a refutation's tables as PREFIX-A.json (PREFIX-P.json for a population) in the "
                           "format `dpcheck eval` reads, and print the `eval` commands that re-check it "
                           "(e.g. --save-counterexample cx)")


def _implication(claim, text):
    """The part (or proof step) of ``claim`` whose counterexample this is, by its text."""
    parts = list(claim.parts)
    if claim.proof is not None:
        parts += [s.implication for s in claim.proof.steps if hasattr(s, "implication")]
    return next((imp for imp in parts if str(imp) == text), None)


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
    imp = _implication(res.claim, v.counterexample.implication)
    lines = ["wrote " + ", ".join(f"{p} ({files[k][0]})" for k, p in paths.items())]
    lines += [f"re-check: {cmd}   # {inst} {should}"
              for inst, should, cmd in (recheck_commands(imp, v.counterexample, paths, names) if imp is not None else [])]
    for line in lines:  # what the user asked for: on stdout, unless stdout carries JSON
        if not as_json:
            print(line)
        elif not quiet:
            say("note", line)
    return paths
