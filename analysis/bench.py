"""Throughput of the kernels against their reference implementations, measured in the same run."""
from __future__ import annotations

import statistics
import time

import numpy as np


def _median_rate(fn, n: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates)


def bench_ecarte(deals: int = 4_000_000, reference_deals: int = 3_000, repeats: int = 5) -> dict:
    """Full Écarté hands (heuristic policies, seed-de) per second: kernel at 1 and 2 threads, reference."""
    import numba

    from analysis.ecarte import kernel as K
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference import play_hand
    from analysis.ecarte.rules import get_rules
    from analysis.runner import chunk_bounds, set_threads

    rules = get_rules()
    pol = HeuristicPolicy()
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    starts, counts = chunk_bounds(0, deals, 1 << 14)
    K.hands_block(1, starts[:2], np.minimum(counts[:2], 64), *args)  # compile (or load from cache)

    def reference():
        for i in range(reference_deals):
            play_hand(1, i, rules, pol)

    ref_rate = _median_rate(reference, reference_deals, repeats)
    results = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        rate = _median_rate(lambda: K.hands_block(1, starts, counts, *args), deals, repeats)
        results.append({
            "game": "ecarte", "threads": threads, "deals_per_s": rate, "reference_deals_per_s": ref_rate,
            "speedup_vs_reference": rate / threads / ref_rate,
        })
    set_threads(None)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median", "policies": "heuristic", "rules": rules.name}
