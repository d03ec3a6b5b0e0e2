"""The picture of a graph run: proved implications as a Hasse diagram, separations as a second view.

Notions that imply each other (with any maps) are merged into one node; the proved edges between
the merged nodes are transitively reduced (an edge implied by a path is left out); each edge keeps
its parameter map as its label, and is drawn solid when an implication it stands for holds at every size
(:mod:`symbolic.graph.all_sizes`), dashed when it was proved within the run's sizes only. The separation view
draws the ``not-implies`` pairs, qualitative separations solid and counterexamples to a map dashed. Rendering: Graphviz's ``dot`` when it is
installed, else networkx's layout drawn by matplotlib.
"""
from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass


from symbolic.core.math_text import tidy_text
from symbolic.graph.all_sizes import holds_at_every_size


PER_LINE = 3     # notion names a line in a merged node
MAPS_SHOWN = 2   # level-changing maps shown inside a merged node (the JSON has them all)
LEGEND = ("solid: holds at every size (the argument is in the JSON); dashed: proved within the run's sizes; "
          "dotted: under a side condition")


@dataclass(frozen=True)
class Diagram:
    """``classes``: tuples of notion IDs that imply each other; ``edges``: (class index, class index,
    label) after transitive reduction; ``separations``: (from ID, to ID, qualitative); ``inner``: per
    class, the implications inside it whose map changes the level ((from, to, map), empty when the
    notions are equivalent at the same level); ``conditional``: implications proved only under a
    side condition (a full-support prior), drawn dashed and left out of the order; ``every_size``: the
    (class index, class index) edges with an implication that holds at every size, drawn solid (the others,
    proved within the run's bounds, dashed); ``sizes``: the sizes the pairs were decided at, written in the
    picture's legend, since ``≡`` and a dashed edge say nothing beyond them."""

    classes: tuple
    edges: tuple
    separations: tuple
    inner: tuple = ()
    conditional: tuple = ()   # (class index, class index, label): implications under a side condition
    every_size: tuple = ()
    sizes: str = ""

    def legend(self, separations: bool = False) -> str:
        """The line under the picture: the sizes, then what the line styles mean."""
        where = f"decided at {self.sizes}" if self.sizes else "decided at the run's sizes"
        if separations:
            return f"separations {where}: A ⊣ B means A holds and B fails at every level on an exact table"
        return f"{where}: ≡ and ≈ mean equivalent at these sizes. {LEGEND}"

    def node_label(self, i: int) -> str:
        """``A ≡ B`` for notions equivalent at the same level; ``A ≈ B`` (with the maps) when they
        imply each other only with a change of level."""
        inner = self.inner[i] if i < len(self.inner) else ()
        sep = " ≈ " if inner else " ≡ "
        names = list(self.classes[i])
        rows = [sep.join(names[k:k + PER_LINE]) for k in range(0, len(names), PER_LINE)]
        label = (sep.strip() + "\n").join(rows) if len(rows) > 1 else rows[0]
        if inner:
            shown = [f"{u}⇒{v}: {tidy_text(m)}" for u, v, m in inner[:MAPS_SHOWN]]
            more = f" (+{len(inner) - MAPS_SHOWN} more)" if len(inner) > MAPS_SHOWN else ""
            label += "\n" + "\n".join(shown) + more
        return label


def same_level(map_text) -> bool:
    """Whether a map keeps the level: every ``name = value`` has a bare name or a number as value.

    >>> same_level("E = E, delta = 0"), same_level("E = E**2"), same_level("gamma = E")
    (True, False, True)
    """
    if not map_text:
        return True
    for part in str(map_text).split(","):
        value = part.split("=", 1)[-1].strip()
        if not (value.isidentifier() or value.replace("/", "").isdigit()):
            return False
    return True


