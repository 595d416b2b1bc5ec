"""Runs a kernel over N deals in chunks on all cores, with progress, and sums its integer tallies.

A kernel "block" function takes ``(seed, starts, counts, *args)`` and returns one tally row per
chunk ``[starts[c], starts[c] + counts[c])``; it runs the chunks on all threads (``blocks.chunk_rows``).
Tallies are integers, so the total is bit-identical for any thread count and chunk size. Finished
chunks go to the result store (``analysis/store.py``) and are read back instead of recomputed.
"""
from __future__ import annotations

import os
import sys
from typing import Callable

import numpy as np

from analysis.blocks import kernel_threads
from analysis.errors import InputError

DEFAULT_CHUNK = 1 << 14
BATCH_DEALS = 1 << 21
"""Deals per batch handed to the kernel (or to a Dask worker): about a second of work."""

_backend = None


def use_backend(backend) -> None:
    """Run batches on ``backend`` (a ``dask_backend.DaskBackend``), or locally with None."""
    global _backend
    _backend = backend


def backend():
    """The backend batches run on (``use_backend``), or None when they run in this process."""
    return _backend


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


def needs_compiling(block) -> bool:
    """Whether the numba block is neither compiled in this process nor in numba's cache on disk."""
    block = getattr(block, "kernel", block)  # a block running its chunks on threads (blocks.runs)
    if getattr(block, "signatures", None):
        return False
    cache = getattr(block, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is None or not os.path.exists(index)


def note_compilation(block) -> None:
    """One line on stderr before a kernel's first compilation (instead of a bar frozen at 0%)."""
    if not needs_compiling(block):
        return
    from analysis.blocks import block_name
    from analysis.games import GAMES

    parts = block_name(block).split(".")
    title = GAMES[parts[1]].title if len(parts) > 2 and parts[1] in GAMES else ""
    print(f"compiling the {title + ' ' if title else ''}kernel {parts[-1]} (first run only, about a minute)",
          file=sys.stderr, flush=True)


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
    return run_ranges(block, args, [(start, n)], seed, chunk=chunk, threads=threads, quiet=quiet, desc=desc)[0]


def run_ranges(
    block: Callable,
    args: tuple,
    ranges: list[tuple[int, int]],
    seed: int,
    *,
    chunk: int = DEFAULT_CHUNK,
    threads: int | None = None,
    quiet: bool = True,
    desc: str = "deals",
) -> np.ndarray:
    """Per range (start, n): the sum of the tally rows of ``block`` over deals start..start+n-1.

    One run of the store covers all the ranges (studies use a range per item, e.g. per hand class
    with stream indices ``class << 32 | i``); the chunks of every range share the batches."""
    check_seed(seed)
    with kernel_threads(threads):
        return _run_ranges(block, args, ranges, seed, chunk, quiet, desc)


def _run_ranges(block, args, ranges, seed, chunk, quiet, desc) -> np.ndarray:
    bounds = [chunk_bounds(s, n, chunk) for s, n in ranges]
    starts = np.concatenate([b[0] for b in bounds])
    counts = np.concatenate([b[1] for b in bounds])
    owner = np.repeat(np.arange(len(ranges)), [len(b[0]) for b in bounds])
    where = {(int(s), int(c)): int(i) for i, (s, c) in enumerate(zip(starts, counts, strict=True))}
    # Chunks already in the result store (analysis/store.py) are read, not computed; finished
    # batches are written to it, so an interrupted run resumes with identical numbers.
    from analysis import store

    stored = store.open_run(block, args, seed, chunk)
    have = stored.load() if stored is not None else {}
    done = np.array([(int(s), int(c)) in have for s, c in zip(starts, counts, strict=True)], dtype=bool)
    totals: np.ndarray | None = None

    def add(rows: np.ndarray, idx: np.ndarray) -> None:
        nonlocal totals
        if totals is None:
            totals = np.zeros((len(ranges), *rows.shape[1:]), dtype=np.int64)
        np.add.at(totals, owner[idx], rows)

    if done.any():
        idx = np.flatnonzero(done)
        add(np.stack([have[(int(starts[i]), int(counts[i]))] for i in idx]), idx)
    todo = np.flatnonzero(~done)
    # Hand the chunks to the kernel in batches so the progress bar moves and the store fills; a
    # batch is many chunks so every thread stays busy.
    batch = max(1, BATCH_DEALS // chunk)
    batches = [(starts[todo[b:b + batch]], counts[todo[b:b + batch]]) for b in range(0, len(todo), batch)]
    if _backend is not None:
        finished = _backend.map_batches(block, seed, batches, args)
    else:
        finished = ((s, c, block(seed, s, c, *args)) for s, c in batches)
    from tqdm.auto import tqdm

    if len(todo) and _backend is None and show_progress(quiet):
        note_compilation(block)
    with tqdm(total=int(counts.sum()), initial=int(counts[done].sum()), desc=desc, unit=" deals",
              unit_scale=True, disable=not show_progress(quiet), leave=False) as bar:
        for s, c, rows in finished:
            if stored is not None:
                stored.save(s, c, rows)
            add(rows, np.array([where[(int(a), int(b))] for a, b in zip(s, c, strict=True)]))
            bar.update(int(c.sum()))
    return totals
