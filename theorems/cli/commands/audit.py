"""`dpcheck audit [SOURCE ...]`: every claim of the sources in worker processes, with a progress bar,
then the table of verdicts, the counterexamples and findings, a summary, and the report files.
SIGINT or SIGTERM stops it: the verdicts reached so far are printed and written, the rest marked
"not run", exit 130 / 143."""
from __future__ import annotations

import os
import signal
import time
from datetime import datetime, timezone
from fractions import Fraction

import click

from symbolic import DPCheckError, UnknownName, clip
from theorems.cli.app import Stop, command, ui
from theorems.cli.console import AuditProgress, VERDICT_STYLE, print_markup, print_table, print_text
from theorems.cli.io import BUG, exit_code, output, say, writable
from theorems.cli.commands.audit_from import run_text
from theorems.cli.options import EFFORT_HELP, MAX_JOBS, Count, EffortLevel, confirm_option


@command("audit", short_help="check every claim of the sources, with a report", examples=[
    ("dpcheck audit", "every claim of every source"),
    ("dpcheck audit T L --json out.json --markdown out.md", "two sources, two reports"),
    ("dpcheck audit K --jobs 2 --profile quick", "one source, a third of the default effort"),
    ("dpcheck audit --confirm-effort 4 --json a.json", "cvc5 with four times its limits, to confirm more proofs"),
    ("dpcheck audit S --html report.html", "a page to open in a browser"),
    ("dpcheck audit --html report.html --graph-svg g.svg", "the page with the picture `dpcheck graph --svg` drew"),
    ("dpcheck audit --from audit.json --latex audit.tex", "a LaTeX document from an earlier run's JSON")])
@click.argument("sources", nargs=-1, metavar="[SOURCE]...")
@click.option("--json", "json_file", metavar="FILE",
              help="write the JSON document of every claim to FILE (e.g. --json audit.json)")
@click.option("--markdown", metavar="FILE", help="write the table as Markdown to FILE (e.g. --markdown audit.md)")
@click.option("--html", metavar="FILE",
              help="write a self-contained HTML page to FILE: summary, findings, every claim with its "
                   "certificate, counterexample tables and formulas, pictures (e.g. --html audit.html)")
@click.option("--latex", metavar="FILE",
              help="write a LaTeX document to FILE (pdflatex compiles it): summary, claims table, findings, every "
                   "counterexample as tables, derived formulas (e.g. --latex audit.tex)")
@click.option("--from", "from_json", metavar="FILE",
              help="write the reports from the JSON document an earlier `dpcheck audit --json FILE` wrote, without "
                   "checking again (e.g. --from audit.json --latex audit.tex)")
@click.option("--graph-svg", metavar="FILE",
              help="with --html: show this implication graph (written by `dpcheck graph --svg FILE`) on the page "
                   "(e.g. --graph-svg graph.svg)")
@click.option("--jobs", type=Count(1, MAX_JOBS), default=os.cpu_count() or 1, metavar="J",
              show_default="the number of cores",
              help="claims checked at a time, each in its own process (e.g. --jobs 2)")
@click.option("--profile", "--effort", "profile", type=EffortLevel(), default="ci", show_default=True,
              help=EFFORT_HELP.replace("--effort", "--profile"))
