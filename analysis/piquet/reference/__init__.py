"""Piquet in plain Python, the test oracle: the cards, the deal, the scoring, the policies, the partie, the solver's players, a brute-force solver, the records."""
