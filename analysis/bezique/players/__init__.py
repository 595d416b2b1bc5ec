"""Bezique's players in numba: the heuristic's meld chance, the end game's exact solver and its players, the search player."""
