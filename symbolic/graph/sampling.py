"""Counterexamples by exact evaluation of candidate tables, for pairs the solver cannot state.

When a pair's implication cannot go to the solver (a transcendental notion such as zCDP or Gaussian
DP, or a parameter map with log or exp) or the solver ran out of time, a deterministic family of
candidate mechanisms is evaluated in exact arithmetic (certified intervals where a notion needs
them): randomized-response-shaped tables at several levels, tables with zero entries, and seeded
random tables with small denominators, each at sample values of A's parameters. A table on which A
holds and B fails at the mapped parameters is a counterexample, found and checked without the
solver. Finding none proves nothing: the pair stays unknown.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import sympy as sp

from symbolic.core.errors import DPCheckError, Transcendental
from symbolic.core.exact import at_values
from symbolic.core.ops import ExactOps, UndecidedComparison
from symbolic.core.tables import MechTable, databases
from symbolic.core.verdicts import Counterexample, Sizes
from symbolic.model.population import uniform
from symbolic.solve.queries.every_belief import on_one_table

SAMPLE_LEVELS = (Fraction(3, 2), Fraction(2), Fraction(3))
RANDOM_TABLES = 24


def _rr_table(sizes: Sizes, keep) -> MechTable:
    """Output (sum of the record values' positions) mod |𝒪| kept with weight ``keep``, others weight 1."""
    dom, outs = tuple(range(sizes.domain)), tuple(range(sizes.outputs))
    rows = {}
    for d in databases(sizes.n, dom):
        hit = sum(d) % sizes.outputs
        total = keep + sizes.outputs - 1
        rows[d] = tuple(sp.Rational(keep if o == hit else 1) / total for o in outs)
    return MechTable(sizes.n, dom, outs, rows)


def _random_table(sizes: Sizes, rng: random.Random) -> MechTable:
    dom, outs = tuple(range(sizes.domain)), tuple(range(sizes.outputs))
    rows = {}
    for d in databases(sizes.n, dom):
        den = rng.choice((2, 3, 4, 6))
        cuts = sorted(rng.randint(0, den) for _ in range(sizes.outputs - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]
        rows[d] = tuple(sp.Rational(p, den) for p in parts)
    return MechTable(sizes.n, dom, outs, rows)


def candidate_tables(sizes: Sizes, seed: str):
    """The candidate mechanisms, deterministic for a given seed text."""
    for keep in (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(7), 0):
        yield _rr_table(sizes, sp.Rational(keep.numerator, keep.denominator))
    rng = random.Random(seed)
    for _ in range(RANDOM_TABLES):
        yield _random_table(sizes, rng)


def holds_exactly(notion, table, pop, values):
    """Does ``notion`` hold on the exact ``table`` (population ``pop`` for a notion relative to one)
    at ``values``? True / False by exact evaluation (a notion over all populations on its finite
    sufficient family, or decided for every belief by :mod:`symbolic.solve.queries.every_belief`), None when that
    cannot be decided here: no family and no exact decision, no population for a notion
    that needs one, an undecided certified comparison, a notion that cannot be evaluated on the table."""
    ops = ExactOps()
    try:
        if notion.population in ("all", "product"):
            if notion.sufficient is None:   # decided exactly for every belief, where that is possible
                res = on_one_table(notion(*[values[p.name] for p in notion.params]), table)
                return None if res.status == "undecided" else res.status == "holds"
            return all(bool(notion.body(ops, table, P=q.table(), **values))
                       for q in notion.sufficient(table.n, table.domain))
        if notion.population == "given" and pop is None:
            return None
        return bool(notion.body(ops, table, P=pop, **values))
    except (UndecidedComparison, Transcendental, DPCheckError, ArithmeticError, ValueError, TypeError, KeyError):
        return None


def sample_grid(params) -> list:
    """For each claim parameter, its sample values: the levels of :data:`SAMPLE_LEVELS` in its range, else its
    lower end when that is in range, else none.

    >>> from symbolic.notions.claims import E, Param
    >>> sample_grid((E, Param("delta", lower=0, upper=1)))
    [[3/2, 2, 3], [0]]
    """
    return [[sp.Rational(v.numerator, v.denominator) for v in SAMPLE_LEVELS if p.contains(v)]
            or ([sp.Integer(p.lower)] if p.lower is not None and p.contains(p.lower) else []) for p in params]


def sample_counterexample(a, b, pmap, params, sizes: Sizes, implication: str):
    """A counterexample to "A(a) ⇒ B(map(a))" among the candidates, or None."""
    names = [p.name for p in params]
    grids = sample_grid(params)
    if any(not g for g in grids):
        return None
    needs_pop = "given" in (a.notion.population, b.notion.population)
    pops = [uniform(n=sizes.n, domain=tuple(range(sizes.domain)))] if needs_pop else [None]
    for table in candidate_tables(sizes, f"{a.id}->{b.id}"):
        for combo in itertools.product(*grids):
            avals = dict(zip(names, combo))
            bvals = {k: at_values(v, avals) for k, v in pmap.values.items()}
            for pop in pops:
                ptab = pop.table() if pop is not None else None
                if holds_exactly(a.notion, table, ptab, avals) is not True:
                    continue
                if holds_exactly(b.notion, table, ptab, bvals) is False:
                    return Counterexample(sizes, {"A": table}, {"P": ptab} if ptab is not None else {}, avals,
                                          f"{b.notion.name} fails at {', '.join(f'{k}={v}' for k, v in bvals.items())}",
                                          implication)
    return None
