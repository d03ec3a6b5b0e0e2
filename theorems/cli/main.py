"""The `dpcheck` command line: list, check, implies, audit, eval, derive, selftest.

Exit codes: 0 every verdict definite (proved, derived, or refuted with the counterexample re-verified
exactly; findings included; `eval` answered holds or fails); 1 some verdict unknown, vacuous,
unverified or not run; 2 usage errors (bad IDs, options, sizes, numbers, files: one line on stderr,
never a usage dump or a traceback); 3 an internal error (a bug: one line on stderr, the traceback with
--verbose); 130 / 143 stopped by SIGINT / SIGTERM (`audit` prints and writes the verdicts reached so far).

Here: :func:`main` and its exit codes. The frame (click: the group, the ``@command`` decorator, global
options, help, usage errors) is :mod:`theorems.cli.app`; each command is one module
of ``theorems/cli/commands/``, imported below (importing it adds the command); terminal output
(rich tables, progress) is :mod:`theorems.cli.console`; messages, files and the JSON document are
:mod:`theorems.cli.io`. The engine is reached only through its public API (:mod:`symbolic`).
"""
from __future__ import annotations

import os
import sys

import click

from symbolic import DPCheckError, clip
# Each import adds its command, in this order in `dpcheck --help`.
from theorems.cli.commands import (listing, check, implies, audit, evaluate, derive,  # noqa: F401
                                   account, notions, graph, selftest)
from theorems.cli.app import PipeClosed, Stop, app, usage_message
from theorems.cli.io import BUG, cut, say


def main(argv=None) -> int:
    """Run `dpcheck` with ``argv`` (default: the process's arguments) and return the exit code."""
    try:
        return _run(argv)
    except PipeClosed:  # output piped into `head` and closed early
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0


def _run(argv):
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = any(a in ("-v", "--verbose") for a in args)
    try:
        code = app.main(args=args, prog_name="dpcheck", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.UsageError as e:
        say("error", usage_message(e))
        return 2
    except click.exceptions.Abort:  # Ctrl-C while click itself was reading the arguments
        say("error", "interrupted")
        return 130
    except click.ClickException as e:  # click's own file and parameter errors
        say("error", e.format_message())
        return 2
    except DPCheckError as e:   # input errors exit 2; a limit reached by a user's own code, 1 (unknown)
        code = getattr(e, "exit_code", 2)
        say("error" if code == 2 else "unknown", e)
        return code
    except BrokenPipeError:
        raise PipeClosed() from None
    except OSError as e:
        if e.filename is None:
            return _bug(e, verbose)
        say("error", f"cannot use file {clip(e.filename)}: {e.strerror or e}")
        return 2
    except Stop as e:
        if not e.announced:
            say("error", "interrupted" if e.signum == 2 else f"stopped by signal {e.signum}")
        return 128 + e.signum
    except KeyboardInterrupt:
        say("error", "interrupted")
        return 130
    except Exception as e:  # noqa: BLE001 -- anything else is a bug: one line, its own exit code
        return _bug(e, verbose)


def _bug(e, verbose):
    say("internal error", f"{type(e).__name__}: {cut(e, 300)} ({BUG})")
    if verbose:
        import traceback
        traceback.print_exception(e, file=sys.stderr)
    return 3


if __name__ == "__main__":
    sys.exit(main())
