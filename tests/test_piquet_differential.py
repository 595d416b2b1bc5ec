"""Differential test: the numba kernel and the plain-Python reference play the same seeded Piquet
deals (and parties) and must agree on every outcome, deal by deal (DESIGN.md principle 4)."""
import os

import numpy as np
import pytest

from analysis.piquet import kernel as K
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.reference import play_deal, play_partie
from analysis.piquet.rules import get_rules

from reference_pool import first_difference, reference_outcomes, reference_rows

# >= 100,000 deals per variant, split between the policies (SALON_DIFF_DEALS is per variant).
DEALS = int(os.environ.get("SALON_DIFF_DEALS", "100000"))
POLICIES = {
    "random": RandomPolicy(),
    "heuristic": HeuristicPolicy(),
    "heuristic-tuned": HeuristicPolicy(len_weight=2, point_bonus=3, sequence_bonus=10, set_bonus=4, ace_bonus=0,
                                       guard_bonus=9, elder_keep=9, younger_keep=14, track_cards=False),
}
VARIANTS = ("seed-de", "seed-no", "cavendish")


def _compare(rules, elder, younger, n, seed, start=0, pool=None):
    got = K.deal_outcomes(seed, start, n, rules.to_array(), elder.to_array(), younger.to_array())
    if pool is None:
        want = reference_outcomes(play_deal, rules, elder, younger, seed, start, n)
    else:
        want = reference_rows(pool, play_deal, rules, elder, younger, seed, start, n)
    message = first_difference(got, want, start, f"seed {seed}, {rules.name}, {elder.kind}/{younger.kind}")
    assert message is None, message


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_reference_deal_by_deal(variant, reference_pool):
    rules = get_rules(variant)
    third = DEALS // 3
    pool = reference_pool
    _compare(rules, POLICIES["heuristic"], POLICIES["heuristic"], DEALS - 2 * third, seed=20261129, pool=pool)
    _compare(rules, POLICIES["random"], POLICIES["random"], third, seed=20261130, pool=pool)
    _compare(rules, POLICIES["heuristic-tuned"], POLICIES["random"], third // 2, seed=3, pool=pool)
    _compare(rules, POLICIES["random"], POLICIES["heuristic-tuned"], third - third // 2, seed=4, pool=pool)


def test_kernel_matches_reference_with_switches():
    rules = get_rules("seed-de", ["younger_min=1", "younger_takes_leftovers=true", "repique=45", "pique=25",
                                  "last_trick=2", "cards_bonus=15", "capot=50", "carte_blanche=20"])
    _compare(rules, POLICIES["heuristic"], POLICIES["random"], 5000, seed=9)
    _compare(rules, POLICIES["random"], POLICIES["heuristic"], 5000, seed=10)


@pytest.mark.parametrize("variant", VARIANTS)
def test_parties_match(variant):
    rules = get_rules(variant)
    n = 300
    for a, b in ((POLICIES["heuristic"], POLICIES["heuristic"]), (POLICIES["random"], POLICIES["heuristic"])):
        got = K.partie_results(5, 0, n, rules.to_array(), a.to_array(), b.to_array())
        for g in range(n):
            want = play_partie(5, g, rules, a, b).outcome_vector()
            assert got[g].tolist() == list(want), f"partie {g} ({variant}): kernel {got[g].tolist()} != {want}"


def test_tallies_sum_the_outcome_vectors():
    """deals_block's tallies equal the ones computed from the per-deal outcome vectors."""
    rules = get_rules("seed-no")
    pol = HeuristicPolicy()
    n = 3000
    out = K.deal_outcomes(1, 0, n, rules.to_array(), pol.to_array(), pol.to_array())
    starts = np.array([0, 1000, 2500], dtype=np.int64)
    counts = np.array([1000, 1500, 500], dtype=np.int64)
    t = K.deals_block(1, starts, counts, rules.to_array(), pol.to_array(), pol.to_array()).sum(axis=0)
    e, y = out[:, K.O_TOTAL], out[:, K.O_TOTAL + 1]
    assert t[K.T_DEALS] == n
    assert t[K.T_ELDER_SCORE] == e.sum() and t[K.T_YOUNGER_SCORE_SQ] == (y * y).sum()
    assert t[K.T_NET_SQ] == ((e - y) ** 2).sum()
    assert t[K.T_CAPOT_ELDER] == (out[:, K.O_ELDER_TRICKS] == 12).sum()
    assert t[K.T_PIQUE] == (out[:, K.O_PIQUE] > 0).sum()
    assert t[K.T_REPIQUE_YOUNGER] == (out[:, K.O_REPIQUE + 1] > 0).sum()
    assert np.array_equal(t[K.T_BINS:K.T_BINS + K.N_BINS], np.bincount(np.minimum(e // 10, 15), minlength=16))
    decl = out[:, [2, 4, 6, 8, 10]].sum(axis=1) - out[:, [3, 5, 7, 9, 11]].sum(axis=1)
    assert t[K.T_DECL_NET] == decl.sum()
    assert t[K.T_PLAY_NET] == ((e - y) - decl).sum()


def test_paired_block_sums_the_per_deal_differences():
    """paired_block's sums equal the ones from two deal_outcomes runs on the same deals, for any
    chunking (paired_policies goes through the runner)."""
    rules = get_rules("cavendish")
    a, b, y = POLICIES["heuristic"], POLICIES["heuristic-tuned"], POLICIES["random"]
    n = 3000
    oa = K.deal_outcomes(8, 0, n, rules.to_array(), a.to_array(), y.to_array())
    ob = K.deal_outcomes(8, 0, n, rules.to_array(), b.to_array(), y.to_array())
    d = (oa[:, K.O_TOTAL] - oa[:, K.O_TOTAL + 1]) - (ob[:, K.O_TOTAL] - ob[:, K.O_TOTAL + 1])
    args = (rules.to_array(), a.to_array(), b.to_array(), y.to_array())
    for starts, counts in (([0], [n]), ([0, 1000, 1001], [1000, 1, 1999])):
        t = K.paired_block(8, np.array(starts, dtype=np.int64), np.array(counts, dtype=np.int64), *args).sum(axis=0)
        assert t.tolist() == [n, int(d.sum()), int((d * d).sum())]
    from analysis.piquet.studies import paired_policies
    from analysis.stats import paired_difference

    assert paired_policies(n, 8, rules, a, b, y) == paired_difference(int(d.sum()), int((d * d).sum()), n)
