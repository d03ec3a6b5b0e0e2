"""Operations on mechanisms, as values read from a mechanism file: the k-fold composition of a finite table.

The file form is ``{"kind": "composition", "of": M, "times": K}``: M is a finite table object as
``derive level`` reads it (``{"n": …, "domain": […], "outputs": […], "rows": {…}}``, possibly with
``"params"``), K a positive integer. The composition runs M K times, independently, on the same
database and releases the K outputs; its neighbour relation is the table's (replace one record).
A path in ``"of"`` is read by the caller relative to the composition file (the CLI does) before it
reaches :func:`composition_from_json`. Densities, mass functions, a symbolic K, lists of mechanisms and
nested operations are refused in one line: later steps take them.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.errors import InvalidParameter, InvalidSize, clip

MAX_TIMES = 10 ** 4   # a k-fold composition beyond this is refused (its count vectors grow like k^(|O|−1))
OPERATION_KINDS = ("composition", "subsampled")


@dataclass(frozen=True)
class Composition:
    """The k-fold composition of one finite table: ``of`` its parsed JSON document, ``times`` the k."""

    of: dict
    times: int


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
        raise InvalidParameter(f"operation kind {clip(str(kind), 40)} is not yet derived; this step takes "
                               f'"kind": "composition" of one finite table')
    unknown = sorted(set(doc) - {"kind", "of", "times", "description"})
    if unknown:
        raise InvalidParameter(f"composition has no field {clip(unknown[0], 40)}; its fields: kind, of, times")
    if "of" not in doc:
        raise InvalidParameter('composition needs "of": the table composed (an object, or a path relative to the file)')
    of = doc["of"]
    if isinstance(of, str):
        raise InvalidParameter(f'composition "of" is the path {clip(of, 60)}: read it relative to the composition '
                               f"file first (dpcheck derive level does)")
    if isinstance(of, list):
        raise InvalidParameter('composition "of" as a list of mechanisms is not yet derived; give one table and "times"')
    if not isinstance(of, dict):
        raise InvalidParameter('composition "of" must be a table object or a path to a table file')
    from symbolic.model.continuous import is_continuous_document
    if is_operation_document(of):
        raise InvalidParameter('composition "of" another operation is not yet derived; give a finite table')
    if is_continuous_document(of):
        raise InvalidParameter('composition "of" a density or mass function is not yet derived; give a finite table')
    if "rows" not in of:
        raise InvalidParameter('composition "of" must be a finite table with "rows"')
    return Composition(of, _times(doc.get("times")))


def _times(k) -> int:
    if k is None:
        raise InvalidParameter('composition needs "times": how many times the table runs (a positive integer)')
    if isinstance(k, str):
        raise InvalidParameter(f'composition "times" must be a number; a symbolic k ({clip(k, 30)}) is not yet derived')
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_TIMES:
        raise InvalidSize(f'composition "times" must be a positive integer (1 to {MAX_TIMES}); got {repr(k)[:30]}')
    return k


__all__ = ["Composition", "MAX_TIMES", "composition_from_json", "is_operation_document"]
