"""The reading leads' ratios (fit/reading_ratios.py), their weights (fit/reading_lead.py), where the
kernel reads, and the policy option.

The hand-by-hand comparison of the kernel's reading leads with the plain-Python reference
(reference/reading.py) is in test_ecarte_differential.py ("reading/..." cases); bad ``reads``
values on the command line are in test_cli.py.
"""
import json

import numpy as np
import pytest

from analysis.ecarte.fit import lead as L
from analysis.ecarte.fit import reading_lead as R
from analysis.ecarte.fit.reading_ratios import ratios_from_tables, reading_gain
from analysis.ecarte.players.learned_weights import load_reading_weights
from analysis.ecarte.players.reading import RATIO_UNIT, load_ratios
from analysis.ecarte.players.search_inference import info_set_of
from analysis.ecarte.policies import P_LEAD_WEIGHTS, P_READ_RATIOS, P_READ_WEIGHTS, P_READS, HeuristicPolicy
from analysis.ecarte.studies.equilibrium.measures import info_sets
from analysis.ecarte.studies.strategy.tables import hands
from analysis.errors import InputError


def test_ratios_are_one_when_decisions_say_nothing():
    n = len(info_sets().weight)
    got = ratios_from_tables(np.full(n, 0.3), np.full(n, 0.8))
    assert np.abs(got - 1.0).max() < 1e-12


def test_ratios_match_dealt_hands_sampled_another_way():
    """Exact ratios (every hand and turn-up, trumps as suit 0, vectorised) against dealt hands
    sampled with a random trump suit, their information set found by search_inference.info_set_of
    and their cards counted one by one; per group the weighted mean count must lie within five
    standard errors of ratio * its unconditional mean (a trump of rank g: 7/8 * 5/31, the turn-up
    being another trump 7 times in 8; a plain rank: 15/31)."""
    rng = np.random.default_rng(3)
    sets = info_sets()
    h = hands()
    trumps = h.trumps[sets.cls] / 5  # decisions that depend on the hand's trumps, and noise
    x = np.clip(trumps + 0.3 * rng.random(len(trumps)) - 0.15, 0, 1)
    y = np.clip(1 - trumps + 0.3 * rng.random(len(trumps)) - 0.15, 0, 1)
    exact = ratios_from_tables(x, y)
    class_of_rank = h.class_of_rank
    n = 60_000
    infos = np.empty(n, dtype=np.int64)
    counts = np.zeros((n, 16))
    for i in range(n):
        cards = rng.permutation(32)[:6]
        turnup, hand = int(cards[0]), sum(1 << int(c) for c in cards[1:])
        t = turnup >> 3
        infos[i] = info_set_of(hand, t, turnup & 7, class_of_rank)
        for c in cards[1:].tolist():
            counts[i, (c & 7) + (0 if c >> 3 == t else 8)] += 1
    base = np.array([7 / 8 * 5 / 31] * 8 + [15 / 31] * 8)
    for v, w in enumerate((1 - x[infos], x[infos], y[infos])):
        mean = (w[:, None] * counts).sum(0) / w.sum()
        z = w[:, None] * (counts - mean) / w.mean()
        se = z.std(axis=0, ddof=1) / np.sqrt(n)
        assert (np.abs(mean - exact[v] * base) < 5 * se).all(), (v, mean, exact[v] * base, se)
    assert np.abs(exact[:, :8] - 1).min() > 0.1  # the decisions say something of the trumps held


def test_shipped_ratios_are_in_the_policy_array_and_described():
    for variant in ("classic", "seed-de"):
        p = HeuristicPolicy(leads="learned", reads=variant)
        a = p.to_array()
        r = load_ratios(variant)
        assert a[P_READS] == 1 and np.array_equal(a[P_READ_RATIOS:P_READ_WEIGHTS], r.ravel())
        assert r.min() >= 1 and abs(np.median(r) / RATIO_UNIT - 1) < 0.5
        d = p.describe()
        assert d["reads"] == variant and len(d["read_ratios_sha256"]) == 16
    assert "reads" not in HeuristicPolicy(leads="learned").describe()
    with pytest.raises(InputError, match="reads needs leads=learned"):
        HeuristicPolicy(reads="classic")
    with pytest.raises(InputError, match="reads must be none or one of"):
        HeuristicPolicy(leads="learned", reads="piquet")


