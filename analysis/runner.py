"""Runs a kernel over N deals in chunks on all cores, with progress, and sums its integer tallies.

A kernel "block" function takes ``(seed, starts, counts, *args)`` and returns one tally row per
chunk ``[starts[c], starts[c] + counts[c])``; numba's ``prange`` spreads the chunks over threads.
Tallies are integers, so the total is bit-identical for any thread count and chunk size. Finished
chunks go to the result store (``analysis/store.py``) and are read back instead of recomputed.
"""
from __future__ import annotations

import sys
from typing import Callable

import numpy as np

from analysis.errors import InputError

DEFAULT_CHUNK = 1 << 14
BATCH_DEALS = 1 << 21
"""Deals per batch handed to the kernel (or to a Dask worker): about a second of work."""

_backend = None


def use_backend(backend) -> None:
    """Run batches on ``backend`` (a ``dask_backend.DaskBackend``), or locally with None."""
    global _backend
    _backend = backend


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all cores); returns the number in use."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
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


def chunk_bounds(start: int, n: int, chunk: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and length of each chunk covering deals start..start+n-1."""
    if chunk < 1:
        raise InputError(f"chunk size must be at least 1, not {chunk}")
    starts = np.arange(start, start + n, chunk, dtype=np.int64)
    counts = np.minimum(chunk, start + n - starts).astype(np.int64)
    return starts, counts


MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> None:
    """Seeds are integers in 0 .. 2**63 - 1."""
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"the seed must be an integer from 0 to 2**63-1, not {seed}")


def show_progress(quiet: bool) -> bool:
    """Progress bars are shown unless quiet or the output is not a terminal."""
    return not quiet and sys.stderr.isatty()


def run_tallies(
    block: Callable,
    args: tuple,
    n: int,
    seed: int,
    *,
    start: int = 0,
    chunk: int = DEFAULT_CHUNK,
    threads: int | None = None,
    quiet: bool = True,
    desc: str = "deals",
) -> np.ndarray:
    """Sum of the tally rows of ``block`` over deals start..start+n-1 (int64 array)."""
    if n < 1:
        raise InputError(f"the number of deals must be positive, not {n}")
    check_seed(seed)
    set_threads(threads)
    starts, counts = chunk_bounds(start, n, chunk)
    # Chunks already in the result store (analysis/store.py) are read, not computed; finished
    # batches are written to it, so an interrupted run resumes with identical numbers.
    from analysis import store

    stored = store.open_run(block, args, seed, chunk)
    have = stored.load() if stored is not None else {}
    done = np.array([(int(s), int(c)) in have for s, c in zip(starts, counts, strict=True)], dtype=bool)
    total = np.zeros(0, dtype=np.int64)
    for i in np.flatnonzero(done):
        row = have[(int(starts[i]), int(counts[i]))]
        total = row.copy() if total.size == 0 else total + row
    todo_starts, todo_counts = starts[~done], counts[~done]
    # Hand the chunks to the kernel in batches so the progress bar moves and the store fills; a
    # batch is many chunks so every thread stays busy.
    batch = max(1, BATCH_DEALS // chunk)
    batches = [(todo_starts[b:b + batch], todo_counts[b:b + batch]) for b in range(0, len(todo_starts), batch)]
    if _backend is not None:
        finished = _backend.map_batches(block, seed, batches, args)
    else:
        finished = ((s, c, block(seed, s, c, *args)) for s, c in batches)
    from tqdm.auto import tqdm

    with tqdm(total=n, initial=int(counts[done].sum()), desc=desc, unit=" deals",
              disable=not show_progress(quiet), leave=False) as bar:
        for s, c, rows in finished:
            if stored is not None:
                stored.save(s, c, rows)
            part = rows.sum(axis=0)
            total = part if total.size == 0 else total + part
            bar.update(int(c.sum()))
    return total
