"""Where numba keeps salon's compiled kernels, and only salon's.

numba checks a cached function only against its own file's time stamp, but the kernels inline
functions from other files (``bits``, ``rng``, the Écarté engine into the table kernels): after an
edit or a ``git pull`` that leaves a kernel's file alone, numba would load stale machine code. So
salon's kernels are cached in a directory keyed by a hash of every source file that uses numba
(``analysis.numba_cache_dir``). A cache locator for the functions defined in this package does it;
numba's configuration (``NUMBA_CACHE_DIR``, ``numba.config``) is left alone, so other numba code in
the same process caches where it always did. Setting ``NUMBA_CACHE_DIR`` yourself puts salon's
kernels there too (numba's own locator then takes them).

Installed by ``analysis.bits`` and ``analysis.rng``, which every kernel module imports before its
own functions are compiled."""
from __future__ import annotations

import os

from numba.core import caching

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class SalonCacheLocator(caching.UserProvidedCacheLocator):
    """Caches the functions of salon's own source files in the versioned directory."""

    def __init__(self, py_func, py_file):
        from analysis import numba_cache_path

        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(numba_cache_path(), self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        """This locator for a function of salon's sources (None for any other, or when the user
        chose NUMBA_CACHE_DIR, or when the directory cannot be written)."""
        from analysis import numba_cache_path

        if os.environ.get("NUMBA_CACHE_DIR") or not os.path.exists(py_file):
            return None
        if not os.path.abspath(py_file).startswith(_PACKAGE + os.sep) or numba_cache_path() is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def install() -> None:
    """Put the locator first in numba's list (once)."""
    classes = caching.CacheImpl._locator_classes
    if SalonCacheLocator not in classes:
        classes.insert(0, SalonCacheLocator)


install()
