"""`dpcheck graph`: the implication graph of chosen notions, every ordered pair decided by the engine,
as a table, a JSON document and pictures (the Hasse diagram and the separations)."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import click

from symbolic import DPCheckError
from theorems.cli.app import Stop, command, stop_on_signals, ui
from theorems.cli.console import print_table, spinner
from theorems.cli.io import say, writable
from theorems.cli.options import MAX_JOBS, Count, Seconds, size_options

DEFAULT_CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                             "dpcheck", "graph")
REL_STYLE = {"implies": "green", "not-implies": "red", "unknown": "yellow"}


def _specs(ids, adds):
    out = [s.strip() for s in (ids or "").split(",") if s.strip()] if ids else []
    if ids is not None and not out:
        raise DPCheckError("--notions is empty; give comma-separated IDs, e.g. --notions pure-dp,approx-dp")
    if adds and not out:
        from symbolic import notion_catalog
        out = [i.id for i in notion_catalog() if i.notion.arity == 1]
    return out + list(adds)


def _sep_path(svg: str) -> str:
    p = Path(svg)
    return str(p.with_name(p.stem + "-separations" + (p.suffix or ".svg")))


def _short(text: str, width: int = 90) -> str:
    """A tightness record's reason for the table's cell (the JSON keeps it whole)."""
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _literature_word(p) -> str:
    if p.literature_says is None:
        return ""
    return {True: "agrees", False: "disagrees"}.get(p.agrees_with_literature, "not compared")


def _print_pairs(g):
    from symbolic import tidy_text
    rows = []
    for p in g.pairs:
        what = (p.map or "") + (" (tight)" if p.relation == "implies" and p.tight else "")
        said = p.extra.get("tightness")
        if p.relation == "implies" and said and not p.tight:
            derived = said.get("derived", {})
            if derived.get("tight"):
                what += f"; tight within the sizes: {derived['map']}"
            elif derived.get("supremum"):
                what += "; the least map, a supremum approached by a family (not attained)"
            else:
                what += f"; {_short(said.get('text') or 'tightness not shown')}"
        if p.relation == "implies" and p.extra.get("refuted_map"):
            what += f" ({p.extra['refuted_map']} refuted)"
        if p.relation == "not-implies":
            what = ("a family: the target's level → ∞" if p.extra.get("separation") == "family"
                    else "the target only at its trivial level" if p.extra.get("target_level") == "only the trivial level"
                    else "no level of the target")
        elif p.relation == "unknown" and p.extra.get("refuted_maps"):
            what = (f"refuted: {'; '.join(p.extra['refuted_maps'])}" + (" (trivial)" if p.extra.get("trivial") else "")
                    + "; no separation")
        elif p.relation == "unknown":
            what = (p.reason or "")[:90]
        rows.append((p.source, p.target, p.relation, tidy_text(what), _literature_word(p), f"{p.seconds:.1f}"))
    print_table(ui(), ("from", "to", "relation", "map / why", "literature", "s"), rows, styles={2: REL_STYLE})
    for p in g.pairs:
        d = p.extra.get("literature_disagreement")
        if d:
            print(f"disagrees: {p.source} → {p.target}: literature: {d['literature']}; engine: {d['engine']}")


@command("graph", short_help="the implication graph: every pair of notions proved or separated", examples=[
    ("dpcheck graph --notions pure-dp,approx-dp,free-lunch --n 2", "three notions, sizes up to n = 2"),
    ("dpcheck graph --json graph.json --svg graph.svg", "every notion; JSON and both pictures"),
    ("dpcheck graph --add my_notion.py:Floor --notions pure-dp,approx-dp", "place your own notion"),
    ("dpcheck graph --dask tcp://scheduler:8786", "pairs on a Dask cluster")])
@click.option("--notions", "ids", metavar="IDS",
              help="comma-separated notion IDs or names (e.g. --notions pure-dp,approx-dp; default: every listed "
                   "notion of one mechanism, see `dpcheck notions`)")
@size_options("n=1, |𝒟|=2, |𝒪|=2")
@click.option("--json", "json_file", metavar="FILE", help="write the JSON document to FILE (e.g. --json graph.json)")
@click.option("--svg", "svg_file", metavar="FILE",
              help="draw the Hasse diagram to FILE and the separations to FILE-separations.svg (e.g. --svg g.svg)")
@click.option("--dot", "dot_file", metavar="FILE", help="write the Hasse diagram's Graphviz source (e.g. --dot g.dot)")
@click.option("--jobs", type=Count(1, MAX_JOBS), default=os.cpu_count() or 1, metavar="J",
              help="pairs decided in J local processes (e.g. --jobs 4; default: the number of CPUs)")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="send the pairs to a Dask distributed scheduler instead (e.g. --dask tcp://10.0.0.5:8786)")
@click.option("--add", "adds", multiple=True, metavar="FILE.py:NAME",
              help="a notion of your own, written against the public API; may be repeated (e.g. --add mine.py:Floor)")
@click.option("--budget", type=Seconds(False), default=6.0, metavar="SECONDS",
              help="effort for one pair's implication check, in nominal seconds of solver steps (10^6 z3 steps or "
                   "one processor second each, counted, so the graph does not depend on the machine's load); its extra attempts get half "
                   "each (e.g. --budget 30; default 6)")
@click.option("--cache", "cache_dir", default=DEFAULT_CACHE, metavar="DIR",
              help=f"reuse pair results stored in DIR; a pair is recomputed when either notion's definition (and "
                   f"the code it calls), the sizes, an effort setting or the tool changed, and when a stored record "
                   f"fails its check on reading (e.g. --cache /tmp/g; default {DEFAULT_CACHE})")
@click.option("--no-cache", is_flag=True, help="recompute every pair and store nothing (e.g. --no-cache)")
@click.option("--tight", is_flag=True,
              help="also derive the tight map of every `implies` edge at the sizes (`derive map`: fitted, proved and "
                   "attained by an exact table) and say whether the edge's map is it, in --jobs processes; it adds "
                   "about the graph's own time, so it is off by default (e.g. --tight)")
@click.option("--at-level", "at_levels", metavar="E1,E2",
              help="the levels of the target (its ratio E, each > 1) at which a family separation gives an explicit "
                   "table, re-verified exactly (e.g. --at-level 50,1000000; default 10,1000)")
def graph(ids, n, domain, outputs, json_file, svg_file, dot_file, jobs, dask_address, adds, budget, cache_dir,
          no_cache, tight, at_levels):
    """For every ordered pair (A, B) of the chosen notions, the strongest statement the engine establishes
    at the given sizes: `implies` with a parameter map (A(E) ⇒ B(f(E)), proved for every E), `not-implies`
    with an exact counterexample satisfying A at some level and B at no level, or `unknown` with the reason
    (with the refuted maps when only those were refuted). Published relations are recorded beside the pairs
    they concern, with whether the engine agrees. Exit 0 when every pair is definite, 1 otherwise."""
    from symbolic import Sizes, dot_text, graph_settings, render_svg, run_graph
    for path, flag in ((json_file, "--json"), (svg_file, "--svg"), (dot_file, "--dot")):
        if path:
            writable(path, flag)
    sizes = Sizes(n or 1, domain or 2, outputs or 2)
    specs = _specs(ids, adds)
    settings = graph_settings(budget)
    if at_levels:
        settings = replace(settings, family_levels=_levels(at_levels))
    finished, t0 = [], time.monotonic()
    with stop_on_signals() as stopped:
        with spinner(ui(), f"deciding notion pairs at {sizes}"):
            g = run_graph(specs or None, sizes=sizes, settings=settings, jobs=jobs, dask_address=dask_address,
                          cache_dir=None if no_cache else cache_dir, on_pair=finished.append)
    if stopped:
        return _interrupted(stopped[0], finished, sizes, json_file, time.monotonic() - t0)
    if tight:
        from symbolic import tighten_graph
        with stop_on_signals() as stopped:
            with spinner(ui(), f"deriving the tight map of each implies edge at {sizes}"):
                tightened = tighten_graph(g, settings, jobs=jobs, specs=dict(zip(g.notions, specs or g.notions)))
        if stopped:
            return _interrupted(stopped[0], finished, sizes, json_file, time.monotonic() - t0)
        g = tightened
    doc = g.to_json()
    counts = Counter(p.relation for p in g.pairs)
    if json_file:
        Path(json_file).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    d = g.diagram()
    if dot_file:
        Path(dot_file).write_text(dot_text(d), encoding="utf-8")
    drawn = ""
    if svg_file:
        svg, how = render_svg(d)
        Path(svg_file).write_text(svg, encoding="utf-8")
        seps, _ = render_svg(d, separations=True)
        Path(_sep_path(svg_file)).write_text(seps, encoding="utf-8")
        drawn = f"; drawn with {how}: {svg_file}, {_sep_path(svg_file)}"
    if not ui().quiet:
        _print_pairs(g)
    if tight:
        n_tight = sum(1 for p in g.pairs if p.relation == "implies" and p.tight)
        print(f"tight maps: {n_tight} of {counts['implies']} implies edges carry the tight map at {sizes}",
              file=sys.stderr if ui().quiet else sys.stdout)
    _print_summary(doc["summary"], file=sys.stderr if ui().quiet else sys.stdout)
    print(f"{len(g.notions)} notions, {len(g.pairs)} pairs at {sizes}: {counts['implies']} implies, "
          f"{counts['not-implies']} not-implies, {counts['unknown']} unknown; {g.cached} from the cache; "
          f"{g.seconds:.1f} s{drawn}", file=sys.stderr if ui().quiet else sys.stdout)
    return 0 if counts["unknown"] == 0 else 1


def _levels(text: str) -> tuple:
    """``--at-level``'s exact levels, each a number above 1 (integers, a/b or decimals read exactly)."""
    from symbolic import parse_number
    levels = tuple(parse_number(part.strip(), what="--at-level") for part in text.split(",") if part.strip())
    if not levels or len(levels) > 8 or any(v <= 1 or v > 10 ** 12 for v in levels):
        raise click.BadParameter(f"{text!r}: give one to eight levels E above 1 and at most 10^12, separated by "
                                 f"commas (e.g. --at-level 50,1000000)", param_hint="--at-level")
    return tuple(str(v) for v in levels)


