"""Kernel blocks by name, numba's thread count, and running a block's chunks on threads: what the
runner, the result store and the Dask backend all need. A leaf module (it imports nothing of
salon's but ``errors``), so the three do not import one another in a cycle: the runner is given its
backend (``runner.use_backend``), the store names blocks from here, and the Dask workers find
blocks and set threads from here."""
from __future__ import annotations

import importlib
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np

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


def runs(kernel):
    """Decorator: the block runs ``kernel`` (what a cold cache compiles first: runner.note_compilation)."""
    def mark(block):
        block.kernel = kernel
        return block
    return mark


def on_threads(task, n: int) -> None:
    """``task(i)`` for i in 0..n-1 on numba's thread count of threads, each thread taking the next i
    when done. ``task`` calls a ``nogil`` kernel (so the threads run at once) that writes only its
    own outputs: the results are the same for any thread count and order.

    Blocks run their chunks this way rather than in a ``prange`` loop: numba compiles a ``prange``
    body as a function of its own and then the block around it, each time optimising and emitting
    machine code for the whole engine linked in, about 7 s more per block with the cache cold and
    no faster once compiled (docs/architecture.md)."""
    import numba

    threads = min(numba.get_num_threads(), n)
    if threads <= 1:
        for i in range(n):
            task(i)
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="salon-kernel") as pool:
        for _ in pool.map(task, range(n)):
            pass


def chunk_rows(chunk, seed: int, starts: np.ndarray, counts: np.ndarray, *args) -> np.ndarray:
    """The rows ``chunk(useed, starts[c], counts[c], *args)`` of every chunk c, stacked in chunk order
    (``on_threads``): the body of a ``runner.run_tallies`` block."""
    useed = np.uint64(seed)
    rows: list = [None] * len(starts)

    def run(c: int) -> None:
        rows[c] = chunk(useed, starts[c], counts[c], *args)

    on_threads(run, len(starts))
    return np.stack(rows)
