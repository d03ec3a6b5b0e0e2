"""The `dpcheck` command line: list, check, audit, derive, implies.

Exit codes: 0 every verdict definite (findings included); 1 some verdict unknown or some
counterexample failed exact re-verification; 2 usage errors (bad IDs, sizes, numbers).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from symbolic.errors import DPCheckError, InvalidSize, UnknownName


def _parser():
    p = argparse.ArgumentParser(prog="dpcheck", description="Machine-check claims about privacy definitions.")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="every catalogue ID with its kind and source")

    c = sub.add_parser("check", help="check one claim")
    c.add_argument("id")
    _sizes(c)
    c.add_argument("--timeout", type=float, help="seconds per solver call")
    c.add_argument("--budget", type=float, default=60.0, help="seconds for the claim, exploring larger sizes "
                   "after the default ones are proved (default 60; 0: no exploring)")
    c.add_argument("--json", action="store_true", help="print only the JSON document")
    c.add_argument("--smt2", metavar="FILE", help="write the negated claim at the largest sizes as SMT-LIB")

    a = sub.add_parser("audit", help="check every claim of the given sources (T, L, K, S; default all)")
    a.add_argument("sources", nargs="*")
    a.add_argument("--json", metavar="FILE")
    a.add_argument("--markdown", metavar="FILE")
    a.add_argument("--html", metavar="FILE")
    a.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
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
    return p


def _sizes(p):
    p.add_argument("--n", type=int)
    p.add_argument("--domain", type=int)
    p.add_argument("--outputs", type=int)


def _check_sizes(args):
    for k in ("n", "domain", "outputs"):
        v = getattr(args, k, None)
        if v is not None and v < 1:
            raise InvalidSize(f"--{k}={v} must be at least 1")


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        _check_sizes(args)
        return {"list": cmd_list, "check": cmd_check, "audit": cmd_audit, "derive": cmd_derive,
                "implies": cmd_implies, "eval": cmd_eval}[args.cmd](args)
    except DPCheckError as e:
        print(f"dpcheck: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and closed early
        sys.stderr.close()
        return 0


def cmd_list(args):
    from theorems.registry import claims, definitions
    for d in definitions().values():
        names = ", ".join(n.name for n in d.notions) or "(engine function)"
        print(f"{d.id:<16} def     {d.source}  {names}: {d.statement}")
    for c in claims().values():
        print(f"{c.id:<16} {c.kind:<7} {c.source}  {c.statement}")
    return 0


def _settings(args, profile="ci"):
    from dataclasses import replace
    from symbolic.search import Settings
    s = Settings.profile(profile)
    if getattr(args, "timeout", None):
        if args.timeout <= 0:
            raise InvalidSize(f"--timeout={args.timeout} must be positive")
        s = replace(s, timeout=args.timeout)
    return s


def _output(results, file=None):
    from symbolic.report import tool_json
    doc = {"tool": tool_json(), "claims": results}
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    if file:
        with open(file, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return text


def _exit_code(results):
    return 0 if all(r["verdict"] != "unknown" and (r["verdict"] != "refuted" or r["verified_exactly"])
                    for r in results) else 1


def cmd_check(args):
    from symbolic.report import claim_json, result_text
    from symbolic.run import check_claim
    from theorems.registry import get
    claim = get(args.id)
    if any(getattr(args, k) is not None for k in ("n", "domain", "outputs")):
        claim = claim.with_sizes(args.n, args.domain, args.outputs)
    if args.smt2:
        _write_smt2(claim, args.smt2)
    res = check_claim(claim, _settings(args), explore=max(0.0, args.budget or 0.0))
    doc = claim_json(res)
    if args.json:
        print(_output([doc]))
    else:
        print(result_text(res))
        if claim.display:
            print(claim.display(res))
    return _exit_code([doc])


def _write_smt2(claim, path):
    import z3
    from symbolic.encode import Encoding
    if not claim.parts:
        raise DPCheckError(f"{claim.id} has no implication to export (it is a {claim.kind} claim)")
    chunks = []
    for imp in claim.parts:
        enc = Encoding(imp, claim.params, imp.sizes or claim.sizes, {**imp.parameters})
        s = z3.Solver()
        s.add(enc.base + enc.hyps + enc.ops.side + [z3.Or(enc.negated_conclusion_parts())])
        note = "" if not enc.universal else (
            "; NOTE: hypotheses over all populations are not in this query (the engine refines them by CEGIS)\n")
        chunks.append(f"; {claim.id}: negation of {imp} at {imp.sizes or claim.sizes}\n{note}{s.to_smt2()}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(chunks))


def _run_one(claim_id, profile):
    from symbolic.report import claim_json, result_text
    from symbolic.run import check_claim
    from symbolic.search import Settings
    from theorems.registry import get
    res = check_claim(get(claim_id), Settings.profile(profile))
    extra = res.claim.display(res) if res.claim.display else None
    return claim_json(res), result_text(res), extra


def cmd_audit(args):
    from symbolic.search import Settings
    from theorems.registry import SOURCES, by_source
    Settings.profile(args.profile)  # validates the name
    letters = args.sources or list(SOURCES)
    todo = [c.id for c in by_source(letters) if c.kind != "def"]
    if args.jobs < 1:
        raise InvalidSize(f"--jobs={args.jobs} must be at least 1")
    t0 = time.monotonic()
    results, texts, extras = {}, {}, []
    progress = _progress(len(todo))
    if args.jobs == 1:
        for cid in todo:
            results[cid], texts[cid], ex = _run_one(cid, args.profile)
            extras.append(ex)
            progress(cid, results[cid])
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futs = {cid: pool.submit(_run_one, cid, args.profile) for cid in todo}
            for cid in todo:
                results[cid], texts[cid], ex = futs[cid].result()
                extras.append(ex)
                progress(cid, results[cid])
    docs = [results[c] for c in todo]
    print(_table(docs))
    for ex in extras:
        if ex:
            print("\n" + ex)
    for d in docs:
        if d["verdict"] == "refuted" or not d["agrees_with_source"] or d["finding"]:
            print("\n" + texts[d["id"]])
    n_agree = sum(d["agrees_with_source"] for d in docs)
    print(f"\n{len(docs)} claims, {n_agree} agree with the source, "
          f"{sum(d['verdict'] == 'unknown' for d in docs)} unknown; {time.monotonic() - t0:.1f} s")
    if args.json:
        _output(docs, args.json)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(_markdown(docs))
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(_html(docs))
    return _exit_code(docs)


def _progress(total):
    done = [0]

    def tick(cid, doc):
        done[0] += 1
        print(f"[{done[0]:>3}/{total}] {cid:<16} {doc['verdict']:<8} {doc['seconds']:6.2f} s", file=sys.stderr,
              flush=True)
    return tick


def _sz(b):
    return "" if not b else f"{b['n']},{b['domain']},{b['outputs']}"


def _rows(docs):
    return [(d["id"], d["kind"], d["source_says"][:28], d["verdict"], "yes" if d["agrees_with_source"] else "NO",
             _sz(d["bounds"]), f"{d['seconds']:.2f}") for d in docs]


HEAD = ("ID", "kind", "source says", "verdict", "agrees", "sizes", "seconds")


def _table(docs):
    rows = [HEAD] + _rows(docs)
    w = [max(len(r[j]) for r in rows) for j in range(len(HEAD))]
    return "\n".join("  ".join(c.ljust(w[j]) for j, c in enumerate(r)) for r in rows)


def _markdown(docs):
    out = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    out += ["| " + " | ".join(r) + " |" for r in _rows(docs)]
    return "\n".join(out) + "\n"


def _html(docs):
    import html
    cells = lambda r, t: "".join(f"<{t}>{html.escape(c)}</{t}>" for c in r)
    body = "".join(f"<tr>{cells(r, 'td')}</tr>" for r in _rows(docs))
    return f"<!doctype html><meta charset=utf-8><title>dpcheck audit</title><table><tr>{cells(HEAD, 'th')}</tr>{body}</table>\n"


def _params(items):
    from symbolic.exact import parse_number
    params = {}
    for kv in items:
        if "=" not in kv:
            raise DPCheckError(f"--param {kv!r} must look like NAME=VALUE, e.g. E=3/2")
        k, v = kv.split("=", 1)
        params[k.strip()] = parse_number(v, what=k.strip())
    return params


def _load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise DPCheckError(f"cannot read {what} file {path!r}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise DPCheckError(f"{what} file {path!r} is not JSON: {e.msg} at line {e.lineno}") from None


def _key(text, n):
    from symbolic.exact import parse_number
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != n:
        raise DPCheckError(f"database {text!r} should have {n} comma-separated values")
    return tuple(int(parse_number(p, what="database value")) for p in parts)


def cmd_eval(args):
    from symbolic.mechanism import Mechanism
    from symbolic.ops import ExactOps
    from symbolic.population import Population
    notion = _notion(args.notion)
    doc = _load_json(args.mechanism, "mechanism")
    if not isinstance(doc, dict) or "rows" not in doc or "n" not in doc:
        raise DPCheckError('mechanism file needs "n", "domain", "outputs" and "rows"')
    n = doc["n"]
    if not isinstance(n, int) or n < 1:
        raise InvalidSize(f'mechanism "n"={n!r} must be a whole number >= 1')
    rows = {_key(k, n): v for k, v in doc["rows"].items()}
    mech = Mechanism.from_table(rows, n=n, domain=doc.get("domain"), outputs=doc.get("outputs"), name=args.mechanism)
    pop = None
    if args.population:
        pdoc = _load_json(args.population, "population")
        pop = Population({_key(k, n): v for k, v in pdoc.items()}, n=n, domain=mech.domain).table()
    elif notion.population == "given":
        raise DPCheckError(f"{notion.name} is relative to one population: give --population FILE")
    params = _params(args.param)
    inst = notion(**params)  # validates names and ranges
    ops = ExactOps()
    if notion.population in ("all", "product"):
        fam = notion.sufficient(n, mech.domain) if notion.sufficient else None
        if fam is None:
            raise DPCheckError(f"{notion.name} quantifies over all populations and has no finite family to decide it")
        holds = all(notion.body(ops, mech.table(), P=q.table(), **inst.param_values()) for q in fam)
    else:
        holds = notion.body(ops, mech.table(), P=pop, **inst.param_values())
    print(f"{inst}: {'holds' if holds else 'fails'}" + ("" if holds else f" ({ops.trace[0]})" if ops.trace else ""))
    return 0 if holds else 1


def cmd_derive(args):
    params = _params(args.param)
    from theorems.saeidian_pml import derive
    try:
        v = derive(" ".join(args.what), plot=args.plot, **params)
    except TypeError as e:  # an unexpected --param name
        raise DPCheckError(f"bad --param for {' '.join(args.what)!r}: {e}") from None
    print(f"formula: {v.formula}")
    print(f"assumptions: {v.assumptions}")
    for k, x in v.extras.items():
        print(f"{k}: {x}")
    for c, ok in v.checks:
        print(f"check: {c}: {'ok' if ok else 'FAILED'}")
    return 0 if all(ok for _, ok in v.checks) else 1


def _notion(name):
    """A registered notion by name (ε-DP and variations, semantic privacy, PML notions)."""
    import symbolic.dp_notions as dn
    import symbolic.pml_notions as pn
    import symbolic.semantic as sem
    table = {n.name: n for m in (dn, sem, pn) for n in m.ALL}
    if name not in table:
        raise UnknownName(f"unknown notion {name!r}; notions: {', '.join(sorted(table))}")
    return table[name]


def cmd_implies(args):
    from symbolic.claims import Claim, E, Implies
    from symbolic.report import claim_json, result_text
    from symbolic.run import check_claim
    from symbolic.verdicts import Sizes
    got = []
    for name in (args.a, args.b):
        n = _notion(name)
        if [p.name for p in n.params] not in (["E"], []):
            raise DPCheckError(f"notion {name} has parameters {[p.name for p in n.params]}; `implies` takes notions "
                               f"with parameter E only")
        got.append(n(E.symbol) if n.params else n())
    sizes = Sizes(args.n or 2, args.domain or 2, args.outputs or 2)
    claim = Claim("adhoc", "⇒", "-", f"{got[0]} ⇒ {got[1]}", "(ad hoc)", (Implies(got[0], got[1]),), sizes=sizes)
    res = check_claim(claim)
    print(json.dumps(claim_json(res), indent=2, ensure_ascii=False) if args.json else result_text(res))
    return _exit_code([claim_json(res)])


if __name__ == "__main__":
    sys.exit(main())
