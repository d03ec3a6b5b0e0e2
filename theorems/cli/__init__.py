"""The `dpcheck` command line, the top floor: it may import everything below (the engine through its
public API :mod:`symbolic`, the sources' registry, the self-test); nothing imports it.

``main`` is the entry point and its exit codes; ``app`` the frame (click group, the ``@command``
decorator, global options, usage errors); ``console`` what a terminal shows (rich tables, progress);
``io`` one-line messages, the user's files and the JSON document; ``options`` the value types of options;
``lookup`` finding claims and notions by name and what several commands share; ``recheck`` the saved
counterexample files; ``audit_workers`` the audit's worker processes and tables. ``commands/`` holds one
module per command."""
