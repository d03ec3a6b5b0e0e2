"""How one conjunction of a negated conclusion over every belief is refuted (the route is
:mod:`symbolic.solve.routes.beliefs`; its module docstring states Lemmas 1-3, used here through the refuter).

A conjunction's atoms that mention the belief b are plain atoms and choices of maxima; its
conditions are the atoms that do not. :func:`_refute` tries Lemmas 1-3 and Pólya's multiplier on
plain atoms; :func:`conjunction` first applies the atoms ``b_x = 0`` (b_x put to zero in the
others), tests every choice of the maxima at once, expands the choices, and when a choice resists
tries the two lemmas that ask the others again under more conditions:

    Lemma 4 (a linear atom splits the tables). If g > 0 (or g ≥ 0) with g homogenised linear in
    b, g = Σ_x g_x·b_x, then some g_x > 0 (or ≥ 0), since b ≥ 0 is not 0. Each g_x the hypotheses
    allow to have that sign is a condition on the tables and parameters alone; the conjunction is
    refuted when it is under every such case.

    Lemma 5 (the cone of the numeric atoms). The linear atoms whose coefficients are numbers, one
    at least negative, cut the simplex down to a polytope C (strict ones closed). Every b in C is
    Σ_r λ_r·v_r over C's vertices v_r with λ ≥ 0, Σ λ = 1 = Σ b; so the conjunction has a solution
    only if its atoms in λ have one on the simplex, and the lemmas are asked again in λ. A positive
    coefficient of b_x·b_y can be outweighed where C keeps b_y small next to b_x: the signs in λ
    see it, the signs in b do not.
"""
from __future__ import annotations

import itertools

import sympy as sp
from flint import fmpq

from symbolic.core.quadratic import Polytope, TooLarge, vertices
from symbolic.core.formula import satisfied
from symbolic.solve.routes.atoms import Atom

MAX_EXPANDED = 4096       # plain conjunctions one conjunction with maxima may expand into
MAX_RAYS = 12             # vertices of a cone's polytope (Lemma 5)


def _refute(ref, atoms, conds, counts):
    """Refute one conjunction of plain atoms: True, an exactly re-verified counterexample, or False."""
    atoms = sorted(atoms, key=lambda a: ref.homogenised(a.f).total_degree())
    if any(ref.signs_refute(a.f, a.op, conds) for a in atoms):
        counts["signs"] += 1
        return True
    if ref.pair_refutes(atoms, conds):
        counts["pairs"] += 1
        return True
    found = ref.support_refutes(atoms, conds)
    if found is True:
        counts["support"] += 1
        return True
    if found is not False:
        return found
    if any(ref.signs_refute(a.f, a.op, conds, multiplier=1) for a in atoms):
        counts["multiplier"] += 1
        return True
    return False


def conjunction(ref, plain, choices, conds, counts, split=True, cone=True):
    """Refute one conjunction (plain atoms and choices of maxima): True, an exactly re-verified
    counterexample, False, or None when its choices are too many to expand. When the lemmas fail on
    some choice, Lemma 4 splits the whole conjunction once by a linear atom's coefficients."""
    zero = _zeros(ref, plain)
    while zero:   # b_x = 0 put in may leave another b_y = 0
        plain = _substituted(plain, zero)
        if plain is True:
            return True
        choices = [ch.subs(zero) for ch in choices]
        zero = _zeros(ref, plain)
    if choices and any(ref.choices_refute(ch, conds) for ch in choices):
        counts["choices"] += 1
        return True
    if _count(choices) > MAX_EXPANDED:
        return None
    for picked in itertools.product(*(ch.atoms() for ch in choices)):
        counts["expanded"] += bool(choices)
        found = _refute(ref, plain + list(picked), conds, counts)
        if found is True:
            continue
        if found is False and split and _split_refutes(ref, plain, choices, conds, counts):
            counts["split"] += 1
            return True
        if found is False and cone and _cone_refutes(ref, plain, choices, conds, counts):
            counts["cone"] += 1
            return True
        return found
    return True


