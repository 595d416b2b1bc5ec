"""Bezique's rules in numba: the kernels' array layouts, the cards' masks, the melds and the tricks."""
