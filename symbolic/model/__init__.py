"""Mechanisms, populations and causal models, and the constructions on them."""
