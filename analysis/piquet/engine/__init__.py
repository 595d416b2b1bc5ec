"""Piquet's rules in numba: the kernels' array layouts, the cards' masks and the declarations."""
