"""Decide a claim part whose conclusion quantifies over every belief, by the signs of its coefficients.

Applies when the negated conclusion introduces one belief b, a joint distribution on 𝒟^n (b ≥ 0,
Σ b = 1), that no hypothesis mentions, and reads exactly as a disjunction of conjunctions of atoms
``f > 0`` / ``f ≥ 0`` / ``f = 0`` with f polynomial in b (:func:`symbolic.solve.routes.atoms.dnf`; posteriors are
cross-multiplied by their normalisers, so an atom is a polynomial in b whose coefficients are
polynomials in the tables and parameters θ). The part is proved at this size when every conjunction
is refuted by one of the lemmas; each is stated over the values θ allowed by the hypotheses and by
the conjunction's atoms that do not mention b (its conditions), which the queries assume.

Homogenising. A term of degree j in b is multiplied by (Σ b)^(k−j), k the atom's degree in b: on the
simplex this changes nothing, and afterwards f(s·b) = s^k f(b) for s > 0.

    Lemma 1 (signs). If every coefficient of the homogenised f is ≤ 0, then f ≤ 0 at every b ≥ 0
    (each monomial is ≥ 0), so ``f > 0`` has no solution. If moreover the coefficient of each pure
    power b_x^k is < 0, then f < 0 on the simplex (some b_x > 0 there, and f ≤ c_x·b_x^k), so
    ``f ≥ 0`` has none, and ``f = 0`` has none when this holds for f or for −f. Multiplying f by Σ b
    (equal to 1 on the simplex) gives coefficients that are sums of f's, on which the test succeeds
    more often (Pólya's multiplier); it is tried when the plain test fails.

    The atoms of a hockey-stick comparison, rest + Σ_k max(0, part_k) > 0, one per choice S of the
    maxima, are refuted together when they can be: the coefficient of a monomial m in rest + Σ_{k∈S}
    part_k depends on S only through the parts in which m occurs, so the test runs over the subsets of
    those (a few) instead of over all 2^k choices; otherwise the choices are expanded one by one.

    Lemma 2 (a strict atom against another). ``f > 0`` with ``g ≥ 0``, ``g > 0`` or ``g = 0`` gives
    ``f + g > 0`` (and ``f − g > 0`` when g = 0), which Lemma 1 may refute.

    Lemma 3 (few points of support). If every atom of the conjunction that mentions b is linear in b
    after homogenising, one of them is strict, and they use r different linear forms, then a solution
    b can be replaced by one on at most r points: the forms' values at b lie in the cone spanned by
    their values at the point masses, hence (Carathéodory's theorem for cones) in the cone spanned by
    at most r of them; the b' ≥ 0 so obtained gives every form the same value, so it satisfies the
    same atoms, and it is not 0 (the strict atom's value is > 0), so b'/Σb' is a belief that does
    (homogeneity). One query per support of min(r, |𝒟^n|) points, the other entries of b set to 0.

Two more lemmas ask these again under more conditions (:mod:`symbolic.solve.routes.belief_conjunctions`):
Lemma 4 splits a conjunction by a linear atom's coefficients (some g_x > 0 when Σ_x g_x·b_x > 0), a
case per x, a condition on the tables alone; Lemma 5 rewrites it in the rays of the cone that its
numeric linear atoms cut from the simplex. An atom ``b_x = 0`` puts b_x to zero in the others. A sum
of conditional terms Σ_k If(c_k, m_k, 0) with every m_k ≥ 0 (a probability of the transcripts where
something happens) is read over the subsets of the conditions, or by the pigeonhole principle when
those are too many (:func:`symbolic.solve.routes.atoms.dnf` with ``sums``): the form is then implied by the
negated conclusion, which is all a refutation needs.

A conjunction no lemma refutes leaves the part undecided here; a satisfiable support query gives a
belief, tables and parameters that are made rational and re-verified exactly like any counterexample.
"""
from __future__ import annotations

import copy
import itertools

import sympy as sp
import z3

from symbolic.solve.routes.atoms import Choice, dnf
from symbolic.solve.routes.belief_conjunctions import conjunction
from symbolic.solve.backends.deadline import check_within
from symbolic.solve.backends.effort import Exhausted, units
from symbolic.solve.queries.encode import z3_or
from symbolic.solve.routes.route import RouteResult, constant_names, rational_model, sign_oracle
from symbolic.solve.queries.solver import assignment
from symbolic.solve.queries.verify import verify
from symbolic.solve.backends.z3_ops import to_z3

