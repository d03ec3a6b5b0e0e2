"""The `dpcheck` subcommands, one function each (``args`` from the parser of :mod:`theorems.cli`,
returning the exit code). Engine objects come from the public API (:mod:`symbolic`), loaded when a
command runs."""
from __future__ import annotations

import json
import signal
import time
from dataclasses import replace

from symbolic import DPCheckError, InvalidParameter, InvalidSize, UnknownName, clip
from theorems.cli_io import BUG, exit_code, load_json, output, params, say, writable

MAX_FAMILY_DATABASES = 64       # tables for `eval` of notions over all populations
MAX_SYMPY_DATABASES = 4096      # tables for `eval` of a notion evaluated with sympy (no one-pass reading)
MAX_SEARCH_DATABASES = 1024     # |domain|^n of the unknown tables in `check` and `implies`
MAX_SEARCH_CELLS = 8192         # |domain|^n × |outputs|


class Stop(BaseException):
    """SIGINT or SIGTERM during `audit` (raised by its signal handler in the main process)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _search_sizes(sizes):
    """Refuse, before anything is enumerated, sizes whose unknown tables the solver cannot hold."""
    from symbolic import count_databases
    dbs = count_databases(sizes.n, sizes.domain, limit=MAX_SEARCH_DATABASES, what=f"the solver's table at {sizes}")
    if dbs * sizes.outputs > MAX_SEARCH_CELLS:
        raise InvalidSize(f"the solver's table at {sizes} has {dbs} × {sizes.outputs} unknowns, over the limit of "
                          f"{MAX_SEARCH_CELLS}; use smaller --n, --domain or --outputs")


def cmd_list(args):
    from theorems.registry import claims, definitions
    for d in definitions().values():
        names = ", ".join(n.name for n in d.notions) or "(engine function)"
        print(f"{d.id:<16} def     {d.source}  {names}: {d.statement}")
    for c in claims().values():
        print(f"{c.id:<16} {c.kind:<7} {c.source}  {c.statement}")
    return 0


def _settings(args, profile="ci"):
    from symbolic import Settings
    s = Settings.profile(profile)
    if getattr(args, "timeout", None) is not None:  # validated by the parser: finite, >= 0.001 s
        s = replace(s, timeout=args.timeout)
    return s


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
    from symbolic import check, claim_json, result_text
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
        writable(args.smt2, "--smt2")
    if args.budget > 0:  # the whole run, default sizes first, then exploring in the time left
        settings = replace(settings, stop_at=time.monotonic() + args.budget)
    res = check(claim, settings, explore=args.budget)
    if args.smt2:
        _write_smt2(res, args.smt2)
    doc = claim_json(res)
    if args.json:
        print(output([doc]))
    else:
        print(result_text(res))
        if claim.display:
            print(claim.display(res))
    return exit_code([doc])


def _write_smt2(res, path):
    """One SMT-LIB file per query (see :func:`symbolic.write_smt2`: a proof's obligations, else the
    negated claim), and a note on stderr naming them."""
    from symbolic import write_smt2
    names = write_smt2(res, path)
    say("note", f"wrote {len(names)} SMT-LIB file(s): {names[0]}" + (f" … {names[-1]}" if len(names) > 1 else ""))


def cmd_audit(args):
    from symbolic import Settings
    from theorems import audit
    from theorems.registry import SOURCES, by_source
    Settings.profile(args.profile)  # validates the name
    bad = [s for s in args.sources if s not in SOURCES]
    if bad:
        raise UnknownName(f"unknown source {clip(bad[0], 40)}; sources: {', '.join(SOURCES)}")
    for flag in ("json", "markdown", "html"):
        if getattr(args, flag):
            writable(getattr(args, flag), f"--{flag}")
    todo = [c.id for c in by_source(args.sources or list(SOURCES)) if c.kind != "def"]
    t0 = time.monotonic()
    results, texts, extras, crashed = {}, {}, {}, []
    tick = audit.progress(len(todo))

    def done(cid, out):
        if out[0] == "ok":
            results[cid], texts[cid], extras[cid] = out[1]
        else:
            crashed.append(cid)
            say("internal error", f"in {cid}: {out[1]} ({BUG})")
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
        except (Stop, KeyboardInterrupt) as e:
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
        say("error", f"stopped by {signal.Signals(stopped).name}: {len(results)} of {len(todo)} claims done, "
                     f"{len(todo) - len(results)} marked \"not run\"")
        return 128 + stopped
    return 3 if crashed else exit_code(docs)


def _raise_stop(signum, frame):
    raise Stop(signum)


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
        output(docs, args.json)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(audit.markdown(docs))
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(audit.html_page(docs))


def _one_mechanism(notion, command):
    if notion.arity != 1:
        raise DPCheckError(f"{notion.name} is a notion of {notion.arity} mechanism(s) (arity {notion.arity}); "
                           f"`{command}` takes notions of one mechanism (arity 1)")


def cmd_eval(args):
    from symbolic import explain, mechanism_from_json, population_from_json
    notion = _notion(args.notion)
    _one_mechanism(notion, "eval")
    inst = notion(**params(args.param))  # validates names and ranges before any file is read
    if notion.population == "given" and not args.population:
        raise DPCheckError(f"{notion.name} is relative to one population: give --population FILE")
    mech = mechanism_from_json(load_json(args.mechanism, "mechanism"), name="table")
    pop = None
    if args.population:
        pop = population_from_json(load_json(args.population, "population"), n=mech.n, domain=mech.domain)
    if notion.population in ("all", "product") and len(mech.rows) > MAX_FAMILY_DATABASES:
        raise InvalidSize(f"{notion.name} quantifies over populations, decided through a family that grows with "
                          f"the databases: `eval` takes at most {MAX_FAMILY_DATABASES} databases (|domain|^n) "
                          f"for it; this table has {len(mech.rows)}")
    one_pass = notion.fast is not None and notion.population == "none" and all(v.is_Rational for v in inst.args)
    if not one_pass and len(mech.rows) > MAX_SYMPY_DATABASES:
        raise InvalidSize(f"{notion.name} is evaluated with sympy, comparison by comparison: `eval` takes at most "
                          f"{MAX_SYMPY_DATABASES} databases (|domain|^n) for it; this table has {len(mech.rows)} "
                          f"(PureDP and ApproxDP with rational parameters take up to 2^18)")
    holds, why = explain(inst, mech, population=pop)
    print(f"{inst}: {'holds' if holds else 'fails'}" + ("" if holds or why is None else f" ({why})"))
    return 0 if holds else 1


# What each derivation of theorems.saeidian_pml.derive takes (checked here, before it runs).
_DERIVE = {"pml laplace-count": {"eps": "ε >= 0", "lam": "0 < λ <= 1/2"},
           "epsilon randomized-response": {},
           "pml threshold": {"n": "an integer >= 1", "k": "an integer 0 <= k <= n", "p": "0 < p < 1"}}
_DERIVE_ALIASES = {"laplace-count": "pml laplace-count", "randomized-response": "epsilon randomized-response",
                   "epsilon rr": "epsilon randomized-response", "chernoff threshold": "pml threshold",
                   "threshold": "pml threshold"}
_MAX_DERIVE_N = 10 ** 6


def _derive_params(key, values):
    valid = _DERIVE[key]
    takes = ("takes " + ", ".join(f"--param {k}=… ({r})" for k, r in valid.items())) if valid else "takes no --param"
    for k, v in values.items():
        if k not in valid:
            raise InvalidParameter(f"`derive {key}` has no parameter {k!r}; it {takes}")
        if valid[k].startswith("an integer"):
            if not v.is_Integer or not 0 <= v <= _MAX_DERIVE_N:
                raise InvalidParameter(f"--param {k}={clip(str(v))} must be {valid[k]} (at most {_MAX_DERIVE_N})")
            values[k] = int(v)
    return takes


def cmd_derive(args):
    values = params(args.param)
    key = " ".join(args.what).strip().lower()
    key = _DERIVE_ALIASES.get(key, key)
    if key not in _DERIVE:
        raise UnknownName(f"nothing to derive for {clip(key)}; try {', '.join(repr(k) for k in _DERIVE)}")
    takes = _derive_params(key, values)
    from theorems.saeidian_pml import derive
    try:
        v = derive(key, plot=args.plot, **values)
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
    """A notion by name: the engine's library (ε-DP and variations, semantic privacy, PML notions), then
    the sources' own lemma notions (whose modules are imported only when the library lacks the name)."""
    import difflib
    from symbolic import notion_library
    table = notion_library()
    if name in table:
        return table[name]
    from theorems.registry import lemma_notions
    table = {**lemma_notions(), **table}
    if name not in table:
        close = difflib.get_close_matches(name[:60], list(table), n=3)
        raise UnknownName(f"unknown notion {clip(name)}" + (f"; did you mean {', '.join(close)}?" if close else "")
                          + f"; notions: {', '.join(sorted(table))}")
    return table[name]


def cmd_implies(args):
    from symbolic import E, Sizes, check, claim_json, implication_claim, result_text
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
    claim = implication_claim(got[0], got[1], sizes=sizes)
    for text in args.assume:
        claim = claim.assuming(text)
    res = check(claim)
    print(json.dumps(claim_json(res), indent=2, ensure_ascii=False) if args.json else result_text(res))
    return exit_code([claim_json(res)])


def cmd_selftest(args):
    from theorems import selftest
    argv = (["--mutants"] if args.mutants else []) + (["--json"] if args.json else []) + ["--jobs", str(args.jobs)]
    argv += (["--only", args.only] if args.only else []) + (["--list"] if args.list else [])
    return selftest.main(argv)


COMMANDS = dict(selftest=cmd_selftest, list=cmd_list, check=cmd_check, audit=cmd_audit, derive=cmd_derive,
                implies=cmd_implies, eval=cmd_eval)
