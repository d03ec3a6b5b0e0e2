"""What cvc5's configurations do on the queries the catalogue's proofs rest on, one by one.

For each proved claim (z3 alone, the second solver off) the distinct queries of its proof (up to a renaming
of their unknowns) are sent to cvc5, each configuration alone, with the ci effort of one query (its units and
its processor seconds), each in a child process. The rows give the query's size and each configuration's
answer, units and seconds; the summary says how many queries each configuration decides and what each
alone would cost. This is the data behind the second solver's ladder (coverings on the query with its linear
equalities substituted, coverings on the query, linearisation, coverings again; see
``symbolic.solve.backends.cvc5_child.LADDER``): run it again when the catalogue changes.

    python bench/second_solver_queries.py                  # every claim (tens of minutes)
    python bench/second_solver_queries.py T-P1 T-P3 --jsonl queries.jsonl
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic import Settings, check  # noqa: E402
from symbolic.solve.backends import cvc5_backend, cvc5_child  # noqa: E402
from theorems import registry  # noqa: E402


def _features(data: dict) -> dict:
    nodes = data["nodes"]
    products = sum(1 for op, args, _, _ in nodes if op == "*" and sum(nodes[a][0] != "num" for a in args) > 1)
    return {"nodes": len(nodes), "unknowns": sum(1 for n in nodes if n[0] == "const"), "products": products,
            "logic": data["logic"]}


def queries_of(claim_id: str, settings: Settings):
    """(verdict name, z3 seconds, [(label, payload)]) for the distinct queries of the claim's proof."""
    t0 = time.monotonic()
    res = check(registry.get(claim_id), replace(settings, second_solver=False))
    seconds = time.monotonic() - t0
    memo, seen, out = {}, set(), []
    for ob in getattr(res.verdict, "obligations", ()) or ():
        data = cvc5_backend.prepare(list(ob.assertions), memo)
        key = cvc5_backend.payload_key(data)
        if key is None or key in seen:
            continue
        seen.add(key)
        out.append((ob.label, data))
    return res.verdict.name, seconds, out


def each_configuration(data: dict, settings: Settings) -> dict:
    """{configuration: (status, units, seconds)}, each alone with one query's effort, in a child process."""
    out = {}
    for name, options in cvc5_backend.CONFIGS:
        t0 = time.monotonic()
        d, = cvc5_child.decide_batch([data], timeout=settings.second_timeout, configs=[(name, options)],
                                     effort=settings.second_query_effort, cpu=settings.second_cpu)
        out[name] = (d.status, d.units, round(time.monotonic() - t0, 3))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("claims", nargs="*", help="claim IDs (default: every claim)")
    ap.add_argument("--jsonl", metavar="FILE", help="also write one JSON line per query to FILE")
    args = ap.parse_args(argv)
    settings = Settings.named("ci")
    ids = args.claims or [c for c, v in registry.claims().items() if v.kind != "def"]
    sink = open(args.jsonl, "w") if args.jsonl else None
    names = [n for n, _ in cvc5_backend.CONFIGS]
    tally = {"queries": 0, **{f"{n} decides": 0 for n in names}, "neither": 0, **{f"{n} s": 0.0 for n in names}}
    print(f"{'claim':<14} {'nodes':>5} {'unk':>4} {'prod':>4}  " + "  ".join(f"{n:>26}" for n in names))
    try:
        for cid in ids:
            verdict, z3_seconds, queries = queries_of(cid, settings)
            for label, data in queries:
                answers = each_configuration(data, settings)
                f = _features(data)
                tally["queries"] += 1
                for n in names:
                    tally[f"{n} decides"] += answers[n][0] != "unknown"
                    tally[f"{n} s"] += answers[n][2]
                tally["neither"] += all(a[0] == "unknown" for a in answers.values())
                print(f"{cid:<14} {f['nodes']:>5} {f['unknowns']:>4} {f['products']:>4}  "
                      + "  ".join(f"{a[0]:>7} {a[1]:>9,} {a[2]:>7.2f}s" for a in answers.values()), flush=True)
                if sink:
                    sink.write(json.dumps({"claim": cid, "label": label, "verdict": verdict, "z3_seconds": z3_seconds,
                                           **f, **{n: answers[n] for n in names}}) + "\n")
    finally:
        if sink:
            sink.close()
    print("\n" + "; ".join(f"{k}: {round(v, 1) if isinstance(v, float) else v}" for k, v in tally.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
