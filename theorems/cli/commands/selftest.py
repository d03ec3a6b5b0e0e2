"""`dpcheck selftest`: the checker's seeded-fault suite (see :mod:`theorems.selftest.runner`)."""
from __future__ import annotations

import click

from theorems.cli.app import command
from theorems.cli.options import MAX_JOBS, Count


@command("selftest", short_help="the seeded-fault suite: every fault must be caught", examples=[
    ("dpcheck selftest", "the detectors pass on the unmutated engine"),
    ("dpcheck selftest --mutants --json", "every seeded fault must be caught"),
    ("dpcheck selftest --list", "the seeded faults")])
@click.option("--mutants", is_flag=True, help="run the seeded faults (else only the detectors, unmutated) "
              "(e.g. --mutants)")
@click.option("--json", "as_json", is_flag=True, help='print only a JSON document: {"mutants", "caught", '
              '"missed"} (e.g. --json)')
@click.option("--jobs", type=Count(1, MAX_JOBS), default=2, show_default=True, metavar="J",
              help="processes at a time (e.g. --jobs 2)")
@click.option("--only", metavar="IDS", help="comma-separated mutant IDs from --list (e.g. --only ID1,ID2)")
@click.option("--list", "list_", is_flag=True, help="list the mutants and exit (e.g. --list)")
def selftest(mutants, as_json, jobs, only, list_):
    """Run the checker's seeded-fault suite: each fault planted in the engine must be caught by some test.
    Exit 0 when every fault is caught (or, without --mutants, when the detectors pass). It runs the tests
    of dpcheck's source tree, so it needs a source checkout: without one it says so (exit 2)."""
    from theorems.selftest import runner as suite
    argv = (["--mutants"] if mutants else []) + (["--json"] if as_json else []) + ["--jobs", str(jobs)]
    argv += (["--only", only] if only else []) + (["--list"] if list_ else [])
    return suite.main(argv)
