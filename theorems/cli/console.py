"""How `dpcheck` shows things on a terminal (rich): aligned coloured tables, the audit's progress bar with
its ETA, a spinner with the elapsed time for long checks.

Everything decorative is for people at a terminal. Tables are rich tables only when stdout is a
terminal and colour is allowed (no ``--no-color``, no ``NO_COLOR`` in the environment, ``TERM`` not
``dumb``); otherwise they are plain aligned text, as pipes and files expect. Progress goes to stderr,
only when stderr is a terminal, never with ``--quiet`` and never while stdout carries a JSON document;
when stderr is not a terminal, the audit writes one plain line per finished claim instead (for logs),
unless ``--quiet``.
"""
from __future__ import annotations

import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass

VERDICT_STYLE = {"proved": "green", "derived": "green", "refuted": "yellow", "unknown": "red bold",
                 "vacuous": "red bold", "not run": "red", "holds": "green", "fails": "yellow"}
KIND_STYLE = {"def": "dim", "⇒": "green", "⇏": "magenta", "⇔": "cyan"}


@dataclass(frozen=True)
class Ui:
    """The global display options: ``quiet`` (no progress, no notes), ``verbose`` (a line per step,
    tracebacks of internal errors), ``color`` (False with ``--no-color`` or ``NO_COLOR``)."""

    quiet: bool = False
    verbose: bool = False
    color: bool = True

    @staticmethod
    def from_env(quiet=False, verbose=False, no_color=False) -> "Ui":
        env_off = bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb"
        return Ui(quiet=quiet, verbose=verbose, color=not (no_color or env_off))

    def fancy_stdout(self) -> bool:
        """Rich tables and colour on stdout."""
        return self.color and _tty(sys.stdout)

    def live_stderr(self, json_stdout=False) -> bool:
        """A progress bar or spinner on stderr."""
        return not self.quiet and not json_stdout and _tty(sys.stderr)


def _tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


def console(ui: Ui, stderr=False):
    from rich.console import Console
    return Console(file=sys.stderr if stderr else sys.stdout, no_color=not ui.color, highlight=False,
                   soft_wrap=False)


def plain_table(head, rows) -> str:
    """Columns padded to their widest cell, two spaces apart."""
    rows = [tuple(head)] + [tuple(r) for r in rows]
    w = [max(len(r[j]) for r in rows) for j in range(len(head))]
    return "\n".join("  ".join(c.ljust(w[j]) for j, c in enumerate(r)).rstrip() for r in rows)


def print_table(ui: Ui, head, rows, styles=None, title=None, plain=None):
    """A table on stdout: rich with ``styles`` (column index -> cell -> style) at a colour terminal,
    else ``plain`` (text) or the plain aligned table."""
    if not ui.fancy_stdout():
        print(plain if plain is not None else plain_table(head, rows), flush=True)
        return
    from rich.table import Table
    from rich.text import Text
    t = Table(*head, title=title, header_style="bold", show_edge=False, pad_edge=False)
    for r in rows:
        t.add_row(*(Text(c, style=(styles or {}).get(j, {}).get(c, "")) for j, c in enumerate(r)))
    console(ui).print(t)


def print_text(ui: Ui, text: str):
    """Text on stdout; at a colour terminal the verdict words in it are coloured."""
    if not ui.fancy_stdout():
        print(text, flush=True)
        return
    from rich.text import Text
    t = Text(text)
    for word, style in VERDICT_STYLE.items():
        t.highlight_regex(rf"(?<=verdict: ){re.escape(word)}\b|(?<=: ){re.escape(word)}(?=$| — )", style)
    t.highlight_regex(r"^\s*FINDING:", "magenta bold")
    t.highlight_regex(r"differs from the source \(finding\)", "magenta bold")
    t.highlight_regex(r"as the source says", "green")
    console(ui).print(t, soft_wrap=True)


def print_markup(ui: Ui, markup, plain: str):
    """One line: rich markup at a colour terminal, else ``plain``. ``markup`` may be a function giving it,
    so that plain output never imports rich (its import takes about 0.05 s)."""
    if ui.fancy_stdout():
        console(ui).print(markup() if callable(markup) else markup, soft_wrap=True)
    else:
        print(plain, flush=True)


