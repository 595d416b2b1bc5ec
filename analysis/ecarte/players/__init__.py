"""Écarté's players in numba: the double-dummy solver, the search player and what it reads, the learned and reading leads."""
