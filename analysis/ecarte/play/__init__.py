"""Écarté played in numba: one hand, the games, the tallies, the paired comparison, the compare kernel."""
