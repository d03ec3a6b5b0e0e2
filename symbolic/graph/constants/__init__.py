"""Tight constants between notions: `derive map`'s derivation (estimate, recognise, prove, attain) and
whether the implication graph's proved edges carry them."""
