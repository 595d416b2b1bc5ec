"""Where numba keeps salon's compiled kernels, and only salon's, under a key that cannot go stale.

numba checks a cached function only against its own file's time stamp, but a kernel also freezes
what it reads from other modules: the functions it inlines (``bits``, ``rng``, a game's engine)
and the module constants it refers to (a rules table, a layout's indices, shipped weights), many
of them in files that never mention numba. So salon's kernels are cached in a directory keyed by
``kernel_key``: the bytes of every module that compiles with numba and of every module of the
package those import or name (their import closure, imports inside functions included), the package's
data files, and the versions of numba, llvmlite, numpy and Python with the machine's
architecture. numba's own index adds the CPU name and features to each entry.

A cache locator for the functions defined in this package does it, whatever ``NUMBA_CACHE_DIR``
says: with it set, salon's kernels go to ``$NUMBA_CACHE_DIR/salon-numba/<key>``, else to
``$XDG_CACHE_HOME/salon-numba/<key>`` (``~/.cache`` by default). numba's configuration is left
alone, so other numba code in the same process caches where it always did.

numba has no public interface for choosing where a function's cache lives: the locator is a
subclass of ``numba.core.caching.UserProvidedCacheLocator`` put first in
``caching.CacheImpl._locator_classes`` (numba internals, checked by tests/test_numba_config.py).

Installed by ``analysis.bits`` and ``analysis.rng``, which every kernel module imports before its
own functions are compiled."""
from __future__ import annotations

import os
import platform
import re
import shutil
import time
from pathlib import Path

from numba.core import caching

from analysis.sources import STUDY_OUTPUTS, data_files, files_digest, import_closure

_PACKAGE = os.path.dirname(os.path.abspath(__file__))

STALE_CACHE_DAYS = 7
"""Compiled-kernel caches of other source versions unused this long are removed."""


_COMPILED = re.compile(rb"^[ \t]*@(?:numba\.)?(?:njit|jit|vectorize|guvectorize|cfunc)\b", re.M)
"""A function compiled by numba: a decorator line."""


def kernel_files(package: Path) -> list[Path]:
    """Every file a kernel can read: the modules that compile functions with numba (a decorator
    ``@njit``, ``@jit``, ...), their import closure inside the package (``sources.import_closure``),
    and the package's data files but the studies' outputs (``sources.STUDY_OUTPUTS``)."""
    kernels = [p for p in package.rglob("*.py") if _COMPILED.search(p.read_bytes())]
    data = {p for p in data_files(package) if p.name not in STUDY_OUTPUTS}
    return sorted(import_closure(package, kernels) | data)


def _versions() -> str:
    """The compiler's and numpy's versions, Python's and the machine's architecture."""
    import llvmlite
    import numba
    import numpy

    return (f"numba {numba.__version__} llvmlite {llvmlite.__version__} numpy {numpy.__version__} "
            f"python {platform.python_version()} {platform.machine()}")


def kernel_key(package: Path) -> str:
    """The cache key of the kernels of this package: a hash of ``kernel_files`` (names and bytes)
    and of ``_versions``."""
    return files_digest(package, kernel_files(package), _versions().encode())


def numba_cache_dir(package: Path) -> Path:
    """Where numba keeps the compiled kernels of this version of the package (``kernel_key``):
    under $NUMBA_CACHE_DIR when it is set, else under $XDG_CACHE_HOME (~/.cache)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    base = Path(chosen) if chosen else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "salon-numba" / kernel_key(package)


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
        """This locator for a function of salon's sources (None for any other, or when the directory
        cannot be written)."""
        if not os.path.exists(py_file):
            return None
        if not os.path.abspath(py_file).startswith(_PACKAGE + os.sep) or numba_cache_path() is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def compiled_kernels() -> int:
    """How many compiled kernels this version's cache holds (0 before the first run)."""
    path = numba_cache_path()
    return sum(1 for _ in path.rglob("*.nbi")) if path is not None else 0


def install() -> None:
    """Put the locator first in numba's list (once)."""
    classes = caching.CacheImpl._locator_classes
    if SalonCacheLocator not in classes:
        classes.insert(0, SalonCacheLocator)


install()