def diagram(ids, pairs, sizes: str = "") -> Diagram:
    """The Hasse diagram of the ``implies`` pairs among ``ids`` (PairResult values).

    >>> from symbolic.graph.pair import PairResult as R
    >>> d = diagram(["a", "b", "c"], [R("a", "b", "implies", "E = E"), R("b", "c", "implies", "E = E"),
    ...                               R("a", "c", "implies", "E = E"), R("c", "a", "not-implies")])
    >>> d.classes, [(d.node_label(i), d.node_label(j)) for i, j, _ in d.edges]
    ((('a',), ('b',), ('c',)), [('a', 'b'), ('b', 'c')])
    """
    import networkx as nx   # loaded when a graph is built or drawn, not with the engine
    g = nx.DiGraph()
    g.add_nodes_from(ids)
    labels = {}
    side = []
    every = set()
    for p in pairs:
        if p.relation == "implies" and p.source in g and p.target in g:
            if p.extra.get("assuming"):
                side.append((p.source, p.target, f"{p.map or ''} (if {', '.join(p.extra['assuming'])})"))
                continue
            g.add_edge(p.source, p.target)
            labels[(p.source, p.target)] = p.map or ""
            if holds_at_every_size(p.extra):
                every.add((p.source, p.target))
    comps = [tuple(sorted(c, key=list(ids).index)) for c in nx.strongly_connected_components(g)]
    comps.sort(key=lambda c: list(ids).index(c[0]))
    where = {x: i for i, c in enumerate(comps) for x in c}
    dag = nx.DiGraph()
    dag.add_nodes_from(range(len(comps)))
    for u, v in g.edges:
        if where[u] != where[v]:
            dag.add_edge(where[u], where[v])
    reduced = nx.transitive_reduction(dag)
    edges = []
    for i, j in sorted(reduced.edges):
        maps = sorted({labels[(u, v)] for u in comps[i] for v in comps[j] if (u, v) in labels})
        edges.append((i, j, "; ".join(maps)))
    seps = tuple((p.source, p.target, bool(p.qualitative)) for p in pairs
                 if p.relation == "not-implies" and not p.extra.get("trivial") and p.source in g and p.target in g)
    inner = tuple(tuple((u, v, labels[(u, v)]) for u in c for v in c
                        if (u, v) in labels and not same_level(labels[(u, v)])) for c in comps)
    conditional = tuple((where[u], where[v], label) for u, v, label in side if where[u] != where[v])
    every_size = tuple((i, j) for i, j, _ in edges if any((u, v) in every for u in comps[i] for v in comps[j]))
    return Diagram(tuple(comps), tuple(edges), seps, inner, conditional, every_size, str(sizes))