class AuditProgress:
    """The audit's progress: a bar with claims done / total, elapsed time and the estimated time left on a
    terminal; one plain line per finished claim when stderr is not a terminal (with the estimate when
    ``--verbose``); nothing with ``--quiet``. ``costs`` holds every claim's reference cost, in the order the
    claims start; the estimate lays the claims not yet finished on the ``jobs`` workers in that order at
    their cost times the pace measured so far (:mod:`theorems.cli.audit_plan`); the bar advances by cost,
    so its fill is the share of the work done."""

    def __init__(self, ui: Ui, total: int, costs: dict | None = None, jobs: int = 1):
        self.ui, self.total, self.count, self._bar, self._task = ui, total, 0, None, None
        self.costs, self.jobs = dict(costs or {}), jobs
        self.running, self.finished, self.pending = {}, {}, list(self.costs)

    def start(self, cid: str):
        """``cid`` has started."""
        self.running[cid] = time.monotonic()
        if cid in self.pending:
            self.pending.remove(cid)

    def end_estimate(self) -> float | None:
        """The planned end of the run (time.monotonic()), or None without costs."""
        from theorems.cli.audit_plan import pace, planned_end
        if not self.costs:
            return None
        return planned_end(time.monotonic(), self.running, self.pending, self.costs, pace(self.finished, self.costs),
                           self.jobs)

    def __enter__(self):
        if self.ui.live_stderr():
            from rich.progress import (BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn)
            self._bar = Progress(SpinnerColumn(), TextColumn("[bold]audit"), BarColumn(),
                                 TextColumn("{task.fields[claims]}/{task.fields[of]} claims"), TimeElapsedColumn(),
                                 TextColumn("ETA"), _EndColumn(), TextColumn("{task.description}"),
                                 console=console(self.ui, stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task("", total=sum(self.costs.values()) or self.total, claims=0,
                                            of=self.total, end=self.end_estimate())
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.__exit__(*exc)
        return False

    def tick(self, cid: str, doc: dict):
        self.count += 1
        start = self.running.pop(cid, None)
        if start is not None:
            self.finished[cid] = time.monotonic() - start
        end = self.end_estimate()
        secs = "" if doc.get("seconds") is None else f"{doc['seconds']:6.2f} s"
        line = f"[{self.count:>3}/{self.total}] {cid:<16} {doc['verdict']:<8} {secs}"
        if end is not None and self.ui.verbose:
            line += f"  (about {max(0.0, end - time.monotonic()):.0f} s left)"
        if self._bar is not None:
            self._bar.update(self._task, advance=self.costs.get(cid, 1), claims=self.count, end=end,
                             description=f"last: {cid} {doc['verdict']}")
            if self.ui.verbose:
                self._bar.console.print(line, highlight=False)
        elif not self.ui.quiet:
            print(line, file=sys.stderr, flush=True)


def _EndColumn():
    """A column with the time left until the task's planned ``end`` (h:mm:ss, counting down), or -:--:--."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class EndColumn(ProgressColumn):
        def render(self, task):
            end = task.fields.get("end")
            if end is None:
                return Text("-:--:--", style="progress.remaining")
            left = int(max(0.0, end - time.monotonic()))
            return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}", style="progress.remaining")
    return EndColumn()


@contextmanager
def spinner(ui: Ui, what: str, budget: float | None = None, json_stdout=False):
    """A spinner with the elapsed time on stderr while ``what`` runs (a terminal only, not with
    ``--quiet`` or a JSON document on stdout); it disappears when the run ends."""
    if not ui.live_stderr(json_stdout):
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    limit = f" (stops within the --budget of {budget:g} s)" if budget else ""
    with Progress(SpinnerColumn(), TextColumn(f"{what}{limit}"), TimeElapsedColumn(),
                  console=console(ui, stderr=True), transient=True) as bar:
        bar.add_task("", total=None)
        yield
