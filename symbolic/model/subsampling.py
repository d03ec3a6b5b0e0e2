"""The tables of a subsampled finite table, built exactly from the base table's rows.

A level is the largest over the neighbouring pairs of a mechanism. :func:`operation_tables` returns tables
whose replace-one pairs, taken together, are exactly the operation's neighbouring pairs, so the table
engine derives the operation's level unchanged:

- Poisson sampling at rate q (add/remove one record; V the value standing for no record): one two-row table
  per value x ≠ V, with rows M(V) and (1 − q)·M(V) + q·M(x) over the domain (V, x). Its pairs are (V, x) and
  (x, V), the add/remove neighbours. The rows are made by the claim term
  :class:`~symbolic.core.terms.PoissonSubsample`, as sampling without replacement by
  :class:`~symbolic.core.terms.SampleWithoutReplacement`.
- Sampling m of N without replacement (replace one record): one table over databases of N records, row
  d ↦ C(N, m)⁻¹ Σ over the m-subsets S of M(d_S), d_S the records of S in their order.
- A plain table is its own one table.

Entries stay sympy expressions; the rate is a symbol with its range when the file names it, so formulas in q
come out of the table engine.
"""
from __future__ import annotations

import sympy as sp

from symbolic.core.errors import InvalidParameter, InvalidSize
from symbolic.core.exact import parse_expr
from symbolic.core.ops import ExactOps
from symbolic.core.terms import Fixed, PoissonSubsample, SampleWithoutReplacement
from symbolic.model.mechanism import Mechanism
from symbolic.model.operations import Subsampled, is_operation_document, subsampled_from_json
from symbolic.model.symbolic_table import (MAX_SYMBOLIC_DATABASES, SymbolicMechanism, parse_ranges,
                                           symbolic_mechanism, symbolic_mechanism_from_json)


def operation_tables(doc, *, assumptions=()) -> list:
    """[(label, :class:`SymbolicMechanism`)] whose replace-one pairs are the neighbouring pairs of ``doc``: a
    finite table, or a subsampled table (see the module docstring). ``label`` says which part it is (None for
    a single table).

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> [(x, sm.mechanism.prob((1,), 0)) for x, sm in operation_tables(
    ...     {"kind": "subsampled", "of": rr, "sampling": "poisson", "rate": "1/2"})]
    [('x=1', 1/2)]
    """
    if not is_operation_document(doc):
        return [(None, symbolic_mechanism_from_json(doc, assumptions=tuple(assumptions)))]
    sub = subsampled_from_json(doc)
    base = symbolic_mechanism_from_json(sub.of, assumptions=tuple(assumptions))
    own = parse_ranges(sub.params) if sub.params else ()
    clash = sorted({r.name for r in own} & {r.name for r in base.params})
    if clash:
        raise InvalidParameter(f"subsampled \"params\" declares {clash[0]}, which the table declares too; give the "
                               f"rate another name")
    ranges = tuple(base.params) + tuple(own)
    q = parse_expr(sub.rate, {r.name: r.symbol for r in own}, what='subsampled "rate"')
    if sub.sampling == "poisson":
        return _poisson(sub, base, q, ranges)
    return [(None, _without_replacement(sub, base, q, ranges))]


def _poisson(sub: Subsampled, base: SymbolicMechanism, q, ranges) -> list:
    m = base.mechanism
    rows = dict(m.rows)
    absent = m.domain[0] if sub.absent is None else _value(sub.absent, m.domain)
    if len(m.domain) < 2:
        raise InvalidSize("subsampled \"of\" has one domain value: Poisson sampling needs a value for the record's "
                          "absence and at least one for its presence")
    out = []
    for x in m.domain:
        if x == absent:
            continue
        pair = Mechanism.from_table({(absent,): list(rows[(absent,)].probs), (x,): list(rows[(x,)].probs)}, n=1,
                                    domain=(absent, x), outputs=m.outputs)
        out.append((f"x={x}", _made(PoissonSubsample(Fixed(pair), q), f"{m.name} Poisson-subsampled", ranges)))
    return out


def _made(term, name, ranges) -> SymbolicMechanism:
    """The checked table a term (the same one claims use) makes from a concrete mechanism, entries expanded."""
    tab = term.eval(ExactOps(), {})
    table = {d: [sp.expand(v) for v in row] for d, row in tab.rows.items()}
    return symbolic_mechanism(Mechanism.from_table(table, n=tab.n, domain=tab.domain, outputs=tab.outputs, name=name),
                              ranges)


def _value(v, domain):
    """The domain value a JSON value names (the table reads keys as text: "1" and 1 name the same value)."""
    for d in domain:
        if d == v or str(d) == str(v):
            return d
    raise InvalidParameter(f'subsampled "absent" {v!r} is not a value of the table\'s domain')


def _without_replacement(sub: Subsampled, base: SymbolicMechanism, q, ranges) -> SymbolicMechanism:
    m, big = base.mechanism, sub.size
    if q.free_symbols:
        raise InvalidParameter('subsampled "rate" without replacement must be a number m/N (m records of N); a '
                               "symbolic rate is taken with Poisson sampling")
    small = q * big
    if not small.is_integer:
        raise InvalidParameter(f'subsampled "rate" {sub.rate} times "size" {big} is not a whole number of records '
                               f"(sampling without replacement picks m = rate·size records)")
    small = int(small)
    if small != m.n:
        raise InvalidSize(f'subsampled "of" has n = {m.n} records but rate·size = {small}: sampling m of N without '
                          f"replacement runs a table of m records")
    if len(m.domain) ** big > MAX_SYMBOLIC_DATABASES:
        raise InvalidSize(f'subsampled "size" {big} gives {len(m.domain)}^{big} databases; a table takes at most '
                          f"{MAX_SYMBOLIC_DATABASES}")
    return _made(SampleWithoutReplacement(Fixed(m), big), f"{m.name} subsampled {small} of {big}", ranges)


__all__ = ["operation_tables"]
