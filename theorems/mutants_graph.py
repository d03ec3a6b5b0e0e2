"""Seeded faults of the implication graph (:mod:`symbolic.graph`): one engine edit each."""
from __future__ import annotations

from theorems.mutation import _E

GRAPH = "test:tests/test_graph.py::"
_E("symbolic.graph.separate:level_free", 'if isinstance(v, Vacuous):\n        return "no level"',
   'if isinstance(v, Refuted):\n        return "no level"',
   "graph.no-level-inverted", "a table on which the target holds at some level is called a qualitative separation",
   GRAPH + "test_a_qualitative_separation_rechecked_by_hand")
_E("symbolic.graph.pair:_prove_map", "if not isinstance(result.verdict, Proved):", "if False:",
   "graph.coarser-map-unproved", "a coarser parameter map is accepted without its proof",
   GRAPH + "test_a_false_coarser_map_is_not_accepted")
_E("symbolic.graph.pair:with_literature", "agrees = True if proved else (False if refuted else None)",
   "agrees = True if refuted else (False if proved else None)",
   "graph.literature-inverted", "a proved recorded implication is reported as contradicting the literature",
   GRAPH + "test_a_proved_map")
_E("symbolic.graph.hasse:diagram", "reduced = nx.transitive_reduction(dag)", "reduced = dag",
   "graph.no-reduction", "the Hasse diagram keeps edges implied by paths", GRAPH + "test_transitive_reduction_on_a_chain")
_E("symbolic.graph.infer:separation_upward", "if holds_exactly(b_info.notion, tab, pop, bvals):", "if True:",
   "graph.witness-not-rechecked", "a separation is carried along an implication without evaluating the witness",
   GRAPH + "test_a_travelling_separation_is_rechecked_not_trusted")
_E("symbolic.graph.infer:compose", "            v = f[v]\n", "",
   "graph.compose-skips-first-map", "transitivity composes the maps without the first one",
   GRAPH + "test_composition_of_level_keeping_maps")
