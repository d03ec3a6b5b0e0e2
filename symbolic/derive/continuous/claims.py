"""Claims "ε-DP ⇒ ρ(E)-zCDP" and "ε-DP ⇒ μ(E)-GDP" decided for every E in a range, at every size.

**Reduction.** Every ε-DP pair of output laws is a post-processing of randomized response RR_E with
ratio E = e^ε (Kairouz, Oh, Viswanath 2015), and zCDP (a bound on Rényi divergences) and GDP (a bound
on the trade-off function) are closed under post-processing (data-processing inequality). So
"ε-DP ⇒ B(f(E))" holds on every output space and at every size iff RR_E satisfies B(f(E)); and RR_E is
itself ε-DP, so a failure at RR_E is an exact counterexample (the table with rows (E/(1+E), 1/(1+E))
and (1/(1+E), E/(1+E)) at that E).

**Covering of the range.** The level ℓ(E) of RR_E for B (ρ* = sup_α D_α/α, or the least μ) is
nondecreasing in E (RR_E is a post-processing of RR_E′ for E ≤ E′). With f nondecreasing on the range
(shown by the sign of f′), a cell [a, b] of E is proved when RR_b satisfies B(f(a)): then for every E in
the cell, ℓ(E) ≤ ℓ(b) ≤ f(a) ≤ f(E). At E = a, RR_a failing B(f(a)) refutes the claim there. Each
test is the certified decision of :mod:`symbolic.notions.continuum` (exact rational α or E at which it
fails). A cell that neither proves nor refutes is halved, up to ``MAX_CELLS`` cells; what remains is
``unknown``, for instance a tight f (f = ℓ: no cell can be proved, the bound is attained everywhere);
for zCDP the cumulant lemmas (:func:`_cumulant_proof`) are tried first: they hold for every order at once,
reach E = 1 (ε = 0), where no covering closes because both sides vanish, and prove a tight f (the limit of
D_α/α as α → 1).
The conclusions decided are the notions named in ``CURVE_CLAIM_TARGETS``.

>>> sorted(CURVE_CLAIM_TARGETS)
['GaussianDP', 'ZeroConcentratedDP']
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from symbolic.core import certified as C
from symbolic.core import intervals as I
from symbolic.derive.continuous.cumulant import two_point_lemma, width_lemma
from symbolic.derive.continuous.finite_pairs import dp_dominating_pair
from symbolic.notions.continuum import gaussian_profile_bounded, renyi_bounded

MAX_CELLS = 400     # cells of E
TEST_CELLS = 800    # cells of the certified decision at one cell's end (a near tie beyond them: undecided)
#: the conclusions decided here, by notion name: (parameter, certified test of one pair)
CURVE_CLAIM_TARGETS = {"ZeroConcentratedDP": ("rho", renyi_bounded), "GaussianDP": ("mu", gaussian_profile_bounded)}


@dataclass(frozen=True)
class CurveVerdict:
    """``verdict``: proved / refuted / unknown; ``reason``; ``counterexample``: {"E", "table", "why"} when
    refuted; ``cells``: the covering's work; ``scope``: what the proof covers. Made by
    :func:`decide_dominated`.

    >>> E = sp.Symbol("E", positive=True)
    >>> v = decide_dominated("ZeroConcentratedDP", sp.log(E) ** 2 / 2, E, 3, 148)
    >>> v.verdict, v.scope.startswith("every output space and every size")
    ('proved', True)
    """

    verdict: str
    reason: str
    scope: str = "every output space and every size (through ε-DP's dominating pair)"
    counterexample: dict | None = None
    cells: int = 0
    method: str = "dominating pair and monotone covering of E"
    tight: bool = False     # proved, and no smaller level holds (the bound is attained or approached)

    def to_json(self, statement: str, range_text: str) -> dict:
        return {"id": "implies", "statement": statement, "verdict": self.verdict, "reason": self.reason,
                "scope": self.scope if self.verdict == "proved" else None, "range": range_text,
                "counterexample": self.counterexample, "verified_exactly": self._verified(),
                "certificate": ({"method": self.method, "cells": self.cells} if self.verdict == "proved" else None)}

    def _verified(self):
        """True for an exact table re-checked exactly, False for one shown by a certified enclosure (a law
        with a density), None without a counterexample."""
        if self.counterexample is None:
            return None
        return "table" in self.counterexample

    def text(self, statement: str, range_text: str) -> str:
        lines = [statement, f"  verdict: {self.verdict}  ({range_text})", f"  reason: {self.reason}"]
        if self.counterexample:
            ce = self.counterexample
            at = f"E = {ce['E']}" if "E" in ce else ", ".join(f"{k} = {v}" for k, v in ce.get("at", {}).items())
            lines.append(f"  counterexample: {ce.get('what', 'randomized response')} at {at}: {ce['why']}")
            if "table" in ce and "E" not in ce:
                lines += [f"    database {k}: ({', '.join(row)})" for k, row in ce["table"]["rows"].items()]
        return "\n".join(lines)


def pair_table(p, q) -> dict:
    """Two rows p (database 0) and q (database 1) as a table document (the format `dpcheck eval` reads)."""
    return {"n": 1, "domain": [0, 1], "outputs": list(range(len(p))),
            "rows": {"0": [str(x) for x in p], "1": [str(x) for x in q]}}


def rr_table(E) -> dict:
    """Randomized response with ratio E as a table document."""
    return pair_table(*dp_dominating_pair(E))


def _nondecreasing(f, E, lo, hi) -> bool | None:
    """f′ ≥ 0 on [lo, hi]: by sympy's sign decision, else by interval evaluation of f′ on a covering
    (rational ends only: an irrational end is not covered and the answer is then None)."""
    from symbolic.core.intervals import nonnegative_on
    from symbolic.model.param_space import ParamRange, sign_on
    rng = ParamRange(E.name, lo, False, hi, False)
    d = sp.diff(f.xreplace({E: rng.symbol}), rng.symbol)
    if sign_on(d, (rng,)) in (1, 0, "≥"):
        return True
    if not (sp.sympify(lo).is_Rational and sp.sympify(hi).is_Rational):
        return None
    ok, _ = nonnegative_on(d, rng.symbol, lo, hi)
    return True if ok else None


def _cumulant_proof(f, E, lo, hi) -> CurveVerdict | None:
    """ρ-zCDP of randomized response for every E in [lo, hi] by the cumulant lemmas of
    :mod:`symbolic.derive.continuous.cumulant`: the width lemma (its log-likelihood ratio spans 2·log E), then the
    two-point lemma (which also says when ρ is tight). Both hold for every order α at once and need no covering
    of α; the range may reach E = 1 (ε = 0) and, when sympy decides the inequalities, have no upper end."""
    positive = sp.Symbol(E.name, positive=True)
    f = f.xreplace({E: positive})
    p, q = dp_dominating_pair(positive)
    width = sp.simplify(sp.expand_log(sp.log(p[0] / q[0]) - sp.log(p[1] / q[1]), force=True))
    proof = width_lemma(f, width, positive, lo, hi) or two_point_lemma(f, p, q, positive, lo, hi)
    if proof is None:
        return None
    return CurveVerdict("proved", proof.reason, cells=proof.cells,
                        tight=proof.tight, method="the cumulant lemmas at ε-DP's dominating pair")


def _rational_below(x):
    return sp.Rational(sp.floor(C.enclose(x, 128).lower() * 2 ** 30), 2 ** 30)


def _rational_above(x):
    return sp.Rational(sp.ceiling(C.enclose(x, 128).upper() * 2 ** 30), 2 ** 30)


def _upper_over(fn, lo, hi, pieces: int = 64):
    """An upper bound of fn over [lo, hi] (fn takes a Ball and returns an upper end); None when a piece's
    ball is unbounded."""
    lo, hi = sp.Rational(lo), sp.Rational(hi)
    best = None
    for k in range(pieces):
        try:
            u = fn(I.interval(lo + (hi - lo) * k / pieces, lo + (hi - lo) * (k + 1) / pieces))
        except C.NotEnclosable:
            return None
        best = u if best is None or u > best else best
    return best


def _cover(box, holds, *, max_cells: int):
    """Cover ``box`` (a tuple of (lo, hi) rational intervals) with cells on each of which ``holds(cell)``
    is True, halving a cell that fails along the side widest relative to the box's. Returns (True, cells,
    None), or (False, cells, the cell being examined) when ``max_cells`` cells did not suffice."""
    spans = [hi - lo for lo, hi in box]
    stack, cells = [tuple(box)], 0
    while stack:
        cell = stack.pop()
        cells += 1
        if cells > max_cells:
            return False, cells, cell
        if holds(cell):
            continue
        k = max(range(len(cell)), key=lambda i: ((cell[i][1] - cell[i][0]) / spans[i], i))   # ties: the last side
        lo, hi = cell[k]
        mid = (lo + hi) / 2
        for half in ((lo, mid), (mid, hi)):
            stack.append(cell[:k] + (half,) + cell[k + 1:])
    return True, cells, None


def _holds(test, E, value):
    p, q = dp_dominating_pair(E)
    return test(list(p), list(q), value, budget=TEST_CELLS)


def decide_dominated(target: str, f, E: sp.Symbol, lo, hi) -> CurveVerdict:
    """ε-DP(E) ⇒ target(f(E)) for every E in [lo, hi] (exact numbers, 1 ≤ lo ≤ hi; ``hi`` None: no upper end).

    >>> E = sp.Symbol("E", positive=True)
    >>> decide_dominated("ZeroConcentratedDP", sp.log(E) ** 2 / 8, E, 3, 148).counterexample["E"]
    '3'
    """
    name = CURVE_CLAIM_TARGETS[target][0]
    f = sp.sympify(f)
    if target == "ZeroConcentratedDP" and lo != hi:
        proof = _cumulant_proof(f, E, lo, hi)
        if proof is not None:
            return proof
    if hi is None:      # no covering without an upper end; one point may still refute
        at = lo if lo > 1 else 2
        verdict = decide_dominated(target, f, E, at, at)
        if verdict.verdict == "refuted":
            return verdict
        return CurveVerdict("unknown", f"{E.name} has no upper end: the cumulant lemmas did not settle it and the "
                                       f"covering needs a bounded range, e.g. --assume '1<{E.name}<=148' (ε up to 5)")
    lo, hi = sp.sympify(lo), sp.sympify(hi)
    if lo == hi:
        return _covering(target, f, E, [(lo, lo)])
    # at E = 1 both sides vanish and no cell touching it can be proved; a covering away from it may refute
    start = lo if lo > 1 else min(sp.Integer(2), (1 + hi) / 2)
    if _nondecreasing(f, E, start, hi) is None:
        return CurveVerdict("unknown", f"{name}(E) = {f} is not shown nondecreasing on the range, which the "
                                       f"covering needs")
    verdict = _covering(target, f, E, [(start, hi)])
    if start == lo or verdict.verdict == "refuted":
        return verdict
    settled = f"it is proved for {start} ≤ E ≤ {hi}; " if verdict.verdict == "proved" else ""
    return CurveVerdict("unknown", f"{settled}the range reaches E = 1 (ε = 0), where both sides vanish: no covering "
                                   f"closes there and the cumulant lemmas did not prove it; give a range away from it, "
                                   f"e.g. --assume '{start}<=E<={hi}'", cells=verdict.cells)


def _covering(target, f, E, cells) -> CurveVerdict:
    """The monotone covering of the module docstring, from the given cells of E (each with ends ≥ 1)."""
    name, test = CURVE_CLAIM_TARGETS[target]
    work, proved = 0, []
    while cells:
        a, b = cells.pop()
        work += 1
        if work > MAX_CELLS:
            return CurveVerdict("unknown", f"{len(proved)} cells of E proved, and the covering's budget of {MAX_CELLS} "
                                           f"cells is spent near E ≈ {sp.N(a, 8)} (a tight bound meets the level there: "
                                           f"it cannot be separated)", cells=work)
        fa = f.xreplace({E: a})
        d = _holds(test, b, fa)
        if d.holds is True:
            proved.append((a, b))
            continue
        at_a = d if a == b else _holds(test, a, fa)
        for end, verdict in ((a, at_a), (b, None)):
            if verdict is None:
                if a == b:
                    continue
                verdict = _holds(test, b, f.xreplace({E: b}))
            if verdict.holds is False:
                level = f.xreplace({E: end})
                return CurveVerdict("refuted", f"randomized response at E = {end} is ε-DP and not "
                                               f"{target}({name} = {level})",
                                    counterexample={"E": str(end), "table": rr_table(end), "why": verdict.reason},
                                    cells=work)
        if a == b or (b - a) < sp.Rational(1, 2 ** 40):
            return CurveVerdict("unknown", f"at E ≈ {sp.N(a, 8)} the level of randomized response and {name}(E) "
                                           f"are too close to separate ({at_a.reason or d.reason})", cells=work)
        m = (a + b) / 2
        cells += [(m, b), (a, m)]
    return CurveVerdict("proved", f"{len(proved)} cells of E, each proved at its ends (randomized response at the "
                                  f"right end satisfies {name} at the left end's value)", cells=work)


# -- ε-bounded range ⇒ ρ(E)-zCDP -----------------------------------------------------------------------------
BOUNDED_RANGE_SCOPE = "every output space and every size (every pair whose log-likelihood ratio spans at most log E)"


def bounded_range_pair(lam, E):
    """The binary pair P = (λ, 1 − λ), Q = (λ·m, (1 − λ)·m·E) with m = 1/(λ + (1 − λ)E): likelihood ratios
    Q/P ∈ {m, mE}, so its log-ratio range is exactly log E (ε-bounded range)."""
    m = 1 / (lam + (1 - lam) * E)
    return (lam, 1 - lam), (lam * m, (1 - lam) * m * E)


def bounded_range_renyi(lam, t, alpha):
    """D_α of :func:`bounded_range_pair` at E = e^t: log(λ + (1−λ)e^t) + log(λ + (1−λ)e^((1−α)t))/(α − 1),
    written log(λ + (1−λ)e^t) − t + log(λ·e^((α−1)t) + 1 − λ)/(α − 1) so that both logs read numbers ≥ 1
    (convex combinations of 1 and e^(positive)): their balls never reach 0 when λ's interval does."""
    return (sp.log(lam + (1 - lam) * sp.exp(t)) - t
            + sp.log(lam * sp.exp((alpha - 1) * t) + 1 - lam) / (alpha - 1))


