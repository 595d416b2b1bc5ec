"""Bezique in plain Python, the test oracle: the cards, the deal and its state, the melds, the policies, the end game's brute force, the records."""
