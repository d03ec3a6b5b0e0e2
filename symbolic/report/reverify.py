"""A counterexample read back from its JSON record and re-verified exactly, outside the run that found it.

``dpcheck audit --from FILE`` renders an earlier run's JSON document; a refutation in it is only as good
as its re-check, so every counterexample is rebuilt from the record (tables, populations, parameters,
each number read by the restricted exact parser, never evaluated as code) and given to the same exact
re-verification the search uses (:func:`symbolic.solve.queries.verify.verify`): every row a distribution, every
parameter in its range, every hypothesis holds and the conclusion fails, in exact arithmetic.

The shapes are those :func:`symbolic.report.results.counterexample_json` writes: a plain table
``{"d1,…,dn": {"o": "p"}}``, a family of tables ``{"<o1>": table}``, a kernel ``{"<o>": {"j": "p"}}``;
populations ``{"d1,…,dn": "p"}`` with zero entries left out; parameters ``{"E": "2", "eps": "log(2)"}``.
"""
from __future__ import annotations

import itertools

import sympy as sp

from symbolic.core.errors import DPCheckError, clip
from symbolic.core.exact import parse_expr
from symbolic.core.tables import MechTable, PopTable
from symbolic.solve.queries.verify import Assignment, verify

MAX_CELLS = 1 << 16   # entries of one rebuilt table: a record's counterexample is small


class BadRecord(DPCheckError):
    """The counterexample record cannot be read back (a field of the wrong shape)."""


def _num(text, where):
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise BadRecord(f"{where} is {clip(text, 40)}, not an exact number written as text")
    try:
        return parse_expr(str(text), what=where)
    except DPCheckError as e:
        raise BadRecord(str(e)) from None


def _db(key, where):
    try:
        return tuple(int(x) for x in str(key).split(","))
    except ValueError:
        raise BadRecord(f"{where}: database {clip(key, 40)} is not comma-separated integers") from None


def _label(key):
    try:
        return int(key)
    except (TypeError, ValueError):
        return key


def _sizes(cx):
    out = []
    for k in ("n", "domain", "outputs"):
        v = cx.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 64:
            raise BadRecord(f"counterexample field \"{k}\" is {clip(v, 40)}, not a size from 1 to 64")
        out.append(v)
    if out[1] ** out[0] * out[2] > MAX_CELLS:
        raise BadRecord(f"counterexample sizes {tuple(out)} are over {MAX_CELLS} table entries")
    return out


def _table(rows, n, domain, where) -> MechTable:
    if not isinstance(rows, dict) or not rows or not all(isinstance(r, dict) for r in rows.values()):
        raise BadRecord(f"{where} is not a table {{database: {{output: probability}}}}")
    outputs = tuple(dict.fromkeys(_label(o) for r in rows.values() for o in r))
    table = {}
    for key, row in rows.items():
        d = _db(key, where)
        if len(d) != n:
            raise BadRecord(f"{where}: database {clip(key, 40)} does not have {n} entries")
        vals = {_label(o): _num(p, f"{where} row {key} output {o}") for o, p in row.items()}
        table[d] = tuple(vals.get(o, sp.Integer(0)) for o in outputs)
    missing = [d for d in itertools.product(domain, repeat=n) if d not in table]
    if missing:
        raise BadRecord(f"{where} has no row for database {missing[0]}")
    return MechTable(n, domain, outputs, table)


def _mechanism(value, n, domain, where):
    """A plain table, a family {"<o1>": table} or a kernel {"<o>": {"j": p}} (see the module docstring)."""
    if not isinstance(value, dict) or not value:
        raise BadRecord(f"{where} is {clip(value, 40)}, not a table")
    keys = list(value)
    if not all(isinstance(k, str) and k.startswith("<") and k.endswith(">") for k in keys):
        return _table(value, n, domain, where)
    inner = [v for v in value.values() if isinstance(v, dict)]
    if len(inner) != len(keys):
        raise BadRecord(f"{where}: every entry of a family or kernel is an object")
    if all(isinstance(r, dict) for v in inner for r in v.values()):  # a family of tables
        return {_label(k[1:-1]): _table(v, n, domain, f"{where}<{k[1:-1]}>") for k, v in value.items()}
    size = max(len(v) for v in inner)
    kernel = {}
    for k, v in value.items():
        row = {_label(j): _num(p, f"{where} row {k} entry {j}") for j, p in v.items()}
        kernel[_label(k[1:-1])] = tuple(row.get(j, sp.Integer(0)) for j in range(size))
    kernel[None] = tuple(range(size))
    return kernel


