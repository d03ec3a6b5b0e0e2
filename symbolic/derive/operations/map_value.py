"""The value of a derived operation map: B's tight level after composing or subsampling any mechanism satisfying A."""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.exact import expr_text


@dataclass(frozen=True)
class OperationMap:
    """B's tight level after an operation on any mechanism satisfying A, as a formula in A's and the operation's
    parameters (or a number where all are given), with the argument, the attaining document and the checks.

    >>> m = OperationMap("pure-dp", "pure-dp", "k-fold composition", "epsilon", sp.Symbol("k") * sp.log(sp.Symbol("E")),
    ...                  checks=(("an exact check", True),))
    >>> m.ok, m.text().splitlines()[0]
    (True, 'pure-dp, then k-fold composition ⇒ pure-dp: epsilon = k*log(E)')
    """

    source: str
    target: str
    operation: str
    quantity: str
    formula: object = None
    value: object = None
    enclosure: tuple | None = None
    attained_by: dict | None = None
    proof: tuple = ()
    checks: tuple = ()
    unknown: str | None = None

    @property
    def ok(self) -> bool:
        return self.unknown is None and all(good for _, good in self.checks)

    def text(self) -> str:
        head = f"{self.source}, then {self.operation} ⇒ {self.target}"
        if self.unknown is not None:
            return f"{head}: unknown — {self.unknown}"
        lines = [f"{head}: {self.quantity} = {expr_text(self.formula) if self.formula is not None else '(numeric)'}"]
        if self.value is not None and self.formula is not None and self.value != self.formula:
            lines.append(f"value: {expr_text(self.value)}")
        if self.enclosure is not None:
            lo, hi = self.enclosure
            lines.append(f"enclosure: [{sp.Float(lo, 16)}, {sp.Float(hi, 16)}] (certified)")
        lines += [f"proof: {s}" for s in self.proof]
        lines += [f"check: {c}: {'ok' if good else 'FAILED'}" for c, good in self.checks]
        return "\n".join(lines)

    def to_json(self) -> dict:
        enc = None if self.enclosure is None else [str(sp.Float(x, 20)) for x in self.enclosure]
        return {"source": self.source, "target": self.target, "operation": self.operation, "quantity": self.quantity,
                "formula": None if self.formula is None else expr_text(self.formula),
                "latex": None if self.formula is None else sp.latex(self.formula),
                "value": None if self.value is None else expr_text(self.value), "enclosure": enc,
                "proof": list(self.proof), "attained_by": self.attained_by,
                "checks": [{"check": c, "ok": bool(good)} for c, good in self.checks],
                "ok": self.ok, "unknown": self.unknown}


def operation_words(op: dict) -> str:
    """The operation of a document without its ``"of"``, in words.

    >>> operation_words({"kind": "subsampled", "sampling": "poisson", "rate": "q"})
    'Poisson sampling at rate q'
    >>> operation_words({"kind": "composition", "times": 5})
    '5-fold composition'
    """
    if isinstance(op.get("of"), dict):
        return f"{operation_words(op['of'])}, then {operation_words({k: v for k, v in op.items() if k != 'of'})}"
    if op["kind"] == "composition":
        return f"{op['times']}-fold composition"
    if op["sampling"] == "poisson":
        return f"Poisson sampling at rate {op['rate']}"
    return f"sampling {op['rate']} of {op['size']} records without replacement"


__all__ = ["OperationMap", "operation_words"]
