"""One error root for dpcheck, with specific subclasses.

Every message names the argument, shows the offending value and says how to fix it.
"""


class DPCheckError(Exception):
    """Root of every error dpcheck raises on purpose: catch it to report bad input in one line
    (the command line turns it into exit status 2).

    >>> from symbolic.api import PureDP
    >>> try:
    ...     PureDP(0)
    ... except DPCheckError as e:
    ...     print(type(e).__name__, "-", e)
    InvalidParameter - PureDP: parameter E=0 is outside its range 1 ≤ E (E = e^ε, so ε ≥ 0 means E ≥ 1)
    """


class FloatNotAllowed(DPCheckError, TypeError):
    """A float reached a place where exact arithmetic is required.

    >>> from symbolic.api import randomized_response
    >>> randomized_response(0.5)
    Traceback (most recent call last):
    ...
    symbolic.core.errors.FloatNotAllowed: E=0.5 is a float; dpcheck needs exact numbers: write text such as '1/2' (in Python, sympy.Rational works too)
    """


class InvalidDistribution(DPCheckError, ValueError):
    """Entries that are negative, or rows that do not sum to 1.

    >>> from symbolic.api import Dist
    >>> Dist({0: "1/2", 1: "1/3"})
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidDistribution: distribution sums to 5/6, not 1; entries 1/2, 1/3
    """


class InvalidParameter(DPCheckError, ValueError):
    """A privacy parameter outside its range (negative ε, δ outside [0, 1], ...).

    >>> from symbolic.api import ApproxDP
    >>> ApproxDP(2, 3)
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidParameter: ApproxDP: parameter delta=3 is outside its range 0 ≤ delta ≤ 1 (δ is a probability)
    """


class InvalidSize(DPCheckError, ValueError):
    """Sizes that make no sense (n < 1, an empty domain, ...).

    >>> from symbolic.api import Sizes
    >>> Sizes(0, 2, 2)
    Traceback (most recent call last):
    ...
    symbolic.core.errors.InvalidSize: n=0 must be at least 1
    """


class UnknownName(DPCheckError, KeyError):
    """A notion, claim or mechanism name that is not registered.

    >>> from symbolic.api import find_notion
    >>> find_notion("no-such-notion")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.UnknownName: unknown notion 'no-such-notion' (`dpcheck notions` lists them all)
    """

    def __str__(self):  # KeyError quotes its argument; we want the plain message
        return str(self.args[0]) if self.args else ""


class ParseError(DPCheckError, ValueError):
    """Text from a file or the command line that is not a number or expression we accept.

    >>> from symbolic.api import parse_number
    >>> parse_number("1/0")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.ParseError: value='1/0' divides by zero
    """


class OutOfRange(InvalidParameter):
    """A value given, or one arising from the values given, beyond the magnitudes dpcheck computes with
    (a level below 2^-131072, an order of 10^9): refused in one line, like any input out of its range.

    >>> raise OutOfRange("sigma=10^300: beyond the magnitudes dpcheck computes with")
    Traceback (most recent call last):
    ...
    symbolic.core.errors.OutOfRange: sigma=10^300: beyond the magnitudes dpcheck computes with
    """


class EngineContradiction(Exception):
    """Two of the engine's own answers contradict each other (a bug in dpcheck or in a declaration, never bad
    input): not a :class:`DPCheckError`, so no pair, claim or command turns it into a verdict. The command line
    stops with an internal error (exit 3).

    >>> issubclass(EngineContradiction, DPCheckError)
    False
    """


def clip(value, limit: int = 80) -> str:
    """``repr(value)`` cut to at most ``limit`` characters (ending with …), for error messages
    that echo user input: a 200 KB table or a 5,001-digit number is shown by its start only.

    >>> clip("x" * 200, 12)
    "'xxxxxxxxxx…"
    >>> clip(10 ** 5000)
    '<integer with 5001 digits>'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        digits = len(str(abs(value))) if value.bit_length() < 14000 else int(value.bit_length() * 0.30103) + 1
        return f"<integer with {digits} digits>"
    try:
        text = value[:limit + 1] if isinstance(value, str) else value
        text = repr(text)
    except Exception:  # a repr that fails (huge numbers inside, deep nesting) is still an error to report
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Transcendental(Exception):
    """A notion's condition needs exp, log or a supremum over a continuum and cannot be stated to
    the solver with the parameters symbolic: the verdict is ``unknown (transcendental: <reason>)``.
    Raised by a notion body in solver mode; numeric tables are decided by certified intervals.

    A notion whose bound needs e^E when E is a solver term: the check says ``unknown``, with the
    reason, instead of a verdict.

    >>> import sympy as sp
    >>> from symbolic.api import E, E_SPEC, Notion, PureDP, Settings, Sizes, check_implies
    >>> def exp_bound(ops, A, P=None, *, E):
    ...     if not isinstance(E, sp.Basic):
    ...         raise Transcendental("the bound needs exp(E)")
    ...     return ops.le(A.p((0,), 0), sp.exp(E) * A.p((1,), 0))
    >>> ExpBound = Notion("ExpBound", (E_SPEC,), exp_bound)
    >>> check_implies(PureDP(E.symbol), ExpBound(E.symbol), sizes=Sizes(1, 2, 2),
    ...               settings=Settings(second_solver=False)).verdict
    Unknown(reason='transcendental: the bound needs exp(E)', sizes_proved=())
    """
