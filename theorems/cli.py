"""The `dpcheck` command line: list, check, audit, derive, implies, eval.

Exit codes: 0 every verdict definite (proved, derived, or refuted with the counterexample re-verified
exactly; findings included); 1 some verdict unknown, vacuous, unverified or not run; 2 usage errors
(bad IDs, sizes, numbers, files: one line on stderr); 3 an internal error (a bug: one line on stderr);
130 / 143 `audit` stopped by SIGINT / SIGTERM (the verdicts reached so far are printed and written).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import time
from dataclasses import replace

from symbolic.core.errors import DPCheckError, InvalidParameter, InvalidSize, UnknownName, clip

MAX_FILE_BYTES = 10 * 2 ** 20   # a mechanism or population file
MAX_FAMILY_DATABASES = 64       # tables for `eval` of notions over all populations
MAX_SEARCH_DATABASES = 1024     # |domain|^n of the unknown tables in `check` and `implies`
MAX_SEARCH_CELLS = 8192         # |domain|^n × |outputs|
MAX_SECONDS = 86400.0
MAX_JOBS = 256
MAX_LINE = 2000                 # an error line; the user's input in it is cut at ~80 characters
BUG = "this is a bug in dpcheck: please report it with the command line that caused it"


class _ArgParser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2 through :func:`main`, never a usage dump)."""

    def error(self, message):
        raise DPCheckError(f"{_cut(message, 300)} (see `{self.prog} --help`)")


def _cut(text, limit):
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _seconds(zero_ok):
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{clip(text)} is not a number of seconds; write e.g. 10 or 0.5") from None
        if not math.isfinite(v) or v > MAX_SECONDS:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be a finite number of seconds, at most {MAX_SECONDS:g}")
        if zero_ok and v < 0:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be 0 or more seconds")
        if not zero_ok and v < 0.001:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be positive (at least 0.001 s); "
                                             f"--budget 0 turns exploring off")
        return v
    return parse


def _count(lo, hi):
    def parse(text):
        if not re.fullmatch(r"\s*[+-]?\d+\s*", text or ""):
            raise argparse.ArgumentTypeError(f"{clip(text)} is not a whole number")
        v = int(text) if len(text.strip()) <= 12 else hi + 1
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be at least {lo} and at most {hi}")
        return v
    return parse


def _parser():
    p = _ArgParser(prog="dpcheck", description="Machine-check claims about privacy definitions.")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="every catalogue ID with its kind and source")

    c = sub.add_parser("check", help="check one claim")
    c.add_argument("id")
    _sizes(c)
    c.add_argument("--timeout", type=_seconds(False), help="seconds per solver call")
    c.add_argument("--budget", type=_seconds(True), default=60.0, help="wall-clock seconds for the whole run: "
                   "the default sizes first, then larger sizes while time is left (default 60; 0: default sizes only, "
                   "with no overall limit)")
    c.add_argument("--json", action="store_true", help="print only the JSON document")
    c.add_argument("--assume", action="append", default=[], metavar="RANGE",
                   help="narrow a parameter's range, e.g. --assume '0<delta<=1' or --assume 'E>=2'")
    c.add_argument("--smt2", metavar="FILE", help="write SMT-LIB files, one per query: a proof's obligations (FILE-1.smt2, …), else the negated claim")

    a = sub.add_parser("audit", help="check every claim of the given sources (T, L, K, S; default all)")
    a.add_argument("sources", nargs="*")
    a.add_argument("--json", metavar="FILE")
    a.add_argument("--markdown", metavar="FILE")
    a.add_argument("--html", metavar="FILE")
    a.add_argument("--jobs", type=_count(1, MAX_JOBS), default=os.cpu_count() or 1)
    a.add_argument("--profile", default="ci", help="settings profile: quick, ci, thorough")

    d = sub.add_parser("derive", help="closed forms, e.g. `derive pml laplace-count`, `derive epsilon randomized-response`")
    d.add_argument("what", nargs="+")
    d.add_argument("--plot", metavar="FILE")
    d.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")

    e = sub.add_parser("eval", help="evaluate a notion exactly on a mechanism table from a JSON file")
    e.add_argument("notion")
    e.add_argument("--mechanism", required=True, metavar="FILE",
                   help='JSON: {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], ...}}')
    e.add_argument("--population", metavar="FILE", help='JSON: {"0": "1/2", "1": "1/2"} (databases as "a,b")')
    e.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")

    i = sub.add_parser("implies", help="ad hoc: does notion A imply notion B? (both with parameter E)")
    i.add_argument("a")
    i.add_argument("b")
    _sizes(i)
    i.add_argument("--json", action="store_true")
    i.add_argument("--assume", action="append", default=[], metavar="RANGE",
                   help="narrow E's range, e.g. --assume 'E>=2' or --assume '1<E<3'")

    t = sub.add_parser("selftest", help="run the checker's seeded-fault suite: every fault must be caught")
    t.add_argument("--mutants", action="store_true", help="run the seeded faults (else only the detectors, unmutated)")
    t.add_argument("--json", action="store_true", help="print only a JSON document")
    t.add_argument("--jobs", type=_count(1, MAX_JOBS), default=2)
    t.add_argument("--only", metavar="IDS", help="comma-separated mutant IDs")
    t.add_argument("--list", action="store_true", help="list the mutants and exit")
    return p


