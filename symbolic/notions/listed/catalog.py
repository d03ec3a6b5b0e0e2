"""The catalogue of listed notions: every family module's ``ENTRIES``, looked up by ID or name.

Proof-only helper notions (conditions a proof step needs, such as "E > 1" or "full support") have
no entry and do not appear here; they stay reachable by name through the notion library.
"""
from __future__ import annotations

import difflib

from symbolic.core.errors import UnknownName, clip
from symbolic.notions.listed import listing
from symbolic.notions.zoo import bayes as zoo_bayes
from symbolic.notions.zoo import divergence as zoo_divergence
from symbolic.notions.zoo import dp as zoo_dp
from symbolic.notions.zoo import dp_laws as zoo_dp_laws
from symbolic.notions.zoo import membership as zoo_membership
from symbolic.notions.zoo import pufferfish as zoo_pufferfish
from symbolic.notions.info import NotionInfo

FAMILIES = (listing, zoo_dp, zoo_dp_laws, zoo_bayes, zoo_membership, zoo_pufferfish, zoo_divergence)


def notion_catalog() -> tuple:
    """Every listed notion, in family order then as each family lists them.

    >>> ids = [i.id for i in notion_catalog()]
    >>> "pure-dp" in ids and len(ids) == len(set(ids))
    True
    """
    out, seen = [], {}
    for family in FAMILIES:
        for info in getattr(family, "ENTRIES", ()):
            for key in (info.id, info.name, *info.aliases):
                if key in seen and seen[key] is not info:
                    raise ValueError(f"notion key {key!r} is listed twice ({seen[key].id}, {info.id})")
                seen[key] = info
            out.append(info)
    return tuple(out)


def find_notion(key: str) -> NotionInfo:
    """The listed notion whose ID, name or alias is ``key`` (IDs ignore case and ``_``/``-``); an
    unknown key raises :class:`UnknownName` naming the closest IDs.

    >>> find_notion("PureDP").id, find_notion("pure_dp").name
    ('pure-dp', 'PureDP')
    >>> try:
    ...     find_notion("semantic-privacy")
    ... except UnknownName as e:
    ...     print(str(e).split("; ")[1].split(" (")[0])   # each suggestion once
    did you mean SemanticPrivacy, SemanticPrivacyFor, ApproxSemanticPrivacy?
    """
    entries = notion_catalog()
    norm = _norm(key)
    for info in entries:
        if key in (info.name, *info.aliases) or norm == _norm(info.id):
            return info
    for info in entries:  # a case-insensitive name ("puredp")
        if norm in (_norm(info.name), *map(_norm, info.aliases)):
            return info
    keys = list(dict.fromkeys([i.id for i in entries] + [i.name for i in entries]))   # an ID may be its name
    close = difflib.get_close_matches(str(key)[:60], keys, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UnknownName(f"unknown notion {clip(key)}{hint} (`dpcheck notions` lists them all)")


def _norm(text) -> str:
    return str(text).lower().replace("_", "-")