def _print_summary(summary: dict, file) -> None:
    """The unknown pairs by reason, and the share of definite pairs among notions not relative to a belief when
    the run has both kinds."""
    if summary["unknown_by_reason"]:
        why = "; ".join(f"{n} {r}" for r, n in sorted(summary["unknown_by_reason"].items(), key=lambda x: -x[1]))
        print(f"unknown by reason: {why}", file=file)
    plain = summary["without_belief"]
    if 0 < plain["pairs"] < summary["pairs"]:
        print(f"between notions not relative to a belief: {plain['definite']} of {plain['pairs']} pairs definite "
              f"({100 * plain['definite'] / plain['pairs']:.1f} %), {plain['unknown']} unknown", file=file)


def _interrupted(signum, finished, sizes, json_file, seconds):
    """The pairs finished before the signal: printed, and written with --json (no pictures: the diagram
    needs every pair); exit 128 + signum."""
    from symbolic import GraphResult
    name = signal.Signals(signum).name
    notions = tuple(dict.fromkeys(x for p in finished for x in (p.source, p.target)))
    g = GraphResult(notions, sizes, tuple(finished), seconds)
    if json_file:
        doc = {**g.to_json(), "stopped": f"stopped by {name}: only the pairs finished are listed"}
        Path(json_file).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if finished and not ui().quiet:
        _print_pairs(g)
    say("error", f"stopped by {name}: {len(finished)} pairs finished" + (f", written to {json_file}" if json_file
                                                                           else "") + "; no pictures drawn")
    raise Stop(signum, announced=True)
