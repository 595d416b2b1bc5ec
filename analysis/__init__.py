"""salon: a Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""

__version__ = "0.1.0"
