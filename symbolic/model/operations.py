"""Operations on mechanisms, as values read from a mechanism file: k-fold composition and subsampling of a
finite table.

- ``{"kind": "composition", "of": M, "times": K}``: M runs K times, independently, on the same database, and
  the K outputs are released. M is a finite table object as ``derive level`` reads it (possibly with
  ``"params"``), or a subsampled table; K a positive integer. The neighbour relation is M's.
- ``{"kind": "subsampled", "of": M, "sampling": "poisson", "rate": Q}`` (Poisson sampling, add/remove): M is a
  table of one record (n = 1); its first domain value V (``"absent": V`` changes it) stands for the database
  without the record, and the law at any other value x is (1 − q)·M(V) + q·M(x). The neighbours are (V, x) and
  (x, V) for every x ≠ V.
- ``{"kind": "subsampled", "of": M, "sampling": "without-replacement", "rate": Q, "size": N}`` (replace one
  record): M is a table of m = Q·N records; the subsampled mechanism takes a database of N records, picks m of
  them uniformly without replacement and runs M on them in their order.

Q is an exact number in (0, 1) (``"1/10"``) or a name declared in the operation's ``"params"`` with its range
(``{"q": "0<q<1"}``), fixed by ``--param``. A path in ``"of"`` is read by the caller relative to the operation's
file (the CLI does) before it reaches these functions. Densities, mass functions, a symbolic K, lists of
mechanisms and other nestings are refused in one line: later steps take them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from symbolic.core.errors import DPCheckError, FloatNotAllowed, InvalidParameter, InvalidSize, clip
from symbolic.core.exact import parse_expr
from symbolic.core.ops import UndecidedComparison, exact_sign
from symbolic.model.continuous import is_continuous_document
from symbolic.model.symbolic_table import parse_ranges

MAX_TIMES = 10 ** 4   # a k-fold composition beyond this is refused (its count vectors grow like k^(|O|−1))
MAX_LIST = 16        # tables in a heterogeneous composition
OPERATION_KINDS = ("composition", "subsampled")
SAMPLINGS = ("poisson", "without-replacement")


@dataclass(frozen=True)
class Composition:
    """The k-fold composition of one finite table or subsampled table (``of`` its parsed JSON document), or of a
    list of tables on one database (``of`` a tuple of documents, each run ``times`` times)."""

    of: dict | tuple
    times: int | str
    params: dict = field(default_factory=dict)   # the operation's own parameters: a symbolic k and its range

    def times_at(self, values: dict):
        """(k, the other values): k the number of runs, an int, or the symbol of its range when ``times`` names a
        parameter that ``values`` (--param texts or numbers) leaves without a value."""
        if isinstance(self.times, int):
            return self.times, dict(values)
        rest = dict(values)
        if self.times in rest:
            v = rest.pop(self.times)
            n = parse_expr(v, what=self.times) if isinstance(v, str) else sp.sympify(v)
            if not n.is_Integer:
                raise InvalidSize(f'composition "times" {self.times}={clip(str(v), 30)} must be a positive integer')
            return _times(int(n)), rest
        return parse_ranges({self.times: self.params[self.times]})[0].symbol, rest


@dataclass(frozen=True)
class Subsampled:
    """A finite table run on a random subsample. ``of``: the table's parsed JSON document; ``sampling``: one of
    :data:`SAMPLINGS`; ``rate``: the rate's text (an exact number or a name of ``params``); ``params``: the
    operation's own parameters (name → range text); ``absent``: the domain value standing for no record
    (Poisson; None: the first); ``size``: the database size N (without replacement)."""

    of: dict
    sampling: str
    rate: str
    params: dict
    absent: object = None
    size: int | None = None


def is_operation_document(doc) -> bool:
    """Does a parsed JSON document describe an operation on mechanisms (``"kind": "composition"`` …)?

    >>> is_operation_document({"kind": "composition", "of": {}, "times": 2}), is_operation_document({"rows": {}})
    (True, False)
    """
    return isinstance(doc, dict) and isinstance(doc.get("kind"), str) and doc["kind"] in OPERATION_KINDS


def composition_from_json(doc) -> Composition:
    """The :class:`Composition` a document states; bad input raises a one-line
    :class:`~symbolic.core.errors.DPCheckError` naming the field.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> composition_from_json({"kind": "composition", "of": rr, "times": 3}).times
    3
    >>> composition_from_json({"kind": "composition", "of": rr, "times": 0})
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidSize: composition "times" must be a positive integer (1 to 10000); got 0
    """
    if not isinstance(doc, dict) or doc.get("kind") != "composition":
        kind = doc.get("kind") if isinstance(doc, dict) else None
        raise InvalidParameter(f"operation kind {clip(str(kind), 40)} is not a composition; this step takes "
                               f'"kind": "composition" of one finite table')
    _fields(doc, "composition", ("kind", "of", "times", "params", "description"))
    of = _of(doc, "composition")
    params = _own_params(doc.get("params"))
    if isinstance(of, list):
        return Composition(_table_list(of), _times(doc.get("times", 1), params), params)
    if is_continuous_document(of):
        return Composition(of, _times(doc.get("times"), params), params)
    if is_operation_document(of):
        if of.get("kind") != "subsampled":
            raise InvalidParameter('composition "of" another composition is not yet derived; give a table or a '
                                   "subsampled table and multiply \"times\"")
        subsampled_from_json(of)
    else:
        _table(of, "composition")
    return Composition(of, _times(doc.get("times"), params), params)


def subsampled_from_json(doc) -> Subsampled:
    """The :class:`Subsampled` a document states; bad input raises a one-line
    :class:`~symbolic.core.errors.DPCheckError` naming the field.

    >>> rr = {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}}
    >>> subsampled_from_json({"kind": "subsampled", "of": rr, "sampling": "poisson", "rate": "1/10"}).rate
    '1/10'
    >>> subsampled_from_json({"kind": "subsampled", "of": rr, "sampling": "poisson", "rate": "3/2"})
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidParameter: subsampled "rate" must be a number in (0, 1) or a name declared in "params"; got '3/2'
    """
    _fields(doc, "subsampled", ("kind", "of", "sampling", "rate", "size", "absent", "params", "description"))
    of = _of(doc, "subsampled")
    if isinstance(of, list):
        raise InvalidParameter('subsampled "of" must be one mechanism, not a list')
    if is_operation_document(of):
        raise InvalidParameter(f'subsampled "of" a {of["kind"]} is not yet derived; give a finite table (to '
                               f"subsample then compose, put the subsampled table in a composition's \"of\")")
    density = is_continuous_document(of)
    if not density:
        _table(of, "subsampled")
    sampling = doc.get("sampling")
    if sampling not in SAMPLINGS:
        raise InvalidParameter(f'subsampled "sampling" must be "poisson" or "without-replacement"; got '
                               f"{clip(repr(sampling), 40)}")
    params = doc.get("params") or {}
    if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
        raise InvalidParameter('subsampled "params" must map each name to its range, like {"q": "0<q<1"}')
    rate = _rate(doc.get("rate"), params)
    if sampling == "poisson":
        if "size" in doc:
            raise InvalidParameter('subsampled "size" goes with "sampling": "without-replacement"; Poisson sampling '
                                   "has no fixed size")
        n = of.get("n", 1)
        if n != 1 and not density:
            raise InvalidSize(f'subsampled "of" has n = {clip(repr(n), 20)}: Poisson sampling (add/remove one '
                              f"record) takes a table of one record, its first domain value standing for the "
                              f"record's absence")
        absent = doc.get("absent", None)
        domain = of.get("domain") or []
        if absent is not None and absent not in domain and not density:
            raise InvalidParameter(f'subsampled "absent" {clip(repr(absent), 30)} is not a value of the table\'s '
                                   f"domain {clip(repr(domain), 60)}")
        return Subsampled(of, sampling, rate, params, absent, None)
    if "absent" in doc:
        raise InvalidParameter('subsampled "absent" goes with "sampling": "poisson"; sampling without replacement '
                               "replaces one record")
    return Subsampled(of, sampling, rate, params, None, _size(doc.get("size"), density))


def _table_list(of) -> tuple:
    """A heterogeneous composition's runs: 1 to MAX_LIST finite tables, or as many densities (paths read by the
    caller)."""
    if not 1 <= len(of) <= MAX_LIST:
        raise InvalidSize(f'composition "of" lists {len(of)} mechanisms; give 1 to {MAX_LIST}')
    for j, entry in enumerate(of):
        if isinstance(entry, str):
            raise InvalidParameter(f'composition "of" entry {j + 1} is the path {clip(entry, 60)}: read it relative '
                                   f"to the operation's file first (dpcheck derive level does)")
        if not isinstance(entry, dict) or is_operation_document(entry) or not ("rows" in entry
                                                                                or is_continuous_document(entry)):
            raise InvalidParameter(f'composition "of" entry {j + 1} must be a finite table with "rows" or a density '
                                   f"(a list of operations is not yet derived)")
    kinds = {is_continuous_document(entry) for entry in of}
    if len(kinds) > 1:
        raise InvalidParameter('composition "of" mixes finite tables and densities; list one kind (a table and a '
                               "density have no common outputs)")
    return tuple(of)


def _fields(doc, kind, allowed):
    unknown = sorted(set(doc) - set(allowed))
    if unknown:
        raise InvalidParameter(f"{kind} has no field {clip(unknown[0], 40)}; its fields: "
                               f"{', '.join(a for a in allowed if a != 'description')}")


def _of(doc, kind):
    if "of" not in doc:
        raise InvalidParameter(f'{kind} needs "of": the mechanism it operates on (an object, or a path relative '
                               f"to the file)")
    of = doc["of"]
    if isinstance(of, str):
        raise InvalidParameter(f'{kind} "of" is the path {clip(of, 60)}: read it relative to the operation\'s '
                               f"file first (dpcheck derive level does)")
    if not isinstance(of, (dict, list)):
        raise InvalidParameter(f'{kind} "of" must be a mechanism object or a path to a mechanism file')
    return of


def _table(of, kind):
    if is_continuous_document(of):
        raise InvalidParameter(f'{kind} "of" a density or mass function is not yet derived; give a finite table')
    if "rows" not in of:
        raise InvalidParameter(f'{kind} "of" must be a finite table with "rows"')


def _rate(q, params) -> str:
    if q is None:
        raise InvalidParameter('subsampled needs "rate": the sampling rate q, a number in (0, 1) such as "1/10"')
    if isinstance(q, float):
        raise FloatNotAllowed(f'subsampled "rate" {q!r} is a float; write it exactly, as a string such as "1/10"')
    if isinstance(q, bool) or not isinstance(q, (int, str)):
        raise InvalidParameter(f'subsampled "rate" must be a number in (0, 1) or a name declared in "params"; got '
                               f"{clip(repr(q), 30)}")
    text = str(q).strip()
    if text in params:
        return text
    try:
        v = parse_expr(text, what='subsampled "rate"')
        inside = not v.free_symbols and exact_sign(v) > 0 and exact_sign(v - 1) < 0
    except (DPCheckError, UndecidedComparison):   # a name not declared, or refused text: the line below says what is taken
        inside, v = False, None
    if not inside:
        raise InvalidParameter(f'subsampled "rate" must be a number in (0, 1) or a name declared in "params"; got '
                               f"{clip(text, 30)}")
    return sp.sstr(v)


def _size(n, density: bool) -> int:
    """A table's databases are listed (N ≤ 64); a density's step is accounted from the rate alone."""
    top = 10 ** 9 if density else 64
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= top:
        raise InvalidSize(f'subsampled "size" (the database size N, sampling without replacement) must be an '
                          f"integer from 2 to {top}; got {clip(repr(n), 30)}")
    return n


def _own_params(declared) -> dict:
    if declared is None:
        return {}
    if not isinstance(declared, dict) or len(declared) != 1 or not all(isinstance(v, str) for v in declared.values()):
        raise InvalidParameter('composition "params" declares the number of runs and its range, like {"k": "k>=1"}')
    return dict(declared)


def _times(k, params=None) -> int | str:
    if k is None:
        raise InvalidParameter('composition needs "times": how many times the table runs (a positive integer)')
    if isinstance(k, str):
        if k not in (params or {}):
            raise InvalidParameter(f'composition "times" {clip(k, 30)} is a name: declare it with its range, like '
                                   f'"params": {{"{clip(k, 30)}": "{clip(k, 30)}>=1"}}')
        rng = parse_ranges({k: params[k]})[0]
        if rng.lower is None or exact_sign(rng.lower - 1) < 0:
            raise InvalidParameter(f'composition "times" {k} has the range {rng.text()}: runs number at least 1; '
                                   f'write "{k}>=1"')
        return k
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_TIMES:
        raise InvalidSize(f'composition "times" must be a positive integer (1 to {MAX_TIMES}); got {repr(k)[:30]}')
    return k


__all__ = ["Composition", "MAX_TIMES", "SAMPLINGS", "Subsampled", "composition_from_json", "is_operation_document",
           "subsampled_from_json"]
