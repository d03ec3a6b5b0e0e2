"""`dpcheck audit --from FILE`: an earlier run's JSON document, checked before anything is rendered from it.

Rendering from a file is not checking, so the file is read as untrusted data: every claim record must
have its fields of the right types (a field of the wrong type is an input error naming the claim and
the field); every record must be consistent (a refuted verdict carries a counterexample, no other
verdict does; ``agrees_with_source``, ``as_source_says`` and ``outcome`` are recomputed from the
verdict, the parts and what the source says, and must match); and every counterexample is rebuilt
from the record and re-verified exactly against the claim in the registry. Proofs are not re-run:
every rendered document says so at its top, with how many counterexamples were re-verified and the
run's date, profile and wall time (the ``run`` object of the document, when the run wrote one).
"""
from __future__ import annotations

import math

from symbolic import DPCheckError, clip

AS_SAID, DIFFERS, UNDECIDED = "as the source says", "differs from the source", "undecided"
VERDICTS = ("proved", "refuted", "unknown", "derived", "vacuous", "not run")

_TEXT, _BOOL, _NUM, _DICT, _LIST = (str,), (bool,), (int, float), (dict,), (list,)
# field -> (allowed types, may be null); fields not listed are passed through to the renderers as text
FIELDS = {"id": (_TEXT, False), "kind": (_TEXT, True), "source": (_TEXT, True), "statement": (_TEXT, True),
          "source_says": (_TEXT, True), "verdict": (_TEXT, False), "agrees_with_source": (_BOOL, True),
          "bounds": (_DICT, True), "seconds": (_NUM, True), "counterexample": (_DICT, True),
          "verified_exactly": (_BOOL, True), "formula": (_TEXT, True), "reason": (_TEXT, True),
          "minimal": (_BOOL, True), "finding": (_TEXT, True), "finding_explanation": (_TEXT, True),
          "note": (_TEXT, True), "as_source_says": (_BOOL, True), "outcome": (_TEXT, True),
          "certificate": (_DICT, True), "vacuity": (_TEXT, True), "witness": (_DICT, True),
          "parts": (_LIST, True), "explored": (_LIST, True), "parameters": (_LIST, True),
          "derivation": (_DICT, True)}
PART_FIELDS = {"implication": (_TEXT, True), "expected": (_TEXT, True), "verdict": (_TEXT, False),
               "seconds": (_NUM, True), "as_source_says": (_BOOL, True), "outcome": (_TEXT, True),
               "sizes_proved": (_LIST, True)}
RUN_FIELDS = {"date": (_TEXT, True), "profile": (_TEXT, True), "seconds": (_NUM, True)}
_NAMES = {str: "text", bool: "true/false", int: "a number", float: "a number", dict: "an object", list: "a list"}


def _typed(value, types, nullable, where):
    if value is None:
        if nullable:
            return
        raise DPCheckError(f"{where} is null; it needs {_NAMES[types[0]]}")
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if ok and types is _NUM and not (math.isfinite(value) and value >= 0):
        ok = False
    if not ok:
        raise DPCheckError(f"{where} is {clip(value, 40)}; it needs {_NAMES[types[0]]}"
                           + (" (finite, 0 or more)" if types is _NUM else ""))


def check_fields(path, doc) -> None:
    """Every claim record (and each of its parts, and the ``run`` object) has fields of the right types."""
    run = doc.get("run")
    if run is not None:
        _typed(run, _DICT, False, f"--from {clip(path)}: \"run\"")
        for k, (types, nullable) in RUN_FIELDS.items():
            _typed(run.get(k), types, True, f"--from {clip(path)}: \"run\" field \"{k}\"")
    for i, rec in enumerate(doc["claims"]):
        name = f"claim {clip(rec['id'], 40)}" if isinstance(rec.get("id"), str) else f"claim record {i + 1}"
        for k, (types, nullable) in FIELDS.items():
            if k in rec:
                _typed(rec[k], types, nullable, f"--from {clip(path)}: {name} field \"{k}\"")
        if rec["verdict"] not in VERDICTS:
            raise DPCheckError(f"--from {clip(path)}: {name} field \"verdict\" is {clip(rec['verdict'], 40)}; "
                               f"it is one of {', '.join(VERDICTS)}")
        for j, part in enumerate(rec.get("parts") or []):
            _typed(part, _DICT, False, f"--from {clip(path)}: {name} field \"parts\" entry {j + 1}")
            for k, (types, nullable) in PART_FIELDS.items():
                _typed(part.get(k), types, nullable or k not in part,
                       f"--from {clip(path)}: {name} field \"parts\" entry {j + 1} field \"{k}\"")


