"""The kernel's bit-trick decision functions against the reference's readable ones, position by
position: heuristic lead and follow, the weakest-first order, legal follows and who wins a trick.

The hand-by-hand differential test covers them only on the positions the heuristic reaches; here
every function meets random hands of one to five cards under every trump suit and every lead.
"""
import numpy as np
import pytest

from analysis.ecarte import kernel as K
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.reference import Decisions, follower_wins, legal_follows, weakest_first
from analysis.ecarte.rules import get_rules

HANDS = 1500


def _random_hands(n, seed):
    """n hands of 1..5 distinct cards (masks), sizes equally often."""
    rng = np.random.default_rng(seed)
    hands = []
    for i in range(n):
        cards = rng.choice(32, size=1 + i % 5, replace=False)
        hands.append(int(sum(1 << int(c) for c in cards)))
    return hands


@pytest.mark.parametrize("lead_trumps", [True, False])
def test_lead_matches_reference(lead_trumps):
    policy = HeuristicPolicy(lead_trumps=lead_trumps)
    for hand in _random_hands(HANDS, 1):
        for t in range(4):
            want = Decisions(policy, None, t).lead(hand)
            assert K.heuristic_lead(hand, t, int(lead_trumps)) == want, (hex(hand), t)


@pytest.mark.parametrize("variant", ["seed-de", "classic-no-trump-obligation"])
def test_follow_matches_reference(variant):
    rules = get_rules("classic", ["must_trump_when_void=false"]) if variant != "seed-de" else get_rules()
    must = int(rules.must_trump_when_void)
    policy = HeuristicPolicy()
    rng = np.random.default_rng(2)
    for hand in _random_hands(HANDS, 3):
        t = int(rng.integers(4))
        outside = [c for c in range(32) if not hand >> c & 1]
        for led in rng.choice(outside, size=4, replace=False):
            led = int(led)
            legal = legal_follows(hand, led, t, rules)
            assert K.legal_follows(hand, led, t, must) == legal, (hex(hand), led, t)
            want = Decisions(policy, None, t).follow(legal, led)
            assert K.heuristic_follow(legal, led, t) == want, (hex(hand), led, t)


def test_weakest_matches_reference():
    for hand in _random_hands(HANDS, 4):
        for t in range(4):
            assert K.weakest(hand, t) == weakest_first(hand, t)[0], (hex(hand), t)


def test_beats_matches_reference_for_every_pair_of_cards():
    for t in range(4):
        for led in range(32):
            for fol in range(32):
                if fol != led:
                    assert bool(K.beats(fol, led, t)) == follower_wins(led, fol, t), (led, fol, t)
