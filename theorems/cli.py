"""The `dpcheck` command line: list, check, audit, derive, implies, eval.

Exit codes: 0 every verdict definite (proved, derived, or refuted with the counterexample re-verified
exactly; findings included); 1 some verdict unknown, vacuous, unverified or not run; 2 usage errors
(bad IDs, sizes, numbers, files: one line on stderr); 3 an internal error (a bug: one line on stderr);
130 / 143 `audit` stopped by SIGINT / SIGTERM (the verdicts reached so far are printed and written).

Here: the parser, :func:`main` and its exit codes. The commands are in :mod:`theorems.cli_commands`,
messages, files and the JSON document in :mod:`theorems.cli_io`; the engine is reached only through
its public API (:mod:`symbolic`).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys

from symbolic import DPCheckError, clip
from theorems.cli_commands import COMMANDS, Stop
from theorems.cli_io import BUG, cut, say

MAX_SECONDS = 86400.0
MAX_JOBS = 256


class _ArgParser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2 through :func:`main`, never a usage dump)."""

    def error(self, message):
        raise DPCheckError(f"{cut(message, 300)} (see `{self.prog} --help`)")


def _seconds(zero_ok):
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{clip(text)} is not a number of seconds; write e.g. 10 or 0.5") from None
        if not math.isfinite(v) or v > MAX_SECONDS:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be a finite number of seconds, at most {MAX_SECONDS:g}")
        if zero_ok and v < 0:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be 0 or more seconds")
        if not zero_ok and v < 0.001:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be positive (at least 0.001 s); "
                                             f"--budget 0 turns exploring off")
        return v
    return parse


def _count(lo, hi):
    def parse(text):
        if not re.fullmatch(r"\s*[+-]?\d+\s*", text or ""):
            raise argparse.ArgumentTypeError(f"{clip(text)} is not a whole number")
        v = int(text) if len(text.strip()) <= 12 else hi + 1
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{clip(text)} must be at least {lo} and at most {hi}")
        return v
    return parse


def _parser():
    p = _ArgParser(prog="dpcheck", description="Machine-check claims about privacy definitions.")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="every catalogue ID with its kind and source")

    c = sub.add_parser("check", help="check one claim")
    c.add_argument("id")
    _sizes(c)
    c.add_argument("--timeout", type=_seconds(False), help="seconds per solver call")
    c.add_argument("--budget", type=_seconds(True), default=60.0, help="wall-clock seconds for the whole run: "
                   "the default sizes first, then larger sizes while time is left (default 60; 0: default sizes only, "
                   "with no overall limit)")
    c.add_argument("--json", action="store_true", help="print only the JSON document")
    c.add_argument("--assume", action="append", default=[], metavar="RANGE",
                   help="narrow a parameter's range, e.g. --assume '0<delta<=1' or --assume 'E>=2'")
    c.add_argument("--smt2", metavar="FILE", help="write SMT-LIB files, one per query: a proof's obligations (FILE-1.smt2, …), else the negated claim")

    a = sub.add_parser("audit", help="check every claim of the given sources (T, L, K, S; default all)")
    a.add_argument("sources", nargs="*")
    a.add_argument("--json", metavar="FILE")
    a.add_argument("--markdown", metavar="FILE")
    a.add_argument("--html", metavar="FILE")
    a.add_argument("--jobs", type=_count(1, MAX_JOBS), default=os.cpu_count() or 1)
    a.add_argument("--profile", default="ci", help="settings profile: quick, ci, thorough")

    d = sub.add_parser("derive", help="closed forms, e.g. `derive pml laplace-count`, `derive epsilon randomized-response`")
    d.add_argument("what", nargs="+")
    d.add_argument("--plot", metavar="FILE")
    d.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")

    e = sub.add_parser("eval", help="evaluate a notion exactly on a mechanism table from a JSON file")
    e.add_argument("notion")
    e.add_argument("--mechanism", required=True, metavar="FILE",
                   help='JSON: {"n": 1, "domain": [0, 1], "outputs": [0, 1], "rows": {"0": ["3/4", "1/4"], ...}}')
    e.add_argument("--population", metavar="FILE", help='JSON: {"0": "1/2", "1": "1/2"} (databases as "a,b")')
    e.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")

    i = sub.add_parser("implies", help="ad hoc: does notion A imply notion B? (both with parameter E)")
    i.add_argument("a")
    i.add_argument("b")
    _sizes(i)
    i.add_argument("--json", action="store_true")
    i.add_argument("--assume", action="append", default=[], metavar="RANGE",
                   help="narrow E's range, e.g. --assume 'E>=2' or --assume '1<E<3'")

    t = sub.add_parser("selftest", help="run the checker's seeded-fault suite: every fault must be caught")
    t.add_argument("--mutants", action="store_true", help="run the seeded faults (else only the detectors, unmutated)")
    t.add_argument("--json", action="store_true", help="print only a JSON document")
    t.add_argument("--jobs", type=_count(1, MAX_JOBS), default=2)
    t.add_argument("--only", metavar="IDS", help="comma-separated mutant IDs")
    t.add_argument("--list", action="store_true", help="list the mutants and exit")
    return p


def _sizes(p):
    for k in ("n", "domain", "outputs"):
        p.add_argument(f"--{k}", type=_count(1, 10 ** 6))


def main(argv=None):
    try:
        args = _parser().parse_args(argv)
        return COMMANDS[args.cmd](args)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except DPCheckError as e:
        say("error", e)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except OSError as e:
        if e.filename is None:
            say("internal error", f"{type(e).__name__}: {e} ({BUG})")
            return 3
        say("error", f"cannot use file {clip(e.filename)}: {e.strerror or e}")
        return 2
    except KeyboardInterrupt:
        say("error", "interrupted")
        return 130
    except Stop as e:
        return 128 + e.signum
    except Exception as e:  # noqa: BLE001 -- anything else is a bug: one line, its own exit code
        say("internal error", f"{type(e).__name__}: {cut(e, 300)} ({BUG})")
        return 3


if __name__ == "__main__":
    sys.exit(main())
