"""Piquet's players in numba: the heuristic (keep values, leads and follows), the double-dummy solver, the search and dd players, the learned exchange."""