def test_reading_changes_only_the_branches_the_spec_reads():
    """reading_gain plays every branch with and without each side reading: an accepted first
    proposal is never read (its change is exactly zero), elder reads only a refusal (his reading
    changes nothing where he played), the dealer only elder's play (nothing changes after he
    refused), the branches' parts add up to the whole, and with flat ratios and the learned
    leads' weights the reading path leads exactly as the learned leads do."""
    got = reading_gain("classic", 20_000, seed=5)
    json.dumps(got)
    dealer, elder = got["readers"]["dealer"], got["readers"]["elder"]
    zero = {"value": 0.0, "ci95": [0.0, 0.0]}
    for side in (dealer, elder):
        parts = side["elder_value_change_by_branch"]
        assert parts["accepted"] == zero
        lo, hi = side["elder_value_change"]["ci95"]
        assert lo <= side["elder_value_change"]["value"] <= hi
        assert abs(sum(b["value"] for b in parts.values()) - side["elder_value_change"]["value"]) < 2e-5
    assert elder["elder_value_change_by_branch"]["played"] == zero
    assert dealer["elder_value_change_by_branch"]["refused"] == zero
    assert dealer["elder_value_change_by_branch"]["played"]["ci95"] != [0.0, 0.0]
    assert elder["elder_value_change_by_branch"]["refused"]["ci95"] != [0.0, 0.0]
    assert got["solution"].endswith("equilibrium_classic_reading.parquet") and "own weights" in got["play_policy"]
    flat = reading_gain("classic", 20_000, seed=5, power=0.0, weights="learned")["readers"]
    for side in flat.values():
        assert side["elder_value_change"] == zero
    with pytest.raises(InputError, match="weights must be"):
        reading_gain("classic", 1_000, weights="uniform")
    with pytest.raises(InputError, match="solution must be"):
        reading_gain("classic", 1_000, solution="best")


def test_reading_weights_are_the_policy_arrays_and_the_fit_features():
    """The kernel's reading lead of each recorded position (fit/lead.learned_choices through the
    policy array) is the card of the best score of the fit's features (fit/reading_lead.
    reading_features_of) under the file's weights of the row read, lowest code on ties; the
    collection is the same for the same seed on one thread and on two (its block has a prange
    body), and its values are NaN exactly off the hand."""
    from analysis.blocks import kernel_threads

    with kernel_threads(2):
        rec, val = R.collect("classic", 1_000, seed=9, samples=6)
    with kernel_threads(1):
        again, val2 = R.collect("classic", 1_000, seed=9, samples=6)
    assert np.array_equal(rec, again) and np.array_equal(val, val2, equal_nan=True)
    held = np.zeros(val.shape, dtype=bool)
    for c in range(32):
        held[:, c] = (rec[:, L.F_HAND] >> c) & 1 == 1
    assert (np.isnan(val) == ~held).all()
    assert set(np.unique(rec[:, R.F_READ])) == {0, 1, 2}
    policy = HeuristicPolicy(leads="learned", reads="classic")
    a = policy.to_array()
    w = load_reading_weights()
    assert np.array_equal(a[P_READ_WEIGHTS:], w.ravel()) and len(policy.describe()["read_weights_sha256"]) == 16
    idx, card, model, f = R.reading_features_of(rec, load_ratios("classic").ravel())
    score = np.einsum("ij,ij->i", f, w[rec[idx, R.F_READ], model].astype(np.float64))
    best = {}
    for i, c, s in zip(idx.tolist(), card.tolist(), score.tolist(), strict=True):
        if i not in best or s > best[i][1]:
            best[i] = (c, s)
    expected = np.array([best[i][0] for i in range(len(rec))])
    got = L.learned_choices(rec, a, P_LEAD_WEIGHTS, P_READ_RATIOS + 16 * rec[:, R.F_READ])
    # The kernel adds a score's terms in five chains (players/learned.lead_score), einsum in its own
    # order: a near-tie may break the other way, but hardly ever.
    assert (got == expected).mean() > 0.999
    plain = L.learned_choices(rec, a, P_LEAD_WEIGHTS, np.full(len(rec), -1))
    assert (got != plain).mean() > 0.05  # the reading weights do lead otherwise
