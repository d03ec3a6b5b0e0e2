"""Populations: joint distributions over 𝒟^n (the attributes R_i, with D_i := R_i).

>>> iid(Dist.uniform((0, 1)), n=2).prob((0, 1))
1/4
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core.errors import InvalidDistribution, clip
from symbolic.core.prob import Dist, check_row
from symbolic.core.tables import PopTable, databases


@dataclass(frozen=True, eq=False)
class Population:
    """A population 𝒫: a joint distribution over the databases 𝒟^n (``table`` maps databases to
    exact probabilities; those left out have probability 0). The associative and Bayesian notions
    are relative to one (Tschantz, Sen, Datta (2020), Sec. 3).

    >>> from symbolic.api import StrongAdversaryDPFor, evaluate, randomized_response
    >>> P = Population({(0,): "1/4", (1,): "3/4"}, n=1, domain=(0, 1))
    >>> P, P.prob((1,))
    (Population({(0,): 1/4, (1,): 3/4}), 3/4)
    >>> evaluate(StrongAdversaryDPFor, randomized_response(3), population=P, E=3)
    True
    """

    n: int
    domain: tuple
    probs: tuple  # aligned with databases(n, domain)
    name: str = "population"

    def __init__(self, table: dict, *, n: int, domain, name="population"):
        from symbolic.model.mechanism import count_databases
        domain = tuple(domain)
        count_databases(n, len(domain), what="the population")
        dbs = databases(n, domain)
        db_set = set(dbs)
        extra = [k for k in table if k not in db_set]
        if extra:
            raise InvalidDistribution(f"population entries {clip(extra[:3])} are not databases over "
                                      f"{clip(domain, 40)}^{n}")
        probs = check_row([table.get(d, 0) for d in dbs], what=name)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "probs", probs)
        object.__setattr__(self, "name", name)

    def prob(self, d):
        return self.probs[databases(self.n, self.domain).index(tuple(d))]

    def table(self) -> PopTable:
        return PopTable(self.n, self.domain, dict(zip(databases(self.n, self.domain), self.probs)))

    def __repr__(self):
        nz = {d: p for d, p in zip(databases(self.n, self.domain), self.probs) if p != 0}
        return f"Population({nz})"


def joint(table: dict, *, n: int, domain) -> Population:
    """A population given by its joint table (databases -> probabilities), such as two perfectly
    correlated bits:

    >>> joint({(0, 0): "1/2", (1, 1): "1/2"}, n=2, domain=(0, 1))
    Population({(0, 0): 1/2, (1, 1): 1/2})
    """
    return Population(table, n=n, domain=domain, name="joint")


def product(marginals) -> Population:
    """Independent data points with the given marginals (one Dist per index).

    >>> product([{0: "1/3", 1: "2/3"}, {0: "1/2", 1: "1/2"}])
    Population({(0, 0): 1/6, (0, 1): 1/6, (1, 0): 1/3, (1, 1): 1/3})
    """
    marginals = [m if isinstance(m, Dist) else Dist(m) for m in marginals]
    domain = marginals[0].outcomes
    if any(m.outcomes != domain for m in marginals):
        raise InvalidDistribution("all marginals must be over the same domain")
    n = len(marginals)
    return Population({d: sp.Mul(*[m[v] for m, v in zip(marginals, d)]) for d in databases(n, domain)},
                      n=n, domain=domain, name="product")


def iid(marginal, *, n: int) -> Population:
    """n independent data points, each drawn from ``marginal``.

    >>> iid({0: "1/4", 1: "3/4"}, n=2).prob((1, 1))
    9/16
    """
    marginal = marginal if isinstance(marginal, Dist) else Dist(marginal)
    return product([marginal] * n)


def point_mass(d, *, domain) -> Population:
    """The population that is the database ``d`` with certainty.

    >>> point_mass((0, 1), domain=(0, 1))
    Population({(0, 1): 1})
    """
    d = tuple(d)
    return Population({d: 1}, n=len(d), domain=domain, name="point mass")


def uniform(*, n: int, domain) -> Population:
    """Every database of 𝒟^n equally likely.

    >>> uniform(n=1, domain=(0, 1, 2))
    Population({(0,): 1/3, (1,): 1/3, (2,): 1/3})
    """
    dbs = databases(n, tuple(domain))
    return Population({d: sp.Rational(1, len(dbs)) for d in dbs}, n=n, domain=domain, name="uniform")


def simple_populations(*, n: int, domain, product: bool = False):
    """Point masses, the uniform population, and uniform populations on two databases (perfectly
    correlated ones among them); with ``product``, only those that are products (the pairs then
    differ in one record). The first beliefs to try against a notion over every population.

    >>> len(simple_populations(n=1, domain=(0, 1)))
    4
    """
    dbs = databases(n, tuple(domain))
    out = [point_mass(d, domain=domain) for d in dbs]
    out.append(uniform(n=n, domain=domain))
    for i, x in enumerate(dbs):
        for y in dbs[i + 1:]:
            if product and sum(a != b for a, b in zip(x, y)) != 1:
                continue
            out.append(Population({x: sp.Rational(1, 2), y: sp.Rational(1, 2)}, n=n, domain=domain))
    return out


def population_from_json(doc, *, n: int, domain, name: str = "population") -> Population:
    """A population from JSON: an object mapping databases "a,b" to probabilities (integers or strings
    "3/8"); databases left out have probability 0. Checked like a mechanism table, never evaluated.

    >>> population_from_json({"0,1": "1/2", "1,1": "1/2"}, n=2, domain=(0, 1))
    Population({(0, 1): 1/2, (1, 1): 1/2})
    """
    from symbolic.model.mechanism import MAX_FILE_DATABASES, count_databases
    from symbolic.model.table_file import _kind, keyed_by_database
    if not isinstance(doc, dict) or not doc:
        raise InvalidDistribution(f'the population must be a non-empty JSON object like {{"0": "1/2", "1": "1/2"}}; '
                                  f"got a {_kind(doc)}")
    count_databases(n, len(domain), limit=MAX_FILE_DATABASES, what="the population file")
    return Population(keyed_by_database(doc, n, domain, "in the population"), n=n, domain=domain, name=name)
