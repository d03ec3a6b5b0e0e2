"""Mechanism terms: free mechanisms, families, kernels and the constructions built on them.

A claim talks about one or more *free* mechanisms (unknown tables the search chooses) and
constructions on them: adaptive composition and post-processing. A term evaluates, under an
assignment of tables to the free names, to a :class:`~symbolic.core.tables.MechTable`, written
against ``ops`` so it works for exact numbers and z3 terms alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from math import comb

from symbolic.core.errors import InvalidSize
from symbolic.core.tables import MechTable


class Term:
    def free(self) -> list:
        """The free variables below this term, each once, in order."""
        raise NotImplementedError


@dataclass(frozen=True)
class MechVar(Term):
    """A free mechanism 𝒟^n → 𝒪 at the claim's sizes: the solver chooses its table. A notion
    applies to it with ``.of(...)``; a claim without ``.of`` means ``MechVar("A")``.

    Post-processing cannot break ε-DP (Dwork and Roth (2014), Prop. 2.1), proved at one size:

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> A = MechVar("A")
    >>> G = KernelVar("G", source=A)
    >>> res = check_implies(PureDP(E.symbol).of(A), PureDP(E.symbol).of(PostProcess(A, G)),
    ...                     sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
    >>> res.verdict.name
    'proved'
    """

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
    (the second stage of an adaptive composition: A2(a1, ·)).

    ε-DP composes adaptively with ε₁ + ε₂ (Dwork and Roth (2014), Thm. 3.16), i.e. E₁·E₂:

    >>> from symbolic.api import E, Param, PureDP, Settings, Sizes, check_implies
    >>> F = Param("F", lower=1)
    >>> A1 = MechVar("A1")
    >>> A2 = AdaptiveVar("A2", after=A1)
    >>> Compose(A1, A2)
    Compose(A1, A2[A1])
    >>> res = check_implies((PureDP(E.symbol).of(A1), PureDP(F.symbol).of(A2)),
    ...                     PureDP(E.symbol * F.symbol).of(Compose(A1, A2)), params=(E, F),
    ...                     sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False))
    >>> res.verdict.name
    'proved'
    """

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
    (``None``: as many as the claim's output size). Used in :class:`PostProcess`:

    >>> A = MechVar("A")
    >>> PostProcess(A, KernelVar("G", source=A, size=3))
    PostProcess(A, G)
    """

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
    non-adaptive composition. Its outputs are pairs; evaluated exactly on two concrete mechanisms:

    >>> from symbolic.api import randomized_response
    >>> from symbolic.core.ops import ExactOps
    >>> rr = randomized_response(3)
    >>> both = Compose(Fixed(rr), Fixed(rr)).eval(ExactOps(), {})
    >>> both.outputs, both.rows[(0,)]
    (((0, 0), (0, 1), (1, 0), (1, 1)), (9/16, 3/16, 3/16, 1/16))

    Without the composed level, two ε-DP mechanisms need not compose to ε-DP:

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> A1, A2 = MechVar("A1"), MechVar("A2")
    >>> res = check_implies((PureDP(E.symbol).of(A1), PureDP(E.symbol).of(A2)),
    ...                     PureDP(E.symbol).of(Compose(A1, A2)), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> res.verdict.name, res.verdict.verified_exactly
    ('refuted', True)
    """

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
    """B∘A for a kernel B on A's outputs: Pr[B(A(d)) = o'] = Σ_o A(d)(o)·B(o)(o'). A claim over a
    free kernel is in :class:`MechVar`'s example; :func:`symbolic.model.mechanism.post_process`
    applies a concrete kernel to a concrete mechanism.

    >>> PostProcess(MechVar("A"), KernelVar("B", source=MechVar("A")))
    PostProcess(A, B)
    """

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
    """A concrete mechanism (a :class:`~symbolic.model.mechanism.Mechanism`) as a term, so that a
    claim can mention it. Randomized response at E = 3 satisfies ε-DP at E = 3:

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies, randomized_response
    >>> rr = Fixed(randomized_response(3))
    >>> res = check_implies(PureDP(E.symbol).of(rr), PureDP(3).of(rr), sizes=Sizes(1, 2, 2),
    ...                     settings=Settings(second_solver=False))
    >>> res.verdict.name
    'proved'
    """

    mechanism: object

    def free(self):
        return []

    def eval(self, ops, env):
        return self.mechanism.table()

    def __repr__(self):
        return repr(self.mechanism)


PARAMETER_VALUES = ("parameter values",)   # env key: a claim parameter's expression -> the number type in use


@dataclass(frozen=True)
class PoissonSubsample(Term):
    """Poisson sampling at rate q under add/remove, of a mechanism of one record over two values: the first
    value V stands for the database without the record, and the subsampled law at the other value x is
    (1 − q)·A(V) + q·A(x) (the record is kept with probability q). ``rate`` is a number or a claim
    parameter's symbol. Two values suffice for claims about neighbouring pairs: every add/remove pair
    (V, x) of a larger domain is the pair of the two-value mechanism {V, x}, which keeps each hypothesis
    about pairs.

    Subsampling ε-DP at q gives log(1 + q(e^ε − 1))-DP (amplification by subsampling; Li, Qardaji, Su 2012),
    and not with q² in its place:

    >>> from symbolic.api import E, Param, PureDP, Settings, Sizes, check_implies
    >>> q = Param("q", lower=0, upper=1, lower_strict=True, upper_strict=True)
    >>> A, Es = MechVar("A"), E.symbol
    >>> check_implies(PureDP(Es).of(A), PureDP(1 + q.symbol * (Es - 1)).of(PoissonSubsample(A, q.symbol)),
    ...               params=(E, q), sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False)).verdict.name
    'proved'
    """

    mech: Term
    rate: object

    def free(self):
        return self.mech.free()

    def eval(self, ops, env):
        a = self.mech.eval(ops, env)
        if a.n != 1 or len(a.domain) != 2:
            raise InvalidSize(f"PoissonSubsample takes a mechanism of one record over two values (absent, present); "
                              f"this one has n = {a.n} over {len(a.domain)} values")
        q = env[PARAMETER_VALUES](self.rate) if PARAMETER_VALUES in env else self.rate
        absent, present = (a.domain[0],), (a.domain[1],)
        rows = {absent: a.rows[absent],
                present: tuple((1 - q) * a.p(absent, o) + q * a.p(present, o) for o in a.outputs)}
        return MechTable(a.n, a.domain, a.outputs, rows)

    def __repr__(self):
        return f"PoissonSubsample({self.mech!r}, {self.rate})"


@dataclass(frozen=True)
class SampleWithoutReplacement(Term):
    """Sampling m of N records without replacement, under replace-one: the mechanism takes a database of
    ``size`` = N records, picks m of them uniformly (m = the sampled mechanism's number of records) and runs it
    on them in their order, so its row at d is the mean over the m-subsets S of A(d_S).

    Sampling m of N turns ε-DP into log(1 + (m/N)(e^ε − 1))-DP under replace-one (Balle, Barthe, Gaboardi 2018):

    >>> from symbolic.api import E, PureDP, Settings, Sizes, check_implies
    >>> A, Es = MechVar("A"), E.symbol
    >>> check_implies(PureDP(Es).of(A), PureDP(1 + (Es - 1) / 3).of(SampleWithoutReplacement(A, 3)),
    ...               sizes=Sizes(1, 2, 2), settings=Settings(second_solver=False)).verdict.name
    'proved'
    """

    mech: Term
    size: int
    as_set: bool = False     # pass the sampled records sorted: a mechanism of the set, blind to their order

    def free(self):
        return self.mech.free()

    def eval(self, ops, env):
        a = self.mech.eval(ops, env)
        if not 1 <= a.n <= self.size:
            raise InvalidSize(f"SampleWithoutReplacement picks m of N = {self.size} records: the sampled mechanism "
                              f"has n = {a.n} records, more than N")
        subsets = list(combinations(range(self.size), a.n))
        arrange = (lambda xs: tuple(sorted(xs))) if self.as_set else tuple
        rows = {d: tuple(ops.sum(a.p(arrange(d[i] for i in s), o) for s in subsets) / comb(self.size, a.n)
                         for o in a.outputs)
                for d in product(a.domain, repeat=self.size)}
        return MechTable(self.size, a.domain, a.outputs, rows)

    def __repr__(self):
        return f"SampleWithoutReplacement({self.mech!r}, {self.size}{', as_set=True' if self.as_set else ''})"


def _uniq(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


A = MechVar("A")
