"""The second solver (cvc5 through its API) and the SMT-LIB printer, against z3 on catalogue queries.

A disagreement between definite answers fails; so does a script that does not load on its own
in z3 or cvc5, a one-argument ``(+ x)``, or a crash on an operator outside the fragment.
"""
from __future__ import annotations

import re

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.solve.backends.smt_scripts import cvc5_script_status
from symbolic.solve.backends import cvc5_backend
from symbolic.solve.backends.cvc5_backend import version
from symbolic.solve.backends.cvc5_child import decide, decide_timed
from symbolic.solve.queries.encode import Encoding, const_population
from symbolic.model.population import uniform
from symbolic.solve.backends.smt2 import Unsupported, lower, script
from symbolic.core.verdicts import Sizes
from theorems.registry import claims

TIMEOUT = 8.0

# The module builds z3 terms when it is collected, in z3's default context of that moment. The engine
# starts a fresh default context for every claim (symbolic.solve.queries.solver.fresh_context), so a test
# file that runs before this one would leave these terms in a context that is no longer the default;
# every test here therefore runs with the default context put back to the one its terms live in.
_CONTEXT = z3.main_ctx()


def _restore_context():
    import z3.z3 as core
    core._main_ctx = _CONTEXT


@pytest.fixture(autouse=True, scope="module")
def _module_terms_context():
    """Before the module's own module-scoped fixtures build their queries."""
    _restore_context()


@pytest.fixture(autouse=True)
def _terms_context():
    _restore_context()


def query(claim_id: str, part: int, sizes: Sizes | None = None, drop_hypotheses=False) -> list:
    """The full negated query of one part (or proof check) of a catalogue claim: ranges and simplices, hypotheses,
    side constraints, ∀𝒫 hypotheses at the uniform population, and ¬conclusion as one disjunction."""
    claim = claims()[claim_id]
    imp = claim.parts[part] if claim.parts else claim.proof.steps[part].implication   # a proof's check
    enc = Encoding(imp, claim.params, sizes or imp.sizes or claim.sizes, dict(imp.parameters))
    inst = [enc.eval(ni, const_population(uniform(n=enc.sizes.n, domain=enc.domain))) for ni in enc.universal]
    hyps = [] if drop_hypotheses else enc.hyps + inst
    return enc.base + hyps + enc.ops.side + [z3.Or(enc.negated_conclusion_parts())]


def z3_status(assertions, seconds=TIMEOUT) -> str:
    """z3's answer on the conjunction of ``assertions``."""
    s = z3.Solver()
    s.set("timeout", int(1000 * seconds))
    s.add([z3.BoolVal(a) if isinstance(a, bool) else a for a in assertions])
    return str(s.check())


TOKEN = re.compile(r"\(|\)|\|[^|]*\||[^\s()|]+")


def sexprs(text: str) -> list:
    """Every parenthesised application of a script as a list of its tokens (nested lists included;
    a quoted symbol such as ``|A[0, 1][0]|`` is one token)."""
    apps, stack = [], []
    for tok in TOKEN.findall(text):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            apps.append(done)
            if stack:
                stack[-1].append(done)
        elif stack:
            stack[-1].append(tok)
    return apps


