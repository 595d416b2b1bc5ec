"""salon: a Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""

import os
import sys

__version__ = "0.1.0"

# numba runs the parallel kernels on OpenMP threads, which by default spin while they wait for
# work. On a machine with other work (a second kernel, another process, the suite's two workers)
# the spinning threads take the cores the working ones need: two Écarté equilibrium studies at
# once took 56 s spinning and 22 s sleeping, and one alone 24 s and 18 s (docs/usage.md,
# "Threads"). So they sleep, unless you chose otherwise; OpenMP reads this when it starts, at the
# first parallel kernel.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if "numba" in sys.modules:  # numba is loaded already: make sure the locator is in place
    import analysis.numba_cache  # noqa: F401
