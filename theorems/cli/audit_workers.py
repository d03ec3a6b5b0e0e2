"""The audit's machinery: worker processes a signal can stop, records of claims that did not run,
the audit table (text, Markdown) and the HTML page."""
from __future__ import annotations

import signal
import sys


def cut(text, limit):
    """``str(text)`` cut to at most ``limit`` characters, ending with … when cut (messages and records)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def run_one(claim_id, profile, *, second_workers=None, confirm="1"):
    """Check one claim at the effort level ``profile``: (its JSON record, its text, its extra display).
    ``second_workers``: cvc5 processes at once for its proof (the audit, a claim a core, asks one); ``confirm``:
    the factor of the second solver's limits (``--confirm-effort``)."""
    from dataclasses import replace
    from symbolic import Settings, check, claim_json, result_text
    from theorems.registry import get
    res = check(get(claim_id), replace(Settings.named(profile).confirming(confirm), second_workers=second_workers))
    extra = res.claim.display(res) if res.claim.display else None
    return scoped(res, claim_json(res)), result_text(res), extra


def scoped(res, doc) -> dict:
    """A claim's JSON record ``doc`` with the scope keys of a proved result: every size when the proof's
    inductions carry it to every k, or when the all-size argument lifts it (the proof is then held on the argument's
    own table); else within bounds. A refuted one's counterexample is held against the all-size argument, and where
    the argument speaks of the claim, ``reduces_to`` says how it reduced to the argument's small table. A
    disagreement with the argument stops the run with an internal error."""
    if res.verdict.name == "proved":
        from symbolic import claim_holds_on_dominating_pair, claim_scope, scope_record
        by_induction = (res.verdict.certificate or {}).get("all_sizes")
        if by_induction:
            doc.update(scope_record(by_induction))
        else:
            doc.update(claim_scope(res.claim))
            if doc["scope"] == "all sizes":
                claim_holds_on_dominating_pair(res.claim)
    elif res.verdict.name == "refuted":
        from symbolic import claim_reduces
        how = claim_reduces(res.claim, res.verdict)
        if how is not None:
            doc["reduces_to"] = how
    return doc


def scope_line(doc) -> str | None:
    """The terminal line with a proved record's scope (and the argument when it holds at every size); None for a
    record without one."""
    if "scope" not in doc:
        return None
    arg = doc.get("all_sizes")
    return "  scope: " + doc["scope"] + (": " + "; ".join(arg["argument"]) if arg else
                                         " (no theorem here lifts this proof to every size)")


