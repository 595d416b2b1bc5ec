"""Écarté's rules in numba: the kernels' array layouts, the cards' masks, the deal, the proposals and exchanges, the tricks."""
