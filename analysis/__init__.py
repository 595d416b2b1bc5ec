"""salon: a Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

__version__ = "0.1.0"

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


def _prune_stale_caches(current: Path) -> None:
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
    for a week are pruned), or None when it cannot be written. Used by analysis.numba_cache's
    locator for the package's own functions only: numba's configuration is not changed."""
    global _cache_path, _cache_path_known
    if not _cache_path_known:
        _cache_path_known = True
        try:
            target = numba_cache_dir(Path(__file__).resolve().parent)
            fresh = not target.exists()
            target.mkdir(parents=True, exist_ok=True)
            os.utime(target)
        except OSError:
            return None  # numba's default locators take the kernels
        if fresh:
            _prune_stale_caches(target)
        _cache_path = target
    return _cache_path


if "numba" in sys.modules:  # numba is loaded already: make sure the locator is in place
    import analysis.numba_cache  # noqa: E402, F401
