"""z3 terms as a flat DAG of SMT-LIB operations, and a self-contained SMT-LIB 2 printer.

The engine builds its queries as z3 terms. :func:`lower` reads such terms once into a
:class:`Dag` whose nodes name their operation by its SMT-LIB symbol, with arities made
standard (no one-argument ``+``/``*``/``and``/``or``, powers with a natural exponent expanded
to products). Every backend reads this DAG: :func:`script` prints it as a script that loads
on its own in any SMT-LIB 2 solver (:mod:`symbolic.solve.queries.smt2_export` writes a checked claim's
queries so), :mod:`symbolic.solve.backends.cvc5_backend` builds cvc5 terms from it.

Only the fragment the engine uses is accepted: Boolean connectives, real (and integer)
constants, rational numerals, ``+ - * /``, comparisons, ``ite``, ``to_real``. Anything
else raises :class:`Unsupported`, so a backend answers "unknown" rather than guess.
All walks are iterative (deep sums must not hit Python's recursion limit) and memoised by
z3 term id, so shared sub-terms are read and printed once.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction

import z3

MAX_POWER = 64          # x^k with a natural k up to this is expanded to a product
MAX_INLINE_DEPTH = 40   # deeper inline terms get a name of their own (keeps parsers' stacks small)


class Unsupported(Exception):
    """A z3 term outside the fragment this module translates; ``op`` names what was met."""

    def __init__(self, op: str):
        super().__init__(f"unsupported operator {op}")
        self.op = op


@dataclass(frozen=True)
class Node:
    """One operation of the DAG. ``op`` is an SMT-LIB symbol (``+``, ``<=``, ``ite``, ...) or
    ``const`` (a declared constant named ``value``), ``num`` (a numeral, ``value`` a Fraction),
    ``true``/``false``. ``args`` index earlier nodes. ``sort`` is Real, Int or Bool."""

    op: str
    args: tuple
    sort: str
    value: object = None


@dataclass(frozen=True)
class Dag:
    """Nodes in topological order (arguments first) and the indices of the asserted roots."""

    nodes: tuple
    roots: tuple

    @property
    def logic(self) -> str:
        """QF_NRA for real arithmetic; QF_NIRA once an integer-sorted term occurs."""
        return "QF_NIRA" if any(n.sort == "Int" for n in self.nodes) else "QF_NRA"


_OPS = {
    z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_UMINUS: "-", z3.Z3_OP_MUL: "*", z3.Z3_OP_DIV: "/",
    z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "=",
    z3.Z3_OP_DISTINCT: "distinct", z3.Z3_OP_AND: "and", z3.Z3_OP_OR: "or", z3.Z3_OP_NOT: "not",
    z3.Z3_OP_IMPLIES: "=>", z3.Z3_OP_XOR: "xor", z3.Z3_OP_ITE: "ite", z3.Z3_OP_TO_REAL: "to_real",
    z3.Z3_OP_IFF: "=",
}
_ARITY = {"/": (2, 2), "<=": (2, 2), "<": (2, 2), ">=": (2, 2), ">": (2, 2), "=": (2, 2),
          "distinct": (2, None), "not": (1, 1), "=>": (2, 2), "xor": (2, 2), "ite": (3, 3), "to_real": (1, 1)}
_UNIT = {"+": 0, "*": 1, "and": True, "or": False}   # the value of the empty application
_SORTS = {z3.Z3_REAL_SORT: "Real", z3.Z3_INT_SORT: "Int", z3.Z3_BOOL_SORT: "Bool"}


def _sort(t) -> str:
    """The sort of a z3 term as Real, Int or Bool."""
    kind = t.sort().kind()
    if kind not in _SORTS:
        raise Unsupported(f"of sort {t.sort()}")
    return _SORTS[kind]


def _as_terms(assertions) -> list:
    """The assertions as z3 Booleans of one context (Python bools become true/false in it)."""
    assertions = list(assertions)
    terms = [a for a in assertions if isinstance(a, z3.ExprRef)]
    ctx = terms[0].ctx if terms else None
    out = []
    for a in assertions:
        if isinstance(a, bool):
            a = z3.BoolVal(a, ctx)
        if not isinstance(a, z3.ExprRef):
            raise Unsupported(f"(not a z3 term: {type(a).__name__})")
        if not z3.is_bool(a):
            raise Unsupported(f"(assertion of sort {a.sort()})")
        if out and a.ctx is not out[0].ctx:
            raise Unsupported("(terms of different z3 contexts)")
        out.append(a)
    return out


def _postorder(roots, memo: dict) -> list:
    """The ids of every distinct sub-term of ``roots``, each once, arguments before the terms using them.
    ``memo`` maps a term id to (its argument ids, its recipe): each term is read through z3's API once per
    memo, which a caller may share between queries whose terms stay alive meanwhile (ids are reused only
    after a term is freed)."""
    seen, order, stack = set(), [], [(t, t.get_id(), False) for t in reversed(roots)]
    while stack:
        t, key, expanded = stack.pop()
        if key in seen:
            continue
        if expanded:
            seen.add(key)
            order.append(key)
            continue
        if key not in memo:
            if not z3.is_app(t):
                raise Unsupported("quantifier or bound variable")
            kids = t.children()
            memo[key] = (tuple(c.get_id() for c in kids), _recipe(t), kids)
        stack.append((t, key, True))
        kid_ids, _, kids = memo[key]
        stack.extend((c, i, False) for c, i in zip(reversed(kids), reversed(kid_ids)) if i not in seen)
    return order


class _Builder:
    """Accumulates nodes, sharing identical ones, and maps z3 term ids to node indices."""

    def __init__(self):
        self.nodes, self.index, self.of_term = [], {}, {}

    def add(self, node: Node) -> int:
        """The index of ``node``, appended if new."""
        if node not in self.index:
            self.index[node] = len(self.nodes)
            self.nodes.append(node)
        return self.index[node]

    def unit(self, op: str, sort: str) -> int:
        """The node of an empty ``+``, ``*``, ``and`` or ``or``."""
        v = _UNIT[op]
        if isinstance(v, bool):
            return self.add(Node("true" if v else "false", (), "Bool"))
        return self.add(Node("num", (), sort, Fraction(v)))


def _numeral(t, sort: str) -> Node:
    """A rational z3 numeral as a node (algebraic numbers are unsupported)."""
    if not z3.is_rational_value(t) and not z3.is_int_value(t):
        raise Unsupported("algebraic number")
    if z3.is_int_value(t):
        return Node("num", (), sort, Fraction(t.as_long()))
    return Node("num", (), sort, Fraction(t.numerator_as_long(), t.denominator_as_long()))


def _exponent(t) -> int:
    """The natural exponent 1 ≤ k ≤ MAX_POWER of a z3 power term."""
    exp = t.arg(1)
    k = None
    if z3.is_rational_value(exp) and exp.denominator_as_long() == 1:
        k = exp.numerator_as_long()
    elif z3.is_int_value(exp):
        k = exp.as_long()
    if k is None or not 1 <= k <= MAX_POWER:
        raise Unsupported(f"^ with exponent {exp}")
    return k


def _recipe(t) -> tuple:
    """How one z3 application becomes a node once its arguments are nodes, read from the term alone:
    ("leaf", node), ("power", k, sort) (x^k as the product of k copies of x), ("fold", op, sort) (an
    n-ary +, *, and, or: its unit when empty, its argument when alone), ("node", op, sort), or
    ("unsupported", what) (raised when the term is lowered)."""
    try:
        decl = t.decl()
        kind, sort = decl.kind(), _sort(t)
        if kind == z3.Z3_OP_TRUE or kind == z3.Z3_OP_FALSE:
            return ("leaf", Node("true" if kind == z3.Z3_OP_TRUE else "false", (), "Bool"))
        if kind in (z3.Z3_OP_ANUM, z3.Z3_OP_AGNUM):
            return ("leaf", _numeral(t, sort))
        if kind == z3.Z3_OP_UNINTERPRETED:
            if t.num_args():
                raise Unsupported(f"uninterpreted function {decl.name()}")
            return ("leaf", Node("const", (), sort, decl.name()))
        if kind == z3.Z3_OP_POWER:
            return ("power", _exponent(t), sort)
        if kind not in _OPS:
            raise Unsupported(decl.name())
        op = _OPS[kind]
        if op in _UNIT:
            return ("fold", op, sort)
        n = t.num_args()
        lo, hi = (1, 1) if kind == z3.Z3_OP_UMINUS else (2, None) if kind == z3.Z3_OP_SUB else _ARITY[op]
        if n < lo or (hi is not None and n > hi):
            raise Unsupported(f"{decl.name()} with {n} argument(s)")
        return ("node", op, sort)
    except Unsupported as e:
        return ("unsupported", e.op)


def _apply(recipe: tuple, args: tuple, b: _Builder) -> int:
    """The node index of an application with ``recipe`` (:func:`_recipe`) over argument nodes ``args``."""
    how = recipe[0]
    if how == "leaf":
        return b.add(recipe[1])
    if how == "power":
        _, k, sort = recipe
        return args[0] if k == 1 else b.add(Node("*", (args[0],) * k, sort))
    if how == "fold":
        _, op, sort = recipe
        if len(args) <= 1:
            return args[0] if args else b.unit(op, sort)
        return b.add(Node(op, args, sort))
    if how == "node":
        return b.add(Node(recipe[1], args, recipe[2]))
    raise Unsupported(recipe[1])


def lower(assertions, memo: dict | None = None) -> Dag:
    """Read z3 Booleans (Python bools allowed) into a :class:`Dag`; raises :class:`Unsupported`. ``memo``
    (see :func:`_postorder`) may be shared between calls whose terms all stay alive meanwhile: the terms
    they share are then read from z3 once.

    >>> c1, c2, memo = z3.Context(), z3.Context(), {}
    >>> a = lower([z3.Real("x", c1) > 1], memo)
    >>> b = lower([z3.Real("y", c2) < 2], memo)   # term ids of another context may coincide with c1's
    >>> [(n.op, n.value) for n in b.nodes]
    [('const', 'y'), ('num', Fraction(2, 1)), ('<', None)]
    """
    roots = _as_terms(assertions)
    if memo is None or (roots and memo.setdefault("context", roots[0].ctx) is not roots[0].ctx):
        memo = {}   # ids are per z3 context
    b = _Builder()
    for key in _postorder(roots, memo):
        kid_ids, recipe, _ = memo[key]
        b.of_term[key] = _apply(recipe, tuple(b.of_term[i] for i in kid_ids), b)
    return Dag(tuple(b.nodes), tuple(b.of_term[r.get_id()] for r in roots))


def renaming_key(nodes, roots, logic: str) -> str:
    """A key equal for two DAGs exactly when they are the same formula up to a renaming of their
    constants: ``nodes`` are ``(op, args, sort, value)`` in topological order (a :class:`Dag`'s, or a
    backend's plain copy of them); each constant is renamed by its first appearance, sorts, numerals,
    operators, structure, roots and logic are kept. Equal keys are equisatisfiable formulas.

    >>> x, y = z3.Reals("x y")
    >>> dag_key(lower([x * y > 1, x < 1])) == dag_key(lower([y * x > 1, y < 1]))
    True
    >>> dag_key(lower([x * y > 1, y < 1])) == dag_key(lower([x * y > 1, x < 1]))
    False
    """
    names, out = {}, []
    for op, args, sort, value in nodes:
        if op == "const":
            value = names.setdefault(value, f"c{len(names)}")
        out.append([op, list(args), sort, str(value)])
    text = json.dumps([out, list(roots), logic], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def dag_key(dag: Dag) -> str:
    """:func:`renaming_key` of a :class:`Dag`."""
    return renaming_key(((n.op, n.args, n.sort, n.value) for n in dag.nodes), dag.roots, dag.logic)


# --- printing -------------------------------------------------------------------------------------

_SIMPLE = re.compile(r"[A-Za-z~!@$%^&*_+=<>.?/\-][0-9A-Za-z~!@$%^&*_+=<>.?/\-]*\Z")
_RESERVED = {"par", "NUMERAL", "DECIMAL", "STRING", "_", "!", "as", "let", "exists", "forall", "match",
             "true", "false", "not", "and", "or", "xor", "ite", "distinct", "to_real", "to_int", "is_int",
             "abs", "div", "mod", "Real", "Int", "Bool"}


def _symbol(name: str) -> str | None:
    """``name`` as an SMT-LIB symbol (plain, or quoted with bars), None if it cannot be written
    portably (bars, backslashes, non-ASCII or control characters)."""
    if _SIMPLE.match(name) and name not in _RESERVED and not name.startswith("@"):
        return name
    if name and "|" not in name and "\\" not in name and name.isascii() and name.isprintable():
        return f"|{name}|"
    return None


def _bare(sym: str) -> str:
    """The symbol a printed name denotes (``|x|`` and ``x`` are the same symbol)."""
    return sym[1:-1] if sym.startswith("|") else sym


def _number(x: Fraction, sort: str) -> str:
    """A numeral: ``2.0``, ``(- 2.0)``, ``(/ 1.0 3.0)``, ``(- (/ 1.0 3.0))`` (integers without ``.0``)."""
    dot = ".0" if sort == "Real" else ""
    mag = abs(x)
    text = f"{mag.numerator}{dot}" if mag.denominator == 1 else f"(/ {mag.numerator}{dot} {mag.denominator}{dot})"
    return f"(- {text})" if x < 0 else text


def _constant_names(dag: Dag, named: set) -> dict:
    """A unique printable symbol for every constant node, distinct from the names ``t!<i>`` of
    shared sub-terms (renamed to ``k!<i>`` where needed)."""
    names, used = {}, {f"t!{i}" for i in named}
    for i, n in enumerate(dag.nodes):
        if n.op != "const":
            continue
        sym, extra = _symbol(n.value), 0
        while sym is None or _bare(sym) in used:
            sym, extra = f"k!{i}" + "!" * extra, extra + 1
        used.add(_bare(sym))
        names[i] = sym
    return names


def _named(dag: Dag) -> set:
    """Indices of non-leaf nodes printed once under a name: those used more than once, and those
    whose inline text would nest deeper than MAX_INLINE_DEPTH."""
    uses = [0] * len(dag.nodes)
    for n in dag.nodes:
        for a in n.args:
            uses[a] += 1
    named, depth = set(), [0] * len(dag.nodes)
    for i, n in enumerate(dag.nodes):
        if not n.args:
            continue
        depth[i] = 1 + max(depth[a] for a in n.args)
        if uses[i] > 1 or depth[i] > MAX_INLINE_DEPTH:
            named.add(i)
            depth[i] = 0
    return named


def _texts(dag: Dag, names: dict, named: set) -> list:
    """The inline text of every node, a name standing for each named argument."""
    texts = [""] * len(dag.nodes)
    refer = lambda a: f"t!{a}" if a in named else texts[a]
    for i, n in enumerate(dag.nodes):
        if n.op == "const":
            texts[i] = names[i]
        elif n.op == "num":
            texts[i] = _number(n.value, n.sort)
        elif n.op in ("true", "false"):
            texts[i] = n.op
        else:
            texts[i] = f"({n.op} {' '.join(refer(a) for a in n.args)})"
    return texts


def script(assertions, *, comment: str = "") -> str:
    """A complete SMT-LIB 2 script asserting the conjunction of ``assertions`` (z3 Booleans,
    Python bools allowed): logic, one ``declare-fun`` per constant, one ``define-fun`` per shared
    sub-term, one ``assert`` per assertion, ``(check-sat)``. Raises :class:`Unsupported`."""
    dag = lower(assertions)
    named = _named(dag)
    names = _constant_names(dag, named)
    texts = _texts(dag, names, named)
    lines = [f"; {line}".rstrip() for line in comment.splitlines()]
    lines.append(f"(set-logic {dag.logic})")
    lines += [f"(declare-fun {names[i]} () {dag.nodes[i].sort})" for i in sorted(names)]
    lines += [f"(define-fun t!{i} () {dag.nodes[i].sort} {texts[i]})" for i in sorted(named)]
    lines += [f"(assert {f't!{r}' if r in named else texts[r]})" for r in dag.roots]
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"
