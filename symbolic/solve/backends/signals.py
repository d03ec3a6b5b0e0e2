"""How the solver treats signals, for programs that run checks in worker processes."""
from __future__ import annotations


def solver_ignores_sigint():
    """Stop z3 from catching SIGINT itself: it would answer "unknown" and carry on. Call it in a
    worker process whose parent decides what a Ctrl-C means (and stops the worker).

    >>> solver_ignores_sigint()  # in the worker, before its first check
    """
    import z3
    z3.set_param("ctrl_c", False)
