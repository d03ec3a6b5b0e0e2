"""Exact numbers, probability tables, terms, the exact ops, errors and verdict values."""
