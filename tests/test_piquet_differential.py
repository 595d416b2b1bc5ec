"""Differential test: the numba kernel and the plain-Python reference play the same seeded Piquet
deals (and parties) and must agree on every outcome, deal by deal (DESIGN.md principle 4).

The reference's outcomes are golden vectors (tests/vectors/piquet.json, tests/reference_pool.py):
the kernel plays every deal of every case and its rows' digests must equal the reference's, block
by block; each run also replays a random sample of blocks through the live reference.
SALON_DIFF_DEALS (deals per variant, default 100,000) set to another count compares live.
"""
import numpy as np
import pytest

from analysis.piquet.engine.layout import (
    N_BINS,
    O_ELDER_TRICKS,
    O_PIQUE,
    O_REPIQUE,
    O_TOTAL,
    T_BINS,
    T_CAPOT_ELDER,
    T_DEALS,
    T_DECL_NET,
    T_ELDER_SCORE,
    T_NET_SQ,
    T_PIQUE,
    T_PLAY_NET,
    T_REPIQUE_YOUNGER,
    T_YOUNGER_SCORE_SQ,
)
from analysis.piquet.play.deal import deal_outcomes
from analysis.piquet.play.paired import paired_block
from analysis.piquet.play.tallies import deals_block
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules

import reference_pool as RP

POLICIES = {name: RP.policy("piquet", name) for name in ("random", "heuristic", "tuned")}
VARIANTS = ("seed-de", "seed-no", "cavendish")


def _check(group, request):
    pool = request.getfixturevalue("reference_pool") if RP.count_overridden("piquet") else None
    checked = RP.cases("piquet", group)
    assert checked
    for case in checked:
        RP.check_case(case, pool)


def test_golden_vectors_are_fresh():
    message = RP.stale_message("piquet")
    assert message is None, message


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_reference_deal_by_deal(variant, request):
    """>= 100,000 deals per variant: heuristic, random, tuned against random and the other way round."""
    _check(f"deals/{variant}", request)


def test_kernel_matches_reference_with_switches(request):
    _check("switches", request)


@pytest.mark.parametrize("variant", VARIANTS)
def test_parties_match(variant, request):
    _check(f"parties/{variant}", request)


def test_live_reference_sample():
    """A few blocks, chosen per run, replayed through the live reference: their digests must be the
    recorded ones (a stale vector is caught) and the kernel must agree with them."""
    seed = RP.run_seed()
    sample = RP.live_sample("piquet", seed)
    print(f"live sample (seed {seed}):", [f"{c.id} block {b}" for c, b in sample])
    for case, b in sample:
        RP.check_live_block(case, b, seed)


def test_tallies_sum_the_outcome_vectors():
    """deals_block's tallies equal the ones computed from the per-deal outcome vectors."""
    rules = get_rules("seed-no")
    pol = HeuristicPolicy()
    n = 3000
    out = deal_outcomes(1, 0, n, rules.to_array(), pol.to_array(), pol.to_array())
    starts = np.array([0, 1000, 2500], dtype=np.int64)
    counts = np.array([1000, 1500, 500], dtype=np.int64)
    t = deals_block(1, starts, counts, rules.to_array(), pol.to_array(), pol.to_array()).sum(axis=0)
    e, y = out[:, O_TOTAL], out[:, O_TOTAL + 1]
    assert t[T_DEALS] == n
    assert t[T_ELDER_SCORE] == e.sum() and t[T_YOUNGER_SCORE_SQ] == (y * y).sum()
    assert t[T_NET_SQ] == ((e - y) ** 2).sum()
    assert t[T_CAPOT_ELDER] == (out[:, O_ELDER_TRICKS] == 12).sum()
    assert t[T_PIQUE] == (out[:, O_PIQUE] > 0).sum()
    assert t[T_REPIQUE_YOUNGER] == (out[:, O_REPIQUE + 1] > 0).sum()
    assert np.array_equal(t[T_BINS:T_BINS + N_BINS], np.bincount(np.minimum(e // 10, 15), minlength=16))
    decl = out[:, [2, 4, 6, 8, 10]].sum(axis=1) - out[:, [3, 5, 7, 9, 11]].sum(axis=1)
    assert t[T_DECL_NET] == decl.sum()
    assert t[T_PLAY_NET] == ((e - y) - decl).sum()


def test_paired_block_sums_the_per_deal_differences():
    """paired_block's sums equal the ones from two deal_outcomes runs on the same deals, for any
    chunking (paired_policies goes through the runner)."""
    rules = get_rules("cavendish")
    a, b, y = POLICIES["heuristic"], POLICIES["tuned"], POLICIES["random"]
    n = 3000
    oa = deal_outcomes(8, 0, n, rules.to_array(), a.to_array(), y.to_array())
    ob = deal_outcomes(8, 0, n, rules.to_array(), b.to_array(), y.to_array())
    d = (oa[:, O_TOTAL] - oa[:, O_TOTAL + 1]) - (ob[:, O_TOTAL] - ob[:, O_TOTAL + 1])
    args = (rules.to_array(), a.to_array(), b.to_array(), y.to_array())
    for starts, counts in (([0], [n]), ([0, 1000, 1001], [1000, 1, 1999])):
        t = paired_block(8, np.array(starts, dtype=np.int64), np.array(counts, dtype=np.int64), *args).sum(axis=0)
        assert t.tolist() == [n, int(d.sum()), int((d * d).sum())]
    from analysis.piquet.studies.simulate import paired_policies
    from analysis.stats import paired_difference

    assert paired_policies(n, 8, rules, a, b, y) == paired_difference(int(d.sum()), int((d * d).sum()), n)
