"""The closure-under-post-processing check fails when any one of the maps it is given breaks closure, wherever
that map stands among maps that keep it (the identity, and the map sending every output to one), and
passes when none does. Pointwise indistinguishability is not closed: moving half of one output into
another takes the table below past its level (the engine's own test of that notion shows it)."""
from __future__ import annotations

import sympy as sp
from hypothesis import given, settings as hsettings, strategies as st

from symbolic.graph.structure_checks import closure_holds, leaks
from symbolic.notions.listed.catalog import find_notion
from symbolic.notions.structure import pair_table

ONE, ZERO = sp.Integer(1), sp.Integer(0)
IDENTITY = [[ONE, ZERO, ZERO], [ZERO, ONE, ZERO], [ZERO, ZERO, ONE]]
COLLAPSE = [[ONE, ZERO], [ONE, ZERO], [ONE, ZERO]]
BREAKS = leaks(3, sp.Rational(1, 2))[0]
TABLE = pair_table((sp.Rational(9, 17), sp.Rational(1, 17), sp.Rational(7, 17)),
                   (sp.Rational(14, 33), sp.Rational(1, 33), sp.Rational(6, 11)))
NOTION = find_notion("PointwiseIndistinguishable").notion
TARGET = "E"
FIXED = {"delta": sp.Rational(1, 10)}


@given(st.lists(st.sampled_from(["identity", "collapse"]), max_size=4), st.integers(0, 4), st.booleans())
@hsettings(max_examples=25, deadline=None)
def test_one_breaking_map_among_any_others_fails_the_check(keeping, where, include):
    kernels = [IDENTITY if k == "identity" else COLLAPSE for k in keeping]
    if include:
        kernels.insert(min(where, len(kernels)), BREAKS)
    level, ok = closure_holds(NOTION, TABLE, kernels, TARGET, FIXED)
    assert level is not None and ok is (not include), (keeping, where, include, level)