def strip_comments(text: str) -> str:
    """The script without its comment lines."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(";"))


CASES = [  # (claim, part, sizes, expected status of the one monolithic negated query at those sizes)
    ("T-P1", 0, Sizes(1, 2, 2), "unsat"),          # DP ⇒ the causal notion, nonlinear in E
    ("T-P1", 1, Sizes(1, 2, 2), "unsat"),          # a ∀𝒫 (CEGIS) hypothesis, at the uniform population
    ("T-L1", 0, Sizes(2, 2, 2), "unsat"),
    ("S-TH3", 0, Sizes(1, 3, 2), "unsat"),         # pointwise maximal leakage
    ("K-2.2.step2", 0, Sizes(1, 2, 2), "unsat"),   # semantic privacy, a fixed population
    ("T-P4.converse", 0, Sizes(2, 3, 2), "sat"),   # a false claim
]


@pytest.fixture(scope="module")
def queries():
    return {(c, p, s): query(c, p, s) for c, p, s, _ in CASES}


@pytest.mark.parametrize("cid,part,sizes,expected", CASES)
def test_cvc5_agrees_with_z3_on_catalogue_queries(queries, cid, part, sizes, expected):
    q = queries[(cid, part, sizes)]
    assert z3_status(q) == expected
    status, reason = decide(q, timeout=TIMEOUT)
    assert status == expected, reason


@pytest.mark.parametrize("cid,part,sizes,expected", CASES)
def test_script_loads_alone_in_z3_and_cvc5(queries, cid, part, sizes, expected):
    text = script(queries[(cid, part, sizes)], comment=f"{cid} part {part}\nsecond line")
    assert z3_status(z3.parse_smt2_string(text)) == expected
    assert cvc5_script_status(text, TIMEOUT) == expected
    assert text.count("(check-sat)") == 1 and text.startswith("; ")


def test_sexpr_reader_sees_single_arguments():
    assert ["+", "|A[0, 1][0]|"] in sexprs("(assert (<= (+ |A[0, 1][0]|) 1.0))")


def test_no_single_argument_applications(queries):
    for q in queries.values():
        for app in sexprs(strip_comments(script(q))):
            head = app[0] if app and isinstance(app[0], str) else None
            if head in ("+", "*", "and", "or", "-", "/", "<=", "<", ">=", ">", "=", "=>", "distinct"):
                assert len(app) >= 2 + (head not in ("-",)), app


def test_one_declaration_per_constant(queries):
    q = queries[("T-P1", 0, Sizes(1, 2, 2))]
    text = script(q)
    decls = [line.split()[1] for line in text.splitlines() if line.startswith("(declare-fun")]
    assert len(decls) == len(set(decls))
    names = {str(v) for v in _constants(q)}
    assert len(decls) == len(names)


def _constants(assertions):
    """The uninterpreted constants of z3 terms."""
    out, seen, todo = set(), set(), list(assertions)
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(t)
        todo.extend(t.children())
    return out


def test_false_claim_without_its_hypotheses_is_sat():
    q = query("T-P1", 0, Sizes(1, 2, 2), drop_hypotheses=True)
    assert decide(q, timeout=TIMEOUT)[0] == "sat"


# --- operators outside the fragment, odd inputs -----------------------------------------------------

x, y, z = z3.Reals("x y z")
UNSUPPORTED = [
    ([z3.Int("i") % 2 == 1], "mod"),
    ([z3.Function("f", z3.RealSort(), z3.RealSort())(x) > 0], "uninterpreted function f"),
    ([z3.ForAll([x], x * x >= 0)], "quantifier"),
    ([z3.Sqrt(x) == y], "^ with exponent"),
    ([x ** 0 == 1], "^ with exponent"),
]


@pytest.mark.parametrize("assertions,what", UNSUPPORTED)
def test_unsupported_operator_is_unknown_with_reason(assertions, what):
    status, reason = decide(assertions, timeout=2, isolate=False)
    assert status == "unknown"
    assert reason.startswith("cvc5 converter: unsupported operator") and what in reason
    with pytest.raises(Unsupported):
        script(assertions)


def test_python_bools_and_empty_queries():
    assert decide([True], timeout=2, isolate=False)[0] == "sat"
    assert decide([], timeout=2, isolate=False)[0] == "sat"
    assert decide([x > 0, False], timeout=2, isolate=False)[0] == "unsat"
    assert "(assert false)" in script([x > 0, False])


def test_bad_timeout_is_an_error():
    for bad in (0, -1, float("nan"), float("inf"), True):
        with pytest.raises(ValueError):
            decide([x > 0], timeout=bad)


def test_isolated_and_in_process_agree_and_report_version():
    q = [x * y > 1, x < 0, y > 0]
    assert decide(q, timeout=3)[0] == decide(q, timeout=3, isolate=False)[0] == "unsat"
    assert version().startswith("cvc5 1.")
    assert version().split()[1] in decide(q, timeout=3)[1]


def test_killed_or_broken_child_is_unknown(monkeypatch):
    """One query in a child that hangs, crashes, or answers with no valid status: "unknown"."""
    child = ("import json, sys, time; req = json.loads(sys.stdin.read()); how = req['batch'][0]['how']\n"
             "if how == 'hang': time.sleep(30)\n"
             "if how == 'crash': sys.exit(-11)\n"
             "print(json.dumps({'index': 0, 'status': 'proved', 'reason': ''}), flush=True)\n")
    from symbolic.solve.backends import cvc5_child
    monkeypatch.setattr(cvc5_child, "_CHILD", child)
    monkeypatch.setattr(cvc5_child, "GRACE", 0.3)
    status, reason = cvc5_child.decide_payload({"how": "hang"}, timeout=0.5).pair()
    assert status == "unknown" and "killed" in reason
    crash = cvc5_child.decide_payload({"how": "crash"}, timeout=1)
    assert crash.status == "unknown"
    lie = cvc5_child.decide_payload({"how": "lie"}, timeout=1)
    assert lie.status == "unknown"


def test_deep_terms_do_not_recurse():
    xs = z3.Reals(" ".join(f"v{i}" for i in range(1500)))
    chain = xs[0]
    for v in xs[1:]:  # a binary + nested 1500 deep (Python's recursion limit is 1000)
        chain = chain + v
    q = [z3.And([v >= 0 for v in xs]), chain < 0]
    text = script(q)
    assert z3_status(z3.parse_smt2_string(text)) == "unsat"
    assert decide(q, timeout=TIMEOUT)[0] == "unsat"


def test_numerals_names_and_sharing():
    w = z3.Real("a b|c")                     # a name that cannot be quoted is renamed
    t = z3.Real("t!0")                       # a name like the printer's own shared-term names
    shared = x * y
    q = [x == z3.RealVal("-7/3"), y == 3, w == shared + shared, t == shared * 2, -x > 0, z3.Int("i") == -4]
    text = script(q)
    assert "(- (/ 7.0 3.0))" in text and "(- 4)" in text and "(set-logic QF_NIRA)" in text
    assert text.count("(* x y)") == 1
    assert z3_status(z3.parse_smt2_string(text)) == z3_status(q) == "sat"
    assert cvc5_script_status(text, TIMEOUT) == "sat"


def test_empty_connectives_are_their_units():
    for q, expected in (([z3.Or([])], "unsat"), ([z3.And([])], "sat"), ([z3.Not(z3.And([]))], "unsat")):
        assert z3_status(q) == expected
        assert decide(q, timeout=2, isolate=False)[0] == expected
        assert z3_status(z3.parse_smt2_string(script(q))) == expected


def test_malformed_payload_is_unknown():
    bad = {"nodes": [["const", [], "Real", "x"], ["mod", [0, 0], "Real", None]], "roots": [1], "logic": "QF_NRA"}
    assert cvc5_backend.solve(bad, 2)[0] == "unknown"
    forward = {"nodes": [["not", [0], "Bool", None]], "roots": [0], "logic": "QF_NRA"}
    assert cvc5_backend.solve(forward, 2)[0] == "unknown"


def test_lowering_normalises_arities():
    dag = lower([z3.And([x > 0]), z3.Or([]), z3.Sum([x]) + 0 > 1, z3.Product([y]) * 1 > 0, x ** 3 > y])
    for n in dag.nodes:
        if n.op in ("+", "*", "and", "or"):
            assert len(n.args) >= 2
    assert any(n.op == "*" and len(n.args) == 3 for n in dag.nodes)


# --- every operator evaluated exactly ----------------------------------------------------------------

b1, b2 = z3.Bools("b1 b2")
i1 = z3.Int("i1")
PINS = [x == z3.RealVal("-7/3"), y == z3.RealVal("5/4"), z == 3, b1 == True, b2 == False, i1 == -4]
ARITH = [x + y, x + y + z, x - y, x - y - z, x * y, x * y * z, -x, x / y, x / 2, x ** 3, y ** 2,
         z3.If(b1, x, y), z3.If(b2, x, y), z3.ToReal(i1) * x, z3.RealVal("123456789/1000000007") * z]
BOOLS = [x <= y, y <= x, x < y, x >= y, x > y, x == y, z3.Distinct(x, y, z), z3.Distinct(x, x + 0),
         z3.And(b1, b2), z3.Or(b1, b2), z3.Not(b1), z3.Implies(b1, b2), z3.Implies(b2, b1), z3.Xor(b1, b2),
         b1 == b2, i1 < -3, i1 * i1 == 16]


def exact_value(t):
    """z3's value of a term at the pinned point (a numeral or a truth value)."""
    sub = [(x, z3.RealVal("-7/3")), (y, z3.RealVal("5/4")), (z, z3.RealVal(3)), (b1, z3.BoolVal(True)),
           (b2, z3.BoolVal(False)), (i1, z3.IntVal(-4))]
    v = z3.simplify(z3.substitute(t, *sub))
    assert z3.is_rational_value(v) or z3.is_int_value(v) or z3.is_true(v) or z3.is_false(v), v
    return v


