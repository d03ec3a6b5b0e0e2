"""What a listing says about a notion: its ID, name, parameters, neighbour relation, class, citation.

A :class:`NotionInfo` is the catalogue record of one notion that users state claims with (proof-only
helper notions have none and stay out of listings). Each family module that defines listed notions
exports ``ENTRIES``, a tuple of these; :mod:`symbolic.notions.listed.catalog` gathers them.

``cls`` says how hard the notion is for the solver at fixed sizes:

- ``"polynomial"``: a quantifier-free polynomial condition on the table and the parameters;
- ``"forall-prior"``: polynomial, but quantified over priors, beliefs, populations or adversaries
  (a ∀ inside the ∃ of a counterexample search: CEGIS, extreme points);
- ``"transcendental"``: needs exp, log or a supremum over a continuum; decided at numeric
  parameters by certified intervals, ``unknown`` with symbolic ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from symbolic.notions.base import Notion

CLASSES = ("polynomial", "forall-prior", "transcendental")


@dataclass(frozen=True)
class NotionInfo:
    """The listing of one notion.

    ``id``: the stable lower-case ID (``pure-dp``, ``renyi-dp``; the sources' notions use their
    Python names); ``notion``: the :class:`Notion` object; ``neighbours``: the neighbour relation in
    words (``"replace one record"``, ``"add/remove one record"``, ``"all pairs"``, ``"given prior"``
    ...); ``source``: the citation (authors, year, venue, definition number); ``definition``: the
    one-line definition on finite tables.

    >>> from symbolic.api import find_notion
    >>> info = find_notion("pure-dp")
    >>> info.id, info.name, info.cls, info.source
    ('pure-dp', 'PureDP', 'polynomial', 'Dwork, McSherry, Nissim, Smith (2006), Def. 1')
    """

    id: str
    notion: Notion = field(compare=False)
    neighbours: str
    cls: str
    source: str
    definition: str
    aliases: tuple = ()

    def __post_init__(self):
        if self.cls not in CLASSES:
            raise ValueError(f"notion {self.id}: class {self.cls!r} is not one of {CLASSES}")

    @property
    def name(self) -> str:
        return self.notion.name

    def params_json(self) -> list:
        """Each parameter with its range, as the listing's JSON shows it."""
        return [{"name": p.name, "range": p.range_text(), "meaning": p.meaning} for p in self.notion.params]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "params": self.params_json(), "neighbours": self.neighbours,
                "class": self.cls, "source": self.source, "definition": self.definition}
