"""The compare tally row (analysis.compare's layout) filled by every game's compare kernel."""
from __future__ import annotations

from numba import njit

import analysis.numba_cache  # noqa: F401 - salon's kernels cached by source version


@njit(cache=True, inline="always")
def add_compare(row, first, second):
    """Add one deal: A's net points with A in the first seat and in the second."""
    both = first + second
    row[0] += 1
    row[1] += both
    row[2] += both * both
    row[3] += first
    row[4] += first * first
    row[5] += second
    row[6] += second * second