ROUTE_EFFORT = units(45)  # z3 units for the whole route at one size (at the ci level)
MAX_CONJUNCTIONS = 20000  # of the negated conclusion's disjunctive normal form
MAX_PARTS = 8             # maxima that share one monomial of the belief (Lemma 1 for every choice)


def _belief(enc):
    """The belief's z3 unknowns in the order of 𝒟^n, or None when the negated conclusion has no
    single joint belief that only it mentions."""
    if enc.universal or enc.ops.side or enc.witness is None or enc.imp.conclusion.notion.population != "all":
        return None
    probs = [enc.witness.probs[d] for d in enc.dbs]
    if not all(z3.is_const(p) and p.decl().kind() == z3.Z3_OP_UNINTERPRETED for p in probs):
        return None
    names = {p.decl().name() for p in probs}
    memo = {}
    if any(constant_names(h, memo) & names for h in enc.hyps):
        return None
    return probs


class _Refuter:
    """The lemmas, with the queries they ask, their cache and the obligations of the unsatisfiable ones."""

    def __init__(self, enc, belief, settings, meter):
        self.enc, self.settings, self.meter = enc, settings, meter
        self.env = {v.decl().name(): v for _, _, v in enc.vars}
        self.b = [sp.Symbol(p.decl().name()) for p in belief]
        self.sum_b = sp.Poly(sp.Add(*self.b), *self.b)
        self.belief = belief
        names = {s.name for s in self.b}
        memo = {}
        self.given = [c for c in enc.base if not (constant_names(c, memo) & names)] + list(enc.hyps)
        fixed = enc.fixed_params
        self.nonneg = {v.decl().name() for g, _, v in enc.vars if g != "param"} | {
            p.name for p in enc.params if p.name not in fixed and p.lower is not None and sp.Rational(p.lower) >= 0}
        self.cache, self.obligations, self.polys, self.verdicts, self.monotone = {}, [], {}, {}, {}
        self.forms = {}
        self.queries = self.syntactic = 0
        self.undecided = False

    # -- Lemma 1 ----------------------------------------------------------------------------
    def homogenised(self, f, multiplier=0):
        if (f, multiplier) not in self.polys:
            self.polys[f, multiplier] = self._homogenised(f, multiplier)
        return self.polys[f, multiplier]

    def _homogenised(self, f, multiplier):
        poly = sp.Poly(f, *self.b)
        k = poly.total_degree()
        out = sp.Poly(0, *self.b, domain=poly.domain)
        for j in range(k + 1):
            part = sp.Poly.from_dict({m: c for m, c in poly.terms() if sum(m) == j}, *self.b, domain=poly.domain)
            if not part.is_zero:
                out += part * self.sum_b ** (k - j)
        return out * self.sum_b ** multiplier if multiplier else out

    def total(self, f, g):
        """f + g homogenised: each homogenised, the one of lower degree times a power of Σ b."""
        if ("sum", f, g) not in self.polys:
            self.polys["sum", f, g] = self._total(f, g)
        return self.polys["sum", f, g]

    def _total(self, f, g):
        pf, pg = self.homogenised(f), self.homogenised(g)
        df, dg = pf.total_degree(), pg.total_degree()
        return pf * self.sum_b ** max(0, dg - df) + pg * self.sum_b ** max(0, df - dg)

    def _surely_nonpositive(self, c):
        """Every term a negative number times powers of unknowns or parameters that are ≥ 0."""
        for t in sp.Add.make_args(sp.expand(c)):
            num, rest = t.as_coeff_Mul()
            if num > 0:
                return False
            for factor in sp.Mul.make_args(rest):
                base, e = factor.as_base_exp()
                if rest != 1 and not (base.is_Symbol and base.name in self.nonneg and e.is_Integer and e > 0):
                    return False
        return True

    def never(self, c, strict, conds):
        """No θ allowed by the hypotheses and ``conds`` has ``c > 0`` (``strict``) / ``c ≥ 0``."""
        if strict and self._surely_nonpositive(c):
            self.syntactic += 1
            return True
        key = (c, strict, conds)
        if key not in self.cache:
            self.cache[key] = self._ask(c, strict, conds)
        return self.cache[key]

    def _ask(self, c, strict, conds):
        """One query, unless one already asked answers it: refuted under fewer conditions is refuted
        under more; satisfiable under more conditions is satisfiable under fewer."""
        known = self.monotone.setdefault((c, strict), ([], []))
        have = frozenset(conds)
        if any(r <= have for r in known[0]):
            return True
        if any(have <= w for w in known[1]):
            return False
        self.meter.check()
        t = self.solver_term(c)
        s = z3.Tactic("qfnra-nlsat").solver()
        s.add(self.given + [self.solver_form(a) for a in conds] + [t > 0 if strict else t >= 0])
        self.queries += 1
        r = check_within(s, self.settings.query_effort, meter=self.meter, safety=self.settings.timeout)
        self.undecided |= r == z3.unknown
        if r == z3.unsat:
            self.obligations.append(tuple(s.assertions()))
            known[0].append(have)
        elif r == z3.sat:
            known[1].append(have)
        return r == z3.unsat

    def signs_refute(self, f, op, conds, multiplier=0):
        """Lemma 1 for ``f op 0``."""
        key = (f, op, conds, multiplier)
        if key not in self.verdicts:
            self.verdicts[key] = self._signs_refute(f, op, conds, multiplier)
        return self.verdicts[key]

    def _signs_refute(self, f, op, conds, multiplier):
        if op == "==":
            return self.signs_refute(f, ">=", conds, multiplier) or self.signs_refute(-f, ">=", conds, multiplier)
        poly = f if isinstance(f, sp.Poly) else self.homogenised(f, multiplier)
        k = poly.total_degree()
        if op == ">":
            return all(self.never(c, True, conds) for c in poly.coeffs())
        pure = {m for m in poly.monoms() if max(m) == k}
        if len(pure) < len(self.b):
            return False
        return all(self.never(c, m not in pure, conds) for m, c in poly.terms())

    def lifted(self, f, degree):
        """f homogenised, times (Σ b)^(degree − its degree)."""
        poly = self.homogenised(f)
        return poly * self.sum_b ** (degree - max(poly.total_degree(), 0))

    def choices_refute(self, ch, conds):
        """Lemma 1 for every choice S of a :class:`~symbolic.solve.routes.atoms.Choice` at once: the coefficient
        of a monomial m in rest + Σ_{k∈S} part_k is r_m + Σ_{k ∈ S ∩ K_m} p_{k,m}, K_m the parts in which m
        occurs, so the lemma holds for every S iff it holds for every subset of K_m."""
        pieces = [f for f in (ch.rest, *ch.parts) if f != 0]
        degree = max(self.homogenised(f).total_degree() for f in pieces)
        rest = self.lifted(ch.rest, degree) if ch.rest != 0 else None
        parts = [self.lifted(p, degree) for p in ch.parts if p != 0]
        monomials = {m for q in ([rest] if rest is not None else []) + parts for m in q.monoms()}
        pure = {tuple(degree if j == i else 0 for j in range(len(self.b))) for i in range(len(self.b))}
        if ch.op == ">=":
            monomials |= pure
        for m in sorted(monomials):
            r = rest.coeff_monomial(m) if rest is not None else sp.Integer(0)
            present = [c for c in (q.coeff_monomial(m) for q in parts) if c != 0]
            if len(present) > MAX_PARTS:
                return False
            strict = ch.op == ">" or m not in pure
            for k in range(len(present) + 1):
                for subset in itertools.combinations(present, k):
                    if not self.never(sp.expand(r + sum(subset)), strict, conds):
                        return False
        return True

    # -- Lemma 2 ----------------------------------------------------------------------------
    def pair_refutes(self, atoms, conds):
        for a in atoms:
            if a.op != ">":
                continue
            for g in atoms:
                if g is a:
                    continue
                sums = [self.total(a.f, g.f)] + ([self.total(a.f, -g.f)] if g.op == "==" else [])
                if any(self.signs_refute(s, ">", conds) for s in sums):
                    return True
        return False

    # -- Lemma 3 ----------------------------------------------------------------------------
    def support_refutes(self, atoms, conds):
        """True when refuted; an :class:`~symbolic.solve.queries.verify.Assignment` when a support query
        gives an exactly re-verified counterexample; False otherwise."""
        polys = [self.homogenised(a.f) for a in atoms]
        if self.belief is None or any(p.total_degree() != 1 for p in polys) or not any(a.op == ">" for a in atoms):
            return False
        forms = {tuple(p.coeff_monomial(x) for x in self.b) for p in polys}
        r = min(len(forms), len(self.b))
        for support in itertools.combinations(range(len(self.b)), r):
            self.meter.check()
            outside = [self.belief[j] == 0 for j in range(len(self.b)) if j not in support]
            s = z3.Tactic("qfnra-nlsat").solver()
            s.add(self.enc.base + list(self.enc.hyps) + outside + [self.solver_form(a) for a in list(conds) + list(atoms)])
            self.queries += 1
            res = check_within(s, self.settings.query_effort, meter=self.meter, safety=self.settings.timeout)
            if res == z3.unsat:
                self.obligations.append(tuple(s.assertions()))
                continue
            if res == z3.sat:
                return self.counterexample(s)
            self.undecided = True
            return False
        return True

    def solver_form(self, atom):
        """The atom as a solver constraint (converted once)."""
        if atom not in self.forms:
            self.forms[atom] = atom.z3(self.env)
        return self.forms[atom]

    def solver_term(self, c):
        if c not in self.forms:
            self.forms[c] = to_z3(c, self.env)
        return self.forms[c]

    def in_coordinates(self, symbols):
        """The same refuter over other unknowns of the simplex (the weights of a cone's rays): its
        queries and their cache are shared, Lemma 3 (which asks for the belief itself) is off."""
        sub = copy.copy(self)
        sub.b, sub.belief = list(symbols), None
        sub.sum_b = sp.Poly(sp.Add(*sub.b), *sub.b)
        sub.polys, sub.verdicts = {}, {}
        return sub

    def counterexample(self, solver):
        vals = rational_model(solver, [v for _, _, v in self.enc.vars])
        if vals is None:
            return False
        asg = assignment(self.enc, vals)
        return asg if verify(self.enc.imp, self.enc.params, asg)[0] else False


