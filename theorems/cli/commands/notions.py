"""`dpcheck notions`: every listed notion with its ID, parameters and ranges, neighbour relation,
class, citation and one-line definition."""
from __future__ import annotations

import json

import click

from theorems.cli.app import command, ui
from theorems.cli.console import print_table

CLASSES = ("polynomial", "forall-prior", "transcendental")


def _params(info) -> str:
    return "; ".join(p["range"] for p in info.params_json()) or "none"


@command("notions", short_help="every notion: ID, parameters, neighbours, class, citation", examples=[
    ("dpcheck notions", "the table"),
    ("dpcheck notions --json", "the same as a JSON document"),
    ("dpcheck notions --class transcendental", "only the notions decided by certified intervals")])
@click.option("--json", "as_json", is_flag=True,
              help='print only a JSON document {"notions": [{"id", "name", "params", "neighbours", "class", '
                   '"source", "definition"}]} (e.g. dpcheck notions --json)')
@click.option("--class", "cls", type=click.Choice(CLASSES), metavar="CLASS",
              help=f"only notions of this class: {', '.join(CLASSES)} (e.g. --class forall-prior)")
def notions(as_json, cls):
    """Every notion you can name in `implies`, `eval` and `graph`: its ID (names and IDs are both
    accepted, case-insensitively), parameters with their ranges (E = e^ε ≥ 1), the neighbour relation
    it quantifies over, its class (polynomial: decided directly; forall-prior: quantified over priors or
    populations; transcendental: decided by certified intervals at numeric parameters), where it is
    defined, and its definition on finite tables. Proof-step helper conditions are not listed."""
    from symbolic import notion_catalog
    infos = [i for i in notion_catalog() if cls is None or i.cls == cls]
    if as_json:
        print(json.dumps({"notions": [i.to_json() for i in infos]}, indent=2, ensure_ascii=False))
        return 0
    rows = [(i.id, i.name if i.name != i.id else "", _params(i), i.neighbours, i.cls, i.source, i.definition)
            for i in infos]
    plain = "\n".join(f"{i.id} ({i.name}) [{i.cls}] params: {_params(i)}; neighbours: {i.neighbours}\n"
                      f"    {i.definition}\n    source: {i.source}" for i in infos)
    print_table(ui(), ("ID", "name", "parameters", "neighbours", "class", "source", "definition"), rows,
                plain=plain)
    return 0
