"""Pictures for the HTML report: a matplotlib chart drawn to an in-memory SVG, and any SVG made safe
to inline (no script, no event handler, no link outside the page, no XML prologue).

Floats are fine here: pictures are never verdicts.
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from symbolic.core.errors import DPCheckError

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
MAX_SVG_CHARS = 20_000_000
_DROPPED = {"script", "style", "metadata", "foreignObject", "iframe", "object", "embed", "audio", "video"}
_DOCTYPE = re.compile(r"<!DOCTYPE[^>\[]*(\[[^\]]*\])?\s*>", re.S)

# the colour of each verdict, shared with the page's CSS
VERDICT_COLOURS = {"proved": "#2e7d32", "derived": "#1565c0", "refuted": "#c62828", "unknown": "#ef6c00",
                   "vacuous": "#6a1b9a", "not run": "#757575"}


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _safe_link(value: str) -> bool:
    return value.strip().startswith("#")


_URL = re.compile(r"url\(\s*['\"]?#")


def _clean(element, prefix: str):
    """Drop unsafe children and attributes; put ``prefix`` before every id and every reference to one."""
    for child in list(element):
        if _local(child.tag) in _DROPPED:
            element.remove(child)
        else:
            _clean(child, prefix)
    for key in list(element.attrib):
        name = _local(key).lower()
        value = element.attrib[key]
        if name.startswith("on") or (name in ("href", "src") and not _safe_link(value)) \
                or value.count("url(") != len(_URL.findall(value)):
            del element.attrib[key]
        elif name == "id":
            element.attrib[key] = prefix + value
        elif name in ("href", "src"):
            element.attrib[key] = "#" + prefix + value.strip()[1:]
        elif "url(" in value:
            element.attrib[key] = _URL.sub(lambda m: m.group(0) + prefix, value)


def inline_svg(text: str, *, label: str, prefix: str = "") -> str:
    """``text`` (an SVG document) as an ``<svg>`` element to put inside a page: the XML prologue and
    document type dropped; scripts, style sheets, event handlers and links outside the picture
    removed; ``prefix`` put before every id and reference (two pictures on one page keep theirs
    apart); ``role="img"`` with ``aria-label`` = ``label`` set.

    >>> inline_svg('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>x()</script>'
    ...            '<a href="https://example.org"><rect onclick="y()" width="1" height="1"/></a></svg>',
    ...            label="demo")
    '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="demo"><a><rect width="1" height="1" /></a></svg>'
    """
    if not isinstance(text, str) or len(text) > MAX_SVG_CHARS:
        raise DPCheckError(f"the picture is not SVG text of at most {MAX_SVG_CHARS} characters")
    text = _DOCTYPE.sub("", text)
    if "<!ENTITY" in text:
        raise DPCheckError("the SVG picture declares entities; give a plain SVG file")
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise DPCheckError(f"the SVG picture is not well-formed XML ({e}); give an SVG file such as `dpcheck graph --svg FILE` writes") from e
    if _local(root.tag) != "svg":
        raise DPCheckError(f"the picture's root element is <{_local(root.tag)}>, not <svg>")
    _clean(root, prefix)
    root.set("role", "img")
    root.set("aria-label", label)
    return ET.tostring(root, encoding="unicode")


def verdict_chart_svg(counts: dict, *, title: str = "verdicts per source") -> str:
    """A horizontal stacked bar chart, one bar per source, one colour per verdict, as an inline
    ``<svg>`` element. ``counts``: {source label: {verdict: number}}; verdicts in the order of
    :data:`VERDICT_COLOURS`, others after them in grey."""
    from matplotlib import rc_context
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator
    labels = list(counts)
    verdicts = [v for v in VERDICT_COLOURS if any(c.get(v) for c in counts.values())]
    verdicts += sorted({v for c in counts.values() for v, k in c.items() if k and v not in VERDICT_COLOURS})
    with rc_context({"svg.fonttype": "path", "svg.hashsalt": "dpcheck"}):
        fig = Figure(figsize=(8, 1.4 + 0.4 * max(len(labels), 1)))
        ax = fig.add_subplot()
        left = [0] * len(labels)
        for v in verdicts:
            widths = [counts[s].get(v, 0) for s in labels]
            ax.barh(labels, widths, left=left, color=VERDICT_COLOURS.get(v, "#9e9e9e"), label=v)
            left = [a + b for a, b in zip(left, widths)]
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("claims")
        ax.set_title(title)
        if verdicts:
            ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False)
        fig.tight_layout()
        buf = io.StringIO()
        FigureCanvasSVG(fig).print_svg(buf, metadata={"Date": None})
    return inline_svg(buf.getvalue(), label=title, prefix="chart-")