def _part_outcome(part, verified):
    v = part["verdict"]
    if v in ("unknown", "vacuous", "not run") or (v == "refuted" and not verified):
        return UNDECIDED
    if v == "derived":  # a fact's checks are not in the record: its own outcome is all there is
        return part.get("outcome") or UNDECIDED
    return AS_SAID if (v == "proved") == (part.get("expected") == "holds") else DIFFERS


def expected_fields(rec, claim=None) -> dict | None:
    """``agrees_with_source``, ``as_source_says`` and ``outcome`` as the run computes them from the verdict,
    the parts and what the source says (``claim``: the registry's claim, for one without parts); None
    for a record with nothing to recompute (a claim that did not run or crashed)."""
    v, verified = rec["verdict"], rec.get("verified_exactly") is True
    if v == "not run" or str(rec.get("reason") or "").startswith("internal error"):
        return None
    definite = v in ("proved", "derived") or (v == "refuted" and verified)
    parts = rec.get("parts") or []
    if not definite:
        agrees = False
    elif parts:
        agrees = all(_part_outcome(p, verified) == AS_SAID for p in parts)
    elif claim is not None:
        agrees = v == claim.expect
    else:
        agrees = rec.get("agrees_with_source")
    if rec.get("source") == "-" or rec.get("id") == "adhoc":
        outcome = None
    elif not definite:
        outcome = UNDECIDED
    elif agrees:
        outcome = AS_SAID
    else:
        outcomes = [_part_outcome(p, verified) for p in parts]
        outcome = UNDECIDED if UNDECIDED in outcomes and DIFFERS not in outcomes else DIFFERS
    return {"agrees_with_source": agrees, "as_source_says": None if outcome is None else outcome == AS_SAID,
            "outcome": outcome}


def check_consistency(path, docs, registry) -> None:
    """Each record's verdict, counterexample, agreement and outcome fit together; else exit 2 naming it."""
    for rec in docs:
        name = f"--from {clip(path)}: claim {clip(rec['id'], 40)}"
        cx = rec.get("counterexample")
        if rec["verdict"] == "refuted" and cx is None:
            raise DPCheckError(f"{name} is refuted but has no counterexample; the record is inconsistent")
        if rec["verdict"] != "refuted" and cx is not None:
            raise DPCheckError(f"{name} is {rec['verdict']} but has a counterexample; the record is inconsistent")
        want = expected_fields(rec, registry.get(rec["id"]))
        for k, value in (want or {}).items():
            if k in rec and rec[k] != value:
                raise DPCheckError(f"{name} has \"{k}\": {clip(rec[k], 40)}, but its verdict "
                                   f"({rec['verdict']}) and parts give {value!r}; the record is inconsistent")


CATALOGUE_FIELDS = ("kind", "source", "statement", "source_says")


def catalogue_parts(claim) -> list:
    """(text, "holds" or "fails") of each part a run of ``claim`` records, in its order: the claim's parts,
    or for a claim with a proof the proof's checks and listed facts (a fact is expected to hold)."""
    from symbolic import Check, Fact
    if claim.derive is not None:
        return []
    if claim.proof is None:
        return [(str(imp), "holds" if imp.expect_holds else "fails") for imp in claim.parts]
    out = []
    for step in claim.proof.steps:
        if isinstance(step, Check):
            out.append((str(step.implication), "holds" if step.expect_holds else "fails"))
        elif isinstance(step, Fact) and step.listed:
            out.append((step.name, "holds"))
    return out


