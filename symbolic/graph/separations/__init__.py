"""Separations between notions: one table that satisfies A at some level and B at none
(:mod:`.one_table`), and one-parameter families of tables that keep A at one level while B's grows without
bound (:mod:`.families`). Imported by :mod:`symbolic.graph.pair`."""
