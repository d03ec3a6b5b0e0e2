"""One claim part at one size as a solver query and back: the encoding of the negated implication over
unknown tables (with the hockey-stick rewrite), the one-query z3 solver (CEGIS for hypotheses over every
population), the exact re-verification of any answer (no solver: exact arithmetic, and the exact decision
over every belief), and the SMT-LIB export. Imports ``solve.backends`` and the layers above ``solve``."""
