"""The second solver decides each distinct query once: obligations that are the same formula up to a
renaming of their unknowns (the symmetric copies a locality proof produces) take the first one's answer.
Sound because such formulas are equisatisfiable; what is confirmed does not change, only the time."""
import time

import z3

from symbolic.solve.backends import cvc5_backend as cb
from symbolic.solve.backends import second_opinion as so
from symbolic.solve.backends.cvc5_backend import Decision
from symbolic.solve.backends.settings import Settings


class _Ob:
    def __init__(self, assertions, label):
        self.assertions, self.label = tuple(assertions), label


def _copy(name_x, name_y, bound):
    x, y = z3.Real(name_x), z3.Real(name_y)
    return [x * y > bound, x < 1, y < 1, x > 0, y > 0]


def test_copies_up_to_renaming_are_asked_once_and_share_the_answer():
    obs = [_Ob(_copy(f"a{i}", f"b{i}", 2), f"copy {i}") for i in range(5)] + [_Ob(_copy("u", "v", 0), "other")]
    asked = []

    def decide(datas, **kw):
        asked.extend(datas)
        from symbolic.solve.backends.cvc5_child import decide_payload
        return [decide_payload(d, timeout=30) for d in datas]
    out = so._decide_all(obs, Settings(), time.monotonic() + 120, cb.prepare, decide, cb.payload_key)
    assert len(asked) == 2                                   # one copy, and the different query
    assert [st for _, st, _ in out] == ["unsat"] * 5 + ["sat"]
    assert all("the same query as copy 0" in r for _, _, r in out[1:5]) and "same query" not in out[0][2]


def test_formulas_that_differ_are_not_taken_for_copies():
    """A different constant, sort, operator or root order gives another key (a copy must be the same formula)."""
    base = cb.prepare(_copy("x", "y", 2))
    for other in (_copy("x", "y", 3), [z3.Real("x") * z3.Real("y") >= 2, *_copy("x", "y", 2)[1:]],
                  list(reversed(_copy("x", "y", 2))), [z3.Int("x") * z3.Int("y") > 2]):
        assert cb.payload_key(cb.prepare(other)) != cb.payload_key(base)
    assert cb.payload_key(cb.prepare(_copy("p", "q", 2))) == cb.payload_key(base)
    assert cb.payload_key(Decision("unknown", "untranslatable", 0.0)) is None


def test_the_effort_is_read_over_the_queries_asked():
    """Copies cost nothing: six copies of a 100-unit query under an effort of 150 are all confirmed."""
    obs = [_Ob(_copy(f"a{i}", f"b{i}", 2), f"copy {i}") for i in range(6)]

    def decide(datas, **kw):
        return [Decision("unsat", "fake", 0.0, 100) for _ in datas]
    out = so._decide_all(obs, Settings(second_effort=150), time.monotonic() + 60, cb.prepare, decide, cb.payload_key)
    assert [st for _, st, _ in out] == ["unsat"] * 6


def test_the_largest_queries_are_asked_first_and_the_first_undecided_one_ends_the_asking():
    """A proof is confirmed only if every query is: once one is left undecided, the others are not asked
    (they say why), whichever worker answered first. The largest are asked first, so a proof with an
    undecidable large query is found unconfirmable at once; a disagreement ("sat") is always reported."""
    class Ob:
        def __init__(self, i):
            self.assertions, self.label = (i,), f"query {i}"

    def run(hard, sat=None):
        asked = []

        def decide(datas, until_undecided=False, **kw):
            out = []
            for d in datas:
                asked.append(d)
                out.append(Decision("unknown" if d == hard else "sat" if d == sat else "unsat", f"on {d}", 0.0, 1))
                if until_undecided and out[-1].status != "unsat":
                    break
            return out
        out = so._decide_all([Ob(i) for i in range(8)], Settings(), time.monotonic() + 60, lambda a: a[0], decide,
                             size=lambda d: d)
        return {ob.label: (st, r) for ob, st, r in out}, asked
    said, asked = run(hard=7)
    assert asked[0] == 7 and said["query 7"] == ("unknown", "on 7")
    assert all(st == "unknown" and r.startswith("not asked: query 7 was left undecided") for q, (st, r) in said.items()
               if q != "query 7")
    assert so._distinct_note([(None, st, r) for st, r in said.values()]) == "; 7 not asked after one was left undecided"
    said, _ = run(hard=0)
    assert said["query 0"] == ("unknown", "on 0") and all(said[f"query {i}"][0] == "unsat" for i in range(1, 8))
    said, _ = run(hard=6, sat=2)
    assert said["query 2"] == ("sat", "on 2")   # asked by the second worker at the start, reported though past query 6
    assert said["query 6"] == ("unknown", "on 6") and said["query 7"][0] == "unsat"
