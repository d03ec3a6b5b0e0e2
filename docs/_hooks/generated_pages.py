"""Pages of the documentation site that are generated when the site is built, never written by hand.

A page holds a marker ``<!-- generated: NAME -->`` and the hook replaces it:

- ``notions``: the notion zoo, from the JSON that ``dpcheck notions --json`` prints;
- ``findings``: every catalogue claim that carries a finding or a note, from the registry;
- ``check_example``: what ``dpcheck check T-P4.converse`` prints;
- ``claim_count``, ``finding_count``: how many claims the catalogue holds, and how many carry a finding;
- ``api``: one mkdocstrings block per public name of ``symbolic.api``, grouped as ``__all__`` is.
"""
from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!-- generated: (\w+) -->")


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _dpcheck(*args) -> str:
    """What ``dpcheck ARGS`` prints, run as a user would (plain text: no terminal)."""
    return subprocess.run([sys.executable, "-m", "theorems.cli.main", *args], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def _claims():
    sys.path.insert(0, str(ROOT))
    from theorems.registry import claims
    return list(claims().values())


def check_example() -> str:
    return "```text\n$ dpcheck check T-P4.converse\n" + _dpcheck("check", "T-P4.converse") + "```"


def notions_page() -> str:
    """The zoo as a table, from ``dpcheck notions --json`` run as a user would."""
    notions = json.loads(_dpcheck("notions", "--json"))["notions"]
    lines = [f"{len(notions)} notions, as `dpcheck notions --json` lists them when this site was built.", "",
             "| ID | name | parameters | neighbours | class | definition | source |", "|---|---|---|---|---|---|---|"]
    for n in notions:
        params = "; ".join(p["range"] for p in n["params"]) or "–"
        lines.append(f"| `{n['id']}` | {_cell(n['name'])} | {_cell(params)} | {_cell(n['neighbours'])} | "
                     f"{n['class']} | {_cell(n['definition'])} | {_cell(n['source'])} |")
    return "\n".join(lines)


def findings_page() -> str:
    """Every catalogue claim that carries a finding: its verdict disagrees with its source."""
    found = [c for c in _claims() if c.finding]
    parts = [f"{len(found)} claims keep an explanation of a disagreement with their source, written after the "
             "notion was checked against the text and the counterexample by hand. The verdict itself is the "
             "engine's, every time `dpcheck audit` or `dpcheck check ID` runs; the text below is the record kept "
             "with the claim.", ""]
    for c in found:
        parts.append(f"### {c.id}\n\n*{_cell(c.source)}.* **The source says:** {c.statement}\n\n"
                     f"**Finding:** {c.finding}\n")
    return "\n".join(parts)


def _api_groups():
    """``symbolic.api.__all__`` in its groups (the comment line above each group names it), each name
    with the module that defines it (read from api's imports and its lazy map, without importing it)."""
    source = (ROOT / "symbolic" / "api.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    home = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("symbolic"):
            for alias in node.names:
                home[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_LAZY_FROM":
            for module, names in ast.literal_eval(node.value).items():
                for name in names:
                    home[name] = f"{module}.{name}"
        if isinstance(node, ast.FunctionDef):
            home[node.name] = f"symbolic.api.{node.name}"
    block = source[source.index("__all__ = ["):]
    block = block[:block.index("\n]") + 2]
    groups, title = [], None
    for line in block.splitlines()[1:]:
        line = line.strip()
        if line.startswith("#"):
            title = line.lstrip("# ").rstrip()
            groups.append((title, []))
        else:
            for name in re.findall(r'"(\w+)"', line):
                groups[-1][1].append((name, home[name]))
    return groups


def api_page() -> str:
    parts = []
    for title, names in _api_groups():
        parts.append(f"## {title[0].upper()}{title[1:]}\n")
        for name, path in names:
            parts.append(f"::: {path}\n")
    return "\n".join(parts)


PAGES = {"notions": notions_page, "findings": findings_page, "api": api_page, "check_example": check_example,
         "claim_count": lambda: str(len(_claims())),
         "finding_count": lambda: str(sum(1 for c in _claims() if c.finding))}


def on_page_markdown(markdown, page, config, files):
    return MARKER.sub(lambda m: PAGES[m.group(1)](), markdown)
