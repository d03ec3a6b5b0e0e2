"""A griffe extension for the API reference: the ``>>>`` examples of a docstring become fenced
``pycon`` code blocks, so that Markdown shows them as code (prompts, outputs and all) and does not
read their ``*`` and ``_`` as emphasis; Sphinx cross-reference roles (``:class:`Notion```) become
plain code (`` `Notion` ``)."""
from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|obj|exc):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wrap every run of lines that starts at a ``>>>`` prompt (with its ``...`` continuations and
    its output, up to the next blank line) in a fenced block."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].lstrip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i].strip() if lines[i].lstrip().startswith((">>>", "...")) else lines[i])
                i += 1
            out += ["```pycon", *block, "```"]
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(ROLE.sub(r"`\1`", obj.docstring.value))
