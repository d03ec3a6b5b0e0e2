"""The frame of the `dpcheck` command line (click): the command group, the ``@command`` decorator that
adds a subcommand, the global options, the help layout and the one-line usage errors.

A new command is one function in its own module ``theorems/cli_<name>.py``, imported by
:mod:`theorems.cli.main`::

    @command("notions", examples=[("dpcheck notions", "every notion with its parameters"),
                                  ("dpcheck notions --json", "the same as a JSON document")])
    @click.option("--json", "as_json", is_flag=True, help="print only a JSON document (e.g. --json)")
    def notions(as_json):
        \"\"\"Every notion: name, parameters, citation.\"\"\"
        ...
        return 0            # the exit code (see EXIT_CODES)

The function returns its exit code and raises :class:`symbolic.DPCheckError` for bad input (one line
on stderr, exit 2). ``ui()`` gives the display options (``--quiet``, ``--verbose``, ``--no-color``:
accepted before the command and after it). Every option's help ends with an example (``e.g. …``), and
every command lists examples: the help test checks both.
"""
from __future__ import annotations

import contextlib
import difflib
import functools
import signal

import click

from symbolic import __version__
from theorems.cli.audit_workers import cut
from theorems.cli.console import Ui

EXIT_CODES = (("0", "every verdict is definite: proved, derived, or refuted with the counterexample "
                    "re-verified exactly (findings included); `eval` answered holds or fails"),
              ("1", "some verdict is unknown or vacuous, some counterexample failed re-verification, "
                    "or some claim did not run"),
              ("2", "usage or input error: unknown ID or option, bad number, size or file (one line on stderr)"),
              ("3", "internal error: a bug in dpcheck (one line on stderr; --verbose adds the traceback)"),
              ("130 / 143", "stopped by Ctrl-C (SIGINT) / SIGTERM; `audit` prints and writes the verdicts reached "
                            "so far"))
UI_KEY = "dpcheck.ui"


class Stop(BaseException):
    """The run was stopped by a signal (SIGINT or SIGTERM); exit 128 + ``signum``. ``announced``: the
    command has already said so on stderr."""

    def __init__(self, signum, announced=False):
        super().__init__(signum)
        self.signum, self.announced = signum, announced


@contextlib.contextmanager
def stop_on_signals():
    """SIGINT and SIGTERM stop the body (the list it yields gets the signal's number); a second signal
    while the finished results are written is ignored; the old handlers come back at the end."""
    stopped, handlers = [], {}

    def raise_stop(signum, frame):
        raise Stop(signum)
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, raise_stop)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        yield stopped
    except (Stop, KeyboardInterrupt) as e:
        stopped.append(getattr(e, "signum", signal.SIGINT))
        for sig in handlers:
            signal.signal(sig, lambda *_: None)
    finally:
        for sig, h in handlers.items():
            signal.signal(sig, h)


class PipeClosed(BaseException):
    """stdout was closed by its reader (``dpcheck list | head``): not an error."""


def ui() -> Ui:
    """The display options of the running command (defaults outside a command)."""
    ctx = click.get_current_context(silent=True)
    return (ctx.meta.get(UI_KEY) if ctx is not None else None) or Ui.from_env()


def _usage(message, ctx):
    return click.UsageError(message, ctx)


def _did_you_mean(word, choices, show=str):
    """``; did you mean X?`` for the choices closest to ``word`` (case ignored), else ``""``."""
    close = difflib.get_close_matches(str(word)[:60].lower(), [c.lower() for c in choices], n=3, cutoff=0.6)
    names = [next(c for c in choices if c.lower() == m) for m in close]
    return f"; did you mean {' or '.join(show(n) for n in names)}?" if names else ""


def _option_names(cmd):
    return sorted({o for p in cmd.params for o in p.opts + p.secondary_opts if o.startswith("-")})


