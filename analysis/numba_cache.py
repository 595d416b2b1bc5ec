"""Where numba keeps salon's compiled kernels, and only salon's.

numba checks a cached function only against its own file's time stamp, but the kernels inline
functions from other files (``bits``, ``rng``, the Écarté engine into the table kernels): after an
edit or a ``git pull`` that leaves a kernel's file alone, numba would load stale machine code. So
salon's kernels are cached in a directory keyed by a hash of every source file that uses numba
(``numba_cache_dir``). A cache locator for the functions defined in this package does it;
numba's configuration (``NUMBA_CACHE_DIR``, ``numba.config``) is left alone, so other numba code in
the same process caches where it always did. Setting ``NUMBA_CACHE_DIR`` yourself puts salon's
kernels there too (numba's own locator then takes them).

Installed by ``analysis.bits`` and ``analysis.rng``, which every kernel module imports before its
own functions are compiled."""
from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

from numba.core import caching

_PACKAGE = os.path.dirname(os.path.abspath(__file__))

STALE_CACHE_DAYS = 7
"""Compiled-kernel caches of other source versions unused this long are removed."""


def numba_cache_dir(package: Path) -> Path:
    """Where numba keeps the compiled kernels of this version of the sources.

    numba checks a cached function only against its own file's time stamp, but the kernels inline
    functions from other files (``bits``, ``rng``, the Écarté engine into the table kernels): after
    an edit or a ``git pull`` that leaves a kernel's file alone, numba would load stale machine
    code. So the cache directory is keyed by a hash of every source file that uses numba."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        data = path.read_bytes()
        if b"numba" in data:
            h.update(str(path.relative_to(package)).encode())
            h.update(data)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "salon-numba"
    return base / h.hexdigest()[:16]


def prune_stale_caches(current: Path) -> None:
    """Remove the caches of other source versions that have not been used for STALE_CACHE_DAYS."""
    cutoff = time.time() - STALE_CACHE_DAYS * 86400
    try:
        for other in current.parent.iterdir():
            if other != current and other.is_dir() and other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        pass


_cache_path: Path | None = None
_cache_path_known = False


def numba_cache_path() -> Path | None:
    """The directory of this version's compiled kernels (created; caches of other versions unused
    for a week are pruned), or None when it cannot be written. Used by the
    locator for the package's own functions only: numba's configuration is not changed."""
    global _cache_path, _cache_path_known
    if not _cache_path_known:
        _cache_path_known = True
        try:
            target = numba_cache_dir(Path(_PACKAGE))
            fresh = not target.exists()
            target.mkdir(parents=True, exist_ok=True)
            os.utime(target)
        except OSError:
            return None  # numba's default locators take the kernels
        if fresh:
            prune_stale_caches(target)
        _cache_path = target
    return _cache_path


class SalonCacheLocator(caching.UserProvidedCacheLocator):
    """Caches the functions of salon's own source files in the versioned directory."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(numba_cache_path(), self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        """This locator for a function of salon's sources (None for any other, or when the user
        chose NUMBA_CACHE_DIR, or when the directory cannot be written)."""
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