def _centred_test(ft, t, a):
    """The cell test of :func:`decide_bounded_range`: on [α₁, α₂] × [λ₁, λ₂] × [t₁, t₂], D_α ≤ D_{α₂}
    (D_α nondecreasing in α), so ρ·α − D_α ≥ h(λ, t) = ρ(e^t)·α₁ − D_{α₂}(λ, t) there (α₁ ≥ 1, ρ ≥ 0), and h is
    bounded below by its centred form: h at the centre of the (λ, t) box minus, for each of λ and t, the
    largest |∂h| over the box (interval evaluation) times half the box's width (the mean value theorem).
    Near the maximum of D over λ the slope there is small, so the bound gains with the square of the cell,
    where bounding each term at its own worst corner gained only linearly."""
    lam, a1, a2 = sp.Symbol("lam", positive=True), sp.Symbol("a1", positive=True), sp.Symbol("a2", positive=True)
    h = ft * a1 - bounded_range_renyi(lam, t, a).xreplace({a: a2})
    args = (lam, t, a1, a2)
    h_run = I.compile_enclosure(h, args)
    slopes = [I.compile_enclosure(sp.diff(h, v), args) for v in (lam, t)]

    def proved(cell):
        (al1, al2), (l1, l2), (t1, t2) = cell
        centre = h_run(((l1 + l2) / 2, (t1 + t2) / 2, al1, al2), 128)
        box = (I.interval(l1, l2), I.interval(t1, t2), al1, al2)
        low = centre
        for run, width in zip(slopes, (l2 - l1, t2 - t1)):
            d = run(box, 128)
            if not d.is_finite():
                return False
            low = low - C.ball(max(abs(d.lower()), abs(d.upper())) * width / 2)
        return low.is_finite() and low.lower() >= 0
    return proved


