"""One error root for dpcheck, with specific subclasses.

Every message names the argument, shows the offending value and says how to fix it.
"""


class DPCheckError(Exception):
    """Root of every error dpcheck raises on purpose."""


class FloatNotAllowed(DPCheckError, TypeError):
    """A float reached a place where exact arithmetic is required."""


class InvalidDistribution(DPCheckError, ValueError):
    """Entries that are negative, or rows that do not sum to 1."""


class InvalidParameter(DPCheckError, ValueError):
    """A privacy parameter outside its range (negative ε, δ outside [0, 1], ...)."""


class InvalidSize(DPCheckError, ValueError):
    """Sizes that make no sense (n < 1, an empty domain, ...)."""


class UnknownName(DPCheckError, KeyError):
    """A notion, claim or mechanism name that is not registered."""

    def __str__(self):  # KeyError quotes its argument; we want the plain message
        return str(self.args[0]) if self.args else ""


class ParseError(DPCheckError, ValueError):
    """Text from a file or the command line that is not a number or expression we accept."""


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
    Raised by a notion body in solver mode; numeric tables are decided by certified intervals."""
