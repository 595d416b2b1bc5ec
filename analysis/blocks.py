"""Kernel blocks by name, and numba's thread count: what the runner, the result store and the Dask
backend all need. A leaf module (it imports nothing of salon's but ``errors``), so the three do not
import one another in a cycle: the runner is given its backend (``runner.use_backend``), the store
names blocks from here, and the Dask workers find blocks and set threads from here."""
from __future__ import annotations

import importlib
from contextlib import contextmanager

from analysis.errors import InputError


def block_name(block) -> str:
    """``module.name`` of a kernel block (a numba dispatcher or a plain function)."""
    fn = getattr(block, "py_func", block)
    return f"{fn.__module__}.{fn.__name__}"


def function_by_name(name: str):
    """The function ``module.name``, imported from the installed package."""
    module, attr = name.rsplit(".", 1)
    return getattr(importlib.import_module(module), attr)


def available_threads() -> int:
    """The most threads numba runs kernels on here (the cores, or $NUMBA_NUM_THREADS)."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all cores); returns the number in use."""
    import numba

    available = available_threads()
    if threads is None:
        threads = available
    if threads < 1:
        raise InputError(f"--threads must be at least 1, not {threads}")
    threads = min(threads, available)
    numba.set_num_threads(threads)
    # Dynamic scheduling: a thread takes the next chunk when it is done, so a core slowed by other
    # work on a shared machine does not leave the other one waiting at the end.
    numba.set_parallel_chunksize(1)
    return threads


@contextmanager
def kernel_threads(threads: int | None):
    """Inside: ``threads`` numba threads and dynamic scheduling (set_threads); afterwards numba's
    thread count and chunk size are what they were (salon changes them only while its kernels run)."""
    import numba

    before = numba.get_num_threads(), numba.get_parallel_chunksize()
    try:
        yield set_threads(threads)
    finally:
        numba.set_num_threads(before[0])
        numba.set_parallel_chunksize(before[1])
