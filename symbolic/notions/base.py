"""Privacy notions as objects: written once over the abstract number type of :mod:`symbolic.core.ops`.

A :class:`Notion` is a body ``body(ops, *mechanisms, P=population, **parameters)`` returning a
truth value (a Python bool in exact mode, a z3 Boolean in solver mode), plus how it treats
populations:

- ``"none"``: the notion does not mention a population (ε-DP);
- ``"given"``: it is relative to one population 𝒫, shared by the claim (Tschantz, Sen, Datta
  (2020), Defs. 6, 7, 10);
- ``"all"``: it quantifies over every population on 𝒟^n (Tschantz, Sen, Datta (2020), Defs. 2,
  3, 5, 8): in a counterexample search this is a ∀ inside an ∃, handled by CEGIS
  (:mod:`symbolic.solve.search`);
- ``"product"``: over every product population (independent data points; Tschantz, Sen, Datta
  (2020), Def. 4).

For ``"all"``/``"product"`` notions, ``sufficient(n, domain)`` may return a finite family of
populations that is enough to decide the notion for a *fixed* mechanism; exact re-verification
of a counterexample uses it (each family comes with its proof in the docstring and a test that
cross-checks it against the solver).

``fast(*tables, P=..., **parameters)``, when given, is a second reading of the body for exact
evaluation of large concrete tables (all rational): it returns ``(holds, reason)`` with the same
reason text as the body's first failed comparison, or None when it does not apply (then the body
decides). Each one is checked against its body on random tables (``tests/core/test_fast_exact.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


from symbolic.core.errors import InvalidParameter
from symbolic.core.math_text import math_text
from symbolic.core.ranges import describe, problems


@dataclass(frozen=True)
class ParamSpec:
    """A notion parameter and its range: bounds ``lower``/``upper``, each inclusive unless
    ``lower_strict``/``upper_strict`` says it is open (see :mod:`symbolic.core.ranges`).
    ``E_SPEC`` (E = e^ε ≥ 1) and ``DELTA_SPEC`` (0 ≤ δ ≤ 1) are the common ones.

    >>> E_SPEC.range_text(), DELTA_SPEC.range_text()
    ('1 ≤ E', '0 ≤ delta ≤ 1')
    >>> ParamSpec("alpha", lower=1, lower_strict=True, meaning="Rényi order").range_text()
    '1 < alpha'
    """

    name: str
    lower: object = None
    upper: object = None
    meaning: str = ""
    lower_strict: bool = False
    upper_strict: bool = False

    def range_text(self) -> str:
        return describe(self.name, self.lower, self.upper, self.lower_strict, self.upper_strict)

    def validate(self, value, notion: str):
        bad = problems(self.name, value, self.lower, self.upper, self.lower_strict, self.upper_strict)
        if bad:
            raise InvalidParameter(f"{notion}: parameter {bad[0]} ({self.meaning})")


E_SPEC = ParamSpec("E", lower=1, meaning="E = e^ε, so ε ≥ 0 means E ≥ 1")
DELTA_SPEC = ParamSpec("delta", lower=0, upper=1, meaning="δ is a probability")


@dataclass(frozen=True)
class Notion:
    """A privacy notion. Call it with its parameters to get a :class:`NotionInstance`.

    A notion of one's own: every output has probability at least 1/(1+E), for E ≥ 1 (``E_SPEC``):

    >>> from symbolic.api import evaluate, randomized_response
    >>> def floor(ops, A, P=None, *, E):
    ...     return ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs)
    >>> Floor = Notion("Floor", (E_SPEC,), floor, summary="every output has probability ≥ 1/(1+E)")
    >>> Floor(3)
    Floor(3)
    >>> evaluate(Floor, randomized_response(3), E=3), evaluate(Floor, randomized_response(3), E=2)
    (True, False)
    """

    name: str
    params: tuple
    body: Callable = field(repr=False, compare=False)
    population: str = "none"
    arity: int = 1
    summary: str = ""
    sufficient: Callable | None = field(default=None, repr=False, compare=False)
    fast: Callable | None = field(default=None, repr=False, compare=False)

    def __call__(self, *args, **kwargs) -> "NotionInstance":
        names = [p.name for p in self.params]
        if len(args) > len(names):
            raise InvalidParameter(f"{self.name} takes {len(names)} parameters ({', '.join(names)}), got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise InvalidParameter(f"{self.name} has no parameter {k!r}; it has {names}")
            values[k] = v
        missing = [k for k in names if k not in values]
        if missing:
            raise InvalidParameter(f"{self.name} needs parameter(s) {missing}")
        from symbolic.core.exact import exact
        vals = tuple(exact(values[k], what=f"{self.name}.{k}") for k in names)
        for spec, v in zip(self.params, vals):
            spec.validate(v, self.name)
        return NotionInstance(self, vals, None)


@dataclass(frozen=True)
class NotionInstance:
    """A notion with its parameters bound (as sympy expressions of a claim's parameters),
    applied to mechanism terms (``None``: the claim's default mechanism ``A``).

    >>> from symbolic.api import E, MechVar, PureDP
    >>> inst = PureDP(2 * E.symbol)
    >>> inst, inst.param_values(), inst.of(MechVar("B"))
    (PureDP(2*E), {'E': 2*E}, PureDP(2*E).of(B))
    """

    notion: Notion
    args: tuple
    on: tuple | None = None

    def of(self, *terms) -> "NotionInstance":
        """Apply to specific mechanism terms (compositions, families, ...), as many as the notion's arity."""
        if self.notion.arity and len(terms) != self.notion.arity:
            raise InvalidParameter(f"{self.notion.name} is a notion of {self.notion.arity} mechanism(s); "
                                   f".of() got {len(terms)}: {', '.join(map(repr, terms))}")
        return NotionInstance(self.notion, self.args, tuple(terms))

    def param_values(self):
        return {p.name: a for p, a in zip(self.notion.params, self.args)}

    def __repr__(self):
        args = ", ".join(str(a) for a in self.args)
        on = "" if self.on is None else ".of(" + ", ".join(map(repr, self.on)) + ")"
        return f"{self.notion.name}({args}){on}"

    def __str__(self):
        """The instance as mathematics (:func:`~symbolic.core.math_text.math_text`): ``PureDP(E²)`` where
        ``repr`` gives ``PureDP(E**2)``."""
        args = ", ".join(math_text(a) for a in self.args)
        on = "" if self.on is None else ".of(" + ", ".join(map(str, self.on)) + ")"
        return f"{self.notion.name}({args}){on}"
