"""Mechanism tables whose entries are expressions in parameters: ``"p"``, ``"1-p"``, ``"exp(-a)/(1+exp(-a))"``.

The file format is the one of :func:`~symbolic.model.table_file.mechanism_from_json` with one more key,
``"params"``, naming each parameter with its range::

    {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
     "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}

(``"params"`` may also be a list of names, or give ``null`` for a range; then the caller's assumptions,
such as ``1/2<p<1``, give the ranges). Entries are read by the restricted parser
:func:`~symbolic.core.exact.parse_expr` (numbers, the declared names, ``+ - * / ^``, parentheses, exp, log,
sqrt), never evaluated as code. A table is accepted only if it is a distribution for every parameter value
in the ranges:

- every row sums to 1 identically (sympy simplifies the sum minus 1 to exactly 0);
- every entry is ≥ 0 over the ranges, decided by :func:`~symbolic.model.param_space.sign_on` (a proof);
  where sympy cannot decide it, the entry is checked at rational sample points instead and the checks say
  so (a negative or non-real value anywhere is an error).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.errors import FloatNotAllowed, InvalidDistribution, InvalidParameter, InvalidSize, ParseError, clip
from symbolic.core.exact import exact, expr_text, parse_expr
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.core.ranges import parse_assumption
from symbolic.model.mechanism import Mechanism
from symbolic.model.table_file import mechanism_from_json
from symbolic.model.param_space import ParamRange, sample_points, sign_on, value_at

MAX_SYMBOLIC_DATABASES = 256   # rows of a symbolic table (every neighbour pair is compared by sympy)
MAX_SYMBOLIC_CELLS = 4096      # databases × outputs
MAX_PARAMS = 4
MAX_TRANSCENDENTAL_NESTING = 3  # exp(exp(exp(p))) at most: deeper towers overflow any exact evaluation
SYMBOLIC_FORMAT = ('{"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"}, '
                   '"rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}')


@dataclass(frozen=True, eq=False)
class SymbolicMechanism:
    """A mechanism whose entries are sympy expressions in ``params`` (each a :class:`ParamRange`), checked
    to be a distribution over the ranges; ``checks`` say how (text, ok) and ``proved`` whether every
    nonnegativity was proved rather than sampled.

    >>> doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
    ...        "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    >>> sm = symbolic_mechanism_from_json(doc)
    >>> sm.assumptions(), sm.proved, sm.at({"p": "3/4"})[(0,)]
    (('1/2 < p < 1',), True, Dist({0: 3/4, 1: 1/4}))
    """

    mechanism: Mechanism
    params: tuple
    checks: tuple = ()
    proved: bool = True

    @property
    def symbols(self) -> dict:
        return {r.name: r.symbol for r in self.params}

    def assumptions(self) -> tuple:
        return tuple(r.text() for r in self.params)

    def at(self, point: dict) -> Mechanism:
        """The numeric mechanism at exact parameter values (a dict symbol or name -> value), validated as a
        table (rows sum to 1, entries ≥ 0)."""
        point = {self._symbol(k): exact(v, what=str(k)) for k, v in point.items()}
        m = self.mechanism
        table = {d: [value_at(p, point) for p in dist.probs] for d, dist in m.rows}
        return Mechanism.from_table(table, n=m.n, domain=m.domain, outputs=m.outputs,
                                    name=f"{m.name} at {', '.join(f'{k}={v}' for k, v in point.items())}")

    def fix(self, values: dict) -> "SymbolicMechanism":
        """The table with some parameters set to exact values (a dict name -> value: an exact number, or the
        text of a number or of an expression in numbers such as ``exp(-1)``, read by the restricted parser),
        each checked to lie in its range; the others stay symbolic."""
        point, keep = {}, []
        names = {r.name: r for r in self.params}
        for k, v in values.items():
            if k not in names:
                raise InvalidParameter(f"the table has no parameter {clip(k, 40)}; its parameters: "
                                       f"{', '.join(names) or 'none'}")
            v = parse_expr(v, {}, what=k) if isinstance(v, str) else exact(v, what=k)
            if v.free_symbols or not names[k].contains(v):
                raise InvalidParameter(f"{k}={expr_text(v)} is outside its range {names[k].text()}")
            point[names[k].symbol] = v
        keep = tuple(r for r in self.params if r.name not in values)
        m = self.mechanism
        rows = tuple((d, type(dist)(outcomes=dist.outcomes, probs=[value_at(p, point) for p in dist.probs]))
                     for d, dist in m.rows)
        return SymbolicMechanism(Mechanism(m.n, m.domain, m.outputs, rows, m.name), keep, self.checks, self.proved)

    def _symbol(self, key):
        if isinstance(key, sp.Symbol):
            return self.symbols.get(key.name, key)
        if key in self.symbols:
            return self.symbols[key]
        raise InvalidParameter(f"the table has no parameter {clip(key, 40)}; its parameters: "
                               f"{', '.join(self.symbols) or 'none'}")


def parse_ranges(declared=None, assumptions=()) -> tuple:
    """The parameters and ranges from a file's ``"params"`` (a dict name -> range text or None, or a list of
    names) narrowed by assumption texts such as ``"1/2<p<1"``. With nothing declared, the assumptions
    declare the parameters."""
    ranges = {}
    if declared is not None:
        if isinstance(declared, list):
            declared = {name: None for name in declared}
        if not isinstance(declared, dict):
            raise InvalidSize(f'"params" must be an object mapping names to ranges, like {{"p": "0<p<1"}}; '
                              f"got {clip(declared, 40)}")
        for name, text in declared.items():
            _check_name(name)
            ranges[name] = None if text is None else _range_for(name, text)
    for text in assumptions:
        name, lo, lo_s, hi, hi_s = parse_assumption(text)
        rng = ParamRange(name, lo, lo_s, hi, hi_s)
        if declared is not None and name not in ranges:
            raise InvalidParameter(f"the assumption {clip(text, 60)} is about {name}, which the table does not "
                                   f"declare; its parameters: {', '.join(ranges) or 'none'}")
        _check_name(name)
        ranges[name] = rng if ranges.get(name) is None else ranges[name].narrowed(rng)
    missing = [k for k, v in ranges.items() if v is None]
    if missing:
        raise InvalidParameter(f"parameter {missing[0]} has no range: write \"params\": {{\"{missing[0]}\": "
                               f"\"0<{missing[0]}<1\"}} in the table, or assume one such as '0<{missing[0]}<1'")
    if len(ranges) > MAX_PARAMS:
        raise InvalidParameter(f"the table has {len(ranges)} parameters; at most {MAX_PARAMS} are supported")
    return tuple(ranges.values())


def _check_name(name):
    import re
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,39}", name):
        raise InvalidParameter(f"parameter name {clip(name, 40)} must be an identifier such as p or alpha")
    if name in ("exp", "log", "sqrt"):
        raise InvalidParameter(f"parameter name {name!r} is a function name; choose another")


def _range_for(name, text):
    if not isinstance(text, str):
        raise InvalidParameter(f'the range of {name} must be text such as "0<{name}<1"; got {clip(text, 40)}')
    got, lo, lo_s, hi, hi_s = parse_assumption(text)
    if got != name:
        raise InvalidParameter(f'the range {clip(text, 40)} given for {name} is about {got}; write "0<{name}<1"')
    return ParamRange(name, lo, lo_s, hi, hi_s)


def _nesting(e) -> int:
    if not e.args:
        return 0
    inner = max(_nesting(a) for a in e.args)
    return inner + (1 if isinstance(e, (sp.exp, sp.log)) else 0)


def _entry(value, symbols, where):
    if isinstance(value, bool):
        raise InvalidDistribution(f"{where} is {value}, a boolean; give a probability such as \"1-p\"")
    if isinstance(value, float):
        raise FloatNotAllowed(f"{where} is the float {value!r}; write exact numbers such as \"3/8\" or \"1-p\"")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, sp.Basic):
        return exact(value, what=where)
    if not isinstance(value, str):
        raise InvalidDistribution(f"{where} is {clip(value, 40)}; give a probability such as \"1-p\"")
    e = parse_expr(value, symbols, what=where)
    if _nesting(e) > MAX_TRANSCENDENTAL_NESTING:
        raise ParseError(f"{where} nests exp/log more than {MAX_TRANSCENDENTAL_NESTING} deep: {clip(value, 60)}")
    return e


def _parsed_rows(rows, symbols):
    if not isinstance(rows, dict):
        return rows
    out = {}
    for key, row in rows.items():
        where = f"row {clip(key, 20)}"
        if isinstance(row, list):
            out[key] = [_entry(v, symbols, f"{where} entry {j}") for j, v in enumerate(row)]
        elif isinstance(row, dict):
            out[key] = {o: _entry(v, symbols, f"{where} output {clip(o, 20)}") for o, v in row.items()}
        else:
            out[key] = row
    return out


def _size_guard(doc):
    rows = doc.get("rows")
    if isinstance(rows, dict) and len(rows) > MAX_SYMBOLIC_DATABASES:
        raise InvalidSize(f"a symbolic table takes at most {MAX_SYMBOLIC_DATABASES} rows; this one has {len(rows)}")
    if isinstance(rows, dict):
        cells = sum(len(r) for r in rows.values() if isinstance(r, (list, dict)))
        if cells > MAX_SYMBOLIC_CELLS:
            raise InvalidSize(f"a symbolic table takes at most {MAX_SYMBOLIC_CELLS} entries; this one has {cells}")


def symbolic_mechanism_from_json(doc, *, assumptions=(), name: str = "table") -> SymbolicMechanism:
    """A symbolic mechanism from the JSON table format with ``"params"`` (the document already parsed),
    narrowed by ``assumptions`` (texts such as ``"1/2<p<1"``). See the module docstring for the checks.

    >>> doc = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "params": {"p": "1/2<p<1"},
    ...        "rows": {"0": ["p", "1-p"], "1": ["1-p", "p"]}}
    >>> sm = symbolic_mechanism_from_json(doc)
    >>> sm.assumptions(), sm.mechanism.prob((0,), 1), sm.proved
    (('1/2 < p < 1',), 1 - p, True)
    """
    if not isinstance(doc, dict):
        raise InvalidSize(f"the mechanism must be a JSON object like {SYMBOLIC_FORMAT}")
    if isinstance(assumptions, str):
        assumptions = (assumptions,)
    ranges = parse_ranges(doc.get("params"), assumptions)
    _size_guard(doc)
    symbols = {r.name: r.symbol for r in ranges}
    plain = {k: v for k, v in doc.items() if k != "params"}
    if "rows" in plain:
        plain["rows"] = _parsed_rows(plain["rows"], symbols)
    mech = mechanism_from_json(plain, name=name)
    return symbolic_mechanism(mech, ranges)


def symbolic_mechanism(mech: Mechanism, ranges) -> SymbolicMechanism:
    """Check a :class:`Mechanism` with symbolic entries against parameter ranges (ParamRange objects or
    assumption texts such as ``"0<p<1"``); symbols are matched to ranges by name.

    >>> import sympy as sp
    >>> p = sp.Symbol("p")
    >>> m = Mechanism.from_table({(0,): [p, 1 - p], (1,): [1 - p, p]}, n=1, domain=(0, 1), outputs=(0, 1))
    >>> sm = symbolic_mechanism(m, ["1/2<p<1"])
    >>> sm.assumptions(), sm.proved
    (('1/2 < p < 1',), True)
    >>> symbolic_mechanism(m, [])
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidParameter: the table uses p, which has no range; assume one such as '0<p<1' (ranges given: none)
    """
    ranges = tuple(r if isinstance(r, ParamRange) else parse_ranges(None, (r,))[0] for r in ranges)
    names = {r.name: r for r in ranges}
    if len(names) != len(ranges):
        raise InvalidParameter("a parameter has two ranges; give each parameter one range")
    free = mech.free_symbols()
    unknown = sorted(s.name for s in free if s.name not in names)
    if unknown:
        raise InvalidParameter(f"the table uses {unknown[0]}, which has no range; assume one such as "
                               f"'0<{unknown[0]}<1' (ranges given: {', '.join(names) or 'none'})")
    swap = {s: names[s.name].symbol for s in free}
    if len(mech.rows) > MAX_SYMBOLIC_DATABASES or len(mech.rows) * len(mech.outputs) > MAX_SYMBOLIC_CELLS:
        raise InvalidSize(f"a symbolic table takes at most {MAX_SYMBOLIC_DATABASES} rows and {MAX_SYMBOLIC_CELLS} "
                          f"entries; this one has {len(mech.rows)} × {len(mech.outputs)}")
    rows = tuple((d, type(dist)(outcomes=dist.outcomes, probs=[p.xreplace(swap) for p in dist.probs]))
                 for d, dist in mech.rows)
    mech = Mechanism(mech.n, mech.domain, mech.outputs, rows, mech.name)
    checks, proved = validate(mech, ranges)
    return SymbolicMechanism(mech, ranges, tuple(checks), proved)


def validate(mech: Mechanism, ranges) -> tuple:
    """Check that every row sums to 1 identically and every entry is ≥ 0 over the ranges; returns
    (checks, proved) or raises :class:`InvalidDistribution` naming the row and entry."""
    checks, proved = [], True
    seen_rows = set()
    for d, dist in mech.rows:
        if dist.probs in seen_rows:
            continue
        seen_rows.add(dist.probs)
        gap = sp.simplify(sp.Add(*dist.probs) - 1)
        if gap != 0:
            raise InvalidDistribution(
                f"row {','.join(map(str, d))} sums to {_cut(sp.simplify(sp.Add(*dist.probs)), 80)}, which sympy "
                f"does not reduce to 1 for every parameter value; write the entries so that they sum to exactly 1 "
                f"(e.g. the last one as 1 minus the others)")
    checks.append((f"every row sums to 1 identically ({len(seen_rows)} distinct rows, sympy simplify)", True))
    where = {}
    for d, dist in mech.rows:
        for o, p in zip(dist.outcomes, dist.probs):
            where.setdefault(p, (d, o))
    sampled = []
    for p, (d, o) in where.items():
        how = _nonnegative(p, ranges, f"row {','.join(map(str, d))}, output {o}")
        if how == "sampled":
            sampled.append(p)
    if sampled:
        proved = False
        checks.append((f"{len(sampled)} entr{'y' if len(sampled) == 1 else 'ies'} (e.g. {_cut(sampled[0], 60)}) "
                       f"could not be proved ≥ 0 by sympy; checked ≥ 0 at rational sample points only", True))
    checks.append((f"every entry is ≥ 0 over {', '.join(r.text() for r in ranges) or 'the table'}"
                   + ("" if not sampled else " (partly sampled, see above)"), True))
    return checks, proved


def check_distribution(probs, ranges, what: str = "the distribution") -> bool:
    """Check that ``probs`` (sympy expressions) sum to 1 identically and are ≥ 0 over the ranges; returns
    whether nonnegativity was proved (False: sampled); raises :class:`InvalidDistribution` otherwise."""
    probs = [sp.sympify(p) for p in probs]
    if sp.simplify(sp.Add(*probs) - 1) != 0:
        raise InvalidDistribution(f"{what} sums to {_cut(sp.simplify(sp.Add(*probs)), 80)}, which sympy does not "
                                  f"reduce to 1 for every parameter value")
    return all([_nonnegative(p, ranges, f"{what}, entry {j}") == "proved" for j, p in enumerate(probs)])


def _nonnegative(p, ranges, where) -> str:
    """'proved' or 'sampled' when the entry is ≥ 0 over the ranges; raises when it is not."""
    free = [r for r in ranges if r.symbol in p.free_symbols]
    if not free:
        _sign_at(p, {}, where)
        return "proved"
    s = sign_on(p, free)
    how = "proved"
    if s in (-1, "≤") or s is None:
        # negative somewhere (or undecided): look for a point that shows it
        for pt in sample_points(free, 7):
            _sign_at(p, pt, where)
        if s in (-1, "≤") and sp.simplify(p) != 0:
            pt = sample_points(free, 1)[0]
            raise InvalidDistribution(f"{where}: the entry {_cut(p, 60)} is negative inside the range "
                                      f"(at {_show(pt)}); a probability must be ≥ 0")
        how = "sampled" if s is None else how
    for r in free:  # the closed ends: the entry must be defined and ≥ 0 there too
        for end in r.closed_ends():
            q = p.xreplace({r.symbol: end})
            rest = [x for x in free if x is not r]
            if rest:
                sub = _nonnegative(q, rest, f"{where} at {r.name}={end}")
                how = "sampled" if sub == "sampled" else how
            else:
                _sign_at(q, {}, f"{where} at {r.name}={end}")
    return how


def _sign_at(p, point, where):
    v = value_at(p, point)
    try:
        if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise UndecidedComparison("not finite")
        s = exact_sign(v)
    except UndecidedComparison:
        raise InvalidDistribution(f"{where}: the entry {_cut(p, 60)} is not a finite real number at "
                                  f"{_show(point) or 'its value'}") from None
    if s < 0:
        raise InvalidDistribution(f"{where}: the entry {_cut(p, 60)} = {_cut(v, 40)} is negative at "
                                  f"{_show(point) or 'its value'}; a probability must be ≥ 0")


def _cut(value, limit) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _show(point) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


__all__ = ["SymbolicMechanism", "symbolic_mechanism_from_json", "symbolic_mechanism", "parse_ranges", "validate",
           "check_distribution"]