def counterexample_assignment(cx: dict, names=None) -> Assignment:
    """The exact tables, populations and parameters of a counterexample record; ``names``: the claim's
    parameter names (the record's derived ``eps`` values are left out). Raises :class:`BadRecord`.

    >>> asg = counterexample_assignment({"n": 1, "domain": 2, "outputs": 2,
    ...     "mechanism": {"A": {"0": {"0": "1/2", "1": "1/2"}, "1": {"0": "1/3", "1": "2/3"}}},
    ...     "population": None, "parameters": {"E": "2", "eps": "log(2)"}}, names=["E"])
    >>> asg.mechanisms["A"].rows[(1,)], asg.parameters
    ((1/3, 2/3), {'E': 2})
    """
    if not isinstance(cx, dict):
        raise BadRecord("the counterexample is not an object")
    n, k, _ = _sizes(cx)
    domain = tuple(range(k))
    mechs = cx.get("mechanism")
    if not isinstance(mechs, dict):
        raise BadRecord("counterexample field \"mechanism\" is not an object of tables")
    mechanisms = {str(name): _mechanism(v, n, domain, f"mechanism {clip(name, 20)}") for name, v in mechs.items()}
    pops = cx.get("population") or {}
    if not isinstance(pops, dict):
        raise BadRecord("counterexample field \"population\" is not an object")
    populations = {}
    for name, probs in pops.items():
        if not isinstance(probs, dict):
            raise BadRecord(f"population {clip(name, 20)} is not an object {{database: probability}}")
        given = {_db(d, f"population {name}"): _num(p, f"population {name} entry {d}") for d, p in probs.items()}
        populations[str(name)] = PopTable(n, domain, {d: given.get(d, sp.Integer(0))
                                                     for d in itertools.product(domain, repeat=n)})
    params = cx.get("parameters") or {}
    if not isinstance(params, dict):
        raise BadRecord("counterexample field \"parameters\" is not an object")
    wanted = set(names) if names is not None else set(params)
    parameters = {str(p): _num(v, f"parameter {p}") for p, v in params.items() if p in wanted}
    return Assignment(mechanisms, populations, parameters)


def reverify_counterexample(imp, params, cx: dict) -> tuple:
    """(ok, problems): does the counterexample record ``cx`` refute the implication ``imp`` (with the
    claim's parameter specs ``params``) under exact re-verification? A record that cannot be read back
    is a problem, never a pass.

    >>> from symbolic.notions.claims import E, Implies
    >>> from symbolic.notions.families.dp import PureDP
    >>> imp = Implies(PureDP(E.symbol), PureDP(E.symbol ** 2))
    >>> cx = {"n": 1, "domain": 2, "outputs": 2, "parameters": {"E": "2"},
    ...       "mechanism": {"A": {"0": {"0": "1/2", "1": "1/2"}, "1": {"0": "1/2", "1": "1/2"}}}}
    >>> reverify_counterexample(imp, (E,), cx)[0]     # uniform rows satisfy both: no counterexample
    False
    """
    ok, _, problems = reverified_violation(imp, params, cx)
    return ok, problems


def reverified_violation(imp, params, cx: dict) -> tuple:
    """(ok, violated, problems): as :func:`reverify_counterexample`, with the violated comparison as the
    exact re-verification states it (never the record's own text), empty when it does not re-verify.

    >>> from symbolic.notions.claims import E, Implies
    >>> from symbolic.notions.families.dp import PureDP
    >>> imp = Implies(PureDP(E.symbol), PureDP(1))
    >>> cx = {"n": 1, "domain": 2, "outputs": 2, "parameters": {"E": "2"}, "violated": "edited by hand",
    ...       "mechanism": {"A": {"0": {"0": "1/2", "1": "1/2"}, "1": {"0": "1/3", "1": "2/3"}}}}
    >>> ok, violated, _ = reverified_violation(imp, (E,), cx)
    >>> ok, violated.startswith("PureDP(1)")
    (True, True)
    """
    try:
        asg = counterexample_assignment(cx, [p.name for p in params])
    except BadRecord as e:
        return False, "", [str(e)]
    ok, violated, problems = verify(imp, params, asg)
    return ok, (violated if ok else ""), list(problems)