def check_catalogue(path, docs, registry) -> None:
    """What a source says is a catalogue fact, not the file's: each record's kind, source, statement and
    source_says, and its parts with what each expects, must be the registry's claim's; a record of an ID
    the catalogue does not hold is refused unless it is an ad hoc question (source "-")."""
    for rec in docs:
        name = f"--from {clip(path)}: claim {clip(rec['id'], 40)}"
        claim = registry.get(rec["id"])
        if claim is None:
            if rec.get("source") == "-":     # an ad hoc question: no source to say anything
                continue
            raise DPCheckError(f"{name} is not in the catalogue (`dpcheck list` shows its IDs); the file is not "
                               f"an audit of these sources")
        for k in CATALOGUE_FIELDS:
            if k in rec and rec[k] != getattr(claim, k):
                raise DPCheckError(f"{name} has \"{k}\": {clip(rec[k], 40)}, but the catalogue says "
                                   f"{clip(getattr(claim, k), 40)}; the record was edited")
        parts = [(p.get("implication"), p.get("expected")) for p in rec.get("parts") or []]
        if "parts" in rec and parts != catalogue_parts(claim):
            want = catalogue_parts(claim)
            bad = next((i for i, (a, b) in enumerate(zip(parts, want)) if a != b), min(len(parts), len(want)))
            said = "missing" if bad >= len(parts) else f"{clip(parts[bad][0], 50)} expected {parts[bad][1]}"
            shall = "none" if bad >= len(want) else f"{clip(want[bad][0], 50)} expected {want[bad][1]}"
            raise DPCheckError(f"{name} part {bad + 1} is {said}, but the catalogue has {shall}; the record "
                               f"was edited")


def reverify(docs, registry) -> dict:
    """{claim ID: None when its counterexample re-verified exactly, else why not} for every record with
    a counterexample; a re-verified counterexample's ``violated`` text is replaced by the one the
    re-verification states. A claim not in the registry, or a part it does not have, cannot be re-verified."""
    from symbolic import reverified_violation
    from theorems.cli.recheck import claim_part
    out = {}
    for rec in docs:
        cx = rec.get("counterexample")
        if cx is None:
            continue
        claim = registry.get(rec["id"])
        part = None if claim is None else claim_part(claim, cx.get("implication"))
        if claim is None:
            out[rec["id"]] = "no claim of that ID in the catalogue"
        elif part is None:
            out[rec["id"]] = f"the claim has no part {clip(str(cx.get('implication')), 60)}"
        else:
            ok, violated, problems = reverified_violation(*part, cx)
            out[rec["id"]] = None if ok else "; ".join(problems) or "re-verification failed"
            if ok:
                cx["violated"] = violated
    return out


def run_text(run) -> str:
    """"run of DATE, profile P, wall time S s" from a document's ``run`` object (parts it lacks are said)."""
    run = run or {}
    secs = run.get("seconds")
    return (f"run of {run.get('date') or 'an unrecorded date'}, profile {run.get('profile') or 'not recorded'}, "
            f"wall time {'not recorded' if secs is None else f'{secs:.1f} s'}")


def provenance(path, run, checked) -> str:
    """The line at the top of every document rendered from a file."""
    bad = [cid for cid, why in checked.items() if why is not None]
    line = (f"rendered from {path}; proofs not re-run; {len(checked) - len(bad)} of {len(checked)} "
            f"counterexamples re-verified")
    if bad:
        line += f" (failed: {', '.join(bad[:8])}{' …' if len(bad) > 8 else ''})"
    return f"{line}; {run_text(run)}"


def load(path, sources):
    """The records of ``path`` (those of ``sources`` if given), type-checked, consistent and with every
    counterexample re-verified: (records, the line for the documents' top, {ID: why not re-verified})."""
    from theorems.cli.io import load_json
    from theorems.registry import claims
    doc = load_json(path, "audit JSON")
    recs = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(recs, list) or not all(isinstance(c, dict) and "id" in c and "verdict" in c for c in recs):
        raise DPCheckError(f"--from {clip(path)} is not an audit document: it needs a \"claims\" list of claim "
                           f"records, as `dpcheck audit --json FILE` writes")
    check_fields(path, doc)
    docs = [c for c in recs if not sources or c.get("source") in sources]
    registry = claims()
    check_catalogue(path, docs, registry)
    check_consistency(path, docs, registry)
    checked = reverify(docs, registry)
    failed = {cid: why for cid, why in checked.items() if why is not None}
    for rec in docs:  # a counterexample that does not re-verify is no definite verdict (nor a finding) here
        if rec["id"] in failed:
            rec.update(verified_exactly=False, finding=None,
                       reason=f"re-verification from the file failed: {failed[rec['id']]}")
            rec.update(expected_fields(rec, registry.get(rec["id"])) or {})
    return docs, provenance(path, doc.get("run"), checked), failed
