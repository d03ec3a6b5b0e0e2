"""What several `dpcheck` commands share: finding a claim, definition or notion by name (with a
did-you-mean), the size limits of a search, settings from the options, the exit code of verdicts.
The commands themselves are one module each (``theorems/cli_<name>.py``); engine objects come from the
public API (:mod:`symbolic`), loaded when a command runs."""
from __future__ import annotations

import difflib
from dataclasses import replace

from symbolic import DPCheckError, InvalidSize, UnknownName, clip

MAX_SEARCH_DATABASES = 1024     # |domain|^n of the unknown tables in `check` and `implies`
MAX_SEARCH_CELLS = 8192         # |domain|^n × |outputs|


def search_sizes(sizes):
    """Refuse, before anything is enumerated, sizes whose unknown tables the solver cannot hold."""
    from symbolic import count_databases
    dbs = count_databases(sizes.n, sizes.domain, limit=MAX_SEARCH_DATABASES, what=f"the solver's table at {sizes}")
    if dbs * sizes.outputs > MAX_SEARCH_CELLS:
        raise InvalidSize(f"the solver's table at {sizes} has {dbs} × {sizes.outputs} unknowns, over the limit of "
                          f"{MAX_SEARCH_CELLS}; use smaller --n, --domain or --outputs")


def settings(timeout=None, effort="ci"):
    """The settings at an effort level (a name, or a multiple of ci as text), with ``timeout`` seconds as the
    wall-clock safety net of one solver call if given (both validated by their types)."""
    from symbolic import Settings
    s = Settings.named(effort)
    return s if timeout is None else replace(s, timeout=timeout)


def claim_or_definition(entry_id):
    """The catalogue claim or definition with this ID, else an error with the closest IDs."""
    from theorems.registry import claims, definitions
    cs, ds = claims(), definitions()
    if entry_id in cs:
        return cs[entry_id]
    if entry_id in ds:
        return ds[entry_id]
    ids = [*cs, *ds]
    close = difflib.get_close_matches(entry_id[:40], ids, n=5, cutoff=0.5)
    folded = [i for i in ids if i.lower() == entry_id[:40].lower()]
    close = folded + [c for c in close if c not in folded]
    raise UnknownName(f"unknown claim ID {clip(entry_id)}" + (f"; did you mean {', '.join(close)}?" if close else "")
                      + "; run `dpcheck list` for all IDs")


def one_mechanism(notion, command):
    if notion.arity != 1:
        raise DPCheckError(f"{notion.name} is a notion of {notion.arity} mechanism(s) (arity {notion.arity}); "
                           f"`{command}` takes notions of one mechanism (arity 1)")


def users_own(name) -> bool:
    """Does ``name`` look like ``FILE.py:NAME``, a notion of the user's own?"""
    return ":" in name and name.rsplit(":", 1)[0].endswith(".py")


def user_limit(s):
    """What the code of a user's own notion may spend in a command run at the settings ``s`` (from
    :func:`settings`): processor seconds at its effort (``--effort`` raises them), ``--timeout`` wall-clock
    seconds a call (the safety net)."""
    from symbolic import UserLimit
    return UserLimit.of_settings(s)


def derive_limit(budget, sizes: int = 1):
    """What the code of a user's own notion may spend in `derive level` or `derive map` (``sizes`` sizes, each
    with its own ``budget``): ``budget`` processor seconds a size; a call's wall-clock safety net is ten times
    that, at least a minute (where a derivation's budget has set its own safety net, that one applies).
    ``--budget`` raises both."""
    from symbolic import UserLimit
    return UserLimit(budget * sizes, f"--budget (e.g. --budget {2 * budget:g})", max(60.0, 10 * budget), "--budget")


def listed_or_own(name, limit=None):
    """The listing record (NotionInfo) of a listed notion (ID or name) or of the user's own ``FILE.py:NAME``
    (its code run under ``limit``, a :class:`~symbolic.graph.user_limits.UserLimit`, if given)."""
    from symbolic import find_notion, load_user_notion
    return load_user_notion(name, limit) if users_own(name) else find_notion(name)


def notion(name, limit=None):
    """A notion by name: ``FILE.py:NAME`` for one of the user's own (imported from that file, its code run
    under ``limit`` if given), the listed notions (zoo IDs and names), the engine's library, then the
    sources' own lemma notions (whose modules are imported only when the library lacks the name)."""
    from symbolic import UnknownName as _Unknown, find_notion, load_user_notion, notion_library
    if users_own(name):
        return load_user_notion(name, limit).notion
    try:  # listed notions first: zoo IDs (pure-dp, renyi-dp, …) and names, case-insensitive
        return find_notion(name).notion
    except _Unknown:
        pass
    table = notion_library()
    if name in table:
        return table[name]
    from theorems.registry import lemma_notions
    table = {**lemma_notions(), **table}
    if name not in table:
        folded = [n for n in table if n.lower() == name[:60].lower()]
        close = folded + [n for n in difflib.get_close_matches(name[:60], list(table), n=3) if n not in folded]
        raise UnknownName(f"unknown notion {clip(name)}" + (f"; did you mean {', '.join(close)}?" if close else "")
                          + "; `dpcheck notions` lists them all, and FILE.py:NAME names your own (a Notion defined "
                            "in that file)")
    return table[name]
