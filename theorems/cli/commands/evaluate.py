"""`dpcheck eval NOTION --mechanism FILE`: does a notion hold for the user's own table, in exact
arithmetic? A definite answer either way (holds or fails, exit 0), with the first failed comparison. The
code of a notion of the user's own (FILE.py:NAME) runs under --effort (processor time) and --timeout (the
wall-clock safety net); reaching either leaves the answer unknown (exit 1: more effort may answer, the input
is not at fault)."""
from __future__ import annotations

import json

import click

from symbolic import DPCheckError, InvalidParameter, InvalidSize
from theorems.cli.app import command, ui
from theorems.cli.lookup import notion, one_mechanism, settings, user_limit
from theorems.cli.options import EffortLevel, Seconds
from theorems.cli.console import print_markup
from theorems.cli.io import load_json, param_values, paused_gc

MAX_FAMILY_DATABASES = 64       # tables for `eval` of notions over all populations
MAX_SYMPY_DATABASES = 4096      # tables for `eval` of a notion evaluated with sympy (no one-pass reading)


@command("eval", short_help="evaluate a notion exactly on your own table", examples=[
    ("dpcheck eval PureDP --mechanism table.json --param E=3", "is the table ln 3-DP?"),
    ("dpcheck eval ApproxDP --mechanism table.json --param E=2 --param delta=1/10", "(ε,δ)-DP, δ = 1/10"),
    ("dpcheck eval Bayesian0DPFor --mechanism t.json --population p.json --param E=3", "for one population"),
    ("dpcheck eval PureDP --mechanism table.json --param E=3 --json", "a JSON document"),
    ("dpcheck eval mine.py:Floor --mechanism table.json --param E=3 --effort 4", "your own notion, more time")])
@click.argument("notion_name", metavar="NOTION")
@click.option("--mechanism", required=True, metavar="FILE",
              help='the table as JSON, numbers exact (integers or strings "a/b"), e.g. --mechanism table.json with '
                   '{"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}')
@click.option("--population", metavar="FILE",
              help='a population as JSON, databases as "a,b"; for a notion over all populations, the one to '
                   'evaluate it at (e.g. --population pop.json with {"0": "1/2", "1": "1/2"})')
@click.option("--param", "param", multiple=True, metavar="NAME=VALUE",
              help="a parameter of the notion, an exact number or expression (exp, log, sqrt); eps=v gives E = e^v; "
                   "may be repeated (e.g. --param E=3 --param delta=1/10, or --param eps=1/2)")
@click.option("--effort", type=EffortLevel(), default="ci",
              help="for a notion of your own (FILE.py:NAME), the processor time its code may use: quick, ci "
                   "(120 processor seconds), thorough or a multiple of ci (e.g. --effort 4; default ci)")
@click.option("--timeout", type=Seconds(False), default=900.0, show_default=True,
              help="for a notion of your own (FILE.py:NAME), the wall-clock safety net of one call of its code, in "
                   "seconds (e.g. --timeout 1800)")
@click.option("--json", "as_json", is_flag=True,
              help='print only a JSON document: {"tool", "notion", "instance", "parameters", "verdict", "holds", '
                   '"reason"} (e.g. --json)')
def evaluate_table(notion_name, mechanism, population, param, effort, timeout, as_json):
    """Evaluate a notion exactly on a mechanism table from a JSON file: it holds or it fails (both exit 0),
    and a failure names the first comparison that fails. NOTION is a notion's name (e.g. PureDP, ApproxDP,
    Bayesian0DP; `dpcheck notions` lists them). The file is data, never code: floats, negative entries
    and rows that do not sum to 1 are refused with a one-line error."""
    from symbolic import explain, mechanism_from_json, population_from_json
    nt = notion(notion_name, user_limit(settings(timeout, effort)))
    one_mechanism(nt, "eval")
    # names and ranges are validated before any file is read; eps=v gives E = e^v
    given = param_values(param, [p.name for p in nt.params], where=nt.name)
    missing = [p.name for p in nt.params if p.name not in given]
    if missing:
        example = " ".join(f"--param {m}={'3' if m.startswith('E') else '1/10'}" for m in missing)
        raise InvalidParameter(f"{nt.name} needs a value for {', '.join(missing)}: add e.g. {example}"
                               + (" (or eps=… for E = e^ε)" if any(m.startswith("E") for m in missing) else ""))
    inst = nt(**given)
    if nt.population == "given" and not population:
        raise DPCheckError(f"{nt.name} is relative to one population: give --population FILE")
    with paused_gc():
        mech = mechanism_from_json(load_json(mechanism, "mechanism"), name="table")
        pop = None
        if population:
            pop = population_from_json(load_json(population, "population"), n=mech.n, domain=mech.domain)
    if nt.population in ("all", "product") and len(mech.rows) > MAX_FAMILY_DATABASES:
        raise InvalidSize(f"{nt.name} quantifies over populations, decided through a family that grows with "
                          f"the databases: `eval` takes at most {MAX_FAMILY_DATABASES} databases (|domain|^n) "
                          f"for it; this table has {len(mech.rows)}")
    one_pass = nt.fast is not None and nt.population == "none" and all(v.is_Rational for v in inst.args)
    if not one_pass and len(mech.rows) > MAX_SYMPY_DATABASES:
        raise InvalidSize(f"{nt.name} is evaluated with sympy, comparison by comparison: `eval` takes at most "
                          f"{MAX_SYMPY_DATABASES} databases (|domain|^n) for it; this table has {len(mech.rows)} "
                          f"(PureDP and ApproxDP with rational parameters take up to 2^18)")
    with paused_gc():
        holds, why = explain(inst, mech, population=pop)
    from symbolic import check_reached
    check_reached(nt)   # a user's code out of its limit: no answer, even if a step went on without it
    verdict = "holds" if holds else "fails"
    at_one = pop is not None and nt.population in ("all", "product")   # its condition at the given population only
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), "notion": nt.name, "instance": str(inst),
                          "parameters": {k: str(v) for k, v in inst.param_values().items()},
                          "mechanism": mechanism, "population": population, "verdict": verdict, "holds": holds,
                          "scope": "the given population" if at_one else "the notion",
                          "reason": None if holds else why}, indent=2, ensure_ascii=False))
        return 0
    reason = "" if holds or why is None else f" ({why})"
    where = f" at the population in {population}" if at_one else ""
    if at_one and holds:
        reason = " (there only: it quantifies over all populations; leave out --population to decide it over all)"
    print_markup(ui(), lambda: f"{_escape(str(inst))}{_escape(where)}: [{'green' if holds else 'yellow'}]{verdict}[/]"
                               f"{_escape(reason)}", f"{inst}{where}: {verdict}{reason}")
    return 0


def _escape(text):
    from rich.markup import escape
    return escape(text)
