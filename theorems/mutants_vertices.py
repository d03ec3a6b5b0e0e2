"""Seeded faults of the vertex route (polytope vertices, hockey-stick atoms, symmetries): one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

VERTICES = "test:tests/test_vertices.py::"

_E("symbolic.solve.polytope:covering", "        if check_within(s, FEASIBILITY_EFFORT, meter=meter) == z3.unsat:\n            kept.remove(c)",
   "        if True:\n            kept.remove(c)", "vertices.covered-unchecked",
   "a candidate vertex is dropped as covered by the others without asking the solver",
   VERTICES + "test_a_false_composition_is_refuted_with_exact_tables",
   VERTICES + "test_candidates_cover_every_vertex_and_only_feasible_points")
_E("symbolic.solve.polytope:candidates", "            for a, c in cons:\n", "            for a, c in cons[1:]:\n",
   "vertices.condition-dropped", "a candidate's conditions leave out the first constraint of its block",
   VERTICES + "test_candidates_cover_every_vertex_and_only_feasible_points")
_E("symbolic.solve.atoms:_atoms_of", "    if signs != ({-1} if every else {1}):\n        return None\n",
   "", "atoms.hockey-any-polarity", "a hockey-stick sum is expanded with whichever quantifier, whatever its sign",
   VERTICES + "test_shapes_the_atoms_cannot_state_are_refused")
_E("symbolic.solve.symmetry:symmetries", "        if {_atom_key(op, _rename(f, ren)) for op, f in hyps} == hyps:",
   "        if True:", "symmetry.unchecked", "a renaming is used as a symmetry without checking the hypotheses",
   VERTICES + "test_a_renaming_that_moves_a_hypothesis_is_not_a_symmetry")
_E("symbolic.solve.vertices:decide", "    for atoms in case_atoms:\n", "    for atoms in case_atoms[:1]:\n",
   "vertices.first-case-only", "a hypothesis that is a disjunction is decided on its first disjunct alone",
   VERTICES + "test_a_hypothesis_bounding_a_sum_of_conditional_terms_is_split_into_cases")

SUMS = "test:tests/test_conditional_sums.py::"
_E("symbolic.solve.atoms:_per_choice", "            out.append(head + [a for c in chosen if c is not None for a in c])",
   "            out.append(head)", "atoms.at-most-conditions-dropped",
   "a sum bounded from above forgets that the terms left out must have false conditions (and a sum "
   "bounded from below that the terms counted must have true ones)",
   SUMS + "test_a_sum_bounded_from_above_is_read_exactly_over_subsets")
_E("symbolic.solve.atoms:_sum_at_most", "lambda c: -1 if c is None else 0", "lambda c: -1 if c is not None else 0",
   "atoms.at-most-complement",
   "the terms whose conditions are false are counted instead of those that may be true",
   SUMS + "test_a_sum_bounded_from_above_is_read_exactly_over_subsets")
