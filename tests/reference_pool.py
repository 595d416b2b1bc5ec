"""The reference side of the differential tests, shared out to worker processes.

The plain-Python references play a few hundred deals per second; the differential tests play tens
of thousands per variant, so their reference deals go to two spawned processes (the machine's
two cores; spawned, so they inherit no numba threads) in batches.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numpy as np

BATCH = 1000


def open_pool() -> ProcessPoolExecutor:
    """Two spawned worker processes."""
    return ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))


def reference_outcomes(play_deal, rules, a, b, seed: int, start: int, n: int) -> np.ndarray:
    """Outcome vectors (n rows) of ``play_deal(seed, i, rules, a, b)`` for deals start..start+n-1."""
    return np.array([play_deal(seed, i, rules, a, b).outcome_vector() for i in range(start, start + n)],
                    dtype=np.int64)


def reference_rows(pool, play_deal, rules, a, b, seed: int, start: int, n: int) -> np.ndarray:
    """The same rows, computed in batches by the pool's workers (in order)."""
    jobs = [pool.submit(reference_outcomes, play_deal, rules, a, b, seed, s, min(BATCH, start + n - s))
            for s in range(start, start + n, BATCH)]
    return np.concatenate([j.result() for j in jobs])


def first_difference(got: np.ndarray, want: np.ndarray, start: int, what: str) -> str | None:
    """A message naming the first deal whose rows differ and where (None when all agree)."""
    for k in np.flatnonzero((got != want).any(axis=1))[:1]:
        row, ref = got[k].tolist(), want[k].tolist()
        return (f"deal {start + k} ({what}): differs at {[j for j in range(len(row)) if row[j] != ref[j]]}: "
                f"kernel {row} != reference {ref}")
    return None