def _worker(conn, profile, jobs=1, confirm="1"):
    """Run claims sent by the parent, one at a time. SIGINT is ignored (the parent decides, and kills
    us); SIGTERM and the parent's death kill us at once, even inside a solver call."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux): no orphans
    except (OSError, AttributeError):
        pass
    from symbolic import solver_ignores_sigint
    solver_ignores_sigint()  # else the solver catches SIGINT itself and answers "unknown"
    while True:
        try:
            cid = conn.recv()
        except (EOFError, OSError):
            return
        if cid is None:
            return
        try:
            out = ("ok", run_one(cid, profile, second_workers=1 if jobs > 1 else None, confirm=confirm))
        except Exception as e:  # noqa: BLE001 -- reported by the parent as an internal error
            out = ("error", f"{type(e).__name__}: {cut(e, 300)}")
        conn.send((cid, out))


def _spawn(ctx, profile, procs, jobs=1, confirm="1"):
    """Start a worker with SIGINT/SIGTERM blocked until it has set its own handlers."""
    mine, theirs = ctx.Pipe()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        p = ctx.Process(target=_worker, args=(theirs, profile, jobs, confirm), daemon=True)
        p.start()
        procs.append((p, mine))
    finally:
        theirs.close()
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return p, mine


def _reap(p, conn):
    """Wait a little for the worker ``p`` to end, kill it if it has not, and close its pipe."""
    p.join(5)
    if p.is_alive():
        p.kill()
        p.join()
    conn.close()


def _retire(procs, conn):
    """Ask the worker on ``conn`` to end (it may be dead already), reap it and forget it."""
    p = next(p for p, c in procs if c is conn)
    try:
        conn.send(None)
    except OSError:
        pass
    _reap(p, conn)
    procs.remove((p, conn))


def run_pool(todo, profile, jobs, done, started=lambda cid: None, confirm="1"):
    """Run ``todo`` in ``jobs`` worker processes, in that order, calling ``started(cid)`` as each starts and
    ``done(cid, out)`` as each finishes; ``confirm``: the factor of the second solver's limits.
    However this ends (a signal, an error), every worker is killed and reaped before it returns."""
    import multiprocessing as mp
    from multiprocessing.connection import wait
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else None)
    pending, procs, running, finished = list(todo), [], {}, False
    try:
        idle = [_spawn(ctx, profile, procs, jobs, confirm)[1] for _ in range(min(jobs, len(pending)))]
        while pending or running:
            while pending and idle:
                conn, cid = idle.pop(), pending.pop(0)
                running[conn] = cid
                started(cid)
                conn.send(cid)
            for conn in wait(list(running)):
                cid = running.pop(conn)
                try:
                    cid, out = conn.recv()
                except (EOFError, OSError):  # the worker died (killed from outside, out of memory)
                    p = next(p for p, c in procs if c is conn)
                    p.join(1)
                    out = ("error", f"its worker process died (exit code {p.exitcode})")
                done(cid, out)
                # one claim per worker: the next claim starts in a fresh fork of this process, so its
                # result (a counterexample's numbers) does not depend on which claims ran before it
                _retire(procs, conn)
                if pending:
                    idle.append(_spawn(ctx, profile, procs, jobs, confirm)[1])
        finished = True
    finally:
        for p, conn in procs:
            if finished and p.is_alive():
                try:
                    conn.send(None)
                except OSError:
                    pass
            elif p.is_alive():
                p.kill()
        for p, conn in procs:
            _reap(p, conn)


def not_run(cid, keys, reason):
    """The record of a claim that did not run: the same keys as the others, with nulls."""
    from theorems.registry import claims
    c = claims()[cid]
    doc = {k: None for k in keys}
    doc.update(id=c.id, kind=c.kind, source=c.source, statement=c.statement, source_says=c.source_says,
               verdict="not run", reason=reason)
    return doc


RECORD_KEYS = ("id", "kind", "source", "statement", "source_says", "verdict", "agrees_with_source", "bounds",
                "seconds", "counterexample", "verified_exactly", "formula", "reason", "minimal", "finding",
                "finding_explanation", "note", "as_source_says", "outcome", "certificate", "vacuity", "witness", "parts",
                "explored", "scope", "all_sizes")


def summary_counts(docs) -> dict:
    """The audit's counts, all from the run's records: claims, verdicts as the source says, findings
    (a record's generated ``finding``: a definite verdict that differs from the source, whatever the
    theorem module's hand-written explanation), undecided (unknown, vacuous, unverified) and not run."""
    return {"claims": len(docs),
            "as_source_says": sum(d.get("outcome") == "as the source says" for d in docs),
            "findings": sum(bool(d.get("finding")) for d in docs),
            "undecided": sum(d.get("outcome") == "undecided" or d["verdict"] == "unknown" for d in docs),
            "not_run": sum(d["verdict"] == "not run" for d in docs)}


def progress(total):
    count = [0]

    def tick(cid, doc):
        count[0] += 1
        secs = "" if doc.get("seconds") is None else f"{doc['seconds']:6.2f} s"
        print(f"[{count[0]:>3}/{total}] {cid:<16} {doc['verdict']:<8} {secs}", file=sys.stderr, flush=True)
    return tick


def _sz(b):
    return "" if not b else f"{b['n']},{b['domain']},{b['outputs']}"


def _rows(docs):
    from symbolic import agreement_word
    return [(d["id"], d["kind"], d["source_says"][:28], d["verdict"], agreement_word(d, d["agrees_with_source"]),
             _sz(d["bounds"]), "" if d["seconds"] is None else f"{d['seconds']:.2f}") for d in docs]


HEAD = ("ID", "kind", "source says", "verdict", "agrees", "sizes", "seconds")


def table(docs):
    rows = [HEAD] + _rows(docs)
    w = [max(len(r[j]) for r in rows) for j in range(len(HEAD))]
    return "\n".join("  ".join(c.ljust(w[j]) for j, c in enumerate(r)) for r in rows)


def markdown(docs, provenance=None):
    """The audit as Markdown (:func:`symbolic.report.markdown.audit_markdown`): table, findings, counterexamples;
    ``provenance``: the line at its top saying where the verdicts come from."""
    from symbolic import audit_markdown
    return audit_markdown(docs, provenance=provenance)


def html_page(docs, graph=None, provenance=None):
    """The audit's page (:func:`symbolic.report.html.audit_html`) from the claim records, with the
    sources' names and, when given, the implication graph: (its SVG text, the separations' SVG text or
    None), as :func:`read_graph_svg` reads them."""
    from symbolic import audit_html, tool_json
    from theorems.registry import SOURCES
    graph_svg, separations = graph if graph is not None else (None, None)
    return audit_html({"tool": tool_json(), "claims": docs}, graph_svg=graph_svg, separations_svg=separations,
                      source_names=SOURCES, provenance=provenance)


def latex_document(docs, provenance=None):
    """The audit as a LaTeX document (:func:`symbolic.report.latex.audit_latex`) with the sources' names."""
    from symbolic import audit_latex, tool_json
    from theorems.registry import SOURCES
    return audit_latex({"tool": tool_json(), "claims": docs}, source_names=SOURCES, provenance=provenance)


def read_graph_svg(path):
    """(SVG text of the file at ``path``, SVG text of its separations picture or None): the pictures
    ``dpcheck graph --svg PATH`` writes (``PATH-separations.svg`` beside it), each checked to be an SVG
    picture the page can show."""
    from pathlib import Path
    graph = _svg_file(path)
    p = Path(path)
    beside = p.with_name(p.stem + "-separations" + (p.suffix or ".svg"))
    return graph, (_svg_file(str(beside)) if beside.is_file() else None)


def _svg_file(path):
    from symbolic import DPCheckError, clip
    from symbolic import inline_svg
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise DPCheckError(f"--graph-svg {clip(path)}: cannot read it "
                          f"({getattr(e, 'strerror', None) or type(e).__name__})") from e
    try:
        inline_svg(text, label="implication graph")
    except DPCheckError as e:
        raise DPCheckError(f"--graph-svg {clip(path)}: {e}") from e
    return text