class DpcheckCommand(click.Command):
    """A subcommand: extra arguments are a usage error naming them; help ends with its examples."""

    def __init__(self, *args, examples=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.examples = tuple(examples)

    def parse_args(self, ctx, args):
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as e:  # the parser's own errors come without the command
            e.ctx = e.ctx or ctx
            raise
        if ctx.args:
            raise _usage(f"unrecognized arguments: {' '.join(cut(a, 40) for a in ctx.args[:3])}"
                         + (" …" if len(ctx.args) > 3 else ""), ctx)
        return rest

    def format_epilog(self, ctx, formatter):
        write_examples(formatter, self.examples)
        super().format_epilog(ctx, formatter)

    def get_help_option(self, ctx):
        return _with_example(super().get_help_option(ctx), f"dpcheck {self.name}")


def _with_example(option, where):
    if option is not None:
        option.help = f"show this help with examples, then exit (e.g. {where} --help)"
    return option


def write_examples(formatter, examples):
    if not examples:
        return
    width = max(len(cmd) for cmd, _ in examples)
    with formatter.section("Examples"):
        for cmd, what in examples:
            formatter.write(" " * formatter.current_indent + cmd.ljust(width) + (f"   # {what}" if what else "") + "\n")


class DpcheckGroup(click.Group):
    """The `dpcheck` group: commands in the order they were added, did-you-mean for an unknown command,
    the exit codes in its help."""

    examples = ()

    def list_commands(self, ctx):
        return list(self.commands)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name == "help":
            raise _usage("there is no `help` command: run `dpcheck --help`, or `dpcheck COMMAND --help` for one "
                         "command", ctx)
        if name and not name.startswith("-") and name not in self.commands:
            raise _usage(f"invalid choice of command: {cut(name, 40)}"
                         + _did_you_mean(name, list(self.commands), lambda c: f"`dpcheck {c}`")
                         + f"; commands: {', '.join(self.commands)}", ctx)
        return super().resolve_command(ctx, args)

    def get_help_option(self, ctx):
        return _with_example(super().get_help_option(ctx), "dpcheck")

    def format_epilog(self, ctx, formatter):
        write_examples(formatter, self.examples)
        with formatter.section("Exit codes"):
            formatter.write_dl(EXIT_CODES)
        super().format_epilog(ctx, formatter)


def _versions():
    from importlib import metadata
    out = []
    for dist in ("sympy", "z3-solver", "cvc5"):
        try:
            out.append(f"{dist.split('-')[0]} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            pass
    return ", ".join(out)


def _show_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(f"dpcheck {__version__} ({_versions()})")
        ctx.exit(0)


def _global_options(where):
    """--quiet, --verbose, --no-color (the same before the command and after it)."""
    return [click.Option(["-q", "--quiet"], is_flag=True,
                         help=f"no progress bar, spinner or notes on stderr; results and errors still show "
                              f"(e.g. {where} --quiet)"),
            click.Option(["-v", "--verbose"], is_flag=True,
                         help=f"a line per finished step, the traceback of an internal error (e.g. {where} -v)"),
            click.Option(["--no-color"], is_flag=True,
                         help=f"plain text without colour, as when NO_COLOR is set or output is not a terminal "
                              f"(e.g. {where} --no-color)")]


def _merge_ui(ctx, quiet, verbose, no_color):
    root = ctx.meta.get(UI_KEY) or Ui.from_env()
    quiet, verbose = quiet or root.quiet, verbose or root.verbose
    if quiet and verbose:
        raise _usage("give --quiet or --verbose, not both", ctx)
    ctx.meta[UI_KEY] = Ui(quiet=quiet, verbose=verbose, color=root.color and not no_color)


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group("dpcheck", cls=DpcheckGroup, invoke_without_command=True, context_settings=CONTEXT)
@click.pass_context
def app(ctx, quiet, verbose, no_color):
    """Machine-check claims about privacy definitions: proofs within stated sizes, minimal
    counterexamples in exact rationals (re-verified in sympy), or an honest "unknown" with the reason.

    Run `dpcheck COMMAND --help` for a command's options and examples."""
    ctx.meta[UI_KEY] = Ui.from_env(quiet=quiet, verbose=verbose, no_color=no_color)
    if quiet and verbose:
        raise _usage("give --quiet or --verbose, not both", ctx)
    if ctx.invoked_subcommand is None:
        raise _usage(f"a command is required: {', '.join(app.commands)}", ctx)


app.params.extend(_global_options("dpcheck"))
app.params.append(click.Option(["--version"], is_flag=True, expose_value=False, is_eager=True,
                               callback=_show_version,
                               help="print the version of dpcheck and of its solvers, then exit "
                                    "(e.g. dpcheck --version)"))
app.examples = (("dpcheck list", "every catalogue ID with its kind and source"),
                ("dpcheck check T-P4.converse", "one claim: verdict, counterexample tables"),
                ("dpcheck audit T L --json out.json", "every claim of two sources, with a report"),
                ("dpcheck eval PureDP --mechanism table.json --param E=3", "exact check of your own table"))


def command(name, *, examples, short_help=None):
    """Add the decorated function to `dpcheck` as the command ``name``: its docstring is the help,
    ``examples`` a list of (command line, what it does); the function returns the exit code."""
    if not examples:
        raise ValueError(f"command {name} needs at least one example")

    def add(fn):
        @functools.wraps(fn)
        def run(quiet, verbose, no_color, **kwargs):
            _merge_ui(click.get_current_context(), quiet, verbose, no_color)
            try:
                return fn(**kwargs)
            except KeyboardInterrupt:
                raise Stop(signal.SIGINT) from None
            except BrokenPipeError:
                raise PipeClosed() from None
        cmd = click.command(name, cls=DpcheckCommand, examples=examples, short_help=short_help,
                            context_settings=CONTEXT)(run)
        cmd.params.extend(_global_options(f"dpcheck {name}"))
        app.add_command(cmd)
        return fn
    return add


def usage_message(e: click.ClickException) -> str:
    """A click usage error as one line: what is wrong, a did-you-mean where one fits, where help is."""
    ctx = getattr(e, "ctx", None)
    where = ctx.command_path if ctx is not None else "dpcheck"
    if isinstance(e, click.NoSuchOption):
        msg = f"unrecognized arguments: {cut(e.option_name, 40)} (`{where}` has no such option"
        msg += ")" + (_did_you_mean(e.option_name, _option_names(ctx.command)) if ctx is not None else "")
    elif isinstance(e, click.MissingParameter) and e.param is not None:
        msg = f"missing {_hint(e.param)}"
        if isinstance(e.param, click.Option) and e.param.metavar:
            msg += f" {e.param.metavar}"
    elif isinstance(e, click.BadParameter) and e.param is not None:
        msg = f"{_hint(e.param)}: {e.message}"
    else:
        msg = e.format_message().rstrip(".")
        msg = msg[:1].lower() + msg[1:]
    return f"{msg} (see `{where} --help`)"


def _hint(param):
    if isinstance(param, click.Argument):
        return f"argument {param.human_readable_name}"
    return "/".join(o for o in param.opts if o.startswith("--")) or param.opts[0]
