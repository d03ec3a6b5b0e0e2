"""Recursive structural equation models with randomized structural equations.

Follows the T-source (Tschantz, Sen, Datta, §4 and Appendix C): a probabilistic SEM
⟨ℳ, 𝒫⟩ lists exogenous variables with a joint distribution 𝒫 and, in causal order,
endogenous variables each defined by a (randomized) structural equation of its parents.
``do(X=x)`` replaces X's equation by the constant x, giving the sub-model ℳ[X:=x].

All arithmetic is written against an ``ops`` object (see :mod:`symbolic.core.ops`), so the
same model yields exact probabilities on concrete tables and z3 terms on unknown ones.
Conditional probabilities are returned as (numerator, denominator) pairs: no division.
"""
from __future__ import annotations

from fractions import Fraction

from dataclasses import dataclass
from typing import Callable

from symbolic.core.errors import DPCheckError


@dataclass(frozen=True)
class Equation:
    """X := f(parents). With ``random=True``, ``f(*parent_values)`` returns a tuple of
    probabilities aligned with ``values`` (a randomized equation); otherwise one value."""

    name: str
    values: tuple
    parents: tuple
    f: Callable
    random: bool = False

    def row(self, parent_values):
        r = self.f(*parent_values)
        if self.random:
            return r
        if r not in self.values:
            raise DPCheckError(f"equation {self.name} gave {r!r}, not one of {self.values}")
        return tuple(1 if v == r else 0 for v in self.values)


@dataclass(frozen=True)
class SEM:
    """A recursive probabilistic SEM: exogenous variables with a joint distribution and
    endogenous equations listed in causal order."""

    exogenous: tuple          # names
    exo_values: dict          # name -> tuple of values
    exo_joint: dict           # tuple (aligned with exogenous) -> probability number
    equations: tuple          # Equation, in causal order
    interventions: tuple = () # ((name, value), ...)

    def variables(self):
        return list(self.exogenous) + [e.name for e in self.equations]

    def values(self, name):
        if name in self.exo_values:
            return self.exo_values[name]
        for e in self.equations:
            if e.name == name:
                return e.values
        raise DPCheckError(f"no variable {name!r} in the model; variables: {self.variables()}")

    def do(self, **assignment) -> "SEM":
        """The sub-model ℳ[X:=x, ...]."""
        for k, v in assignment.items():
            if v not in self.values(k):
                raise DPCheckError(f"do({k}={v!r}): {v!r} is not a value of {k}")
        done = dict(self.interventions)
        done.update(assignment)
        return SEM(self.exogenous, self.exo_values, self.exo_joint, self.equations,
                   tuple(done.items()))

    def worlds(self, ops):
        """All complete assignments with their probability (exact zeros pruned)."""
        fixed = dict(self.interventions)
        out = []
        for exo, w in self.exo_joint.items():
            if _is_zero(w):
                continue
            a = dict(zip(self.exogenous, exo))
            a.update({k: v for k, v in fixed.items() if k in a})
            out.append((a, w))
        for eq in self.equations:
            nxt = []
            for a, w in out:
                if eq.name in fixed:
                    nxt.append(({**a, eq.name: fixed[eq.name]}, w))
                    continue
                row = eq.row(tuple(a[p] for p in eq.parents))
                for v, q in zip(eq.values, row):
                    if _is_zero(q):
                        continue
                    nxt.append(({**a, eq.name: v}, w if _is_one(q) else w * q))
            out = nxt
        return out

    def prob(self, ops, **event):
        """Pr[event] in this (possibly intervened) model."""
        return ops.sum(w for a, w in self.worlds(ops) if all(a[k] == v for k, v in event.items()))

    def prob_given(self, ops, event: dict, given: dict):
        """Pr[event ∣ given] as (numerator, denominator); the caller handles den = 0."""
        ws = self.worlds(ops)
        num = ops.sum(w for a, w in ws if all(a[k] == v for k, v in {**given, **event}.items()))
        den = ops.sum(w for a, w in ws if all(a[k] == v for k, v in given.items()))
        return num, den


def _numeral(x):
    """The exact value of a constant (an int, a sympy number, or a solver numeral: anything with
    ``numerator_as_long``), or None for a term with unknowns in it."""
    if isinstance(x, int) or getattr(x, "is_Number", False):
        return x
    if hasattr(x, "numerator_as_long"):   # a solver's rational numeral (no unknowns in it)
        return Fraction(x.numerator_as_long(), x.denominator_as_long())
    return None


def _is_zero(x):
    v = _numeral(x)
    return v is not None and v == 0


def _is_one(x):
    v = _numeral(x)
    return v is not None and v == 1


def mechanism_model(A, P) -> SEM:
    """M^A of the T-source: R_i exogenous with joint 𝒫, D_i := R_i, D := ⟨D_1..D_n⟩,
    O := A(D). ``A`` is a :class:`~symbolic.core.tables.MechTable`, ``P`` a
    :class:`~symbolic.core.tables.PopTable` over the same 𝒟^n."""
    n, dom = A.n, A.domain
    exo = tuple(f"R{i+1}" for i in range(n))
    eqs = [Equation(f"D{i+1}", dom, (f"R{i+1}",), lambda r: r) for i in range(n)]
    import itertools
    dbs = tuple(itertools.product(dom, repeat=n))
    eqs.append(Equation("D", dbs, tuple(f"D{i+1}" for i in range(n)), lambda *ds: tuple(ds)))
    eqs.append(Equation("O", A.outputs, ("D",), lambda d: tuple(A.rows[d]), random=True))
    return SEM(exo, {r: dom for r in exo}, dict(P.probs), tuple(eqs))


def prog_status_model(A, p_r1: dict) -> SEM:
    """prog_status of the T-source (§6.3, group privacy): R_1 exogenous with distribution
    ``p_r1``; R_2 := R_1; D_1 := R_1; D_2 := R_2; O := A(D_1, D_2), A over 𝒟^2."""
    if A.n != 2:
        raise DPCheckError(f"prog_status needs a mechanism on two data points, got n={A.n}")
    dom = A.domain
    eqs = (Equation("R2", dom, ("R1",), lambda r: r),
           Equation("D1", dom, ("R1",), lambda r: r),
           Equation("D2", dom, ("R2",), lambda r: r),
           Equation("O", A.outputs, ("D1", "D2"), lambda a, b: tuple(A.rows[(a, b)]), random=True))
    return SEM(("R1",), {"R1": dom}, {(v,): p_r1[v] for v in dom}, eqs)
