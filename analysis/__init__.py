"""salon: a Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""

import sys

__version__ = "0.1.0"

if "numba" in sys.modules:  # numba is loaded already: make sure the locator is in place
    import analysis.numba_cache  # noqa: F401
