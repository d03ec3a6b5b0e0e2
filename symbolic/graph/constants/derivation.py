"""Tight constants between two notions: the best parameter of B implied by A(a) at given sizes.

For notions A and B of one mechanism, B weaker as its parameter b grows (E = e^ε, δ, ...), the
conversion f(a) = sup { least b with B(b) on T : T a table with A(a) on T } is the smallest map with
A(a) ⇒ B(f(a)) at those sizes. It is derived in four steps, and a formula is reported as tight only
when the last two both succeed:

1. **Estimate** f at sample values of A's parameters by numeric search over A-feasible tables
   (:mod:`symbolic.graph.constants.fit`; floats propose, nothing is decided on them).
2. **Recognise** a closed form: the estimates read as rationals, a rational function of A's
   parameters fitted exactly through them with points to spare (or a square or cube root of one).
3. **Prove** A(a) ⇒ B(f(a)) with a symbolic, by the engine's usual solver proof at the sizes (the
   claim machinery of :mod:`symbolic.graph.pair`), which shows f is enough.
4. **Attain** f: a table satisfying A exactly whose B-level is exactly f, preferably one whose entries
   are closed forms in a (randomized response for ε-DP ⇒ TV) checked at several exact values, else a
   rational table at one value within 1% (:mod:`symbolic.graph.constants.attain`), which shows f
   cannot be lowered.

Example: ε-DP to total variation at n = 1 gives (E − 1)/(E + 1) (Kairouz, Oh, Viswanath 2015, the
(ε, 0) case of their TV bound), attained by binary randomized response.
"""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, replace

import sympy as sp

from symbolic.core.budget import Budget
from symbolic.core.errors import DPCheckError, InvalidParameter, clip
from symbolic.core.exact import expr_text
from symbolic.core.math_text import LETTERS, math_text, tidy_text
from symbolic.core.ranges import describe, parse_assumption
from symbolic.core.verdicts import Proved, Sizes
from symbolic.graph.constants.bracket import bracket_at
from symbolic.graph.constants.carry import lifted_attainment
from symbolic.graph.constants.attain import (exact_table, level_bracket, level_is_exactly, mechanism_doc,
                                             rational_value_points,
                                              rational_record, reverify, rounded_tables, snapped_tables)
from symbolic.graph.constants.fit import Shape, fit_quadratic, recognise, recognise_entries, search, UNBOUNDED
from symbolic.graph.constants.samples import e_like, in_square_root, sample_points
from symbolic.graph.maps import claim_params, stays_in_range
from symbolic.graph.sampling import holds_exactly
from symbolic.model.param_space import ParamRange
from symbolic.notions.claims import Claim, Implies
from symbolic.notions.listed.readings import reading
from symbolic.solve.run import check_claim
from symbolic.solve.backends.settings import Settings



BRACKETS = 3   # sample values at which a constant with no closed form is bracketed by certified numbers


