"""Mechanism terms: free mechanisms, families, kernels and the constructions built on them.

A claim talks about one or more *free* mechanisms (unknown tables the search chooses) and
constructions on them: adaptive composition and post-processing. A term evaluates, under an
assignment of tables to the free names, to a :class:`~symbolic.core.tables.MechTable`, written
against ``ops`` so it works for exact numbers and z3 terms alike.
"""
from __future__ import annotations

from dataclasses import dataclass

from symbolic.core.tables import MechTable


class Term:
    def free(self) -> list:
        """The free variables below this term, each once, in order."""
        raise NotImplementedError


@dataclass(frozen=True)
class MechVar(Term):
    """A free mechanism 𝒟^n → 𝒪 at the claim's sizes."""

    name: str = "A"

    def free(self):
        return [self]

    def eval(self, ops, env):
        return env[self.name]

    def __repr__(self):
        return self.name


@dataclass(frozen=True)
class AdaptiveVar(Term):
    """A family of free mechanisms 𝒟^n → 𝒪, one for each output of ``after``
    (the second stage of an adaptive composition: A2(a1, ·))."""

    name: str
    after: Term

    def free(self):
        return _uniq(self.after.free() + [self])

    def eval(self, ops, env):
        return env[self.name]  # dict: first-stage output -> MechTable

    def __repr__(self):
        return f"{self.name}[{self.after!r}]"


@dataclass(frozen=True)
class KernelVar(Term):
    """A free randomized map (kernel) from the outputs of ``source`` to ``size`` outputs
    (``None``: as many as the claim's output size)."""

    name: str
    source: Term
    size: int | None = None

    def free(self):
        return _uniq(self.source.free() + [self])

    def eval(self, ops, env):
        return env[self.name]  # dict: input -> tuple of numbers; plus key None -> outputs

    def __repr__(self):
        return self.name


@dataclass(frozen=True)
class Compose(Term):
    """Adaptive composition x ↦ (A1(x), A2(A1(x), x)); with a plain second mechanism,
    non-adaptive composition."""

    first: Term
    second: Term

    def free(self):
        return _uniq(self.first.free() + self.second.free())

    def eval(self, ops, env):
        a1 = self.first.eval(ops, env)
        a2 = self.second.eval(ops, env)
        fam = a2 if isinstance(a2, dict) else {o: a2 for o in a1.outputs}
        outs = tuple((o1, o2) for o1 in a1.outputs for o2 in fam[a1.outputs[0]].outputs)
        rows = {d: tuple(a1.p(d, o1) * fam[o1].p(d, o2) for o1, o2 in outs) for d in a1.rows}
        return MechTable(a1.n, a1.domain, outs, rows)

    def __repr__(self):
        return f"Compose({self.first!r}, {self.second!r})"


@dataclass(frozen=True)
class PostProcess(Term):
    """B∘A for a kernel B on A's outputs: Pr[B(A(d)) = o'] = Σ_o A(d)(o)·B(o)(o')."""

    mech: Term
    kernel: Term

    def free(self):
        return _uniq(self.mech.free() + self.kernel.free())

    def eval(self, ops, env):
        a = self.mech.eval(ops, env)
        k = self.kernel.eval(ops, env)
        outs = k[None]
        rows = {d: tuple(ops.sum(a.p(d, o) * k[o][j] for o in a.outputs) for j in range(len(outs)))
                for d in a.rows}
        return MechTable(a.n, a.domain, outs, rows)

    def __repr__(self):
        return f"PostProcess({self.mech!r}, {self.kernel!r})"


@dataclass(frozen=True)
class Fixed(Term):
    """A concrete mechanism (a :class:`~symbolic.model.mechanism.Mechanism`)."""

    mechanism: object

    def free(self):
        return []

    def eval(self, ops, env):
        return self.mechanism.table()

    def __repr__(self):
        return repr(self.mechanism)


def _uniq(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


A = MechVar("A")
