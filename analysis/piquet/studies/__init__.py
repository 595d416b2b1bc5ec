"""Piquet's studies: simulate, the tips, the discard analyser and study, the players beside Cavendish, declare and solve."""
