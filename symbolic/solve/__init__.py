"""Encoding to z3, search, CEGIS, exact re-verification, minimisation, backends, SMT-LIB."""