def pinned_queries():
    """At the pinned point, "some term differs from its value" (unsat) and "all terms equal their
    values" (sat): exactly right only if every operator and numeral is translated exactly."""
    eqs = [t == exact_value(t) for t in ARITH + BOOLS]
    return PINS + [z3.Or([z3.Not(e) for e in eqs])], PINS + eqs


def test_every_operator_translated_exactly():
    wrong, right = pinned_queries()
    assert decide(wrong, timeout=TIMEOUT, isolate=False)[0] == "unsat"
    assert decide(right, timeout=TIMEOUT, isolate=False)[0] == "sat"
    for q, expected in ((wrong, "unsat"), (right, "sat")):
        text = script(q)
        assert z3_status(z3.parse_smt2_string(text)) == expected
        assert cvc5_script_status(text, TIMEOUT) == expected


def test_each_operator_alone():
    """One query per term, so that a wrong translation names its operator."""
    for t in ARITH + BOOLS:
        q = PINS + [t != exact_value(t)]
        assert decide(q, timeout=TIMEOUT, isolate=False)[0] == "unsat", t


def test_undecided_is_never_a_definite_answer():
    # cvc5's coverings procedure gives up (INCOMPLETE) on this true claim's monolithic query
    q = query("T-P4", 0)
    d = decide_timed(q, timeout=3, configs=cvc5_backend.CONFIGS[:1])
    assert d.status in ("unsat", "unknown")
    if d.status == "unknown":
        assert any(w in d.reason for w in ("INCOMPLETE", "wall-clock safety limit", "effort limit", "killed"))
    # with a count of cvc5's steps as the limit, the same query gives up the same way every time
    data = cvc5_backend.prepare(q)
    runs = [cvc5_backend.solve(data, 60, cvc5_backend.CONFIGS[:1], rlimit=2000) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0][0] == "unknown" and "effort limit" in runs[0][1], runs
    tiny = decide(query("L-1.1", 0), timeout=0.01)
    assert tiny[0] in ("unsat", "unknown")


