"""Renamings of a query's unknowns that leave its hypotheses unchanged, and the atoms they identify.

A renaming π of the table entries (relabel the records' values, permute the records, swap two
outputs of one table) is a symmetry of a query when it maps every row of every table to a row, and
the set of hypothesis atoms onto itself. Then the hypotheses hold at x iff they hold at π(x), so an
atom e of the negated conclusion is satisfiable together with the hypotheses iff its image π(e) is:
of the atoms one orbit apart, one is enough to decide. The candidate renamings come from the shape
of the unknowns' keys; each is kept only after the exact check above, so a wrong guess costs time,
never a verdict.
"""
from __future__ import annotations

import itertools

import sympy as sp


def _key_map(key, value_perm, record_perm, outputs, first_outputs):
    """The image of one unknown's key (a mechanism row entry: ``(d, j)`` or ``((o1, d), j)``)."""
    where, j = key
    if isinstance(where, tuple) and len(where) == 2 and isinstance(where[1], tuple):
        o1, d = where
        o1 = first_outputs.get(o1, o1)
    else:
        o1, d = None, where
    if not isinstance(d, tuple):
        raise ValueError("not a mechanism row")
    d = tuple(value_perm.get(v, v) for v in (d[i] for i in record_perm))
    j = outputs.get(j, j)
    return ((o1, d) if o1 is not None else d, j)


def candidate_renamings(enc):
    """Generators to try: every transposition of two domain values and of two records (all tables
    together), and every transposition of two outputs of one table (alone, and with the adaptive
    stages that follow those outputs swapped along)."""
    entries = [(g, k, v.decl().name()) for g, k, v in enc.vars if g != "param"]
    n, domain, outputs = enc.sizes.n, enc.domain, enc.outputs
    moves = []
    for a, b in itertools.combinations(domain, 2):
        moves.append((None, {a: b, b: a}, tuple(range(n)), {}, {}))
    for a, b in itertools.combinations(range(n), 2):
        rp = list(range(n))
        rp[a], rp[b] = b, a
        moves.append((None, {}, tuple(rp), {}, {}))
    for g in dict.fromkeys(g for g, _, _ in entries):
        for a, b in itertools.combinations(outputs, 2):
            moves.append((g, {}, tuple(range(n)), {a: b, b: a}, {}))
            moves.append((g, {}, tuple(range(n)), {a: b, b: a}, {a: b, b: a}))
    by_key = {(g, k): name for g, k, name in entries}
    out = []
    for group, vp, rp, op, fo in moves:
        ren = {}
        try:
            for g, k, name in entries:
                if group is None or g == group:
                    img = (g, _key_map(k, vp, rp, op, {}))
                else:
                    img = (g, _key_map(k, {}, tuple(range(n)), {}, fo))
                ren[name] = by_key[img]
        except (ValueError, KeyError, TypeError):
            continue
        if len(set(ren.values())) == len(ren) and any(a != b for a, b in ren.items()):
            out.append(ren)
    return out


def _atom_key(op, f):
    return op, sp.expand(f)


def _rename(f, ren):
    return f.xreplace({sp.Symbol(a): sp.Symbol(b) for a, b in ren.items()})


def symmetries(enc, rows, hyp_atoms):
    """The candidate renamings that map rows to rows and the hypothesis atoms onto themselves."""
    row_set = {frozenset(r) for r in rows}
    hyps = {_atom_key(a.op, a.f) for a in hyp_atoms}
    out = []
    for ren in candidate_renamings(enc):
        if {frozenset(ren[x] for x in r) for r in row_set} != row_set:
            continue
        if {_atom_key(op, _rename(f, ren)) for op, f in hyps} == hyps:
            out.append(ren)
    return out


def orbit_representatives(events, renamings):
    """Indices of one atom of ``events`` from each orbit under the renamings (closed under
    composition by following images until no new atom appears)."""
    keys = [_atom_key(e.op, e.f) for e in events]
    index = {}
    for i, k in enumerate(keys):
        index.setdefault(k, i)
    seen, reps = set(), []
    for i, k in enumerate(keys):
        if k in seen:
            continue
        reps.append(i)
        todo = [k]
        seen.add(k)
        while todo:
            op, f = todo.pop()
            for ren in renamings:
                img = _atom_key(op, _rename(f, ren))
                if img not in seen:
                    seen.add(img)
                    todo.append(img)
    return reps
