"""How Écarté's fitted models were found (never imported by the product): the learned leads, the reading leads and their ratios."""