@confirm_option
def audit(sources, json_file, markdown, html, latex, from_json, graph_svg, jobs, profile, confirm):
    """Check every claim of the given sources (T, L, K, S; default all) and print a table: ID, kind,
    what the source says, verdict, whether they agree, sizes, seconds; then each counterexample and
    finding, and a summary. A progress bar with the ETA shows on a terminal (stderr)."""
    from symbolic import Settings
    from theorems.cli import audit_workers as machinery
    from theorems.registry import SOURCES, by_source
    Settings.named(profile).confirming(confirm)  # validates the level and the factor
    bad = [s for s in sources if s not in SOURCES]
    if bad:
        hint = f"; did you mean {bad[0].upper()}?" if bad[0].upper() in SOURCES else ""
        raise UnknownName(f"unknown source {clip(bad[0], 40)}{hint}; sources: {', '.join(SOURCES)}")
    for flag, path in (("--json", json_file), ("--markdown", markdown), ("--html", html), ("--latex", latex)):
        if path:
            writable(path, flag)
    if graph_svg and not html:
        raise click.UsageError("--graph-svg goes with --html (the page shows the picture)")
    graph = machinery.read_graph_svg(graph_svg) if graph_svg else None
    if from_json:
        return reports_from(from_json, sources, json_file, markdown, html, latex, graph)
    todo = [c.id for c in by_source(list(sources) or list(SOURCES)) if c.kind != "def"]
    t0, date = time.monotonic(), datetime.now(timezone.utc).isoformat(timespec="seconds")
    results, texts, extras, crashed = {}, {}, {}, []
    stopped, handlers = None, {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, _raise_stop)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        from theorems.cli.audit_plan import reference_costs, slowest_first
        costs = reference_costs(todo)
        order = slowest_first(todo, costs)
        jobs = min(jobs, max(1, len(todo)))
        with AuditProgress(ui(), len(todo), {cid: costs[cid] for cid in order}, jobs) as bar:
            def done(cid, out):
                if out[0] == "ok":
                    results[cid], texts[cid], extras[cid] = out[1]
                else:
                    crashed.append(cid)
                    say("internal error", f"in {cid}: {out[1]} ({BUG})")
                    results[cid] = {**machinery.not_run(cid, machinery.RECORD_KEYS, f"internal error: {out[1]}"),
                                    "verdict": "unknown"}
                bar.tick(cid, results[cid])
            try:
                more = {"confirm": confirm} if Fraction(confirm) != 1 else {}   # passed only when set
                machinery.run_pool(order, profile, jobs, done, bar.start, **more)
            except (Stop, KeyboardInterrupt) as e:
                stopped = getattr(e, "signum", signal.SIGINT)
        for sig in handlers:  # a second Ctrl-C while writing the report is ignored
            signal.signal(sig, lambda *_: None)
        keys = list(next(iter(results.values()), dict.fromkeys(machinery.RECORD_KEYS)))
        reason = f"not run: the audit was stopped by {signal.Signals(stopped).name}" if stopped else None
        docs = [results.get(c) or machinery.not_run(c, keys, reason) for c in todo]
        wall = time.monotonic() - t0
        report(docs, texts, [extras[c] for c in todo if c in extras], wall)
        run = {"date": date, "profile": profile, "seconds": round(wall, 1),
               **({"confirm_effort": confirm} if Fraction(confirm) != 1 else {})}
        write_files(docs, json_file, markdown, html, graph, latex, provenance=run_text(run), run=run)
    finally:
        for sig, h in handlers.items():
            signal.signal(sig, h)
    if stopped:
        say("error", f"stopped by {signal.Signals(stopped).name}: {len(results)} of {len(todo)} claims done, "
                     f"{len(todo) - len(results)} marked \"not run\"")
        raise Stop(stopped, announced=True)
    return 3 if crashed else exit_code(docs)


def _raise_stop(signum, frame):
    raise Stop(signum)


AGREES_STYLE = {"yes": "green", "no": "red bold", "undecided": "yellow"}


