"""How Piquet's fitted models were found (never imported by the product): the learned exchange and its refinement."""