def _quote(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot_text(d: Diagram, *, separations: bool = False) -> str:
    """Graphviz DOT source: the Hasse diagram, or with ``separations`` the separation view.

    >>> from symbolic.graph.pair import PairResult as R
    >>> d = diagram(["a", "b"], [R("a", "b", "implies", "E = E"), R("b", "a", "not-implies")])
    >>> print(dot_text(d).splitlines()[-3])
      n0 -> n1 [label="E = E", style=dashed];
    """
    lines = ["digraph notions {", "  rankdir=TB; node [shape=box, style=rounded, fontname=Helvetica];",
             "  edge [fontname=Helvetica, fontsize=10];"]
    if not separations:
        for i in range(len(d.classes)):
            lines.append(f"  n{i} [label={_quote(d.node_label(i))}];")
        for i, j, label in d.edges:
            style = "solid" if (i, j) in d.every_size else "dashed"
            lines.append(f"  n{i} -> n{j} [label={_quote(tidy_text(label))}, style={style}];")
        for i, j, label in d.conditional:
            lines.append(f"  n{i} -> n{j} [label={_quote(tidy_text(label))}, style=dotted, color=gray40, constraint=false];")
        lines.append(f"  label={_quote(d.legend())}; labelloc=b; fontname=Helvetica; fontsize=11;")
    else:
        ids = sorted({x for s, t, _ in d.separations for x in (s, t)})
        for x in ids:
            lines.append(f"  {_quote(x)};")
        for s, t, qual in d.separations:
            style = "solid" if qual else "dashed"
            lines.append(f"  {_quote(s)} -> {_quote(t)} [color=firebrick, style={style}, arrowhead=tee];")
        lines.append(f"  label={_quote(d.legend(separations=True))}; labelloc=b; fontname=Helvetica; fontsize=11;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(d: Diagram, *, separations: bool = False) -> tuple:
    """(SVG text, renderer name): Graphviz ``dot`` if installed ("graphviz"), else networkx + matplotlib
    ("networkx+matplotlib"). Either way the picture is the same bytes on every run (no date, no random ids).

    >>> from symbolic.graph.pair import PairResult as R
    >>> svg, how = render_svg(diagram(["a", "b"], [R("a", "b", "implies", "E = E")]))
    >>> "<svg" in svg, how in ("graphviz", "networkx+matplotlib")
    (True, True)
    """
    dot = shutil.which("dot")
    if dot:
        out = subprocess.run([dot, "-Tsvg"], input=dot_text(d, separations=separations).encode(),
                             capture_output=True, timeout=120, check=True)
        return out.stdout.decode(), "graphviz"
    return _matplotlib_svg(d, separations), "networkx+matplotlib"


def _matplotlib_svg(d: Diagram, separations: bool) -> str:
    import networkx as nx   # loaded when a graph is built or drawn, not with the engine
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    g = nx.DiGraph()
    if separations:
        for s, t, qual in d.separations:
            g.add_edge(s, t, style="solid" if qual else "dashed")
    else:
        for i in range(len(d.classes)):
            g.add_node(d.node_label(i))
        for i, j, label in d.edges:
            g.add_edge(d.node_label(i), d.node_label(j), label=tidy_text(label),
                       style="solid" if (i, j) in d.every_size else "dashed")
    with matplotlib.rc_context({"svg.hashsalt": "dpcheck"}):   # ids from a fixed salt, not a random one
        return _draw(plt, g, separations, d.legend(separations))


def _draw(plt, g, separations: bool, legend: str) -> str:
    import networkx as nx   # loaded when a graph is built or drawn, not with the engine
    fig, ax = plt.subplots(figsize=(max(6, len(g) * 0.9), max(4, len(g) * 0.6)))
    pos = _layers(g) if not separations else nx.circular_layout(g)
    nx.draw_networkx_nodes(g, pos, ax=ax, node_color="#eef", node_size=900)
    nx.draw_networkx_labels(g, pos, ax=ax, font_size=9)
    for style in ("solid", "dashed"):
        es = [(u, v) for u, v, a in g.edges(data=True) if a.get("style", "solid") == style]
        nx.draw_networkx_edges(g, pos, edgelist=es, ax=ax, style=style, arrows=True,
                               edge_color="firebrick" if separations else "black")
    if not separations:
        nx.draw_networkx_edge_labels(g, pos, edge_labels={(u, v): a["label"] for u, v, a in g.edges(data=True)},
                                     ax=ax, font_size=9)
    ax.set_axis_off()
    fig.text(0.5, 0.01, legend, ha="center", va="bottom", fontsize=9, wrap=True)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})  # no date: the same bytes each run
    plt.close(fig)
    return buf.getvalue()


def _layers(g):
    """Top-down positions: a node's row is the length of the longest path reaching it."""
    import networkx as nx   # loaded when a graph is built or drawn, not with the engine
    depth = {}
    for v in nx.topological_sort(g):
        depth[v] = max((depth[u] + 1 for u in g.predecessors(v)), default=0)
    rows = {}
    for v, k in depth.items():
        rows.setdefault(k, []).append(v)
    return {v: (i - (len(vs) - 1) / 2, -k) for k, vs in rows.items() for i, v in enumerate(vs)}
