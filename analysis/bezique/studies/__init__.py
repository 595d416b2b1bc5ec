"""Bezique's studies: simulate, the tips, the players side by side, the period advice, advise, melds and solve."""