def _sizes(p):
    for k in ("n", "domain", "outputs"):
        p.add_argument(f"--{k}", type=_count(1, 10 ** 6))


def _search_sizes(sizes):
    """Refuse, before anything is enumerated, sizes whose unknown tables the solver cannot hold."""
    from symbolic.model.mechanism import count_databases
    dbs = count_databases(sizes.n, sizes.domain, limit=MAX_SEARCH_DATABASES, what=f"the solver's table at {sizes}")
    if dbs * sizes.outputs > MAX_SEARCH_CELLS:
        raise InvalidSize(f"the solver's table at {sizes} has {dbs} × {sizes.outputs} unknowns, over the limit of "
                          f"{MAX_SEARCH_CELLS}; use smaller --n, --domain or --outputs")


def _say(kind, message):
    """One line on stderr; any run of over 100 non-blank characters (echoed input) is cut to 80."""
    line = re.sub(r"\S{101,}", lambda m: m.group()[:79] + "…", " ".join(str(message).splitlines()))
    print(f"dpcheck: {kind}: {_cut(line, MAX_LINE)}", file=sys.stderr, flush=True)


class _Stop(BaseException):
    """SIGINT or SIGTERM during `audit` (raised by its signal handler in the main process)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


COMMANDS = {}


def main(argv=None):
    try:
        args = _parser().parse_args(argv)
        return COMMANDS[args.cmd](args)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except DPCheckError as e:
        _say("error", e)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except OSError as e:
        if e.filename is None:
            _say("internal error", f"{type(e).__name__}: {e} ({BUG})")
            return 3
        _say("error", f"cannot use file {clip(e.filename)}: {e.strerror or e}")
        return 2
    except KeyboardInterrupt:
        _say("error", "interrupted")
        return 130
    except _Stop as e:
        return 128 + e.signum
    except Exception as e:  # noqa: BLE001 -- anything else is a bug: one line, its own exit code
        _say("internal error", f"{type(e).__name__}: {_cut(e, 300)} ({BUG})")
        return 3


def cmd_list(args):
    from theorems.registry import claims, definitions
    for d in definitions().values():
        names = ", ".join(n.name for n in d.notions) or "(engine function)"
        print(f"{d.id:<16} def     {d.source}  {names}: {d.statement}")
    for c in claims().values():
        print(f"{c.id:<16} {c.kind:<7} {c.source}  {c.statement}")
    return 0


def _settings(args, profile="ci"):
    from symbolic.solve.search import Settings
    s = Settings.profile(profile)
    if getattr(args, "timeout", None) is not None:  # validated by the parser: finite, >= 0.001 s
        s = replace(s, timeout=args.timeout)
    return s


def _output(results, file=None):
    from symbolic.report.results import tool_json
    doc = {"tool": tool_json(), "claims": results}
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    if file:
        with open(file, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return text


def _definite(r) -> bool:
    """Proved, derived, or refuted by a counterexample that exact re-verification confirmed."""
    return r["verdict"] in ("proved", "derived") or (r["verdict"] == "refuted" and r.get("verified_exactly") is True)


def _exit_code(results):
    """0 only when every verdict is definite; unknown, vacuous, unverified, not run (or anything new): 1."""
    return 0 if all(_definite(r) for r in results) else 1


def _claim(claim_id):
    import difflib
    from theorems.registry import claims
    cs = claims()
    if claim_id not in cs:
        close = difflib.get_close_matches(claim_id[:40], list(cs), n=5, cutoff=0.5)
        raise UnknownName(f"unknown claim ID {clip(claim_id)}" + (f"; similar: {', '.join(close)}" if close else "")
                          + "; run `dpcheck list` for all IDs")
    return cs[claim_id]


def cmd_check(args):
    from symbolic.report.results import claim_json, result_text
    from symbolic.solve.run import check_claim
    claim = _claim(args.id)
    if any(getattr(args, k) is not None for k in ("n", "domain", "outputs")):
        if not claim.parts:
            raise InvalidSize(f"{claim.id} is a {claim.kind} claim without sizes; drop --n, --domain, --outputs")
        claim = claim.with_sizes(args.n, args.domain, args.outputs)
        _search_sizes(claim.sizes)
    for text in args.assume:
        claim = claim.assuming(text)
    settings = _settings(args)
    if args.smt2:
        _writable(args.smt2, "--smt2")
    if args.budget > 0:  # the whole run, default sizes first, then exploring in the time left
        settings = replace(settings, stop_at=time.monotonic() + args.budget)
    res = check_claim(claim, settings, explore=args.budget)
    if args.smt2:
        _write_smt2(res, args.smt2)
    doc = claim_json(res)
    if args.json:
        print(_output([doc]))
    else:
        print(result_text(res))
        if claim.display:
            print(claim.display(res))
    return _exit_code([doc])


def _write_smt2(res, path):
    """One SMT-LIB file per query. For a proved claim these are the proof's own obligations (CEGIS
    hypotheses instantiated at the populations it used): each file unsat on its own, and all of them
    together imply the claim at the stated sizes. Otherwise the negated claim of each part at its
    largest sizes (not a certificate; ∀𝒫 hypotheses are then left out, and the file says so)."""
    from symbolic.solve.smt2 import Unsupported, script
    from symbolic.core.verdicts import Proved
    claim, v = res.claim, res.verdict
    queries = []
    if isinstance(v, Proved) and v.obligations:
        head = (f"{claim.id}: proof obligation {{i}} of {len(v.obligations)}: {{label}}\n"
                f"unsat of this file alone is what the proof claims for this query")
        queries = [(head.format(i=i + 1, label=ob.label), ob.assertions) for i, ob in enumerate(v.obligations)]
    else:
        from symbolic.solve.encode import Encoding, z3_or
        for imp in claim.parts:
            enc = Encoding(imp, claim.params, imp.sizes or claim.sizes, {**imp.parameters})
            note = "\nNOTE: hypotheses over all populations are not in this query (CEGIS refines them)" if enc.universal else ""
            queries.append((f"{claim.id}: negation of {imp} at {imp.sizes or claim.sizes} (not a proof certificate)"
                            f"{note}", enc.base + enc.hyps + enc.ops.side + [z3_or(enc.negated_conclusion_parts())]))
    if not queries:
        raise DPCheckError(f"{claim.id} has no solver query to export (it is a {claim.kind} claim)")
    base, ext = os.path.splitext(path)
    names = [path] if len(queries) == 1 else [f"{base}-{i + 1}{ext or '.smt2'}" for i in range(len(queries))]
    for name, (comment, assertions) in zip(names, queries):
        try:
            text = script(list(assertions), comment=comment)
        except Unsupported as e:
            raise DPCheckError(f"cannot export {claim.id} as SMT-LIB: {e}") from None
        with open(name, "w", encoding="utf-8") as f:
            f.write(text)
    _say("note", f"wrote {len(names)} SMT-LIB file(s): {names[0]}" + (f" … {names[-1]}" if len(names) > 1 else ""))


def _writable(path, flag):
    if os.path.isdir(path):
        raise DPCheckError(f"{flag} {clip(path)} is a directory; give a file name")
    if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
        raise DPCheckError(f"{flag} {clip(path)}: cannot write in its directory (missing or read-only)")


def cmd_audit(args):
    from theorems import audit
    from symbolic.solve.search import Settings
    from theorems.registry import SOURCES, by_source
    Settings.profile(args.profile)  # validates the name
    bad = [s for s in args.sources if s not in SOURCES]
    if bad:
        raise UnknownName(f"unknown source {clip(bad[0], 40)}; sources: {', '.join(SOURCES)}")
    for flag in ("json", "markdown", "html"):
        if getattr(args, flag):
            _writable(getattr(args, flag), f"--{flag}")
    todo = [c.id for c in by_source(args.sources or list(SOURCES)) if c.kind != "def"]
    t0 = time.monotonic()
    results, texts, extras, crashed = {}, {}, {}, []
    tick = audit.progress(len(todo))

    def done(cid, out):
        if out[0] == "ok":
            results[cid], texts[cid], extras[cid] = out[1]
        else:
            crashed.append(cid)
            _say("internal error", f"in {cid}: {out[1]} ({BUG})")
            results[cid] = {**audit.not_run(cid, audit.RECORD_KEYS, f"internal error: {out[1]}"), "verdict": "unknown"}
        tick(cid, results[cid])

    stopped = None
    handlers = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, _raise_stop)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        try:
            audit.run_pool(todo, args.profile, min(args.jobs, max(1, len(todo))), done)
        except (_Stop, KeyboardInterrupt) as e:
            stopped = getattr(e, "signum", signal.SIGINT)
        for sig in handlers:  # a second Ctrl-C while writing the report is ignored
            signal.signal(sig, lambda *_: None)
        keys = list(next(iter(results.values()), dict.fromkeys(audit.RECORD_KEYS)))
        reason = f"not run: the audit was stopped by {signal.Signals(stopped).name}" if stopped else None
        docs = [results.get(c) or audit.not_run(c, keys, reason) for c in todo]
        _report(docs, texts, [extras[c] for c in todo if c in extras], args, time.monotonic() - t0)
    finally:
        for sig, h in handlers.items():
            signal.signal(sig, h)
    if stopped:
        _say("error", f"stopped by {signal.Signals(stopped).name}: {len(results)} of {len(todo)} claims done, "
                      f"{len(todo) - len(results)} marked \"not run\"")
        return 128 + stopped
    return 3 if crashed else _exit_code(docs)


def _raise_stop(signum, frame):
    raise _Stop(signum)


def _report(docs, texts, extras, args, seconds):
    from theorems import audit
    print(audit.table(docs))
    for ex in extras:
        if ex:
            print("\n" + ex)
    for d in docs:
        if d["id"] in texts and (d["verdict"] == "refuted" or not d["agrees_with_source"] or d["finding"]):
            print("\n" + texts[d["id"]])
    n_agree = sum(d["agrees_with_source"] is True for d in docs)
    proved = [d for d in docs if d["verdict"] == "proved"]
    confirmed = sum((d.get("certificate") or {}).get("second_verdict") == "unsat" for d in proved)
    witnessed = sum(d.get("vacuity") in ("satisfiable", "not applicable") for d in proved)
    print(f"\n{len(proved)} proved: {confirmed} confirmed by a second solver (cvc5), "
          f"{witnessed} with hypotheses shown satisfiable by an exact witness; "
          f"{sum(d['verdict'] == 'vacuous' for d in docs)} vacuous")
    not_run = sum(d["verdict"] == "not run" for d in docs)
    print(f"\n{len(docs)} claims, {n_agree} agree with the source, "
          f"{sum(d['verdict'] == 'unknown' for d in docs)} unknown" + (f", {not_run} not run" if not_run else "")
          + f"; {seconds:.1f} s", flush=True)
    if args.json:
        _output(docs, args.json)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(audit.markdown(docs))
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(audit.html_page(docs))


def _params(items):
    """--param NAME=VALUE items: names are identifiers, values exact numbers (never evaluated)."""
    from symbolic.core.exact import parse_number
    params = {}
    for kv in items:
        k, eq, v = kv.partition("=")
        k = k.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,39}", k):
            raise DPCheckError(f"--param {clip(kv)} must look like NAME=VALUE with NAME a parameter name, e.g. E=3/2")
        if k in params:
            raise DPCheckError(f"--param {k} is given twice; give it once")
        params[k] = parse_number(v, what=f"--param {k}")
    return params


def _no_duplicates(pairs):
    keys = set()
    for k, _ in pairs:
        if k in keys:
            raise DPCheckError(f"key {clip(k, 40)} appears twice in one JSON object; give it once")
        keys.add(k)
    return dict(pairs)


def _no_constant(name):
    raise DPCheckError(f"{name} is not a probability; write exact numbers such as \"3/8\"")


def _load_json(path, what):
    """A JSON file of at most MAX_FILE_BYTES, UTF-8, without NaN/Infinity or repeated keys."""
    with open(path, "rb") as f:  # OSError: one line from main
        data = f.read(MAX_FILE_BYTES + 1)
    where = f"{what} file {clip(path, 60)}"
    if len(data) > MAX_FILE_BYTES:
        raise DPCheckError(f"{where} is over {MAX_FILE_BYTES // 2 ** 20} MB; dpcheck reads tables up to that size")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DPCheckError(f"{where} is not UTF-8 text (byte {e.start} is {data[e.start:e.start + 1]!r}); "
                           f"give a JSON file") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise DPCheckError(f"{where} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise DPCheckError(f"{where} nests JSON too deeply to read; a table needs three levels") from None
    except ValueError as e:  # an integer literal over Python's 4300-digit limit
        raise DPCheckError(f"{where} has a number too long to read ({_cut(e, 60)}); write probabilities as "
                           f"strings \"a/b\" of at most 1000 digits each") from None


def _one_mechanism(notion, command):
    if notion.arity != 1:
        raise DPCheckError(f"{notion.name} is a notion of {notion.arity} mechanism(s) (arity {notion.arity}); "
                           f"`{command}` takes notions of one mechanism (arity 1)")


def cmd_eval(args):
    from symbolic.model.mechanism import mechanism_from_json
    from symbolic.core.ops import ExactOps
    from symbolic.model.population import population_from_json
    notion = _notion(args.notion)
    _one_mechanism(notion, "eval")
    inst = notion(**_params(args.param))  # validates names and ranges before any file is read
    if notion.population == "given" and not args.population:
        raise DPCheckError(f"{notion.name} is relative to one population: give --population FILE")
    mech = mechanism_from_json(_load_json(args.mechanism, "mechanism"), name="table")
    pop = None
    if args.population:
        pop = population_from_json(_load_json(args.population, "population"), n=mech.n, domain=mech.domain).table()
    ops = ExactOps()
    if notion.population in ("all", "product"):
        if len(mech.rows) > MAX_FAMILY_DATABASES:
            raise InvalidSize(f"{notion.name} quantifies over populations, decided through a family that grows with "
                              f"the databases: `eval` takes at most {MAX_FAMILY_DATABASES} databases (|domain|^n) "
                              f"for it; this table has {len(mech.rows)}")
        fam = notion.sufficient(mech.n, mech.domain) if notion.sufficient else None
        if fam is None:
            raise DPCheckError(f"{notion.name} quantifies over all populations and has no finite family to decide it")
        holds = all(notion.body(ops, mech.table(), P=q.table(), **inst.param_values()) for q in fam)
    else:
        holds = notion.body(ops, mech.table(), P=pop, **inst.param_values())
    print(f"{inst}: {'holds' if holds else 'fails'}" + ("" if holds else f" ({ops.trace[0]})" if ops.trace else ""))
    return 0 if holds else 1


# What each derivation of theorems.saeidian_pml.derive takes (checked here, before it runs).
_DERIVE = {"pml laplace-count": {"eps": "ε >= 0", "lam": "0 < λ <= 1/2"},
           "epsilon randomized-response": {},
           "pml threshold": {"n": "an integer >= 1", "k": "an integer 0 <= k <= n", "p": "0 < p < 1"}}
_DERIVE_ALIASES = {"laplace-count": "pml laplace-count", "randomized-response": "epsilon randomized-response",
                   "epsilon rr": "epsilon randomized-response", "chernoff threshold": "pml threshold",
                   "threshold": "pml threshold"}
_MAX_DERIVE_N = 10 ** 6


def _derive_params(key, params):
    valid = _DERIVE[key]
    takes = ("takes " + ", ".join(f"--param {k}=… ({r})" for k, r in valid.items())) if valid else "takes no --param"
    for k, v in params.items():
        if k not in valid:
            raise InvalidParameter(f"`derive {key}` has no parameter {k!r}; it {takes}")
        if valid[k].startswith("an integer"):
            if not v.is_Integer or not 0 <= v <= _MAX_DERIVE_N:
                raise InvalidParameter(f"--param {k}={clip(str(v))} must be {valid[k]} (at most {_MAX_DERIVE_N})")
            params[k] = int(v)
    return takes


def cmd_derive(args):
    params = _params(args.param)
    key = " ".join(args.what).strip().lower()
    key = _DERIVE_ALIASES.get(key, key)
    if key not in _DERIVE:
        raise UnknownName(f"nothing to derive for {clip(key)}; try {', '.join(repr(k) for k in _DERIVE)}")
    takes = _derive_params(key, params)
    from theorems.saeidian_pml import derive
    try:
        v = derive(key, plot=args.plot, **params)
    except (InvalidParameter, InvalidSize) as e:
        raise InvalidParameter(f"{e}; `derive {key}` {takes}") from None
    print(f"formula: {v.formula}")
    print(f"assumptions: {v.assumptions}")
    for k, x in v.extras.items():
        print(f"{k}: {x}")
    for c, ok in v.checks:
        print(f"check: {c}: {'ok' if ok else 'FAILED'}")
    return 0 if all(ok for _, ok in v.checks) else 1


def _notion(name):
    """A registered notion by name (ε-DP and variations, semantic privacy, PML notions)."""
    import difflib
    import symbolic.notions.dp as dn
    import symbolic.notions.pml as pn
    import symbolic.notions.semantic as sem
    table = {n.name: n for m in (dn, sem, pn) for n in m.ALL}
    if name not in table:
        close = difflib.get_close_matches(name[:60], list(table), n=3)
        raise UnknownName(f"unknown notion {clip(name)}" + (f"; did you mean {', '.join(close)}?" if close else "")
                          + f"; notions: {', '.join(sorted(table))}")
    return table[name]


def cmd_implies(args):
    from symbolic.notions.claims import Claim, E, Implies
    from symbolic.report.results import claim_json, result_text
    from symbolic.solve.run import check_claim
    from symbolic.core.verdicts import Sizes
    got = []
    for name in (args.a, args.b):
        n = _notion(name)
        _one_mechanism(n, "implies")
        if [p.name for p in n.params] not in (["E"], []):
            raise DPCheckError(f"notion {name} has parameters {[p.name for p in n.params]}; `implies` takes notions "
                               f"with parameter E only")
        got.append(n(E.symbol) if n.params else n())
    sizes = Sizes(args.n or 2, args.domain or 2, args.outputs or 2)
    _search_sizes(sizes)
    claim = Claim("adhoc", "⇒", "-", f"{got[0]} ⇒ {got[1]}", "(ad hoc)", (Implies(got[0], got[1]),), sizes=sizes)
    for text in args.assume:
        claim = claim.assuming(text)
    res = check_claim(claim)
    print(json.dumps(claim_json(res), indent=2, ensure_ascii=False) if args.json else result_text(res))
    return _exit_code([claim_json(res)])


def cmd_selftest(args):
    from theorems import selftest
    argv = (["--mutants"] if args.mutants else []) + (["--json"] if args.json else []) + ["--jobs", str(args.jobs)]
    argv += (["--only", args.only] if args.only else []) + (["--list"] if args.list else [])
    return selftest.main(argv)


COMMANDS.update(selftest=cmd_selftest, list=cmd_list, check=cmd_check, audit=cmd_audit, derive=cmd_derive, implies=cmd_implies, eval=cmd_eval)

if __name__ == "__main__":
    sys.exit(main())
