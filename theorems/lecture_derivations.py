"""Lecture notes, "Chapter 5 - Properties of DP" (draft 2021), §1, exercises 1.4 and 1.5: the scale of
Laplace noise under composition, derived in sympy from the engine's Laplace shift loss
(:func:`symbolic.derive.closed_forms.laplace_shift_loss`): k releases with ε/k each, and a histogram
released bin by bin (ε/d each) or at once (L1 sensitivity). The claims stating them are in
:mod:`theorems.lecture_properties`.
"""
from __future__ import annotations

import sympy as sp
import sympy.stats as st

from symbolic.derive.closed_forms import (B, D, DELTA, EPS, K, Derivation, finish, laplace_shift_loss, valid_eps,
                                          valid_size)


def laplace_k_releases_scale(*, k=None, eps=None) -> Derivation:
    """Exercise 1.4: k Laplace releases with ε/k each (sensitivity Δ): the scale that makes one release
    (ε/k)-DP (from the engine's Laplace shift loss), and the growth factor against one ε release.

    >>> d = laplace_k_releases_scale(); d.formula, d.extras["factor"]
    (Delta*k/epsilon, k)
    """
    subs = {K: None if k is None else valid_size(k, "k"), EPS: None if eps is None else valid_eps(eps)}
    loss, steps = laplace_shift_loss(DELTA, B)
    b_k = sp.solve(sp.Eq(loss, EPS / K), B)[0]
    b_1 = sp.solve(sp.Eq(loss, EPS), B)[0]
    lap = st.Laplace("L", 0, B)
    mag = sp.simplify(st.E(sp.Abs(lap)))
    steps += [("scale with loss ε/k", b_k), ("scale with loss ε", b_1),
              ("E|Lap(b)| (noise magnitude)", mag)]
    extras = {"single_scale": b_1, "factor": sp.simplify(b_k / b_1),
              "magnitude_factor": sp.simplify(mag.subs(B, b_k) / mag.subs(B, b_1)),
              "std_factor": sp.simplify(sp.sqrt(st.variance(lap)).subs(B, b_k) / sp.sqrt(st.variance(lap)).subs(B, b_1))}
    return finish("laplace_k_releases_scale", b_k, "pure ε-DP Laplace mechanism, sensitivity Δ, "
                   "basic composition splitting ε equally", steps, extras, subs)


def histogram_laplace_scales(*, d=None, eps=None) -> Derivation:
    """Exercise 1.5: histogram with d >= 2 bins (replace-one neighbours). Per-bin releases with ε/d each vs
    one joint release with i.i.d. Laplace noise per coordinate (L1 sensitivity).

    >>> h = histogram_laplace_scales(); h.formula, h.extras["joint_scale"], h.extras["ratio"]
    (d/epsilon, 2/epsilon, d/2)
    """
    subs = {D: None if d is None else valid_size(d, "d", lo=2), EPS: None if eps is None else valid_eps(eps)}
    dd = 4                                              # a representative; the change is e_i - e_j
    changes = [sp.Matrix([(1 if t == j else 0) - (1 if t == i else 0) for t in range(dd)])
               for i in range(dd) for j in range(dd) if i != j]
    per_coord = max(max(abs(v) for v in ch) for ch in changes)
    l1 = max(sum(abs(v) for v in ch) for ch in changes)
    loss1, steps = laplace_shift_loss(DELTA, B)
    # the loss of i.i.d. per-coordinate noise is the sum of coordinate losses (Δ_j/b each)
    joint_loss = sp.Add(*[loss1.subs(DELTA, sp.Integer(1)) for _ in range(l1)])
    b_bin = sp.solve(sp.Eq(loss1.subs(DELTA, per_coord), EPS / D), B)[0]
    b_joint = sp.solve(sp.Eq(joint_loss, EPS), B)[0]
    steps += [("moving one record between bins i, j changes the counts by e_j - e_i: "
               "per-count sensitivity", sp.Integer(per_coord)), ("L1 sensitivity", sp.Integer(l1)),
              ("per-bin scale with ε/d each", b_bin), ("joint scale (loss Σ_j |Δ_j|/b = ε)", b_joint)]
    extras = {"joint_scale": b_joint, "ratio": sp.simplify(b_bin / b_joint),
              "l1_sensitivity": sp.Integer(l1), "per_count_sensitivity": sp.Integer(per_coord)}
    return finish("histogram_laplace_scales", b_bin, "replace-one neighbours, d >= 2 bins", steps,
                   extras, subs)
