"""Écarté's studies: simulate, the tips, the equilibrium of the first proposal, the strategy tables, the classical rules, by score."""