def decide(enc, settings, meter):
    """:class:`~symbolic.solve.routes.route.RouteResult`, or None when the part does not have the shape."""
    belief = _belief(enc)
    if belief is None:
        return None
    ref = _Refuter(enc, belief, settings, meter.sub(settings.scale(ROUTE_EFFORT), "beliefs route"))
    negated = z3_or(enc.negated_conclusion_parts())
    conjunctions = dnf(negated, cap=MAX_CONJUNCTIONS, sign=sign_oracle(enc, ref.env), grouped=True, sums=True)
    if conjunctions is None:
        return None
    names = {s.name for s in ref.b}
    counts = {"choices": 0, "signs": 0, "pairs": 0, "support": 0, "multiplier": 0, "split": 0, "cone": 0,
              "expanded": 0}
    try:
        for conj in conjunctions:
            conds = tuple(a for a in conj if not (a.symbols() & names))
            plain = [a for a in conj if a.symbols() & names and not isinstance(a, Choice)]
            choices = [a for a in conj if a.symbols() & names and isinstance(a, Choice)]
            found = conjunction(ref, plain, choices, conds, counts)
            if found is None:
                return RouteResult("unknown", reason="beliefs: too many choices of the maxima to expand")
            if found is False:
                return RouteResult("unknown", reason="beliefs: a conjunction of the negated conclusion is refuted "
                                                     "by no sign lemma" + (" (a query undecided)" if ref.undecided else ""))
            if found is not True:
                return RouteResult("sat", found, how=f"a belief on few points (Carathéodory; {ref.queries} queries)")
    except Exhausted as e:
        return RouteResult("unknown", reason="beliefs: " + e.text)
    how = (f"signs of the coefficients in the belief: {len(conjunctions)} conjunctions refuted "
           f"({counts['choices']} by signs for every choice of the maxima at once; of the rest, {counts['expanded']} expanded, "
           f"{counts['signs']} by signs, {counts['pairs']} by a pair, {counts['support']} on few points, "
           f"{counts['multiplier']} with the multiplier Σb, {counts['split']} split by a linear atom's coefficients, {counts['cone']} in the rays of a cone), {ref.syntactic} coefficients by their terms, "
           f"{ref.queries} queries, {ref.meter.spent:,} z3 units")
    return RouteResult("unsat", how=how, obligations=ref.obligations)
