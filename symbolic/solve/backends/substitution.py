"""A query with its linear equalities solved: the same question with fewer unknowns, for the second solver.

The proofs' queries state each table's rows as ``a + b + c = 1`` and weigh them by a population that sums
to one as well, so their polynomials carry unknowns that one equality fixes. cvc5's coverings (a complete
procedure for nonlinear real arithmetic, doubly exponential in the number of unknowns) does not substitute
such equalities into products; on the query of statistical nondisclosure at two individuals and three
outputs (16 unknowns) it spent 2.8 s of processor time, and on the same query with five unknowns solved
away it answers in 0.01 s.

The rewrite, in exact rational arithmetic, independent of z3 (it reads the payload of
:func:`~symbolic.solve.backends.cvc5_backend.payload`):

1. every arithmetic term becomes a polynomial with rational coefficients (sums, differences, products,
   division by a numeral); every comparison ``s ⋈ t`` becomes ``s − t ⋈ 0``, which holds exactly when the
   comparison does;
2. while an asserted conjunct is an equality ``c·x + L = 0`` with ``L`` linear, ``x`` absent from ``L`` and
   ``c ≠ 0`` rational, ``x := −L/c`` is substituted into every other conjunct and that equality is dropped.
   In every model of the query ``x`` has this value, and every model of the rewritten query extends to one
   of the query by it, so the two are equisatisfiable (an "unsat" of either is an "unsat" of both);
3. comparisons of constants are evaluated.

A conditional term ``ite(c, s, t)`` becomes a fresh unknown ``u`` with the conjunct ``(c ∧ u = s) ∨ (¬c ∧ u = t)``
(every model of the query extends by ``u`` := the term's value, and in every model of the result ``u`` is
that value). A query with a term outside this fragment (an integer, a division by an unknown) or a
polynomial past :data:`MAX_TERMS` monomials is left as it is (:func:`substituted` says None).

The rewrite's work is counted, not timed: each monomial added or multiplied is one operation, and a
rewrite given ``ops`` operations (:func:`attempt`) stops at that count, on any machine and under any load,
the same query giving up at the same point. The second solver gives it :func:`ops_for` its stage's share of
the query's cvc5 units.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction

MAX_TERMS = 4000        # monomials of one polynomial before the rewrite gives up (the query stays as it is)
MAX_PAIRS = 200_000     # products of monomials in one multiplication before it gives up
OPS_PER_UNIT = 5        # rewrite operations a cvc5 resource unit of the stage allows: a sixteenth of the ci effort
                        # allows 75,000, nine times what the catalogue's largest rewrite spends

_RELATIONS = {"<=", "<", ">=", ">", "="}
_BOOLEAN = {"and", "or", "not", "=>", "xor", "true", "false"}


class _Outside(Exception):
    """A term the rewrite does not handle; the query is then left as it is."""


class _OutOfWork(_Outside):
    """The rewrite spent the operations it was given; the query is then left as it is."""


class _Work(threading.local):
    """The operations the rewrite running in this thread has spent, and its limit (None: none)."""

    spent, limit = 0, None


_WORK = _Work()


def _spend(n: int) -> None:
    _WORK.spent += n
    if _WORK.limit is not None and _WORK.spent > _WORK.limit:
        raise _OutOfWork(f"past its {_WORK.limit:,} operations")


def ops_for(units: int, share: float = 1.0) -> int:
    """The rewrite operations of a stage with ``share`` of ``units`` cvc5 resource units (at least 1).

    >>> ops_for(240_000, 1 / 16)
    75000
    """
    return max(1, int(units * share * OPS_PER_UNIT))


# A polynomial: {monomial: coefficient}, a monomial a sorted tuple of (unknown, exponent) pairs, () the constant.

def _add(p: dict, q: dict, scale: Fraction = Fraction(1)) -> dict:
    _spend(len(q) + 1)
    out = dict(p)
    for m, c in q.items():
        v = out.get(m, 0) + scale * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def _monomial_product(m: tuple, n: tuple) -> tuple:
    exps = dict(m)
    for x, e in n:
        exps[x] = exps.get(x, 0) + e
    return tuple(sorted(exps.items()))


def _mul(p: dict, q: dict) -> dict:
    if len(p) * len(q) > MAX_PAIRS:
        raise _Outside(f"a product of over {MAX_PAIRS} pairs of monomials")
    _spend(len(p) * len(q) + 1)
    out: dict = {}
    for m, c in p.items():
        for n, d in q.items():
            k = _monomial_product(m, n)
            v = out.get(k, 0) + c * d
            if v:
                out[k] = v
            else:
                out.pop(k, None)
    if len(out) > MAX_TERMS:
        raise _Outside(f"a polynomial of over {MAX_TERMS} monomials")
    return out


def _constant(c) -> dict:
    return {(): Fraction(c)} if c else {}


def _degree(p: dict) -> int:
    return max((sum(e for _, e in m) for m in p), default=0)


def _substitute(p: dict, x: str, value: dict) -> dict:
    """``p`` with the unknown ``x`` replaced by the polynomial ``value``."""
    out: dict = {}
    powers = {0: _constant(1)}
    for m, c in p.items():
        e = dict(m).pop(x, 0)
        if not e:
            out = _add(out, {m: c})
            continue
        while max(powers) < e:
            powers[max(powers) + 1] = _mul(powers[max(powers)], value)
        rest = tuple((y, k) for y, k in m if y != x)
        out = _add(out, _mul({rest: c}, powers[e]))
    if len(out) > MAX_TERMS:
        raise _Outside(f"a polynomial of over {MAX_TERMS} monomials")
    return out


# A formula: ("atom", op, polynomial) for ``polynomial op 0``, (op, children) for a Boolean connective,
# ("true",) / ("false",).

def _read(data: dict) -> list:
    """(formulas, fresh): the payload's roots as formulas over polynomials, with a definition of each
    conditional term's fresh unknown, and those unknowns with the index of the node each stands for;
    raises :class:`_Outside` past the fragment."""
    nodes, memo, defined, fresh = data["nodes"], {}, [], []
    taken = {str(n[3]) for n in nodes if n[0] == "const"}
    for i, (op, args, sort, value) in enumerate(nodes):
        _spend(1)
        a = [memo[j] for j in args]
        if sort == "Real":
            if op == "const":
                memo[i] = {((str(value), 1),): Fraction(1)}
            elif op == "num":
                try:
                    memo[i] = _constant(Fraction(str(value)))
                except (ValueError, ZeroDivisionError):
                    raise _Outside(f"numeral {value!r}") from None
            elif op == "+":
                out: dict = {}
                for t in a:
                    out = _add(out, t)
                memo[i] = out
            elif op == "-" and len(a) >= 2:
                out = a[0]
                for t in a[1:]:
                    out = _add(out, t, Fraction(-1))
                memo[i] = out
            elif op in ("neg", "-") and len(a) == 1:
                memo[i] = _add({}, a[0], Fraction(-1))
            elif op == "*":
                out = _constant(1)
                for t in a:
                    out = _mul(out, t)
                memo[i] = out
            elif op == "/" and len(a) == 2 and _degree(a[1]) == 0 and a[1]:
                memo[i] = _add({}, a[0], 1 / a[1][()])
            elif op == "ite" and len(a) == 3 and isinstance(a[0], tuple) and all(isinstance(t, dict) for t in a[1:]):
                t = _fresh(f"ite!{i}", taken)   # t stands for the conditional term; t is its value in every model
                memo[i] = {((t, 1),): Fraction(1)}
                fresh.append((t, i))
                cond, then, other = a
                defined.append(("or", (("and", (cond, ("atom", "=", _add(memo[i], then, Fraction(-1))))),
                                       ("and", (("not", (cond,)), ("atom", "=", _add(memo[i], other, Fraction(-1))))))))
            else:
                raise _Outside(f"real term {op}")
        elif sort == "Bool":
            if op in _RELATIONS and len(a) == 2 and all(isinstance(t, dict) for t in a):
                memo[i] = ("atom", op, _add(a[0], a[1], Fraction(-1)))
            elif op in ("true", "false"):
                memo[i] = (op,)
            elif op in _BOOLEAN and all(isinstance(t, tuple) for t in a):
                memo[i] = (op, tuple(a))
            else:
                raise _Outside(f"Boolean term {op}")
        else:
            raise _Outside(f"sort {sort}")
    return [memo[r] for r in data["roots"]] + defined, tuple(fresh)


def _fresh(name: str, taken: set) -> str:
    """``name``, or it with primes, whichever no unknown of the query has; then taken."""
    while name in taken:
        name += "'"
    taken.add(name)
    return name


def _conjuncts(formulas) -> list:
    out = []
    for f in formulas:
        if f[0] == "and":
            out.extend(_conjuncts(f[1]))
        elif f != ("true",):
            out.append(f)
    return out


def _solvable(f) -> tuple | None:
    """(x, value) when ``f`` is an equality ``c·x + L = 0``, ``L`` linear and free of ``x``, else None. Of the
    unknowns that qualify, the greatest name is solved for (the same choice on every run)."""
    if f[0] != "atom" or f[1] != "=" or _degree(f[2]) != 1:
        return None
    p = f[2]
    xs = sorted((m[0][0] for m in p if m), reverse=True)
    if not xs:
        return None
    x = xs[0]
    c = p[((x, 1),)]
    rest = {m: v for m, v in p.items() if m != ((x, 1),)}
    return x, _add({}, rest, -1 / c)


def _map_atoms(f, fn, memo: dict):
    """``f`` with ``fn`` applied to each atom; ``memo`` (by the identity of a sub-formula, which the caller
    keeps alive) visits a sub-formula shared by several connectives once."""
    if id(f) not in memo:
        _spend(1)
        if f[0] == "atom":
            memo[id(f)] = fn(f)
        elif f[0] in ("true", "false"):
            memo[id(f)] = f
        else:
            memo[id(f)] = (f[0], tuple(_map_atoms(g, fn, memo) for g in f[1]))
    return memo[id(f)]


def _map_all(formulas: list, fn) -> list:
    memo: dict = {}
    return [_map_atoms(f, fn, memo) for f in formulas]


def _decided(f):
    """An atom whose polynomial is a constant, as true or false."""
    op, p = f[1], f[2]
    if _degree(p) > 0:
        return f
    c = p.get((), Fraction(0))
    holds = {"<=": c <= 0, "<": c < 0, ">=": c >= 0, ">": c > 0, "=": c == 0}[op]
    return ("true",) if holds else ("false",)


def _value(p, point: dict) -> Fraction:
    total = Fraction(0)
    for m, c in p:
        term = Fraction(c)
        for x, e in m:
            term *= Fraction(point.get(x, 0)) ** e
        total += term
    return total


@dataclass(frozen=True)
class Substituted:
    """The rewritten query as a payload (``data``); the unknowns solved away, in the order they were
    solved, each with its value: a polynomial in the unknowns left at that point, as (monomial,
    coefficient) pairs (``solved``); the fresh unknowns that stand for the query's conditional terms,
    each with the index of its node in the query (``fresh``)."""

    data: dict
    solved: tuple
    fresh: tuple = ()

    def extend(self, point: dict) -> dict:
        """``point`` (rational values of the rewritten query's unknowns) with the values of the unknowns
        solved away: a model of the rewritten query extends so to a model of the query. An unknown that a
        solved value reads but the rewritten query no longer has takes 0 (any value would do)."""
        out = dict(point)
        for x, value in reversed(self.solved):
            out[x] = _value(value, out)
        return out

    def text(self) -> str:
        """The substitutions made, e.g. ``b := 1 - a``."""
        return ", ".join(f"{x} := {_text(dict(v))}" for x, v in self.solved)


def _text(p: dict) -> str:
    """A polynomial as text, e.g. ``1 - a - 1/2·b``."""
    out = ""
    for m, c in sorted(p.items()):
        mono = "·".join(x if e == 1 else f"{x}^{e}" for x, e in m)
        body = f"{abs(c)}" if not m else (mono if abs(c) == 1 else f"{abs(c)}·{mono}")
        out += (("-" if c < 0 else "") if not out else (" - " if c < 0 else " + ")) + body
    return out or "0"


class _Writer:
    """Payload nodes, each distinct node once."""

    def __init__(self):
        self.nodes, self.index, self.done = [], {}, {}   # done: a formula's node, by the formula's identity

    def node(self, op, args, sort, value=None) -> int:
        _spend(1)
        key = (op, tuple(args), sort, value)
        if key not in self.index:
            self.index[key] = len(self.nodes)
            self.nodes.append([op, list(args), sort, value])
        return self.index[key]

    def num(self, c: Fraction) -> int:
        return self.node("num", [], "Real", f"{c.numerator}/{c.denominator}")

    def poly(self, p: dict) -> int:
        terms = []
        for m, c in sorted(p.items()):
            factors = [self.node("const", [], "Real", x) for x, e in m for _ in range(e)]
            if c != 1 or not factors:
                factors.insert(0, self.num(c))
            terms.append(factors[0] if len(factors) == 1 else self.node("*", factors, "Real"))
        if not terms:
            return self.num(Fraction(0))
        return terms[0] if len(terms) == 1 else self.node("+", terms, "Real")

    def formula(self, f) -> int:
        if id(f) not in self.done:
            self.done[id(f)] = self._formula(f)
        return self.done[id(f)]

    def _formula(self, f) -> int:
        if f[0] == "atom":
            return self.node(f[1], [self.poly(f[2]), self.num(Fraction(0))], "Bool")
        if f[0] in ("true", "false"):
            return self.node(f[0], [], "Bool")
        return self.node(f[0], [self.formula(g) for g in f[1]], "Bool")


def substituted(data: dict, ops: int | None = None) -> Substituted | None:
    """The query ``data`` (a payload) with its asserted linear equalities solved and substituted, or None
    when it has none, has a term outside the fragment (see the module's text) or the rewrite would take
    more than ``ops`` operations (None: no limit).

    >>> q = {"nodes": [["const", [], "Real", "a"], ["const", [], "Real", "b"], ["num", [], "Real", "1/1"],
    ...                ["+", [0, 1], "Real", None], ["=", [3, 2], "Bool", None], ["*", [0, 1], "Real", None],
    ...                [">", [5, 2], "Bool", None]], "roots": [4, 6], "logic": "QF_NRA"}
    >>> s = substituted(q)
    >>> s.text(), s.extend({"a": Fraction(1, 4)})
    ('b := 1 - a', {'a': Fraction(1, 4), 'b': Fraction(3, 4)})
    >>> [n for n in s.data["nodes"] if n[0] == "const"]
    [['const', [], 'Real', 'a']]
    """
    return attempt(data, ops)[0]


def attempt(data: dict, ops: int | None = None) -> tuple:
    """(:func:`substituted` ``data``, the operations the rewrite spent, whether it stopped at ``ops``).

    >>> q = {"nodes": [["const", [], "Real", "a"], ["num", [], "Real", "1/1"], ["=", [0, 1], "Bool", None]],
    ...      "roots": [2], "logic": "QF_LRA"}
    >>> [(s is not None, spent, out) for s, spent, out in (attempt(q), attempt(q, ops=1))]
    [(True, 8, False), (False, 2, True)]
    """
    before = (_WORK.spent, _WORK.limit)
    _WORK.spent, _WORK.limit = 0, ops
    try:
        return _rewrite(data), _WORK.spent, False
    except _OutOfWork:
        return None, _WORK.spent, True
    except (_Outside, RecursionError):   # a formula nested past Python's recursion limit stays as it is
        return None, _WORK.spent, False
    finally:
        _WORK.spent, _WORK.limit = before


def _rewrite(data: dict) -> Substituted | None:
    formulas, fresh = _read(data)
    formulas, solved = _conjuncts(formulas), []
    while True:
        found = next(((i, sol) for i, f in enumerate(formulas) if (sol := _solvable(f)) is not None), None)
        if found is None:
            break
        k, (x, value) = found
        formulas.pop(k)
        formulas = _map_all(formulas, lambda a: ("atom", a[1], _substitute(a[2], x, value)))
        solved.append((x, tuple(sorted(value.items()))))
    if not solved:
        return None
    formulas = _map_all(formulas, _decided)
    w = _Writer()
    roots = []
    for f in formulas:
        r = w.formula(f)
        if r not in roots:
            roots.append(r)
    if not roots:
        roots.append(w.node("true", [], "Bool"))
    return Substituted({"nodes": w.nodes, "roots": roots, "logic": data["logic"]}, tuple(solved), fresh)
