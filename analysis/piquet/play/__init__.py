"""Piquet played in numba: one deal, the tallies, the paired comparison, the partie, the compare kernel."""