# --- random formulas: cvc5 ≡ z3 ------------------------------------------------------------------------

VARS = (x, y, z)
coeff = st.fractions(min_value=-4, max_value=4, max_denominator=5)
leaf = st.one_of(st.sampled_from(VARS), coeff.map(lambda q: z3.RealVal(f"{q.numerator}/{q.denominator}")))


def _arith(children):
    return st.one_of(
        st.tuples(children, children).map(lambda p: p[0] + p[1]),
        st.tuples(children, children).map(lambda p: p[0] - p[1]),
        st.tuples(children, children).map(lambda p: p[0] * p[1]),
        children.map(lambda a: -a),
        st.tuples(children, coeff.filter(lambda q: q != 0)).map(lambda p: p[0] / z3.RealVal(str(p[1]))),
    )


terms = st.recursive(leaf, _arith, max_leaves=5)
_CMPS = (lambda a, b: a <= b, lambda a, b: a < b, lambda a, b: a == b, lambda a, b: a > b,
         lambda a, b: z3.Distinct(a, b))
atoms = st.tuples(st.sampled_from(_CMPS), terms, terms).map(lambda p: p[0](p[1], p[2]))


def _logic(children):
    return st.one_of(
        st.lists(children, min_size=1, max_size=3).map(z3.And),
        st.lists(children, min_size=1, max_size=3).map(z3.Or),
        children.map(z3.Not),
        st.tuples(children, children).map(lambda p: z3.Implies(*p)),
        st.tuples(children, terms, terms).map(lambda p: z3.If(p[0], p[1], p[2]) >= 0),
    )


formulas = st.recursive(atoms, _logic, max_leaves=4)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(formulas, min_size=1, max_size=3))
def test_random_formulas_cvc5_and_z3_agree(fs):
    expected = z3_status(fs, seconds=2)
    got, reason = decide(fs, timeout=2, isolate=False)
    if expected in ("sat", "unsat") and got != "unknown":
        assert got == expected, (fs, reason)
    reread = z3_status(z3.parse_smt2_string(script(fs)), seconds=2)
    if expected in ("sat", "unsat") and reread != "unknown":
        assert reread == expected, fs
