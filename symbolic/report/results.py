"""Rendering results: readable text tables and the JSON contract of DESIGN.md."""
from __future__ import annotations

import json

import sympy as sp

from symbolic.core.exact import expr_text
from symbolic.core.math_text import tidy_text
from symbolic.core.tables import MechTable, PopTable, database_key
from symbolic.core.verdicts import Derived, Proved, Refuted, Unknown, Vacuous
from symbolic.report.second_solver import undecided_lines
from symbolic.solve.run import AS_SAID, DIFFERS, is_ad_hoc, part_outcome


def num(x) -> str:
    """Exact text of a number (Euler's number is written exp(1), never the bare letter E). An exact number
    is written as it is: never passed through ``nsimplify``, which may rewrite a rational with a large
    denominator as a product of radicals that is not equal to it.

    >>> num(sp.Rational(12379559, 15940000)), num(3), num(sp.sqrt(2) / 2)
    ('12379559/15940000', '3', 'sqrt(2)/2')
    """
    if isinstance(x, str):
        return x
    return expr_text(exact_number(x))


def exact_number(x):
    """``x`` as an exact sympy number: ints, Fractions and sympy numbers as they are; a float (which no
    verdict should carry) as the rational it stands for, exactly."""
    if isinstance(x, float):
        return sp.Rational(x)
    if isinstance(x, sp.Float):
        return sp.Rational(str(x)) if x.is_finite else x
    return sp.sympify(x)


def mech_json(tab):
    if isinstance(tab, MechTable):
        return {database_key(d): {str(o): num(p) for o, p in zip(tab.outputs, row)} for d, row in tab.rows.items()}
    if isinstance(tab, dict):
        out = {}
        for k, v in tab.items():
            if k is None:
                continue
            out[f"<{k}>"] = mech_json(v) if isinstance(v, MechTable) else {str(j): num(p) for j, p in enumerate(v)}
        return out
    if hasattr(tab, "table"):
        return mech_json(tab.table())
    return str(tab)


def table_json(tab: MechTable) -> dict:
    """One mechanism table in the format ``dpcheck eval --mechanism`` reads: {"n", "domain", "outputs",
    "rows"}, each row a list aligned with the outputs."""
    return {"n": tab.n, "domain": list(tab.domain), "outputs": list(tab.outputs),
            "rows": {database_key(d): [num(p) for p in row] for d, row in tab.rows.items()}}


def pop_json(pop: PopTable):
    return {database_key(d): num(p) for d, p in pop.probs.items() if p != 0}


def params_json(params: dict):
    out = {}
    for k, v in params.items():
        out[k] = num(v)
        if k == "E" or k.startswith("E"):
            out["eps" + k[1:]] = expr_text(sp.log(exact_number(v)))
    return out


def witness_json(w):
    """A vacuity witness in the counterexample's shape (tables, populations, parameters)."""
    if w is None:
        return None
    return {"n": w.sizes.n, "domain": w.sizes.domain, "outputs": w.sizes.outputs,
            "mechanism": {k: mech_json(v) for k, v in w.mechanisms.items()},
            "population": {k: pop_json(v) for k, v in w.populations.items()} or None,
            "parameters": params_json(w.parameters), "implication": w.implication}


def counterexample_json(cx):
    return {"n": cx.sizes.n, "domain": cx.sizes.domain, "outputs": cx.sizes.outputs,
            "mechanism": {k: mech_json(v) for k, v in cx.mechanisms.items()},
            "population": {k: pop_json(v) for k, v in cx.populations.items()} or None,
            "parameters": params_json(cx.parameters), "violated": cx.violated,
            "implication": cx.implication,
            # each plain table again in the format `dpcheck eval --mechanism` reads (populations already are)
            "tables": {k: table_json(v) for k, v in cx.mechanisms.items() if isinstance(v, MechTable)}}


def _table_text(tab, indent="  "):
    outs = [str(o) for o in tab.outputs]
    head = ["d"] + outs
    rows = [[database_key(d)] + [num(p) for p in r] for d, r in tab.rows.items()]
    w = [max(len(r[j]) for r in [head] + rows) for j in range(len(head))]
    return "\n".join(indent + "  ".join(c.rjust(w[j]) for j, c in enumerate(r)) for r in [head] + rows)