def decide_bounded_range(f, E: sp.Symbol, lo, hi, *, max_cells: int = 250000) -> CurveVerdict:
    """ε-bounded range(E) ⇒ f(E)-zCDP for every E in [lo, hi] (rational, 1 < lo ≤ hi), at every size.

    **Reduction.** For an ε-bounded-range pair let ψ = Q/P on P's support: ψ ∈ [m, m·E] for m = min ψ and
    E_P[ψ] = 1. D_α(P‖Q) = log E_P[ψ^(1−α)]/(α − 1) and ψ ↦ ψ^(1−α) is convex for α > 1, so it lies under
    its chord on [m, mE]: E_P[ψ^(1−α)] is at most its value for the two-point law on {m, mE} with mean 1,
    which is the binary pair of :func:`bounded_range_pair` for some λ ∈ [0, 1] (itself ε-bounded range).
    The same holds for D_α(Q‖P) (the range of log P/Q is the same). So the claim holds iff
    D_α(pair(λ, E)) ≤ f(E)·α for all λ ∈ [0, 1], α > 1 and E in the range.

    **Covering.** In t = log E (the range in t is enclosed by rationals around [log lo, log hi]): for
    α ≥ A = max_t t/f(e^t), D_α ≤ D_∞ ≤ t ≤ f·α. On a cell [α₁, α₂] × [λ₁, λ₂] × [t₁, t₂], D_α ≤ D_{α₂}
    (D_α nondecreasing in α), and D_{α₂} = log(λe^(−t) + 1 − λ) + log(1 + λ(e^((α₂−1)t) − 1))/(α₂−1)
    is at most its terms' values at their worst corners (the first falls in λ and in t, the second rises
    in both): f(e^{t₁})·α₁ minus that bound ≥ 0 (f nondecreasing, checked) proves the cell. A certified
    violation at a rational point (E, λ, α) refutes with that exact table.

    >>> E = sp.Symbol("E", positive=True)
    >>> decide_bounded_range(sp.log(E) ** 2 / 16, E, 3, 148).counterexample["table"]["rows"]["1"]
    ['1/4', '3/4']
    """
    f = sp.sympify(f)
    if not (sp.sympify(lo).is_Rational and (hi is None or sp.sympify(hi).is_Rational)) or sp.sympify(lo) < 1:
        return CurveVerdict("unknown", "the range must have rational ends at or above E = 1 (ε = 0), e.g. "
                                       "--assume '1<E<=148'")
    positive = sp.Symbol(E.name, positive=True)
    proof = width_lemma(f.xreplace({E: positive}), sp.log(positive), positive, lo, hi)
    if proof is not None:       # every such pair's log-likelihood ratio spans at most log E
        return CurveVerdict("proved", proof.reason, scope=BOUNDED_RANGE_SCOPE, cells=proof.cells,
                            method="the cumulant's width lemma")
    a, t = sp.Symbol("alpha", positive=True), sp.Symbol("t", positive=True)
    ft = f.xreplace({E: sp.exp(t)})
    points = []     # the range's own ends first, then small ratios (simpler tables), then its upper end
    for e in (lo, 2, 3, hi):
        e = None if e is None else sp.Rational(e)
        if e is not None and e > 1 and e >= lo and (hi is None or e <= hi) and e not in points:
            points.append(e)
    for e_pt in points:
        for l_pt in (sp.Rational(1, 2), sp.Rational(1, 4), sp.Rational(3, 4)):
            for a_pt in (sp.Rational(65, 64), sp.Integer(2), sp.Integer(4)):
                gap = C.enclose(f.xreplace({E: e_pt}) * a_pt - bounded_range_renyi(l_pt, sp.log(e_pt), a_pt), 128)
                if gap.upper() < 0:
                    table = pair_table(*bounded_range_pair(l_pt, e_pt))
                    return CurveVerdict("refuted", f"the binary pair with λ = {l_pt} at E = {e_pt} has log-ratio range "
                                                   f"log E and D_α > ρα at α = {a_pt}",
                                        counterexample={"E": str(e_pt), "table": table,
                                                        "what": f"the binary pair with λ = {l_pt}",
                                                        "why": f"at α = {a_pt}: ρα − D_α ∈ {gap.text()} < 0"})
    if hi is None:
        return CurveVerdict("unknown", f"{E.name} has no upper end: the width lemma did not prove it and the covering "
                                       f"needs a bounded range, e.g. --assume '1<{E.name}<=148' (ε up to 5)")
    t_lo, t_hi = _rational_below(sp.log(lo)), _rational_above(sp.log(hi))
    if t_lo <= 0:
        return CurveVerdict("unknown", "the range reaches E = 1 (ε = 0), where both sides vanish: no covering closes "
                                       "there and the width lemma did not prove it; give a range away from it")
    if _nondecreasing(f, E, lo, hi) is None:
        return CurveVerdict("unknown", f"rho(E) = {f} is not shown nondecreasing on the range, which the covering "
                                       f"needs")
    top = _upper_over(lambda tb: (I.compile_enclosure(t / ft, t)(tb, 128)).upper(), t_lo, t_hi)
    if top is None:
        return CurveVerdict("unknown", f"t/rho(e^t) is not bounded on log E in [{t_lo}, {t_hi}] by interval "
                                       f"evaluation")
    A = sp.ceiling(top * 64) / 64 + 1
    l1s, l2s, t1s, t2s = sp.symbols("l1 l2 t1 t2", positive=True)
    # an upper bound of D_α on [λ1, λ2] × [t1, t2] at α = a: each term is monotone in λ and t
    upper_d = (sp.log(l1s * sp.exp(-t1s) + 1 - l1s)
               + sp.log(1 + l2s * (sp.exp((a - 1) * t2s) - 1)) / (a - 1))
    u_run = I.compile_enclosure(upper_d, (l1s, l2s, t1s, t2s, a))
    f_run = I.compile_enclosure(ft, t)
    f_at_lo = C.enclose(f.xreplace({E: sp.Rational(lo)}), 128)
    centred = _centred_test(ft, t, a)

    def proved(cell):
        (a1, a2), (l1, l2), (t1, t2) = cell
        # f is nondecreasing on [lo, hi]: its least value on the cell's part of the range is at t1, or at
        # E = lo itself for the first cells (t_lo lies a hair below log lo)
        least_f = f_at_lo if t1 == t_lo else f_run(t1, 128)
        gap = least_f * a1 - u_run((l1, l2, t1, t2, a2), 128)
        # the corners' bound first (cheap, and good where D is steep in λ); the centred form where the two
        # terms nearly cancel
        if gap.is_finite() and gap.lower() >= 0:
            return True
        return centred(cell)
    ok, cells, cell = _cover(((sp.Integer(1), A), (sp.Integer(0), sp.Integer(1)), (t_lo, t_hi)), proved,
                             max_cells=max_cells)
    if not ok:
        (a1, _), (l1, _), (t1, _) = cell
        return CurveVerdict("unknown", f"the covering's budget of {max_cells} cells of (α, λ, log E) is spent near "
                                       f"α ≈ {sp.N(a1, 6)}, λ ≈ {sp.N(l1, 4)}, log E ≈ {sp.N(t1, 6)}", cells=cells)
    return CurveVerdict("proved", f"the worst ε-bounded-range pairs are binary (the chord of ψ ↦ ψ^(1−α) on the "
                                  f"ratio range); D_α ≤ ρα on them for α in [1, {A}], λ in [0, 1] and log E in "
                                  f"[{t_lo}, {t_hi}] by interval evaluation on {cells} cells, and beyond α = {A}, "
                                  f"D_α ≤ D_∞ ≤ ε ≤ ρα", scope=BOUNDED_RANGE_SCOPE, cells=cells)
