"""Concrete mechanisms 𝒟^n → 𝒪 with exact (possibly parametric) probabilities.

Factories for the usual mechanisms and the constructions of the sources. Each row is a
validated :class:`~symbolic.core.prob.Dist`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp

from symbolic.core.errors import InvalidDistribution, InvalidParameter, InvalidSize, clip
from symbolic.core.exact import exact
from symbolic.core.ops import ExactOps
from symbolic.core.prob import Dist, Kernel
from symbolic.core.tables import MechTable, check_sizes, databases


MAX_DATABASES = 10 ** 6   # tables built through the API: a memory guard
MAX_FILE_DATABASES = 4096  # populations from a user's file; tables a notion reads through sympy
MAX_TABLE_FILE_DATABASES = 2 ** 18  # mechanism tables from a user's file (linear exact evaluation)
MAX_FILE_CELLS = 2 ** 19   # databases × outputs in a user's mechanism file
MAX_SHARED_ROWS = 4096     # distinct rows remembered while a table is built


def count_databases(n: int, domain_size: int, *, limit: int = MAX_DATABASES, what: str = "the table") -> int:
    """|𝒟|^n, computed without enumerating anything; refuses more than ``limit`` databases.

    >>> count_databases(3, 2)
    8
    """
    check_sizes(n=n, domain=domain_size)
    total = 1
    for _ in range(n if domain_size > 1 else 0):  # at most log2(limit) + 1 steps
        total *= domain_size
        if total > limit:
            raise InvalidSize(f"{what} would have |domain|^n = {domain_size}^{n} databases, over the limit of "
                              f"{limit}; use a smaller n or domain")
    return total


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
        if len(set(domain)) != len(domain):
            raise InvalidSize(f"domain {clip(domain)} repeats a value; list each value once")
        count_databases(n, len(domain))
        outs = list(outputs) if outputs is not None else []
        if outputs is None:
            for row in table.values():
                if isinstance(row, dict):
                    outs += [o for o in row if o not in outs]
        dbs = databases(n, domain)
        lookup = table if all(type(k) is tuple for k in table) else \
            {(k if isinstance(k, tuple) else (k,)): v for k, v in table.items()}
        if len(lookup) != len(keys):
            raise InvalidDistribution("table gives a database twice (once bare, once as a 1-tuple); give it once")
        if len(lookup) != len(dbs) or not all(map(lookup.__contains__, dbs)):   # one pass when all is well
            missing = [d for d in dbs if d not in lookup]
            if missing:
                raise InvalidDistribution(f"table has no row for database(s) {clip(missing[:3])}")
            db_set = set(dbs)
            extra = [k for k in lookup if k not in db_set]
            raise InvalidDistribution(f"table rows {clip(extra[:3])} are not databases over domain {clip(domain)}")
        rows = []
        outs_t, dists = tuple(outs), {}  # equal rows share one validated Dist (a table has few distinct rows)
        for d in dbs:
            row = lookup[d]
            if isinstance(row, dict):
                bad = [o for o in row if o not in outs]
                if bad:
                    raise InvalidDistribution(f"row {d}: outputs {clip(bad)} not in {clip(tuple(outs))}")
                probs = [row.get(o, 0) for o in outs]
            else:
                if not isinstance(row, (list, tuple)):
                    raise InvalidDistribution(
                        f"row {d} is {clip(row, 40)} of type {type(row).__name__}; give a list of probabilities "
                        f"aligned with the outputs, such as ['3/4', '1/4'], or a dict output -> probability")
                probs = list(row)
                if len(probs) != len(outs):
                    raise InvalidDistribution(
                        f"row {d} has {len(probs)} entries but there are {len(outs)} outputs {clip(tuple(outs))}")
            rows.append((d, _shared_dist(dists, probs, outs_t, d)))
        return cls(n, domain, outs_t, tuple(rows), name)

    @classmethod
    def from_ordered_rows(cls, rows, *, n: int, domain, outputs, name="table"):
        """A mechanism from its rows as a list in lexicographic order over 𝒟^n (the first database is
        (d₁, …, d₁), the last (d_k, …, d_k)), each a list of probabilities aligned with ``outputs``;
        equal rows share one validated :class:`Dist`.

        >>> Mechanism.from_ordered_rows([["3/4", "1/4"], ["1/4", "3/4"]], n=1, domain=(0, 1), outputs=(0, 1))[(1,)]
        Dist({0: 1/4, 1: 3/4})
        """
        domain, outs = tuple(domain), tuple(outputs)
        size, width = count_databases(n, len(domain)), len(outs)
        if not isinstance(rows, (list, tuple)) or len(rows) != size:
            raise InvalidDistribution(f"the rows list has {len(rows) if isinstance(rows, (list, tuple)) else 'no'} "
                                      f"rows; a table over {len(domain)} values with n={n} has {size}, one per "
                                      f"database in lexicographic order")
        shared = _few_distinct(rows, width, outs, domain, n)
        if shared is not None:   # every row a list of the right width, few distinct: C-speed passes
            return cls(n, domain, outs, tuple(zip(itertools.product(domain, repeat=n), shared)), name)
        dists, out = {}, []
        for d, row in zip(itertools.product(domain, repeat=n), rows):
            if type(row) is not list and not isinstance(row, tuple) or len(row) != width:
                raise InvalidDistribution(f"row {d} is {clip(row, 40)}; give a list of {len(outs)} probabilities "
                                          f"aligned with the outputs {clip(outs)}")
            out.append((d, _shared_dist(dists, row, outs, d)))
        return cls(n, domain, outs, tuple(out), name)

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


def _few_distinct(rows, width: int, outcomes: tuple, domain: tuple, n: int):
    """The :class:`Dist` of each row, one object for equal rows, when every row is a list of ``width`` hashable
    entries and there are at most :data:`MAX_SHARED_ROWS` distinct rows; else None (the row-by-row reader then
    says what is wrong). A distinct row is validated once, named by the first database that has it."""
    if not all(type(r) is list for r in rows):
        return None
    keys = list(map(tuple, rows))
    if set(map(len, keys)) != {width}:
        return None
    try:
        first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))   # row -> the index of its first database
    except TypeError:   # an unhashable entry
        return None
    if len(first) > MAX_SHARED_ROWS:
        return None
    ks = len(domain)
    dist = {k: Dist(outcomes=outcomes, probs=list(k),
                    what=f"row {tuple(domain[i // ks ** (n - 1 - j) % ks] for j in range(n))}")
            for k, i in first.items()}
    return list(map(dist.__getitem__, keys))


def _shared_dist(dists: dict, probs, outcomes: tuple, d) -> Dist:
    """The validated :class:`Dist` of a row, one object for equal rows (a table has few distinct rows):
    ``dists`` maps the rows seen so far to theirs."""
    key = tuple(probs)
    try:
        dist = dists.get(key)
    except TypeError:  # an unhashable entry: Dist says what is wrong with it
        dist = None
    if dist is None:
        dist = Dist(outcomes=outcomes, probs=probs, what=f"row {d}")
        if len(dists) < MAX_SHARED_ROWS:
            dists[key] = dist
    return dist


def _E(E, what="E"):
    E = exact(E, what=what)
    if not E.free_symbols and E < 1:
        raise InvalidParameter(f"{what}={E} must be >= 1 (E = e^ε with ε >= 0)")
    return E


def randomized_response(E, *, k: int = 2, n: int = 1) -> Mechanism:
    """k-ary randomized response on each of n data points (local model): each value is
    reported truthfully with probability E/(E+k-1), otherwise as each other value with
    probability 1/(E+k-1). Outputs are tuples of reports (bare values when n = 1). It is
    exactly ln E-DP (Warner (1965); Dwork and Roth (2014), Sec. 3.2):

    >>> from symbolic.api import PureDP, evaluate
    >>> rr = randomized_response(3)
    >>> rr[(0,)], evaluate(PureDP, rr, E=3), evaluate(PureDP, rr, E=2)
    (Dist({0: 3/4, 1: 1/4}), True, False)
    >>> randomized_response(2, k=3)[(0,)]
    Dist({0: 1/2, 1: 1/4, 2: 1/4})
    """
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


def exponential_mechanism(eps, utility, *, domain, outputs) -> Mechanism:
    """The exponential mechanism on a finite range (McSherry, Talwar 2007): on input x, output y with
    probability e^(ε·u(x,y)/2) / Σ_y′ e^(ε·u(x,y′)/2), for a utility ``utility(x, y)`` of exact numbers
    (a function or a dict keyed by (x, y)); with sensitivity max |u(x,y) − u(x′,y)| ≤ 1 over neighbours
    it is ε-DP. One record (n = 1); entries are exact (exp of exact numbers).

    >>> from symbolic.api import PureDP, evaluate
    >>> m = exponential_mechanism(1, lambda x, y: -abs(x - y), domain=(0, 1), outputs=(0, 1, 2))
    >>> evaluate(PureDP, m, E=sp.E), evaluate(PureDP, m, E=sp.exp(sp.Rational(1, 2)))
    (True, False)
    """
    eps = sp.sympify(eps)
    u = utility if callable(utility) else (lambda x, y: utility[(x, y)])
    table = {}
    for x in domain:
        weights = [sp.exp(eps * sp.sympify(u(x, y)) / 2) for y in outputs]
        total = sp.Add(*weights)
        table[(x,)] = {y: w / total for y, w in zip(outputs, weights)}
    return Mechanism.from_table(table, n=1, domain=tuple(domain), outputs=tuple(outputs),
                                name=f"exponential_mechanism(eps={eps})")


def truncated_geometric(E, *, n: int) -> Mechanism:
    """Truncated geometric mechanism for the counting query c(d) = Σ d_i on d ∈ {0,1}^n
    (Ghosh, Roughgarden, Sundararajan): outputs 0..n, α = 1/E,
    Pr[o | c] = (1-α)/(1+α)·α^|o-c| inside, α^|o-c|/(1+α) at o ∈ {0, n}. It is ln E-DP:

    >>> from symbolic.api import PureDP, evaluate
    >>> tg = truncated_geometric(2, n=2)
    >>> tg[(0, 0)], evaluate(PureDP, tg, E=2)
    (Dist({0: 2/3, 1: 1/6, 2: 1/6}), True)
    """
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
    """The mechanism that ignores its input and draws from ``dist`` (0-DP).

    >>> from symbolic.api import PureDP, evaluate
    >>> c = constant({"a": "1/3", "b": "2/3"}, n=1, domain=(0, 1))
    >>> c[(1,)], evaluate(PureDP, c, E=1)
    (Dist({'a': 1/3, 'b': 2/3}), True)
    """
    check_sizes(n=n)
    dist = dist if isinstance(dist, Dist) else Dist(dist)
    domain = tuple(domain)
    return Mechanism.from_table({d: dict(dist.items()) for d in databases(n, domain)}, n=n, domain=domain,
                                outputs=dist.outcomes, name="constant")


def name_and_shame(delta, *, n: int, domain=(0, 1)) -> Mechanism:
    """NS_δ (lecture notes §2.3): each record i is published, as the pair (i, x_i), independently
    with probability δ. An output is the tuple of published entries (None where unpublished).
    It is (0, δ)-DP yet ε-DP for no ε (Dwork and Roth (2014), Sec. 2.3):

    >>> from symbolic.api import ApproxDP, PureDP, evaluate
    >>> ns = name_and_shame("1/10", n=1)
    >>> ns[(1,)]
    Dist({(None,): 9/10, (0,): 0, (1,): 1/10})
    >>> evaluate(ApproxDP, ns, E=1, delta="1/10"), evaluate(PureDP, ns, E=100)
    (True, False)
    """
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
    """Adaptive composition: ``second`` is a Mechanism or a dict first-output -> Mechanism.
    Outputs are pairs; two ln 3-DP releases are ln 9-DP (Dwork and Roth (2014), Sec. 3.5):

    >>> from symbolic.api import PureDP, evaluate
    >>> both = compose(randomized_response(3), randomized_response(3))
    >>> both[(0,)]
    Dist({(0, 0): 9/16, (0, 1): 3/16, (1, 0): 3/16, (1, 1): 1/16})
    >>> evaluate(PureDP, both, E=9), evaluate(PureDP, both, E=3)
    (True, False)
    """
    from symbolic.core.terms import Compose, Fixed, AdaptiveVar
    fam = second if isinstance(second, dict) else {o: second for o in first.outputs}
    if set(fam) != set(first.outputs):
        raise InvalidSize(f"the second stage needs one mechanism per first output {first.outputs}")
    t1 = first.table()
    env = {"_A2": {o: m.table() for o, m in fam.items()}}
    tab = Compose(Fixed(first), AdaptiveVar("_A2", Fixed(first))).eval(ExactOps(), env)
    return Mechanism(first.n, first.domain, tab.outputs,
                     tuple((d, Dist(outcomes=tab.outputs, probs=tab.rows[d])) for d in t1.rows), "composition")


def post_process(mech: Mechanism, kernel: Kernel) -> Mechanism:
    """B∘A for a kernel (a Markov kernel on A's outputs).

    >>> from symbolic.api import Kernel
    >>> flip = Kernel({0: {1: 1}, 1: {0: 1}})
    >>> post_process(randomized_response(3), flip)[(0,)]
    Dist({1: 3/4, 0: 1/4})
    """
    from symbolic.core.terms import PostProcess, Fixed, KernelVar
    missing = [o for o in mech.outputs if o not in kernel.inputs]
    if missing:
        raise InvalidDistribution(f"kernel has no row for outputs {missing}")
    env = {"_K": {**{o: kernel[o].probs for o in mech.outputs}, None: kernel.outputs}}
    tab = PostProcess(Fixed(mech), KernelVar("_K", Fixed(mech))).eval(ExactOps(), env)
    return Mechanism(mech.n, mech.domain, tab.outputs,
                     tuple((d, Dist(outcomes=tab.outputs, probs=tab.rows[d])) for d in tab.rows), "post-processing")