def counterexample_text(cx) -> str:
    """A counterexample as text: its sizes, each mechanism as a table (rows are databases, columns
    outputs), populations, parameters (E with its ε) and the violated comparison.

    >>> import sympy as sp
    >>> from symbolic.core.tables import MechTable
    >>> from symbolic.core.verdicts import Counterexample, Sizes
    >>> tab = MechTable(1, (0, 1), (0, 1), {(0,): (sp.Integer(1), sp.Integer(0)), (1,): (sp.Integer(0), sp.Integer(1))})
    >>> print(counterexample_text(Counterexample(Sizes(1, 2, 2), {"A": tab}, {}, {"E": sp.Integer(2)}, "PureDP(E): …")))
    counterexample at n=1, |D|=2, |O|=2  ()
     mechanism A: rows are databases, columns outputs
      d  0  1
      0  1  0
      1  0  1
     parameters: E=2 (ε=log(2))
     violated: PureDP(E): …
    """
    lines = [f"counterexample at {cx.sizes}  ({tidy_text(cx.implication)})"]
    for name, tab in cx.mechanisms.items():
        if isinstance(tab, MechTable):
            lines.append(f" mechanism {name}: rows are databases, columns outputs")
            lines.append(_table_text(tab))
        elif isinstance(tab, dict):
            for k, v in tab.items():
                if k is None:
                    continue
                if isinstance(v, MechTable):
                    lines.append(f" mechanism {name}(first output {k}, ·):")
                    lines.append(_table_text(v))
                else:
                    lines.append(f" kernel {name}({k}) = " + ", ".join(num(p) for p in v))
    for name, pop in cx.populations.items():
        lines.append(f" population {name}: " + ", ".join(f"P({database_key(d)})={num(p)}" for d, p in pop.probs.items() if p != 0)
                     + "  (all other databases 0)")
    if cx.parameters:
        lines.append(" parameters: " + ", ".join(f"{k}={num(v)}" + (f" (ε={expr_text(sp.log(exact_number(v)))})" if k.startswith("E") else "")
                                                for k, v in cx.parameters.items()))
    lines.append(f" violated: {cx.violated}")
    return "\n".join(lines)


_ROWS_SHOWN = 4


def _rows_line(tab, violated) -> str:
    """Rows of a table as ``d→(p, ...)``: all when few, else the ones the violated text names."""
    items = list(tab.rows.items())
    if len(items) > _ROWS_SHOWN:
        named = [(d, r) for d, r in items if str(d) in violated or f"({database_key(d)})" in violated]
        shown = (named or items)[:_ROWS_SHOWN]
    else:
        shown = items
    text = ", ".join(f"{database_key(d)}→({', '.join(num(p) for p in r)})" for d, r in shown)
    return text + (f", … ({len(items) - len(shown)} more rows)" if len(shown) < len(items) else "")


def counterexample_line(cx) -> str:
    """A counterexample on one line: the violated inequality, the sizes, the parameters and the
    tables' key entries (every row of a small table; of a large one the rows the violation names)."""
    bits = [f"violated: {cx.violated}", f"at {cx.sizes}"]
    if cx.parameters:
        bits.append(", ".join(f"{k}={num(v)}" for k, v in cx.parameters.items()))
    for name, tab in cx.mechanisms.items():
        tab = tab.table() if not isinstance(tab, (MechTable, dict)) and hasattr(tab, "table") else tab
        if isinstance(tab, MechTable):
            bits.append(f"{name}: {_rows_line(tab, cx.violated)}")
        elif isinstance(tab, dict):
            for k, v in tab.items():
                if k is None:
                    continue
                bits.append(f"{name}({k}, ·): {_rows_line(v, cx.violated)}" if isinstance(v, MechTable)
                            else f"{name}({k}) = ({', '.join(num(p) for p in v)})")
    for name, pop in cx.populations.items():
        mass = [f"{database_key(d)}: {num(p)}" for d, p in pop.probs.items() if p != 0]
        bits.append(f"{name} = {{{', '.join(mass[:_ROWS_SHOWN])}{', …' if len(mass) > _ROWS_SHOWN else ''}}}")
    return "; ".join(bits)


