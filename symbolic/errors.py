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
