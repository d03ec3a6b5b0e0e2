"""A user's own notion, from a Python file written against the public API: ``path.py:NAME``.

The file is the user's own code and is imported as such (this is the one input that is code by
design); every failure to produce a notion from it is a one-line :class:`DPCheckError`. So is every
failure of the notion once it runs (:func:`guarded`): a body that raises, that does not take the
arguments a body is given (``body(ops, A, P=None, *, E)``), or that answers something other than a
truth value is the user's input error (:class:`UserNotionError`, naming the file, line and exception),
never a bug in dpcheck. Every command that loads a user's notion gets the guarded body: `graph` (where
the pair becomes unknown with this message), `implies` and `eval` (exit 2). Loaded with a
:class:`~symbolic.graph.user_limits.UserLimit`, the body also runs under the command's limits (processor
time, and a wall-clock safety net): reaching one is :class:`~symbolic.graph.user_limits.UserLimitReached`.
"""
from __future__ import annotations

import functools
import importlib.util
import inspect
from dataclasses import replace
from pathlib import Path

from symbolic.core.budget import BudgetSpent
from symbolic.core.errors import DPCheckError, clip
from symbolic.core.ops import ExactOps, TooManyTerms, Truth
from symbolic.notions.base import Notion
from symbolic.notions.info import NotionInfo
from symbolic.graph.user_limits import Account, UserLimit


def load_user_notion(spec: str, limit: UserLimit | None = None) -> NotionInfo:
    """``"path/to/file.py:NAME"`` → the listing record of the notion ``NAME`` defined there (a
    :class:`Notion` or a :class:`NotionInfo`). The file is the user's own Python code, imported as a
    module (as ``dpcheck graph --add`` does); a failure to import is a one-line error. With ``limit``,
    its body runs under that limit (one account for every call of it); without, unlimited.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "mine.py"
    >>> _ = path.write_text("from symbolic import E_SPEC, Notion; Floor = Notion('Floor', (E_SPEC,), lambda ops, A, "
    ...                     "P=None, *, E: ops.And(ops.le(1, (E + 1) * A.p(d, o)) for d in A.rows for o in A.outputs))")
    >>> info = load_user_notion(f"{path}:Floor")
    >>> info.id, [p.name for p in info.notion.params]
    ('Floor', ['E'])
    """
    if not isinstance(spec, str) or ":" not in spec:
        raise DPCheckError(f"--add takes FILE.py:NAME, e.g. my_notion.py:Floor; got {clip(spec)}")
    path_text, name = spec.rsplit(":", 1)
    path = Path(path_text)
    if not name.isidentifier():
        raise DPCheckError(f"{clip(name)} is not a Python name (in --add {clip(spec)})")
    if not path.is_file():
        raise DPCheckError(f"no such file: {clip(path_text)} (in --add {clip(spec)})")
    mod_name = f"dpcheck_user_{abs(hash(str(path.resolve())))}"
    try:
        module_spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 -- the user's file failed: say so in one line
        raise DPCheckError(f"{clip(path_text)} failed to import: {type(e).__name__}: {clip(str(e), 160)}") from None
    if not hasattr(module, name):
        found = sorted(k for k, v in vars(module).items() if isinstance(v, (Notion, NotionInfo)))
        raise DPCheckError(f"{clip(path_text)} defines no {clip(name)}"
                           + (f"; notions there: {', '.join(found)}" if found else "; it defines no notion"))
    value = getattr(module, name)
    if isinstance(value, NotionInfo):
        return replace(value, notion=guarded(value.notion, path_text, limit))
    if not isinstance(value, Notion):
        raise DPCheckError(f"{name} in {clip(path_text)} is a {type(value).__name__}, not a Notion")
    value = guarded(value, path_text, limit)
    kind = "forall-prior" if value.population in ("all", "product") else "polynomial"
    return NotionInfo(name, value, "as the user's body says", kind, f"user file {path_text}",
                      value.summary or f"user notion {name}")