def _differs_text(v, implication, expect_holds) -> str:
    implication = tidy_text(implication)
    """What the run produced where it differs from the source: the counterexample, the sizes proved,
    or the derived value and the checks that fail."""
    if isinstance(v, Refuted):
        return f"{implication} is refuted: {counterexample_line(v.counterexample)}"
    if isinstance(v, Proved):
        return (f"{implication} is proved within bounds ({v.bounds}): no counterexample there"
                + (", where the source says it fails" if not expect_holds else ""))
    if isinstance(v, Derived):
        bad = [t for t, ok in v.checks if not ok]
        if bad:  # a fact: the derived value's checks that fail
            return f"{implication}: check failed: {'; '.join(bad)}"
        return f"{implication}: derived {v.formula}" + (f" under {v.assumptions}" if v.assumptions else "")
    return f"{implication}: {v.name}"


def finding_text(res) -> str | None:
    """The finding a run produced: None unless the verdict is definite and differs from the source
    (:attr:`ClaimResult.outcome`); else the counterexample or derived value of each part that differs
    (of the claim itself when it has no parts). A hand-written explanation is not part of it."""
    if res.outcome != DIFFERS:
        return None
    c = res.claim
    parts = [_differs_text(p.verdict, p.implication, p.expect_holds) for p in res.parts if part_outcome(p) == DIFFERS]
    if not parts:
        parts = [_differs_text(res.verdict, c.statement, c.expect != "refuted")
                 + f" (the source's verdict: {c.expect})"]
    return f"the source says {c.source_says}; the run: " + " | ".join(parts)


def _finding_fields(res) -> dict:
    text = finding_text(res)
    why = res.claim.finding if text else None
    # the theorem module's text on a claim whose run agrees with the source is a note, not a finding
    note = res.claim.finding if (text is None and res.claim.finding) else None
    return {"finding": None if text is None else text + (f" — explanation: {why}" if why else ""),
            "finding_explanation": why, "note": note}


def _part_as_said(res, p):
    return None if is_ad_hoc(res.claim) else part_outcome(p) == AS_SAID


def claim_json(res) -> dict:
    """The JSON record of a :class:`~symbolic.solve.run.ClaimResult`, with the keys of the command-line
    contract (``id``, ``verdict``, ``bounds``, ``counterexample`` with its ``tables`` in the format
    ``dpcheck eval`` reads, ``certificate``, ``parts``, ``parameters``, …).

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(1), sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
    >>> doc = claim_json(res)
    >>> doc["verdict"], doc["verified_exactly"], doc["counterexample"]["tables"]["A"]["rows"]
    ('refuted', True, {'0': ['1/2', '1/2'], '1': ['1/3', '2/3']})
    """
    c, v = res.claim, res.verdict
    bounds = None
    if isinstance(v, Proved):
        bounds = v.bounds.as_dict()
    elif isinstance(v, Refuted):
        bounds = v.counterexample.sizes.as_dict()
    elif not c.derive and c.parts:
        bounds = c.sizes.as_dict()
    reason = None
    if isinstance(v, (Unknown, Vacuous)):
        reason = v.reason
    elif isinstance(v, Refuted):
        reason = v.note or None
    elif isinstance(v, Proved):
        reason = v.note
    out = {
        "id": c.id, "kind": c.kind, "source": c.source, "statement": c.statement,
        "source_says": c.source_says, "verdict": v.name, "agrees_with_source": res.agrees,
        "bounds": bounds, "seconds": round(res.seconds, 3),
        "counterexample": counterexample_json(v.counterexample) if isinstance(v, Refuted) else None,
        "verified_exactly": bool(v.verified_exactly) if isinstance(v, Refuted) else (not isinstance(v, Unknown)),
        "formula": str(v.formula) if isinstance(v, Derived) else None,
        "reason": reason,
        "minimal": v.minimal if isinstance(v, Refuted) else None,
        **_finding_fields(res),
        "as_source_says": None if res.outcome is None else res.outcome == AS_SAID,
        "outcome": res.outcome,
        "certificate": _certificate_json(v) if isinstance(v, Proved) else None,
        "vacuity": (v.vacuity or "not applicable") if isinstance(v, Proved) else (
            "vacuous" if isinstance(v, Vacuous) else None),
        "witness": witness_json(v.witness) if isinstance(v, Proved) else None,
        "parts": [{"implication": p.implication, "expected": "holds" if p.expect_holds else "fails",
                   "verdict": p.verdict.name, "seconds": round(p.seconds, 3),
                   "as_source_says": _part_as_said(res, p),
                   "outcome": None if is_ad_hoc(c) else part_outcome(p),
                   "sizes_proved": [{**s.as_dict(), "seconds": t, "how": how}
                                    for s, t, how in getattr(p.verdict, "sizes_proved", ())]}
                  for p in res.parts],
        "explored": [{"sizes": s.as_dict(), "seconds": t} for s, t in res.explored],
        "parameters": [{"name": p.name, "range": p.range_text(),
                        "value": None if getattr(p, "value", None) is None else expr_text(p.value)}
                       for p in c.params],
    }
    if isinstance(v, Derived):
        out["derivation"] = {"assumptions": v.assumptions, "checks": [c for c, _ in v.checks],
                             **{k: str(x) for k, x in v.extras.items()}}
    return out


