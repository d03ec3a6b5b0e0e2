"""Concrete mechanisms 𝒟^n → 𝒪 with exact (possibly parametric) probabilities.

Factories for the usual mechanisms and the constructions of the sources. Each row is a
validated :class:`~symbolic.prob.Dist`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp

from .errors import InvalidDistribution, InvalidParameter, InvalidSize
from .exact import exact
from .ops import ExactOps
from .prob import Dist, Kernel
from .tables import MechTable, databases


def check_sizes(n=None, domain=None, outputs=None):
    for name, v in (("n", n), ("domain size", domain), ("outputs", outputs)):
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidSize(f"{name}={v!r} must be a whole number")
        if v < 1:
            raise InvalidSize(f"{name}={v} must be at least 1")


@dataclass(frozen=True, eq=False)
class Mechanism:
    """A mechanism: n data points from ``domain``, a distribution over ``outputs`` for each
    database. Build one with :meth:`from_table` or a factory.

    >>> rr = randomized_response(3)
    >>> rr.prob((0,), 0)
    3/4
    """

    n: int
    domain: tuple
    outputs: tuple
    rows: tuple  # ((db, Dist), ...) in lexicographic database order
    name: str = "mechanism"

    @classmethod
    def from_table(cls, table: dict, *, n=None, domain=None, outputs=None, name="table"):
        """``table`` maps each database (tuple, or a bare value when n=1) to a dict
        output -> probability or a list aligned with ``outputs``."""
        keys = [k if isinstance(k, tuple) else (k,) for k in table]
        if not keys:
            raise InvalidSize("a mechanism table needs at least one database")
        n = n if n is not None else len(keys[0])
        check_sizes(n=n)
        if any(len(k) != n for k in keys):
            raise InvalidSize(f"databases in the table have different lengths; expected n={n}")
        domain = tuple(domain) if domain is not None else tuple(sorted({v for k in keys for v in k}, key=repr))
        outs = list(outputs) if outputs is not None else []
        if outputs is None:
            for row in table.values():
                if isinstance(row, dict):
                    outs += [o for o in row if o not in outs]
        dbs = databases(n, domain)
        missing = [d for d in dbs if d not in keys]
        if missing:
            raise InvalidDistribution(f"table has no row for database(s) {missing[:3]}")
        extra = [k for k in keys if k not in dbs]
        if extra:
            raise InvalidDistribution(f"table rows {extra[:3]} are not databases over domain {domain}")
        rows = []
        lookup = {(k if isinstance(k, tuple) else (k,)): v for k, v in table.items()}
        for d in dbs:
            row = lookup[d]
            if isinstance(row, dict):
                bad = [o for o in row if o not in outs]
                if bad:
                    raise InvalidDistribution(f"row {d}: outputs {bad} not in {tuple(outs)}")
                probs = [row.get(o, 0) for o in outs]
            else:
                probs = list(row)
                if len(probs) != len(outs):
                    raise InvalidDistribution(
                        f"row {d} has {len(probs)} entries but there are {len(outs)} outputs {tuple(outs)}")
            rows.append((d, Dist(outcomes=tuple(outs), probs=probs, what=f"row {d}")))
        return cls(n, domain, tuple(outs), tuple(rows), name)

    def __getitem__(self, d) -> Dist:
        d = d if isinstance(d, tuple) else (d,)
        for k, dist in self.rows:
            if k == d:
                return dist
        raise KeyError(d)

    def prob(self, d, o):
        return self[d][o]

    def table(self) -> MechTable:
        return MechTable(self.n, self.domain, self.outputs, {d: dist.probs for d, dist in self.rows})

    def subs(self, values) -> "Mechanism":
        return Mechanism(self.n, self.domain, self.outputs,
                         tuple((d, dist.subs(values)) for d, dist in self.rows), self.name)

    def free_symbols(self):
        return set().union(*(p.free_symbols for _, d in self.rows for p in d.probs))

    def __repr__(self):
        return f"<{self.name}: n={self.n}, domain={self.domain}, outputs={self.outputs}>"

    def pretty(self) -> str:
        """The table as aligned text rows."""
        head = ["database"] + [str(o) for o in self.outputs]
        body = [[",".join(map(str, d))] + [str(p) for p in dist.probs] for d, dist in self.rows]
        w = [max(len(r[j]) for r in [head] + body) for j in range(len(head))]
        fmt = lambda r: "  ".join(c.rjust(w[j]) for j, c in enumerate(r))
        return "\n".join([fmt(head)] + [fmt(r) for r in body])


def _E(E, what="E"):
    E = exact(E, what=what)
    if not E.free_symbols and E < 1:
        raise InvalidParameter(f"{what}={E} must be >= 1 (E = e^ε with ε >= 0)")
    return E


def randomized_response(E, *, k: int = 2, n: int = 1) -> Mechanism:
    """k-ary randomized response on each of n data points (local model): each value is
    reported truthfully with probability E/(E+k-1), otherwise as each other value with
    probability 1/(E+k-1). Outputs are tuples of reports (bare values when n = 1)."""
    check_sizes(n=n, domain=k)
    E = _E(E)
    dom = tuple(range(k))
    keep, flip = E / (E + k - 1), 1 / (E + k - 1)
    outs = dom if n == 1 else tuple(databases(n, dom))
    table = {}
    for d in databases(n, dom):
        row = {}
        for o in outs:
            ot = o if n > 1 else (o,)
            row[o] = sp.Mul(*[keep if a == b else flip for a, b in zip(d, ot)])
        table[d] = row
    return Mechanism.from_table(table, n=n, domain=dom, outputs=outs, name=f"randomized_response(E={E}, k={k}, n={n})")


def truncated_geometric(E, *, n: int) -> Mechanism:
    """Truncated geometric mechanism for the counting query c(d) = Σ d_i on d ∈ {0,1}^n
    (Ghosh, Roughgarden, Sundararajan): outputs 0..n, α = 1/E,
    Pr[o | c] = (1-α)/(1+α)·α^|o-c| inside, α^|o-c|/(1+α) at o ∈ {0, n}."""
    check_sizes(n=n)
    E = _E(E)
    a = 1 / E
    outs = tuple(range(n + 1))
    table = {}
    for d in databases(n, (0, 1)):
        c = sum(d)
        table[d] = [sp.simplify((a ** abs(o - c)) / (1 + a) * (1 if o in (0, n) else (1 - a)))
                    for o in outs]
    return Mechanism.from_table(table, n=n, domain=(0, 1), outputs=outs, name=f"truncated_geometric(E={E}, n={n})")


def constant(dist, *, n: int, domain) -> Mechanism:
    """The mechanism that ignores its input and draws from ``dist`` (0-DP)."""
    check_sizes(n=n)
    dist = dist if isinstance(dist, Dist) else Dist(dist)
    domain = tuple(domain)
    return Mechanism.from_table({d: dict(dist.items()) for d in databases(n, domain)}, n=n, domain=domain,
                                outputs=dist.outcomes, name="constant")


def name_and_shame(delta, *, n: int, domain=(0, 1)) -> Mechanism:
    """NS_δ (lecture notes §2.3): each record i is published, as the pair (i, x_i), independently
    with probability δ. An output is the tuple of published entries (None where unpublished)."""
    check_sizes(n=n)
    delta = exact(delta, what="delta")
    if not delta.free_symbols and not (0 <= delta <= 1):
        raise InvalidParameter(f"delta={delta} must lie in [0, 1]")
    domain = tuple(domain)
    outs = tuple(itertools.product((None,) + domain, repeat=n))
    table = {}
    for d in databases(n, domain):
        row = {}
        for o in outs:
            p = sp.Integer(1)
            for x, y in zip(d, o):
                p *= (1 - delta) if y is None else (delta if y == x else 0)
            row[o] = p
        table[d] = row
    return Mechanism.from_table(table, n=n, domain=domain, outputs=outs, name=f"name_and_shame(delta={delta}, n={n})")


def compose(first: Mechanism, second) -> Mechanism:
    """Adaptive composition: ``second`` is a Mechanism or a dict first-output -> Mechanism."""
    from .terms import Compose, Fixed, AdaptiveVar
    fam = second if isinstance(second, dict) else {o: second for o in first.outputs}
    if set(fam) != set(first.outputs):
        raise InvalidSize(f"the second stage needs one mechanism per first output {first.outputs}")
    t1 = first.table()
    env = {"_A2": {o: m.table() for o, m in fam.items()}}
    tab = Compose(Fixed(first), AdaptiveVar("_A2", Fixed(first))).eval(ExactOps(), env)
    return Mechanism(first.n, first.domain, tab.outputs,
                     tuple((d, Dist(outcomes=tab.outputs, probs=tab.rows[d])) for d in t1.rows), "composition")


def post_process(mech: Mechanism, kernel: Kernel) -> Mechanism:
    """B∘A for a kernel (a Markov kernel on A's outputs)."""
    from .terms import PostProcess, Fixed, KernelVar
    missing = [o for o in mech.outputs if o not in kernel.inputs]
    if missing:
        raise InvalidDistribution(f"kernel has no row for outputs {missing}")
    env = {"_K": {**{o: kernel[o].probs for o in mech.outputs}, None: kernel.outputs}}
    tab = PostProcess(Fixed(mech), KernelVar("_K", Fixed(mech))).eval(ExactOps(), env)
    return Mechanism(mech.n, mech.domain, tab.outputs,
                     tuple((d, Dist(outcomes=tab.outputs, probs=tab.rows[d])) for d in tab.rows), "post-processing")
