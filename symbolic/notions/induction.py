"""Induction in k, stated as data: a statement S(k) for every k ≥ 1 reduced to one step about real numbers.

Group privacy and composition are statements about every k (the distance between two databases, the number of
mechanisms composed), and a bounded search sees only small k. Both have the same shape: S(k) bounds one number by
others through a few *numbers of the statement* (a factor F, an additive term D), and a link of length k + 1 is a
link of length k followed by one of length 1 (a path of neighbours; a composition of k mechanisms followed by one
more). The step S(k) ∧ S(1) ⇒ S(k + 1) is then a statement about real numbers alone (event probabilities, the
parameters, the numbers of S(k)), which a solver proves for all reals at once; with S(1) (the notion's definition)
it gives S(k) for every k. :class:`Induction` states the parts; :mod:`symbolic.solve.induction` proves them:

- the **closed forms** of the numbers (e.g. F(k) = E^k, D(k) = δ·Σ_{i<k} E^i) satisfy the **recurrence** that the
  step uses (F(k + 1) = E·F(k), D(k + 1) = D(k) + F(k)·δ), and at k = 1 they are the values where S(1) is the
  notion's definition (F = E, D = δ) (sympy, k a positive integer symbol);
- the **invariant** (what the step may assume of the numbers at every k: F ≥ 1, D ≥ 0) holds at k = 1 and is
  kept by the recurrence;
- the **step**: for all reals in their ranges, the invariant and the premises at k imply the conclusion at k + 1
  (z3 within its effort, cvc5 as the second solver; a counterexample is re-checked exactly).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sympy as sp


@dataclass(frozen=True)
class Induction:
    """The statement S(k) for every k ≥ 1 (see the module text). ``numbers``: the names of S(k)'s numbers;
    ``at_one``: their values at k = 1, where S(1) is the notion itself (``base`` says how); ``closed``: each as a closed form in ``k`` (the symbol ``K_SYMBOL``) and the parameters; ``recurrence``: each
    number at k + 1 as an expression in the numbers at k (their symbols, :meth:`symbols`) and the parameters;
    ``variables``: the reals of the step (parameters and the probabilities it relates), as
    :class:`~symbolic.notions.claims.Param` with ranges; ``invariant``, ``premises``, ``conclusion``: functions of
    a dict name → expression of the numbers, giving sympy relations; ``glue``: why the step on numbers gives the
    statement (the path or the composition, in words); ``base``: why S(1) holds; ``source``: the citation.

    >>> from symbolic.notions.listed.inductions import GROUP_PURE
    >>> GROUP_PURE.closed["F"], GROUP_PURE.recurrence["F"]
    (E**k, E*F)
    """

    name: str
    statement: str
    numbers: tuple
    at_one: dict
    closed: dict
    recurrence: dict
    variables: tuple
    invariant: Callable
    premises: Callable
    conclusion: Callable
    glue: str
    base: str
    source: str

    def symbols(self) -> dict:
        """The numbers of S(k) as real symbols (the step's unknowns beside the variables)."""
        return {n: sp.Symbol(n, real=True) for n in self.numbers}


K_SYMBOL = sp.Symbol("k", integer=True, positive=True)


__all__ = ["Induction", "K_SYMBOL"]
