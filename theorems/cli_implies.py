"""`dpcheck implies A B`: an ad hoc question between two notions, with no source to agree with."""
from __future__ import annotations

import json

import click

from symbolic import DPCheckError
from theorems.cli_app import command, ui
from theorems.cli_commands import notion, one_mechanism, search_sizes
from theorems.cli_console import print_text, spinner
from theorems.cli_io import exit_code
from theorems.cli_types import size_options


@command("implies", short_help="ad hoc: does notion A imply notion B?", examples=[
    ("dpcheck implies StrongAdversaryDP PureDP --n 2", "sizes up to n = 2"),
    ("dpcheck implies PureDP FreeLunchPrivacy --n 1 --assume 'E>2'", "E > 2 only"),
    ("dpcheck implies DataPointInterventionDP PureDP --json", "only the JSON record")])
@click.argument("a", metavar="NOTION_A")
@click.argument("b", metavar="NOTION_B")
@size_options("2")
@click.option("--json", "as_json", is_flag=True, help="print only the JSON record of the claim (e.g. --json)")
@click.option("--assume", multiple=True, metavar="RANGE",
              help="narrow E's range; may be repeated (e.g. --assume 'E>=2' or --assume '1<E<3')")
def implies(a, b, n, domain, outputs, as_json, assume):
    """Does notion A imply notion B, for every E = e^ε ≥ 1 (E stays a symbol), at every size up to the
    given ones? Both notions take the parameter E only (or none); names as in `dpcheck eval`. The answer
    is proved within bounds, refuted by an exact counterexample, or unknown."""
    from symbolic import E, Sizes, check, claim_json, implication_claim, result_text
    got = []
    for name in (a, b):
        nt = notion(name)
        one_mechanism(nt, "implies")
        if [p.name for p in nt.params] not in (["E"], []):
            raise DPCheckError(f"notion {name} has parameters {[p.name for p in nt.params]}; `implies` takes notions "
                               f"with parameter E only")
        got.append(nt(E.symbol) if nt.params else nt())
    sizes = Sizes(n or 2, domain or 2, outputs or 2)
    search_sizes(sizes)
    claim = implication_claim(got[0], got[1], sizes=sizes)
    for text in assume:
        claim = claim.assuming(text)
    with spinner(ui(), f"checking {got[0]} ⇒ {got[1]}", json_stdout=as_json):
        res = check(claim)
    doc = claim_json(res)
    if as_json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_text(ui(), result_text(res))
    return exit_code([doc])
