"""Same seed, same numbers: whatever the thread count and chunk size (DESIGN.md principle 2)."""
import numba
import numpy as np
import pytest

from analysis.ecarte.engine.layout import T_HANDS
from analysis.ecarte.play.tallies import hand_tallies, hands_block
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies.simulate import propose_hand, simulate_games
from analysis.rng import EMPTY_HALF, Stream, below, below32, stream_start
from analysis.runner import run_tallies

N = 300_000


@pytest.mark.parametrize("policy", [HeuristicPolicy(), RandomPolicy()])
def test_threads_and_chunks_give_identical_tallies(policy):
    args = (get_rules("classic").to_array(), policy.to_array(), policy.to_array())
    results = []
    threads = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    for t in threads:
        for chunk in (1000, 1 << 14, 77_777):
            results.append(run_tallies(hands_block, args, N, seed=99, threads=t, chunk=chunk))
    for r in results[1:]:
        assert np.array_equal(r, results[0])
    assert hand_tallies(results[0])[T_HANDS] == N


def test_a_split_run_adds_up_to_the_whole():
    """Deals a..b plus b..c equal a..c: what resume and distributed runs rely on."""
    p = HeuristicPolicy().to_array()
    args = (get_rules().to_array(), p, p)
    whole = run_tallies(hands_block, args, 50_000, seed=3)
    parts = run_tallies(hands_block, args, 20_000, seed=3) + run_tallies(hands_block, args, 30_000, seed=3,
                                                                            start=20_000)
    assert np.array_equal(whole, parts)


def test_different_seeds_differ():
    p = HeuristicPolicy().to_array()
    args = (get_rules().to_array(), p, p)
    assert not np.array_equal(run_tallies(hands_block, args, 20_000, seed=1),
                              run_tallies(hands_block, args, 20_000, seed=2))


def test_studies_are_reproducible():
    a = propose_hand("KS QS 7H 8D 9C", "10S", samples=20_000, seed=5, threads=1)
    b = propose_hand("KS QS 7H 8D 9C", "10S", samples=20_000, seed=5, threads=2)
    assert a == b
    assert simulate_games(3000, 4, threads=1) == simulate_games(3000, 4, threads=2)


def test_numba_and_python_streams_agree():
    from numba import njit

    @njit
    def draws(seed, index, lane, n):
        st = stream_start(np.uint64(seed), np.uint64(index), np.uint64(lane))
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            st, out[i] = below(st, 32 - (i % 31))
        return out

    for seed, index, lane in [(0, 0, 0), (1, 2, 3), (2**62 + 12345, 2**40, 255), (12345, 999_999, 1)]:
        s = Stream(seed, index, lane)
        want = [s.below(32 - (i % 31)) for i in range(200)]
        assert draws(seed, index, lane, 200).tolist() == want


def test_numba_and_python_half_streams_agree():
    """below32 (the cards stream: two draws per 64-bit output) is the same in numba and Python."""
    from numba import njit

    @njit
    def draws(seed, index, n):
        st = stream_start(np.uint64(seed), np.uint64(index), np.uint64(0))
        half = EMPTY_HALF
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            st, half, out[i] = below32(st, half, 32 - (i % 31))
        return out

    for seed, index in [(0, 0), (7, 123), (2**62, 2**40)]:
        s = Stream(seed, index, 0)
        assert draws(seed, index, 201).tolist() == [s.below32(32 - (i % 31)) for i in range(201)]


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_piquet_threads_and_chunks_give_identical_tallies(policy):
    from analysis.piquet.play.tallies import deals_block
    from analysis.piquet.policies import get_policy
    from analysis.piquet.rules import get_rules as piquet_rules

    p = get_policy(policy).to_array()
    args = (piquet_rules("seed-no").to_array(), p, p)
    threads = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    results = [run_tallies(deals_block, args, 60_000, seed=8, threads=t, chunk=chunk)
               for t in threads for chunk in (999, 1 << 13)]
    for r in results[1:]:
        assert np.array_equal(r, results[0])
    parts = (run_tallies(deals_block, args, 25_000, seed=8)
             + run_tallies(deals_block, args, 35_000, seed=8, start=25_000))
    assert np.array_equal(parts, results[0])


def test_piquet_parties_are_reproducible():
    from analysis.piquet.studies.simulate import simulate_parties

    assert simulate_parties(1500, 4, threads=1) == simulate_parties(1500, 4, threads=2)
