"""Écarté's first proposal as a solved game: the branches, the solver, the tables shipped, by score, the checks."""
