"""Écarté in plain Python, the test oracle: the cards, the hand, the policies, the learned and reading leads, the records."""
