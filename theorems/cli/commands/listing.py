"""`dpcheck list`: every catalogue ID (definitions included) with its kind and source."""
from __future__ import annotations

import json

import click

from theorems.cli.app import command, ui
from theorems.cli.console import KIND_STYLE, print_table


def entries():
    """The catalogue in listing order: definitions, then claims, as plain records."""
    from theorems.registry import claims, definitions
    out = [{"id": d.id, "kind": "def", "source": d.source, "statement": d.statement,
            "notions": [n.name for n in d.notions]} for d in definitions().values()]
    out += [{"id": c.id, "kind": c.kind, "source": c.source, "statement": c.statement,
             "source_says": c.source_says} for c in claims().values()]
    return out


def _plain(e):
    if e["kind"] == "def":
        names = ", ".join(e["notions"]) or "(engine function)"
        return f"{e['id']:<16} def     {e['source']}  {names}: {e['statement']}"
    return f"{e['id']:<16} {e['kind']:<7} {e['source']}  {e['statement']}"


@command("list", short_help="every catalogue ID with its kind and source", examples=[
    ("dpcheck list", "every ID: kind, source, statement"),
    ("dpcheck list --json", "the same as a JSON document"),
    ("dpcheck list | grep '^K-'", "one source's entries")])
@click.option("--json", "as_json", is_flag=True, help="print only a JSON document: {\"tool\", \"entries\": "
              "[{\"id\", \"kind\", \"source\", \"statement\", ...}]} (e.g. dpcheck list --json)")
def list_entries(as_json):
    """Every catalogue ID, definitions included, with its kind (def, ⇒, ⇏, ⇔, ...), its source (T, L, K,
    S) and its statement. `dpcheck check ID` checks a claim or shows a definition."""
    es = entries()
    if as_json:
        from symbolic import tool_json
        print(json.dumps({"tool": tool_json(), "entries": es}, indent=2, ensure_ascii=False))
        return 0
    rows = [(e["id"], e["kind"], e["source"],
             (", ".join(e["notions"]) or "(engine function)") + ": " + e["statement"] if e["kind"] == "def"
             else e["statement"]) for e in es]
    print_table(ui(), ("ID", "kind", "source", "statement"), rows, styles={1: KIND_STYLE},
                plain="\n".join(_plain(e) for e in es))
    return 0
