"""Differential test: the numba Bezique kernel and the plain-Python reference play the same seeded
deals (and games) and must agree on every outcome, deal by deal (docs/bezique-engine.md).

The reference's outcomes are golden vectors (tests/vectors/bezique.json, tests/reference_pool.py):
the kernel plays every deal of every case and its rows' digests must equal the reference's, block
by block; each run also replays a random sample of blocks through the live reference.

SALON_DIFF_BEZIQUE: deals per (variant, policy) pair (heuristic, random, mixed); the default 17,000
compares 51,000 deals per variant, against the vectors. Any other count is compared live with
the reference (about 170 heuristic to 480 random deals/s per core).
"""
import numpy as np
import pytest

from analysis.bezique.engine.layout import (
    G_DEALS,
    G_DEALS_SQ,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_IN_STOCK,
    G_UNDECIDED,
    O_BRISQUE,
    O_ELDER_STOCK,
    O_EXCHANGE,
    O_LAST,
    O_MELD,
    O_MELD_AT,
    O_PLAYED,
    O_SEVEN,
    O_TOTAL,
    O_TRICKS,
    O_TRICKS_PLAYED,
    O_TURN_UP,
    T_BRISQUE,
    T_DEALER,
    T_DEALER_SQ,
    T_DEALS,
    T_ELDER,
    T_ELDER_SQ,
    T_ELDER_STOCK_TRICKS,
    T_ELDER_TRICKS,
    T_EXCHANGES,
    T_LAST,
    T_MELD_COUNT,
    T_MELD_POINTS,
    T_NET,
    T_NET_SQ,
    T_SEVEN,
    T_TURN_UP_SEVEN,
)
from analysis.bezique.play.deal import deal_outcomes
from analysis.bezique.play.game import game_results, games_block
from analysis.bezique.play.tallies import deals_block
from analysis.bezique.reference.melds import KINDS
from analysis.bezique.rules import get_rules

import reference_pool as RP

H = RP.policy("bezique", "heuristic")
R = RP.policy("bezique", "random")
VARIANTS = ("seed-de", "classic")


def _check(group, request):
    pool = request.getfixturevalue("reference_pool") if RP.count_overridden("bezique") else None
    checked = RP.cases("bezique", group)
    assert checked
    for case in checked:
        RP.check_case(case, pool)


def test_golden_vectors_are_fresh():
    message = RP.stale_message("bezique")
    assert message is None, message


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", ("heuristic", "random", "mixed"))
def test_kernel_matches_reference_deal_by_deal(variant, policy, request):
    _check(f"deals/{variant}/{policy}", request)


@pytest.mark.parametrize("switches", range(len(RP.BEZIQUE_SWITCHES)),
                         ids=[f"{v}-{'-'.join(s)}" for v, s in RP.BEZIQUE_SWITCHES])
def test_kernel_matches_reference_with_switches_and_tuned_heuristics(switches, request):
    """Four policy pairings (tuned, random, cautious) of 250 deals, and 15 games, per set of switches."""
    _check(f"switches/{switches}", request)


@pytest.mark.parametrize("variant", VARIANTS)
def test_games_match(variant, request):
    _check(f"games/{variant}", request)