STRUCTURED = ("second_undecided",)   # certificate keys kept as JSON lists and objects; the others are text


def _certificate_value(key, x):
    """A certificate's value in the JSON document: text, or for a key of :data:`STRUCTURED` plain data as
    it is (the second solver's undecided queries, each with its limit and stages)."""
    if key in STRUCTURED and isinstance(x, (list, dict)):
        try:
            return json.loads(json.dumps(x))
        except (TypeError, ValueError):
            return str(x)
    return None if x is None else str(x)


def _certificate_json(v):
    cert = {k: _certificate_value(k, x) for k, x in v.certificate.items()}
    cert.setdefault("second_solver", None)
    cert.setdefault("second_verdict", "not run")
    return cert


def explored_text(res) -> str:
    """One bounded line for the sizes proved while exploring: how many, and the maximal ones
    (no explored size is above another in every dimension)."""
    sizes = [s.as_tuple() for s, _ in res.explored]
    top = [s for s in sizes if not any(o != s and all(a >= b for a, b in zip(o, s)) for o in sizes)]
    pinned = any(p.sizes is not None for p in res.claim.parts)
    who = "the parts without pinned sizes" if pinned else "every part"
    shown = ", ".join("(%d,%d,%d)" % s for s in sorted(top)[:8]) + (" …" if len(top) > 8 else "")
    return (f"explored: {who} also proved at {len(sizes)} larger size(s), each by a solver call; "
            f"maximal (n,|D|,|O|): {shown}")


def tool_json():
    """The versions behind a result: dpcheck's, z3's and sympy's.

    >>> sorted(tool_json())
    ['sympy', 'version', 'z3']
    """
    import z3
    from symbolic.core import __version__
    return {"version": __version__, "z3": z3.get_version_string(), "sympy": sp.__version__}


def params_text(params) -> str:
    """"; for all 1 ≤ E" for parameters over ranges, "; at E = 3" for fixed ones; an irrational fixed
    value says that the solver worked on a rational interval around it."""
    free = [p.range_text() for p in params if getattr(p, "value", None) is None]
    fixed = [p for p in params if getattr(p, "value", None) is not None]
    out = ("; for all " + ", ".join(free) if free else "") + ("; at " + ", ".join(p.range_text() for p in fixed)
                                                             if fixed else "")
    irrational = [expr_text(p.value) for p in fixed if not p.value.is_Rational]
    if irrational:
        out += (f" (the solver's queries: every value in a rational interval of width < 2^-40 around "
                f"{', '.join(irrational)}; counterexamples re-verified at the exact value)")
    return out