def _cone_refutes(ref, plain, choices, conds, counts):
    """Lemma 5 (the cone of the numeric atoms). The linear atoms whose coefficients are numbers, at
    least one negative, cut the simplex down to a polytope C (strict ones closed: a solution lies in
    the closure too). Every b in C is Σ_r λ_r·v_r over C's vertices v_r with λ ≥ 0, Σ λ = 1, and
    Σ b = Σ λ; so the conjunction has a solution b only if its atoms, with b = Σ λ_r v_r, have one
    λ on the simplex. Lemmas 1, 2 and 4 are asked again in λ: a coefficient of b_x·b_y that may be
    positive can be outweighed where C makes b_y small next to b_x, which the signs in λ see."""
    rows = [(tuple(fmpq(int(c.p), int(c.q)) for c in coeffs), fmpq(0)) for _, coeffs in _linear_forms(ref, plain)
            if all(c.is_Rational for c in coeffs) and any(c < 0 for c in coeffs)]
    if not rows:
        return False
    try:
        corners = vertices(Polytope(len(ref.b), (), tuple(rows)))
    except TooLarge:
        return False
    if not corners:
        return True
    if len(corners) > MAX_RAYS:
        return False
    lam = [sp.Symbol(f"_ray{r}") for r in range(len(corners))]
    at = {x: sp.Add(*[sp.Rational(int(v[j].p), int(v[j].q)) * lam[r] for r, v in enumerate(corners)])
          for j, x in enumerate(ref.b)}
    sub = ref.in_coordinates(lam)
    plain = [Atom(sp.expand(a.f.subs(at)), a.op) for a in plain]
    choices = [ch.subs(at) for ch in choices]
    return conjunction(sub, plain, choices, conds, counts, cone=False) is True


def _zeros(ref, atoms):
    """{b_x: 0} for the entries of the belief that an atom ``b_x = 0`` of the conjunction sets to zero."""
    zero = {a.f if a.f.is_Symbol else -a.f for a in atoms if a.op == "==" and (a.f.is_Symbol or (-a.f).is_Symbol)}
    return {z: 0 for z in zero & set(ref.b)}


def _substituted(atoms, zero):
    """The atoms with ``zero`` put in, those that become true numbers dropped; True when one becomes
    a false number."""
    out = []
    for a in atoms:
        f = sp.expand(a.f.subs(zero))
        if f.is_Rational:
            if not satisfied(f, a.op):
                return True
            continue
        out.append(Atom(f, a.op))
    return out


def _linear_forms(ref, plain):
    """(atom, its coefficients in b) for the atoms ``g > 0`` / ``g ≥ 0`` linear in b once homogenised."""
    for a in plain:
        poly = ref.homogenised(a.f)
        if a.op != "==" and poly.total_degree() == 1:
            yield a, [sp.expand(poly.coeff_monomial(x)) for x in ref.b]


def _split_refutes(ref, plain, choices, conds, counts):
    """Lemma 4 (a linear atom splits the tables). If ``g > 0`` (or ``g ≥ 0``) with g homogenised
    linear in b, g = Σ_x g_x·b_x, then g_x > 0 (or g_x ≥ 0) for some x, since b ≥ 0 is not 0. Each such
    x whose g_x may have that sign is a condition on the tables and parameters alone, under which the
    other lemmas are tried again; the conjunction is refuted when every x is."""
    for a, coeffs in _linear_forms(ref, plain):
        cases = [Atom(c, a.op) for c in coeffs if not ref.never(c, a.op == ">", conds)]
        if all(conjunction(ref, plain, choices, conds + (c,), counts, split=False, cone=False) is True
               for c in cases):
            return True
    return False


def _count(choices):
    n = 1
    for ch in choices:
        n *= 2 ** len(ch.parts)
    return n