class UserNotionError(DPCheckError):
    """A user's own notion failed when it ran: an input error (the user's code), not a bug in dpcheck."""


def _is_truth_value(ops, value) -> bool:
    """Whether ``value`` is what a body over ``ops`` must answer: a bool for exact evaluation, a Boolean
    term for the solver's ops; other ops (formulas, margins) answer terms of their own and are not checked."""
    if isinstance(ops, ExactOps):
        return isinstance(value, (bool, Truth)) or type(value).__name__ in ("BooleanTrue", "BooleanFalse")
    if type(ops).__name__ == "Z3Ops":
        return isinstance(value, bool) or any(c.__name__ == "BoolRef" for c in type(value).__mro__)
    return True


def _short(text, limit) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _line_in(tb, path) -> int | None:
    """The last line of ``path`` in the traceback ``tb`` (where the user's code raised, or called what raised)."""
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def guarded(notion: Notion, path_text: str, limit: UserLimit | None = None) -> Notion:
    """``notion`` with its body wrapped so that every failure of the user's code is a
    :class:`UserNotionError` naming the file, the line and the exception; with ``limit``, every call
    runs under it (:meth:`Account.run`), the account the body's ``account``.

    >>> import pathlib, tempfile
    >>> from symbolic.api import evaluate, randomized_response
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.py"
    >>> _ = path.write_text("from symbolic import E_SPEC, Notion\\ndef body(ops, A, P=None, *, E):\\n"
    ...                     "    return 1 / 0\\nBad = Notion('Bad', (E_SPEC,), body)\\n")
    >>> bad = load_user_notion(f"{path}:Bad").notion
    >>> try:
    ...     evaluate(bad, randomized_response(3), E=2)
    ... except UserNotionError as e:
    ...     print(str(e).split(" ", 1)[1])
    line 3: the notion Bad raised ZeroDivisionError: division by zero
    """
    body, path, name = notion.body, Path(path_text).resolve(), notion.name
    where = _short(path_text, 60)
    account = None if limit is None else Account(limit, name, where)
    try:
        signature = inspect.signature(body)
    except (TypeError, ValueError):  # not a Python function: the call itself will say what is wrong
        signature = None

    @functools.wraps(body)
    def run(ops, *args, **kwargs):
        if signature is not None:
            try:
                signature.bind(ops, *args, **kwargs)
            except TypeError as e:
                line = getattr(getattr(body, "__code__", None), "co_firstlineno", None)
                raise UserNotionError(f"{where}{f' line {line}' if line else ''}: the notion {name} does not take "
                                      f"the arguments a body is given, body(ops, A, P=None, *, E) for a "
                                      f"parameter E: {_short(e, 120)}") from None
        try:
            value = body(ops, *args, **kwargs) if account is None else account.run(lambda: body(ops, *args, **kwargs))
        except TooManyTerms as e:
            line = _line_in(e.__traceback__, path)
            raise UserNotionError(f"{where}{f' line {line}' if line else ''}: the notion {name} builds {e}") from None
        except DPCheckError:
            raise
        except BudgetSpent as e:   # the derivation's own budget, rung while the user's code ran
            raise BudgetSpent(e.seconds, f"{e.where}, in the notion {name} ({where})", e.safety) from None
        except Exception as e:  # noqa: BLE001 -- the user's code failed: an input error, in one line
            line = _line_in(e.__traceback__, path)
            raise UserNotionError(f"{where}{f' line {line}' if line else ''}: the notion {name} raised "
                                  f"{type(e).__name__}: {_short(e, 160)}") from None
        if not _is_truth_value(ops, value):
            raise UserNotionError(f"{where}: the notion {name} answered {clip(value, 40)} "
                                  f"({type(value).__name__}), not a truth value; a body returns ops.And(…), "
                                  f"ops.le(…) and the like")
        return value
    run.account = account
    return replace(notion, body=run)