def report(docs, texts, extras, seconds):
    """The table, the refutations and findings in full, and the summary lines, on stdout."""
    from theorems.cli import audit_workers as machinery
    u = ui()
    print_table(u, machinery.HEAD, machinery._rows(docs), styles={3: VERDICT_STYLE, 4: AGREES_STYLE},
                plain=machinery.table(docs))
    for ex in extras:
        if ex:
            print("\n" + ex)
    for d in docs:
        if d["id"] in texts and (d["verdict"] == "refuted" or not d["agrees_with_source"] or d["finding"]):
            print()
            print_text(u, texts[d["id"]])
    n_agree = sum(d["agrees_with_source"] is True for d in docs)
    proved = [d for d in docs if d["verdict"] == "proved"]
    confirmed = sum((d.get("certificate") or {}).get("second_verdict") == "unsat" for d in proved)
    witnessed = sum(d.get("vacuity") in ("satisfiable", "not applicable") for d in proved)
    vacuous = sum(d["verdict"] == "vacuous" for d in docs)
    print()
    every = sum(d.get("scope") == "all sizes" for d in proved)
    print_markup(u, f"[green]{len(proved)} proved[/]: {confirmed} confirmed by a second solver (cvc5), {witnessed} "
                    f"with hypotheses shown satisfiable by an exact witness, {every} at every size (the rest within "
                    f"bounds); {'[red bold]' if vacuous else ''}{vacuous} vacuous{'[/]' if vacuous else ''}",
                 f"{len(proved)} proved: {confirmed} confirmed by a second solver (cvc5), "
                 f"{witnessed} with hypotheses shown satisfiable by an exact witness, {every} at every size (the rest "
                 f"within bounds); {vacuous} vacuous")
    for line in unconfirmed_lines(proved):
        print(line)
    not_run = sum(d["verdict"] == "not run" for d in docs)
    unknown = sum(d["verdict"] == "unknown" for d in docs)
    findings = machinery.summary_counts(docs)["findings"]  # generated from the run, not from the modules' texts
    print()
    print_markup(u, f"[bold]{len(docs)} claims[/], [green]{n_agree} agree with the source[/], "
                    f"{'[magenta]' if findings else ''}{findings} findings{'[/]' if findings else ''}"
                    + f", {'[red bold]' if unknown else ''}{unknown} unknown{'[/]' if unknown else ''}"
                    + (f", [red]{not_run} not run[/]" if not_run else "") + f"; {seconds:.1f} s",
                 f"{len(docs)} claims, {n_agree} agree with the source, {findings} findings, {unknown} unknown"
                 + (f", {not_run} not run" if not_run else "") + f"; {seconds:.1f} s")


def unconfirmed_lines(proved) -> list:
    """The proofs cvc5 did not confirm, by the limit that left them so (a count: the same on every machine;
    a time limit: another machine may confirm more or fewer), then one line each with its undecided queries."""
    from symbolic import limit_counts, limit_words, undecided
    counts = limit_counts(proved)
    if not counts:
        return []
    out = ["  not confirmed by cvc5: " + ", ".join(f"{n} ended by {limit_words(limit)}"
                                                   for limit, n in sorted(counts.items()))]
    for d in proved:
        cert = d.get("certificate") or {}
        if cert.get("second_verdict") == "unknown":
            queries = "; ".join(f"{q} ({', '.join(f'{st}: {lim}' for st, lim in stages) or lim})"
                                for q, lim, stages in undecided(cert))
            limit = cert.get("second_limit", "not recorded")
            out.append(f"    {d['id']}: {limit}" + (f": {queries}" if queries else ""))
    return out


def reports_from(path, sources, json_file, markdown, html, latex, graph):
    """`--from FILE`: the reports of an earlier run's JSON document (the claims of ``sources`` if given),
    after checking it (:mod:`theorems.cli.commands.audit_from`): field types and each record's consistency (exit 2
    naming the record), every counterexample re-verified exactly (exit 1 when one fails)."""
    from theorems.cli.commands import audit_from
    if not any((json_file, markdown, html, latex)):
        raise click.UsageError("--from writes reports: give --latex, --html, --markdown or --json")
    docs, top, failed = audit_from.load(path, sources)
    for cid, why in failed.items():
        say("error", f"{cid}: its counterexample in {clip(path)} fails exact re-verification: {why}")
    written = write_files(docs, json_file, markdown, html, graph, latex, provenance=top)
    print(top)
    print(f"{len(docs)} claims; wrote " + ", ".join(f"{what} {p}" for what, p in written))
    return exit_code(docs)


def write_files(docs, json_file, markdown, html, graph_svg=None, latex=None, *, provenance=None, run=None):
    """Write the asked reports; ``provenance``: the line at the top of each document (where its verdicts
    come from), ``run``: the run's date, profile and wall time for the JSON document. Returns
    [(what, path)] in the order written."""
    from theorems.cli import audit_workers as machinery
    written = []
    if latex:
        with open(latex, "w", encoding="utf-8") as f:
            f.write(machinery.latex_document(docs, provenance))
        written.append(("LaTeX", latex))
    if json_file:
        output(docs, json_file, run=run)
        written.append(("JSON", json_file))
    if markdown:
        with open(markdown, "w", encoding="utf-8") as f:
            f.write(machinery.markdown(docs, provenance))
        written.append(("Markdown", markdown))
    if html:
        with open(html, "w", encoding="utf-8") as f:
            f.write(machinery.html_page(docs, graph_svg, provenance))
        written.append(("HTML", html))
    return written
