"""Bezique played in numba: one deal, the trick loop, the games, the tallies, the paired comparison, the compare kernel."""