def test_live_reference_sample():
    """A few blocks, chosen per run, replayed through the live reference: their digests must be the
    recorded ones (a stale vector is caught) and the kernel must agree with them."""
    seed = RP.run_seed()
    sample = RP.live_sample("bezique", seed)
    print(f"live sample (seed {seed}):", [f"{c.id} block {b}" for c, b in sample])
    for case, b in sample:
        RP.check_live_block(case, b, seed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_invariants(variant):
    rules = get_rules(variant)
    n = 20000
    for elder, dealer in ((H, H), (R, R), (R, H)):
        out = deal_outcomes(11, 0, n, rules.to_array(), elder.to_array(), dealer.to_array())
        assert (out[:, O_TRICKS_PLAYED] == 32).all()
        assert (out[:, O_TRICKS] + out[:, O_TRICKS + 1] == 32).all()
        assert (out[:, O_BRISQUE] + out[:, O_BRISQUE + 1] == 160).all()
        assert (out[:, O_LAST] + out[:, O_LAST + 1] == rules.last_trick).all()
        sevens = out[:, O_SEVEN] + out[:, O_SEVEN + 1]
        assert np.isin(sevens, (0, 10, 20)).all()
        turned = (out[:, O_TURN_UP] & 7) == 0
        assert (out[turned, O_SEVEN + 1] >= 10).all()
        assert (out[turned, O_EXCHANGE] == 0).all()
        assert abs(turned.mean() - 1 / 8) < 0.01
        played = out[:, O_PLAYED:O_PLAYED + 64]
        assert (np.sort(played, axis=1) == np.arange(64)).all()
        parts = out[:, 2:26].sum(axis=1)
        assert (parts == out[:, O_TOTAL] + out[:, O_TOTAL + 1]).all()
        melds = out[:, O_MELD_AT:O_MELD_AT + 24]
        assert ((melds >= -1) & (melds < len(KINDS))).all()
        laid = np.array([(melds == k).sum(axis=1) for k in range(len(KINDS))]).T
        pts = out[:, O_MELD:O_MELD + 18].reshape(n, len(KINDS), 2).sum(axis=2)
        values = np.array([rules.meld_value(k) for k in KINDS])
        assert (pts == laid * values).all()
        assert (out[:, O_ELDER_STOCK] <= out[:, O_TRICKS]).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_tallies_sum_the_outcome_vectors(variant):
    """deals_block's tallies equal the ones computed from the per-deal outcome vectors."""
    rules = get_rules(variant)
    n = 4000
    for elder, dealer in ((H, H), (H, R)):
        args = (rules.to_array(), elder.to_array(), dealer.to_array())
        out = deal_outcomes(1, 0, n, *args)
        starts = np.array([0, 1000, 2500, 3999], dtype=np.int64)
        counts = np.array([1000, 1500, 1499, 1], dtype=np.int64)
        t = deals_block(1, starts, counts, *args).sum(axis=0)
        e, d = out[:, O_TOTAL], out[:, O_TOTAL + 1]
        assert t[T_DEALS] == n
        assert t[T_ELDER] == e.sum() and t[T_ELDER_SQ] == (e * e).sum()
        assert t[T_DEALER] == d.sum() and t[T_DEALER_SQ] == (d * d).sum()
        assert t[T_NET] == (e - d).sum() and t[T_NET_SQ] == ((e - d) ** 2).sum()
        for s in range(2):
            assert t[T_BRISQUE + s] == out[:, O_BRISQUE + s].sum()
            assert t[T_LAST + s] == out[:, O_LAST + s].sum()
            assert t[T_SEVEN + s] == out[:, O_SEVEN + s].sum()
        assert t[T_TURN_UP_SEVEN] == ((out[:, O_TURN_UP] & 7) == 0).sum()
        assert t[T_EXCHANGES] == (out[:, O_EXCHANGE] > 0).sum()
        assert t[T_ELDER_TRICKS] == out[:, O_TRICKS].sum()
        assert t[T_ELDER_STOCK_TRICKS] == out[:, O_ELDER_STOCK].sum()
        points = out[:, O_MELD:O_MELD + 18].sum(axis=0)
        assert np.array_equal(t[T_MELD_POINTS:T_MELD_POINTS + 18], points)
        values = np.repeat([rules.meld_value(k) for k in KINDS], 2)
        assert np.array_equal(t[T_MELD_COUNT:T_MELD_COUNT + 18] * values, points)
        laid = out[:, O_MELD_AT:O_MELD_AT + 24]
        for k in range(len(KINDS)):
            assert t[T_MELD_COUNT + 2 * k] + t[T_MELD_COUNT + 2 * k + 1] == (laid == k).sum()


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_tallies_sum_the_game_results(variant):
    rules = get_rules(variant)
    n = 600
    args = (rules.to_array(), H.to_array(), R.to_array())
    res = game_results(2, 0, n, *args)
    t = games_block(2, np.array([0, 250], dtype=np.int64), np.array([250, 350], dtype=np.int64),
                      *args).sum(axis=0)
    assert t[G_GAMES] == n
    assert t[G_DEALS] == res[:, 2].sum() and t[G_DEALS_SQ] == (res[:, 2] ** 2).sum()
    assert t[G_FIRST_DEALER_WINS] == (res[:, 3] == 1).sum()
    assert t[G_UNDECIDED] == (res[:, 3] == -1).sum()
    assert t[G_IN_STOCK] == res[:, 4].sum()
    assert (np.maximum(res[:, 0], res[:, 1]) >= rules.target).all()
    won = res[res[:, 3] >= 0]
    assert (won[np.arange(len(won)), won[:, 3]] >= rules.target).all()
