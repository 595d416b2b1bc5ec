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


def _use_versioned_numba_cache() -> None:
    """Point numba's cache at numba_cache_dir unless the user chose one (NUMBA_CACHE_DIR)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        target = numba_cache_dir(Path(__file__).resolve().parent)
        fresh = not target.exists()
        target.mkdir(parents=True, exist_ok=True)
        os.utime(target)
    except OSError:
        return  # no writable cache directory: numba's default (beside the sources) stays
    if fresh:
        _prune_stale_caches(target)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
    if "numba" in sys.modules:  # numba read its configuration already
        sys.modules["numba"].config.CACHE_DIR = str(target)


_use_versioned_numba_cache()