@dataclass(frozen=True)
class MapDerivation:
    """The derived conversion for one pair at one size. ``formula``: f in A's parameter symbols (``oo``
    when B holds at no level on some A-feasible table; None when no closed form was recognised);
    ``estimates``: (point, float value) from the search; ``proof``: the solver certificate of
    A(a) ⇒ B(f(a)), or None with ``proof_reason``; ``attained_by``: the attaining table, or None with
    ``attained_reason``; ``checks``: (text, ok).

    >>> from symbolic.notions.families.dp import PureDP
    >>> from symbolic.notions.zoo.dp_laws import TVPrivacy
    >>> d = derive_map(PureDP, TVPrivacy, settings=Settings(second_solver=False))
    >>> d.source, d.target, d.parameter, str(d.formula), d.proof is not None
    ('PureDP', 'TVPrivacy', 'delta', '(E - 1)/(E + 1)', True)
    """

    source: str
    target: str
    parameter: str
    fixed: dict
    formula: sp.Expr | None
    estimates: tuple
    sizes: Sizes
    assumptions: tuple
    proof: dict | None = None
    proof_reason: str | None = None
    attained_by: dict | None = None
    attained_reason: str | None = None
    checks: tuple = ()
    reason: str | None = None
    seconds: float = 0.0
    near_attained_by: dict | None = None
    readings: tuple = ()
    brackets: tuple = ()
    restricted: bool = False     # the formula leaves B's range somewhere in A's: stated only inside it

    @property
    def tight(self) -> bool:
        """Proved enough and exactly attained (an exact table, re-verified from its text, whose B-level is
        f): f cannot be lowered at these sizes. A table only near f (within 1%) does not make f tight."""
        att = self.attained_by
        return self.proof is not None and att is not None and (
            self.formula == sp.oo or (att.get("level") == "exact" and att.get("reverified") is True))

    @property
    def ok(self) -> bool:
        """A formula was derived and every check passed (no formula: not ok, whatever the checks)."""
        return self.formula is not None and all(ok for _, ok in self.checks)

    def to_json(self) -> dict:
        return {"from": self.source, "to": self.target, "parameter": self.parameter,
                "fixed": {k: expr_text(v) for k, v in self.fixed.items()},
                "formula": None if self.formula is None else expr_text(self.formula),
                "latex": None if self.formula is None else sp.latex(self.formula),
                "assumptions": list(self.assumptions), "attained_by": self.attained_by,
                "attained_reason": self.attained_reason, "near_attained_by": self.near_attained_by,
                "proof": self.proof, "proof_reason": self.proof_reason,
                "tight": self.tight, "sizes": self.sizes.as_dict(),
                "estimates": [{"at": {k: expr_text(v) for k, v in p.items()},
                               "value": v if math.isfinite(v) else "inf"} for p, v in self.estimates],
                "checks": [{"text": t, "ok": bool(ok)} for t, ok in self.checks], "ok": self.ok,
                "reason": self.reason, "readings": list(self.readings),
                "certified_intervals": [b.to_json() for b in self.brackets], "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        f = "unknown" if self.formula is None else math_text(self.formula)
        fixed = "".join(f", {LETTERS.get(k, k)} = {math_text(v)}" for k, v in self.fixed.items())
        name = LETTERS.get(self.parameter, self.parameter)
        lines = [f"{self.source} ⇒ {self.target}: best {name} = {f}{fixed}  (at {self.sizes})"]
        lines += [f"  read as: {t}" for t in self.readings]
        if self.reason:
            lines.append(f"  {self.reason}")
        lines += [f"  certified: {b.text(self.parameter)}" for b in self.brackets]
        lines.append("  proof: " + (self.proof.get("method", "proved") if self.proof else
                                    f"none ({self.proof_reason})"))
        lines.append("  attained by: " + (_attained_text(self.attained_by) if self.attained_by else
                                          f"none ({self.attained_reason})"))
        if self.near_attained_by:
            nb = self.near_attained_by
            lines.append(f"  near-attaining: {_attained_text({**nb, 'level': 'in (' + ', '.join(nb['level_between']) + ']'})}"
                         f", gap {nb['gap']}")
        lines.append(f"  tight: {'yes' if self.tight else 'not shown'}; assumptions: "
                     f"{tidy_text(', '.join(self.assumptions))}")
        for t, ok in self.checks:
            lines.append(f"  check: {tidy_text(t)}: {'ok' if ok else 'FAILED'}")
        return "\n".join(lines)


def _attained_text(att: dict) -> str:
    rows = "; ".join(f"{k}: [{', '.join(v)}]" for k, v in att["mechanism"]["rows"].items())
    where = ", ".join(f"{k} = {v}" for k, v in att.get("at", {}).items())
    return f"{att['kind']} table {rows}" + (f" at {where}" if where else "") + f" (level {att['level']})"


# ---------------------------------------------------------------- the problem
def _notion(x):
    if hasattr(x, "notion"):
        return x.id, x.notion
    return x.name, x


def _target(a, b, target, fix):
    """B's parameter to derive and B's other parameters (sympy expressions in A's symbols)."""
    syms = {p.name: p.symbol for p in claim_params(a)}
    names = [p.name for p in b.params]
    if not names:
        raise InvalidParameter(f"{b.name} has no parameter: there is no constant to derive")
    fixed = {}
    for k, v in (fix or {}).items():
        if k not in names:
            raise InvalidParameter(f"{b.name} has no parameter {k!r}; its parameters: {', '.join(names)}")
        from symbolic.core.exact import parse_expr
        fixed[k] = parse_expr(v, syms, what=f"{b.name} parameter {k}") if isinstance(v, str) else sp.sympify(v)
    if target is None:
        free = [n for n in names if n not in fixed]
        if len(free) > 1:
            shared = [n for n in free if n in syms]
            fixed.update({n: syms[n] for n in shared if len(free) - len(shared) >= 1})
            free = [n for n in free if n not in fixed]
        if len(free) != 1:
            raise InvalidParameter(f"{b.name} has parameters {', '.join(names)}: name the one to derive "
                                   f"(target=…) and fix the others (e.g. E=E)")
        target = free[0]
    if target not in names:
        raise InvalidParameter(f"{b.name} has no parameter {target!r}; its parameters: {', '.join(names)}")
    fixed.pop(target, None)
    spec = next(p for p in b.params if p.name == target)
    if spec.lower is None and spec.upper is None:
        raise InvalidParameter(f"{b.name}'s {target} has no range end to start from")
    return target, fixed


def _check_pair(a, b):
    for n in (a, b):
        if n.arity != 1:
            raise InvalidParameter(f"{n.name} is a notion of {n.arity} mechanisms; derive map compares notions "
                                   f"of one mechanism")
    if not a.params:
        raise InvalidParameter(f"{a.name} has no parameter: the constant would be a number, not a map")
    if len(a.params) > 2:
        raise InvalidParameter(f"{a.name} has {len(a.params)} parameters; derive map fits maps in one or two")


# ---------------------------------------------------------------- the derivation
def derive_map(a, b, *, sizes: Sizes = Sizes(1, 2, 2), target: str | None = None, fix: dict | None = None,
               settings: Settings | None = None, starts: int = 6, budget=None, assume: tuple = (),
               carry: "MapDerivation | None" = None) -> MapDerivation:
    """The tight map from A's parameters to B's parameter ``target`` at ``sizes`` (NotionInfo records or
    Notions): estimate, recognise, prove, attain (see the module text). ``budget``: processor seconds (or a
    :class:`~symbolic.core.budget.Budget`); when spent, :class:`~symbolic.core.budget.BudgetSpent` says
    which stage was reached. ``assume``: ranges of A's parameters (``"E<=2"``) narrowing where the map is
    sought, sampled and proved. ``carry``: the derivation at fewer records; when its attaining table, lifted
    to these sizes, still attains its formula exactly and the solver proves the formula here, that is the map
    here, with no new search (:mod:`symbolic.graph.constants.carry`).

    >>> from symbolic.notions.families.dp import PureDP
    >>> from symbolic.notions.zoo.dp_laws import TVPrivacy
    >>> d = derive_map(PureDP, TVPrivacy, settings=Settings(second_solver=False))
    >>> d.formula, d.tight, d.attained_by["level"]
    ((E - 1)/(E + 1), True, 'exact')
    """
    if not isinstance(budget, Budget):
        with Budget(budget) as bud:
            return derive_map(a, b, sizes=sizes, target=target, fix=fix, settings=settings, starts=starts, budget=bud,
                              assume=assume, carry=carry)
    bud = budget
    t0 = time.monotonic()
    (aid, a_listed), (bid, b_listed) = _notion(a), _notion(b)
    _check_pair(a_listed, b_listed)
    # a notion relative to priors or beliefs is compared as "for every prior" (see readings.reading)
    ra, rb = reading(a_listed, sizes.n, sizes.domain), reading(b_listed, sizes.n, sizes.domain)
    an, bn = ra.notion, rb.notion
    target, fixed = _target(an, bn, target, fix)
    settings = settings or Settings()
    shape = Shape(sizes.n, sizes.domain, sizes.outputs)
    params = narrowed_params(an, assume)
    syms = [p.symbol for p in params]
    assumptions = tuple(p.range_text() for p in params)
    base = dict(source=aid, target=bid, parameter=target, fixed=fixed, sizes=sizes, assumptions=assumptions,
                readings=tuple(r.text for r in (ra, rb) if r.text))

    def fixed_b(point):
        sub = {sp.Symbol(k, real=True): v for k, v in point.items()}
        return {k: sp.sympify(v).xreplace(sub) for k, v in fixed.items()}

    spec = next(p for p in bn.params if p.name == target)
    if carry is not None and carry.assumptions == assumptions:
        done = _carried(carry, an, bn, ra, rb, target, spec, fixed, fixed_b, shape, sizes, settings, params, base, bud,
                        t0)
        if done is not None:
            return done
    estimates, formula, warm, why = [], None, None, None
    points = sample_points(params)
    need = 3 if len(syms) == 1 else len(points)
    for i, point in enumerate(points):
        bud.at(f"estimating at sample point {i + 1} of up to {len(points)} ({_at(point)}) at {sizes}")
        est = search(an, bn, target, fixed_b, point, shape, starts=starts, seed=f"{aid}->{bid}", warm=warm)
        estimates.append(est)
        warm = est.x
        if not math.isfinite(est.value) or est.value > UNBOUNDED:
            break
        if i + 1 >= need:
            formula, why = recognise([(tuple(e.point[str(s)] for s in syms), e.value) for e in estimates], syms,
                                     quadratic=False)
            if formula is not None:
                break
    finite = math.isfinite(estimates[-1].value) and estimates[-1].value <= UNBOUNDED
    if formula is None and finite and e_like(params):
        bud.at(f"estimating at square values of {syms[0]} (a formula in its square root) at {sizes}")
        first = estimates
        formula, estimates, why = in_square_root(an, bn, target, fixed_b, shape, params[0], f"{aid}->{bid}",
                                                  starts, estimates, why)
        if formula is None:   # last: a root of a quadratic, fitted through the first pass's estimates
            formula = fit_quadratic([(tuple(e.point[str(s)] for s in syms), e.value) for e in first], syms[0])
            why = why if formula is None else None
    pairs = tuple((e.point, e.value) for e in estimates)
    if not math.isfinite(estimates[-1].value) or estimates[-1].value > UNBOUNDED:
        return _unbounded(an, bn, target, fixed_b, estimates[-1], shape, settings, base, pairs, t0)
    if formula is None:
        brackets = []
        for e in [e for e in estimates if math.isfinite(e.value)][:BRACKETS]:
            bud.at(f"bracketing the constant at {_at(e.point)} (no closed form) at {sizes}")
            brackets.append(bracket_at(e, ra.hypothesis, rb.conclusion, an, bn, target, spec, fixed_b, shape, sizes,
                                       settings, params, prove_map))
        return MapDerivation(formula=None, estimates=pairs, reason=f"no closed form recognised: {why}",
                             proof_reason="no formula to prove", attained_reason="no formula",
                             brackets=tuple(brackets), seconds=time.monotonic() - t0, **base)
    checks = [(f"search at {_at(e.point)}: {e.value:.10g} vs formula {_num(formula, e.point, syms)}",
               _close(formula, e.point, syms, e.value)) for e in estimates]
    if not stays_in_range(formula, spec, params):
        # fitted where the search sampled; elsewhere in A's range it leaves B's range, where the claim (and
        # so the proof below) says nothing: the map is stated with that condition, not for all of A's range
        inside = describe(expr_text(formula), spec.lower, spec.upper, spec.lower_strict, spec.upper_strict)
        base["assumptions"] = assumptions + (inside,)
        base["restricted"] = True
        checks.append((f"{target} = {expr_text(formula)} stays in {target}'s range for every "
                       f"{', '.join(assumptions)}: no, so the map is stated only where {inside}", True))
    proof, proof_reason, claim_text = _prove_at(ra, rb, target, fixed, formula, sizes, settings, params, bud)
    checks.append((f"proof of {claim_text} at {sizes}",
                   proof is not None or "unknown" in (proof_reason or "")))
    bud.at(f"looking for a table that attains {expr_text(formula)} at {sizes}")
    attained, att_reason, att_checks, *near = attain(an, bn, target, fixed_b, formula, estimates, shape, syms)
    checks += att_checks
    return MapDerivation(formula=formula, estimates=pairs, proof=proof, proof_reason=proof_reason,
                         attained_by=attained, attained_reason=att_reason, near_attained_by=(near or [None])[0],
                         checks=tuple(checks), seconds=time.monotonic() - t0, **base)


def _prove_at(ra, rb, target, fixed, formula, sizes, settings, params, bud) -> tuple:
    """(proof or None, its reason, the claim's text): the solver on A ⇒ B(target = formula) at ``sizes``, its
    verdict decided by its own effort, its wall-clock safety net within what is left of the budget's."""
    claim_text = f"{ra.hypothesis.name} ⇒ {rb.conclusion.name}({target} = {expr_text(formula)})"
    bud.at(f"proving {claim_text} at {sizes}")
    if bud.end is not None:  # wall-clock seconds for a wall-clock net: the budget's processor seconds are no clock
        settings = replace(settings, budget=min(settings.budget, max(bud.safety_remaining(), 0.1)))
    proof, reason = prove_map(ra.hypothesis, rb.conclusion, target, fixed, formula, sizes, settings, params)
    return proof, reason, claim_text


def _carried(carry, an, bn, ra, rb, target, spec, fixed, fixed_b, shape, sizes, settings, params, base, bud, t0):
    """The derivation at ``sizes`` carried over from ``carry`` (fewer records), or None when it does not carry."""
    bud.at(f"lifting the table attaining {expr_text(carry.formula)} at n={carry.sizes.n} to {sizes}")
    attained, text = lifted_attainment(carry, an, bn, target, spec, fixed_b, shape, sizes, [p.symbol for p in params])
    if attained is None:
        return None
    proof, _, claim_text = _prove_at(ra, rb, target, fixed, carry.formula, sizes, settings, params, bud)
    if proof is None:
        return None
    checks = ((f"carried over from n={carry.sizes.n}: {text}", True), (f"proof of {claim_text} at {sizes}", True))
    return MapDerivation(formula=carry.formula, estimates=(), proof=proof, attained_by=attained, checks=checks,
                         seconds=time.monotonic() - t0, **base)


def _at(point) -> str:
    return ", ".join(f"{k} = {expr_text(v)}" for k, v in point.items())


def _sub(formula, point, syms):
    return formula.xreplace({s: point[str(s)] for s in syms})


def _num(formula, point, syms) -> str:
    return f"{float(_sub(formula, point, syms)):.10g}"


def _close(formula, point, syms, value) -> bool:
    exact = float(_sub(formula, point, syms))
    return abs(exact - value) <= 1e-6 * max(1.0, abs(exact))


def narrowed_params(a, assume=()) -> tuple:
    """A's parameters as claim parameters, each range narrowed by the assumptions that name it (``"E<=2"``)."""
    params = list(claim_params(a))
    for text in assume:
        name, lo, lo_s, hi, hi_s = parse_assumption(text)
        k = next((i for i, p in enumerate(params) if p.name == name), None)
        if k is None:
            raise InvalidParameter(f"--assume {clip(text)} names {clip(name)}, not a parameter of {a.name} "
                                   f"({', '.join(p.name for p in params)})")
        params[k] = p = params[k].assuming(lo, lo_s, hi, hi_s)
        ParamRange(name, p.lower, p.lower_strict, p.upper, p.upper_strict)   # refuses an empty range, one line
    return tuple(params)


def prove_map(a, b, target, fixed, formula, sizes, settings, params=None):
    """(certificate, None) when the solver proves A(a) ⇒ B(target = formula) at exactly ``sizes`` with
    a symbolic in ``params``' ranges (A's own by default), else (None, the reason)."""
    params = params or claim_params(a)
    hyp = a(*(p.symbol for p in params))
    try:
        con = b(**{**fixed, target: formula})
        claim = Claim("map", "⇒", "-", f"{hyp} ⇒ {con}", "(derived map)", (Implies(hyp, con),), params=params,
                      sizes=sizes, min_sizes=sizes, only_sizes=True)
        result = check_claim(claim, settings)
    except DPCheckError as e:
        return None, f"the claim could not be checked: {e}"
    v = result.verdict
    if isinstance(v, Proved):
        from symbolic.report.results import claim_json
        return {"claim": claim.statement, **claim_json(result)["certificate"]}, None
    if v.name == "refuted":   # the verdict's note is the solver's bookkeeping; say what was found
        how = "" if v.verified_exactly else " (not confirmed by exact re-verification)"
        return None, (f"refuted: the solver found a table satisfying {a.name} on which {b.name} fails at {target} = "
                      f"{expr_text(formula)}{how}")[:300]
    return None, f"{v.name}: {getattr(v, 'reason', None) or getattr(v, 'note', '') or 'not proved'}"[:300]


def attain(a, b, target, fixed_b, formula, estimates, shape, syms):
    """(attaining table as JSON, None, checks) or (None, reason, checks): a symbolic table recognised
    from the best tables, checked exactly at every sample value; else a rational table at one value."""
    spec = next(p for p in b.params if p.name == target)
    checks = []
    finite = [e for e in estimates if math.isfinite(e.value)]
    cells = recognise_entries(finite[:5], syms, shape) if len(syms) == 1 and len(finite) >= 4 else None
    if cells is not None:
        ok, at = True, []
        for e in finite:
            sub = {s: e.point[str(s)] for s in syms}
            rows = [[sp.sympify(c).xreplace(sub) for c in r] for r in cells]
            if any(p < 0 for r in rows for p in r):
                ok = False
                break
            t = exact_table(shape, rows)
            status = holds_exactly(a, t, None, e.point) is True and level_is_exactly(
                b, target, spec, t, fixed_b(e.point), _sub(formula, e.point, syms))
            checks.append((f"symbolic table at {_at(e.point)}: {a.name} holds exactly, {b.name} level "
                           f"{status or 'not reached'}", status == "exact"))
            ok = ok and status == "exact"
            at.append({k: expr_text(v) for k, v in e.point.items()})
        if ok:
            doc = {"kind": "symbolic", "mechanism": mechanism_doc(exact_table(shape, cells), a),
                   "level": "exact", "verified_at": at}
            back = all(reverify(a, b, target, spec, doc["mechanism"]["rows"], shape, fixed_b(e.point), e.point,
                                _sub(formula, e.point, syms), syms) for e in finite)
            checks.append(("symbolic table read back from its text and checked again at every sample value", back))
            if back:
                return {**doc, "reverified": True}, None, checks
    near = None
    # then at values of A where f is rational (√((E−1)/(E+3)) = 1/2 at E = 7/3), where an exact table can reach f
    rational = (search(a, b, target, fixed_b, p, shape, starts=6, seed="a rational value of f", warm=finite[0].x)
                for p in rational_value_points(formula, syms, [e.point for e in finite]))
    for e in itertools.chain(finite[1:2] + finite[:1], rational):
        if not math.isfinite(e.value):
            continue
        f0, fb = _sub(formula, e.point, syms), fixed_b(e.point)
        snapped = ((None, t) for t in snapped_tables(a, b, target, fb, shape, e.rows, e.point, f0))
        for lam, t in itertools.chain(snapped, rounded_tables(shape, e.rows)):
            if holds_exactly(a, t, None, e.point) is not True:
                continue
            status = level_is_exactly(b, target, spec, t, fb, f0)
            if status == "exact":
                rec = rational_record(a, b, target, spec, t, fb, e.point, f0,
                                      "snapped onto the active conditions" if lam is None else "rounded",
                                      **({} if lam is None else {"mixed_with_uniform": expr_text(lam)}))
                checks.append((f"rational table at {_at(e.point)}, read back from its text: {a.name} holds exactly, "
                               f"{b.name} level exactly {expr_text(f0)}", rec is not None))
                if rec is not None:
                    return rec, None, checks
            elif status and near is None:
                near = (e, t, lam, f0, level_bracket(b, target, spec, t, fb, f0))
    if near is not None:
        e, t, lam, f0, bracket = near
        low = bracket[0] if bracket else f0 - (f0 - (sp.sympify(spec.lower) if spec.lower is not None else 0)) / 100
        checks.append((f"no exact table attains {expr_text(f0)} at {_at(e.point)}; the nearest has level in "
                       f"({expr_text(low)}, {expr_text(f0)}]: not shown tight", False))
        return None, (f"no exact table attains f; a table comes within {float(f0 - low):.3g} of it (near-attaining, "
                      f"see near_attained_by)"), checks, {
            "kind": "rational", "at": {k: expr_text(v) for k, v in e.point.items()}, "mechanism": mechanism_doc(t),
            "level_between": [expr_text(low), expr_text(f0)], "gap": expr_text(f0 - low)}
    checks.append(("no exact table near the search's best attains the formula within 1%", False))
    return None, "no exact table near the search's best satisfies A and comes within 1% of f", checks


def _unbounded(a, b, target, fixed_b, est, shape, settings, base, pairs, t0):
    """B-levels beyond the search's bound: a rational table satisfying A exactly on which B holds at no
    level makes f = ∞ (proved qualitatively); otherwise the growth is reported, not a formula."""
    from symbolic.graph.separations.one_table import level_free
    for lam, t in rounded_tables(shape, est.rows):
        if holds_exactly(a, t, None, est.point) is not True:
            continue
        if level_free(b, t, settings) == "no level":
            att = {"kind": "rational", "at": {k: expr_text(v) for k, v in est.point.items()},
                   "mechanism": mechanism_doc(t), "level": "none: B holds at no level"}
            return MapDerivation(formula=sp.oo, estimates=pairs, attained_by=att,
                                 proof={"method": "a table satisfying A exactly on which B holds at no level "
                                                  "(decided by the solver on the fixed table)"},
                                 checks=((f"{a.name} holds exactly at {_at(est.point)}; {b.name} at no level", True),),
                                 seconds=time.monotonic() - t0, **base)
        break
    return MapDerivation(formula=None, estimates=pairs, reason=f"the search found B-levels above {UNBOUNDED:g} at "
                         f"{_at(est.point)}: no finite map is likely, but no table at no level was confirmed",
                         proof_reason="no formula", attained_reason="no formula", seconds=time.monotonic() - t0,
                         **base)


__all__ = ["MapDerivation", "derive_map", "prove_map", "attain", "sample_points"]