def result_text(res) -> str:
    """A :class:`~symbolic.solve.run.ClaimResult` as the text ``dpcheck check`` prints: the verdict (against
    the source for a catalogue claim), each part, the counterexample's tables or the proof's bounds.

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> res = check_implies(PureDP(E.symbol), PureDP(1), sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
    >>> for line in result_text(res).splitlines()[3:8]:
    ...     print(line)
      counterexample at n=1, |D|=2, |O|=2  (PureDP(E) ⇒ PureDP(1))
       mechanism A: rows are databases, columns outputs
        d    0    1
        0  1/2  1/2
        1  1/3  2/3
    """
    c, v = res.claim, res.verdict
    if is_ad_hoc(c):  # no source: the verdict alone
        lines = [f"{tidy_text(c.statement)}", f"  verdict: {v.name}  ({res.seconds:.2f} s)"]
    else:
        lines = [f"{c.id} [{c.kind}] {c.statement}", f"  source says: {c.source_says}",
                 f"  verdict: {v.name} — {_said(res.outcome)}  ({res.seconds:.2f} s)"]
    for p in res.parts:
        sz = getattr(p.verdict, "sizes_proved", ())
        extra = f"; sizes proved: {', '.join('(%d,%d,%d)' % s.as_tuple() for s, *_ in sz)}" if sz else ""
        said = "" if is_ad_hoc(c) else f" — {_said(part_outcome(p))}"
        lines.append(f"  - {tidy_text(p.implication)}: {p.verdict.name} in {p.seconds:.2f} s{extra}{said}")
    if isinstance(v, Refuted):
        lines.append("  " + counterexample_text(v.counterexample).replace("\n", "\n  "))
        lines.append(f"  re-verified exactly: {'yes' if v.verified_exactly else 'NO'}; "
                     f"minimal among sizes searched: {'yes' if v.minimal else 'not known'}")
    if isinstance(v, Proved):
        lines.append(f"  {v.note}{params_text(c.params)}")
        if "where" in v.certificate:
            lines.append(f"  where: {v.certificate['where']}")
        if "method" in v.certificate:
            lines.append(f"  method: {v.certificate['method']}")
        if "ranges" in v.certificate:
            lines.append(f"  ranges: {v.certificate['ranges']}")
        if "vacuous_at" in v.certificate:
            lines.append(f"  witness of the hypotheses found among: {v.certificate['vacuous_at']}")
    if isinstance(v, Proved):
        lines.append(f"  vacuity: {v.vacuity or 'not applicable'}"
                     + (f" (the hypotheses hold together on an exact witness at {v.witness.sizes})"
                        if v.witness is not None else ""))
        sv = v.certificate.get("second_verdict")
        if sv:
            lines.append(f"  second solver: {v.certificate.get('second_solver')}: {sv}"
                         + (f" ({v.certificate['second_checked']})" if "second_checked" in v.certificate else ""))
            lines += [f"    undecided: {line}" for line in undecided_lines(v.certificate)]
    if isinstance(v, (Unknown, Vacuous)):
        lines.append(f"  reason: {v.reason}")
    if isinstance(v, Derived):
        lines.append(f"  formula: {tidy_text(v.formula)}")
        lines.append(f"  assumptions: {tidy_text(v.assumptions)}")
        for k, x in v.extras.items():
            lines.append(f"  {k}: {tidy_text(x)}")
        for chk, ok in v.checks:
            lines.append(f"  check: {tidy_text(chk)}: {'ok' if ok else 'FAILED'}")
    if res.explored:
        lines.append("  " + explored_text(res))
    found = finding_text(res)
    if found:
        lines.append(f"  FINDING: {found}")
        if c.finding:
            lines.append(f"  explanation: {c.finding}")
    elif c.finding:
        lines.append(f"  note: {c.finding}")
    return "\n".join(lines)


def _said(outcome) -> str:
    return "differs from the source (finding)" if outcome == DIFFERS else outcome
