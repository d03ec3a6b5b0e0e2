"""The mutation self-test: does the checker notice when its engine is wrong? ``runner`` seeds one fault at
a time (``python -m theorems.selftest``) and runs the detectors (fast tests, doctests, catalogue claims with
recorded verdicts); ``mutation`` is how a fault is put in (an edit of one function's source, or a wrapper);
``faults/`` holds the faults, one module per engine layer they attack.

Imports the engine and the sources (``theorems``' source modules and registry), never a solver and never
the command line; the command line (:mod:`theorems.cli`) imports it."""
