"""Certified accounting of a private training run: the tight ε(δ) of a composition of subsampled mechanisms
enclosed by privacy-loss distributions discretised with rounding in the safe direction on each side."""
