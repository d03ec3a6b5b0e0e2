"""Closed forms: tight ε of a mechanism, suprema, limits."""
